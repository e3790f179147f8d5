"""The cluster report (results/clomp_results/cluster/cluster.py, issue 50) on synthetic
clusters with planted outliers (bench/cluster_synth.py): its verdicts equal
a plain re-implementation of the outlier rule (the oracle below: grouping by
the facts, busy nodes left out, median and MAD with the statistics module,
thresholds as docs/cluster.md states them); the 1,000-node cluster's three
planted outliers are found with their figures, its busy nodes named busy and
its failed nodes failed, and nothing else is flagged more often than the
rule's stated false rate allows; the text, CSV and JSON say the same; node
names from outside stay data; bad summaries are refused with one line;
--write never writes through a link; clomp_mpi's mpi.per_rank is read as
nodes. clomp-stats does the statistics (build/clomp-stats)."""
import collections
import contextlib
import csv
import importlib.util
import io
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import unittest

from render_fixture import TOP

from clomp_results.core import catalogue
from clomp_results.cluster import cluster, cluster_figures

HELPER = os.environ.get("CLOMP_STATS") or os.path.join(TOP, "build", "clomp-stats")
RESULTS = os.path.join(TOP, "results", "clomp-results")
_spec = importlib.util.spec_from_file_location("cluster_synth", os.path.join(TOP, "bench", "cluster_synth.py"))
cluster_synth = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cluster_synth)

Done = collections.namedtuple("Done", "returncode stdout stderr")


def run_report(*args):
    """clomp-results cluster ARGS in this process (its main, as the command line calls it): exit status and output."""
    out, err = io.StringIO(), io.StringIO()
    os.environ["CLOMP_STATS"] = HELPER
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cluster.main(list(args))
    return Done(rc, out.getvalue(), err.getvalue())


def synth(directory, nodes, seed, plant=3, busy=5, failed=2):
    cluster_synth.main(["--out", directory, "--nodes", str(nodes), "--seed", str(seed), "--plant", str(plant),
                        "--busy", str(busy), "--failed", str(failed)])
    with open(os.path.join(directory, "planted.manifest")) as f:
        return json.load(f)


def oracle(summaries):
    """{(node, figure)} standing out, by a plain re-implementation of the rule over node summaries."""
    groups = {}
    for s in summaries:
        facts = tuple(int(round(s["facts"][k])) if k == "memory_gib" else s["facts"][k] for k in cluster_figures.FACTS)
        groups.setdefault(facts, []).append(s)
    flagged = set()
    for members in groups.values():
        healthy = [s for s in members if s["status"] == "complete" and not s["busy"]]
        medians = {}
        for f in cluster_figures.figures():
            values = [s["figures"][f.key]["median"] for s in healthy
                      if s["figures"].get(f.key) and s["figures"][f.key]["median"] is not None]
            if not values:
                continue
            med = statistics.median(values)
            mad = statistics.median(abs(v - med) for v in values)
            medians[f.key] = med
            share, of = f.floor
            floor = share * abs(medians[of]) if of in medians else -1.0
            if len(values) < 3:
                continue
            for s in healthy:
                fig = s["figures"].get(f.key)
                if not fig or fig["median"] is None:
                    continue
                half = (fig["ci_high"] - fig["ci_low"]) / 2 if fig.get("ci_low") is not None else -1.0
                if abs(fig["median"] - med) > max(3.5 * 1.4826 * mad, half, floor):
                    flagged.add((s["node"], f.key))
    return flagged


def summaries_of(directory):
    out = []
    for name in sorted(os.listdir(directory)):
        if name.endswith(".json"):
            with open(os.path.join(directory, name)) as f:
                out.append(json.load(f))
    return out


@unittest.skipUnless(os.access(HELPER, os.X_OK), "clomp-stats is not built (make clomp-stats)")
class ClusterReport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="clomp-cluster-test.")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def report_json(self, *paths):
        done = run_report("--format", "json", *paths)
        self.assertEqual(done.returncode, 0, done.stderr)
        return json.loads(done.stdout)

    def test_verdicts_equal_the_oracle(self):
        """on 4 synthetic clusters of 60 nodes (3 groups, planted, busy, failed), every flagged node and figure is the oracle's"""
        for seed in (1, 2, 3, 4):
            d = os.path.join(self.dir, "s%d" % seed)
            synth(d, 60, seed, busy=3, failed=2)
            rep = self.report_json(d)
            got = {(o["node"], o["figure"]) for o in rep["outliers"]}
            self.assertEqual(got, oracle(summaries_of(d)), "seed %d" % seed)

    def test_thousand_nodes(self):
        """1,000 nodes: the 3 planted found with their figures, 5 busy and 2 failed named, the rest within the false rate"""
        d = os.path.join(self.dir, "k")
        planted = synth(d, 1000, 50)
        rep = self.report_json(d)
        verdict = {n["node"]: n["verdict"] for n in rep["nodes"]}
        flagged = {(o["node"], o["figure"]) for o in rep["outliers"]}
        for node, figure in planted["outliers"].items():
            self.assertIn((node, figure), flagged, "planted %s on %s" % (figure, node))
        self.assertEqual(sorted(n for n, v in verdict.items() if v == "busy"), sorted(planted["busy"]))
        self.assertEqual(sorted(n for n, v in verdict.items() if v == "failed"), sorted(planted["failed"]))
        self.assertEqual(rep["counts"]["nodes"], 1000)
        # The rest: at most what the stated false rate (per node and figure, at each group's size) allows,
        # with a Poisson margin of 3.1 standard deviations (a 99.9% bound).
        false = [f for f in flagged if f[0] not in planted["outliers"]]
        expected = sum(g["nodes"] * len(cluster_figures.figures()) * cluster.false_rate(g["nodes"]) for g in rep["groups"])
        self.assertLessEqual(len(false), expected + 3.1 * math.sqrt(expected) + 1, (false, expected))
        self.assertEqual(set(false), oracle(summaries_of(d)) - set(planted["outliers"].items()))

    def test_renderers_agree(self):
        """the text names the outliers, busy and failed nodes first; the CSV has one row per node; all three agree"""
        d = os.path.join(self.dir, "r")
        planted = synth(d, 60, 7, busy=2, failed=1)
        rep = self.report_json(d)
        text = run_report(d).stdout
        rows = list(csv.DictReader(io.StringIO(run_report("--format", "csv", d).stdout)))
        self.assertEqual(len(rows), 60)
        self.assertTrue(text.startswith("Cluster report: 60 nodes in 3 groups: %d outlier" % rep["counts"]["outlier"]))
        for o in rep["outliers"]:
            self.assertIn("Outlier: %s (group %d): " % (o["node"], o["group"]), text)
        for n in planted["busy"]:
            self.assertIn("Busy: %s " % n, text)
        self.assertIn("Failed: %s " % planted["failed"][0], text)
        self.assertEqual({r["node"]: r["verdict"] for r in rows}, {n["node"]: n["verdict"] for n in rep["nodes"]})

    def write_summary(self, directory, name, node, **change):
        os.makedirs(directory, exist_ok=True)
        doc = {"clomp_node_summary": 1, "node": node, "status": "complete", "failure": None,
               "facts": {"cpu_model": "X", "cores": 4, "memory_gib": 16, "runtime": "r", "plan": "p"},
               "busy": False, "busy_reason": None, "processes": 6,
               "figures": {"serial_us": {"median": 10.0, "ci_low": 9.9, "ci_high": 10.1}}}
        doc.update(change)
        with open(os.path.join(directory, name), "w") as f:
            f.write(json.dumps(doc) if not isinstance(change.get("raw"), str) else change["raw"])

    def test_hostile_names_stay_data(self):
        """a node named like a spreadsheet formula is written as text in the CSV; control characters are refused"""
        d = os.path.join(self.dir, "h")
        for i, name in enumerate(["=HYPERLINK(\"http://x\")", "n2", "n3"]):
            self.write_summary(d, "%d.json" % i, name)
        rows = list(csv.reader(io.StringIO(run_report("--format", "csv", d).stdout)))
        self.assertEqual(rows[1][0], "'=HYPERLINK(\"http://x\")")
        self.write_summary(d, "9.json", "n\x1b[2Jevil")
        done = run_report(d)
        self.assertEqual((done.returncode, done.stdout), (2, ""))
        self.assertEqual(len(done.stderr.strip().splitlines()), 1)
        self.assertIn("node is not a text of 1 to 128 printable characters", done.stderr)
        self.assertNotIn("\x1b", done.stderr)

    def test_bad_input_refused(self):
        """not JSON, a duplicate node, missing facts, a link: each refused with one line, exit 2"""
        cases = {"notjson": dict(raw="{"), "dup": None, "facts": dict(facts={"cores": 4}),
                 "status": dict(status="maybe")}
        for case, change in cases.items():
            d = os.path.join(self.dir, case)
            self.write_summary(d, "a.json", "n1")
            if change is None:
                self.write_summary(d, "b.json", "n1")
            else:
                self.write_summary(d, "b.json", "n2", **change)
            done = run_report(d)
            self.assertEqual(done.returncode, 2, case)
            self.assertEqual(len(done.stderr.strip().splitlines()), 1, (case, done.stderr))
        d = os.path.join(self.dir, "link")
        self.write_summary(d, "a.json", "n1")
        os.symlink(os.path.join(d, "a.json"), os.path.join(d, "b.json"))
        done = run_report(d)
        self.assertEqual(done.returncode, 2)
        self.assertIn("symbolic link", done.stderr)

    def test_write_never_follows_a_link(self):
        """--write DIR STEM writes .txt, .csv, .json; a link planted at STEM.txt is refused, its target untouched"""
        d = os.path.join(self.dir, "w")
        synth(d, 30, 3, plant=1, busy=1, failed=1)
        out = os.path.join(self.dir, "out")
        os.mkdir(out)
        self.assertEqual(run_report("--write", out, "cluster", d).returncode, 0)
        self.assertEqual(sorted(os.listdir(out)), ["cluster.csv", "cluster.json", "cluster.txt"])
        victim = os.path.join(self.dir, "victim")
        with open(victim, "w") as f:
            f.write("keep")
        os.symlink(victim, os.path.join(out, "linked.txt"))
        done = run_report("--write", out, "linked", d)
        self.assertEqual(done.returncode, 3)
        with open(victim) as f:
            self.assertEqual(f.read(), "keep")
        self.assertEqual(run_report("--write", out, "../x", d).returncode, 2)

    def test_command_line(self):
        """results/clomp-results cluster: exit 0 and the text; a bad option exits 2 with its usage"""
        d = os.path.join(self.dir, "c")
        synth(d, 30, 5, plant=1, busy=1, failed=1)
        env = dict(os.environ, CLOMP_STATS=HELPER)
        done = subprocess.run([sys.executable, RESULTS, "cluster", d], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env=env, universal_newlines=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(done.stdout.startswith("Cluster report: 30 nodes in 3 groups: "))
        done = subprocess.run([sys.executable, RESULTS, "cluster", "--bogus"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env, universal_newlines=True)
        self.assertEqual(done.returncode, 2)
        self.assertIn("usage: clomp-results cluster", done.stderr)

    def test_stats_request_refused(self):
        """clomp-stats outliers: a bad request (name, floor, order, number, a long line) exits 2 with one line naming it"""
        cases = {"distribution a$b none\n": "line 1: usage: distribution KEY",
                 "member m1 1 NA 0\n": "line 1: a member before any distribution",
                 "distribution a share 0.01 b\n": "line 1: share of a distribution that did not come before",
                 "distribution a none\nmember m1 1e999 NA 0\n": "line 2: usage: member ID",
                 "distribution a none\nmember m1 1 NA 2\n": "line 2: usage: member ID",
                 "distribution a none\ndistribution a none\n": "line 2: a distribution of that KEY came before",
                 "x" * 600 + "\n": "line 1: longer than 512 characters"}
        for request, said in cases.items():
            done = subprocess.run([HELPER, "outliers"], input=request, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True)
            self.assertEqual((done.returncode, done.stdout), (2, ""), request[:40])
            self.assertEqual(done.stderr, "clomp-stats: outliers: %s" % done.stderr.split(": ", 2)[2])
            self.assertIn(said, done.stderr)
            self.assertEqual(len(done.stderr.splitlines()), 1)

    def test_mpi_per_rank(self):
        """clomp_mpi's mpi.per_rank read as nodes: host and rank named, a busy rank busy, a slow rank an outlier (Serial Ref and speed-up)"""
        ranks = []
        for r in range(6):
            serial = 10.0 + 0.01 * r + (5.0 if r == 4 else 0.0)
            ms = [{"key": "serial", "us_per_loop": serial, "us_per_loop_ci_95": [serial - 0.02, serial + 0.02], "valid": True},
                  {"key": "static", "us_per_loop": 6.0, "us_per_loop_ci_95": [5.9, 6.1], "valid": True,
                   "overhead_us_per_loop": 1.0, "overhead_ci_95": [0.9, 1.1]},
                  {"key": "barrier", "us_per_loop": 0.4, "us_per_loop_ci_95": None, "valid": False}]
            ranks.append({"rank": r, "host": "node%d" % r, "cpus": "0-3", "cpu_count": 4, "noise_busy": r == 2,
                          "noise_lost_fraction": 0.5 if r == 2 else 0.01,
                          "noise_busy_reason": "the noise census's probe: lost 50%" if r == 2 else None,
                          "measurements": ms})
        path = os.path.join(self.dir, "run.json")
        with open(path, "w") as f:
            json.dump({"status": "ok", "exit_status": 0, "mpi": {"per_rank": ranks}}, f)
        rep = self.report_json("--mpi", path)
        verdict = {n["node"]: n["verdict"] for n in rep["nodes"]}
        self.assertEqual(verdict["node2 (rank 2)"], "busy")
        self.assertEqual(verdict["node4 (rank 4)"], "outlier")
        # Its Serial Ref 5 us slower makes its speed-up higher too.
        # The catalogue's keys (the figures issue 50 named serial_us, static_speedup and barrier_us).
        serial, speedup, barrier = (catalogue.load().canonical(k) for k in ("serial_us", "static_speedup", "barrier_us"))
        self.assertEqual(sorted((o["node"], o["figure"]) for o in rep["outliers"]),
                         sorted([("node4 (rank 4)", serial), ("node4 (rank 4)", speedup)]))
        self.assertEqual(rep["interval"], "within the rank's process (its chunks)")
        self.assertIsNone(rep["nodes"][0]["figures"][barrier]["value"], "a figure its record marks not valid")
        self.assertEqual(rep["groups"][0]["figures"][speedup]["n"], 5)


if __name__ == "__main__":
    unittest.main()
