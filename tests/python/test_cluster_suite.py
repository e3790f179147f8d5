"""run_clomp.sh --nodes's logic (results/clomp_results/cluster/cluster_suite.py and
cluster_bundle.py, issue 50), without Slurm: Slurm's hostlist expressions
expanded as its documentation spells them out (the expected lists are written
out by hand), unsafe node names refused; all or the first N nodes, more than
the allocation refused with one line; what each node still runs on --resume
(no suite: fresh, a suite cut short: resume its ID, a complete one: done),
and a resumed cluster's nodes that left the allocation refused; a node's
failure said from its step's log; the cluster bundle's index checked (a
planted path, a node named twice, a missing summary refused) and a cluster
bundle told from a suite's bundle by its first member. tests/cluster.t runs
it all on the emulated cluster."""
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import unittest

import render_fixture   # puts results/ on sys.path

from clomp_results.bundle import bundle, validate
from clomp_results.cluster import cluster_bundle, cluster_open, cluster_suite
from clomp_results.buyers import submissions as submissions_module
from clomp_results.core.safe_io import Refused

RESULTS = os.path.join(render_fixture.TOP, "results")


class Hostlists(unittest.TestCase):
    def test_expressions_expand_as_slurm_documents_them(self):
        cases = {
            "n1": ["n1"],
            "n[1-4]": ["n1", "n2", "n3", "n4"],
            "n[1-3,7],login": ["n1", "n2", "n3", "n7", "login"],
            "gpu[08-11]": ["gpu08", "gpu09", "gpu10", "gpu11"],
            "rack[1-2]-n[1-2]": ["rack1-n1", "rack1-n2", "rack2-n1", "rack2-n2"],
            "a[1-2]-ib,b3": ["a1-ib", "a2-ib", "b3"],
            "n1,n1,n2": ["n1", "n2"],
        }
        for expr, want in cases.items():
            self.assertEqual(cluster_suite.expand_hostlist(expr), want, expr)

    def test_malformed_or_unsafe_lists_are_refused(self):
        for expr in ("n[1-", "n]1", "n[4-1]", "n[a-b]", "", ",", "n[1-3],../x", "n$(id)", "n[1-200000]", "a b"):
            with self.assertRaises(Refused, msg=expr):
                cluster_suite.expand_hostlist(expr)

    def test_all_or_the_first_n(self):
        nodes = ["n1", "n2", "n3"]
        self.assertEqual(cluster_suite.choose(nodes, "all"), nodes)
        self.assertEqual(cluster_suite.choose(nodes, "2"), ["n1", "n2"])
        for bad in ("0", "4", "-1", "two", ""):
            with self.assertRaises(Refused, msg=bad):
                cluster_suite.choose(nodes, bad)
        try:
            cluster_suite.choose(nodes, "4")
        except Refused as e:
            self.assertIn("the allocation has 3 nodes (n1,n2,n3)", str(e))


class WhatEachNodeRuns(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="clomp-nodes-test.")
        self.cluster = os.path.join(self.dir, "CLOMP-cluster_1")
        os.mkdir(self.cluster)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def suite(self, node, sid, complete):
        d = os.path.join(self.cluster, "nodes", node)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "CLOMP_%s_%d.env" % (node, sid)), "w") as f:
            f.write("plan: x\n" + ("---- complete Sun Nov 29 10:00:00 UTC 2026\n" if complete else ""))

    def test_a_new_cluster_writes_its_nodes_and_starts_each(self):
        self.assertEqual(cluster_suite.plan(self.cluster, "n[1-3]", "2"), ["n1 fresh", "n2 fresh"])
        with open(os.path.join(self.cluster, "nodes.txt")) as f:
            self.assertEqual(f.read().split(), ["n1", "n2"])

    def test_resume_runs_only_what_is_missing(self):
        cluster_suite.plan(self.cluster, "n[1-4]", "all")
        self.suite("n1", 1, True)
        self.suite("n2", 1, False)
        self.suite("n2", 2, False)   # the highest ID is the node's suite
        self.suite("n3", 1, True)
        self.assertEqual(cluster_suite.plan(self.cluster, "n[1-4]", "all"),
                         ["n1 done", "n2 resume 2", "n3 done", "n4 fresh"])

    def test_resume_where_a_node_left_the_allocation_is_refused(self):
        cluster_suite.plan(self.cluster, "n[1-4]", "all")
        with self.assertRaises(Refused) as caught:
            cluster_suite.plan(self.cluster, "n[1-2],n4", None)
        self.assertIn("node n3 of", str(caught.exception))
        self.assertIn("salloc -w n1,n2,n3,n4", str(caught.exception))

    def test_a_lost_step_is_said_with_srun_s_line(self):
        os.makedirs(os.path.join(self.cluster, "steps"))
        with open(os.path.join(self.cluster, "steps", "n3.log"), "w") as f:
            f.write("---- step on n3, a\n[1/10] ./clomp\nsrun: error: n3: task 0: Killed\n---- step on n3, b\n"
                    "[4/10] ./clomp\nsrun: error: n3: task 0: Terminated\nsrun: Force Terminated StepId=5.0\n")
        with open(os.path.join(self.cluster, "steps", "n3.rc"), "w") as f:
            f.write("137\n143\n")
        self.assertEqual(cluster_suite.step_facts(self.cluster, "n3"), ("143", "srun: error: n3: task 0: Terminated"))
        self.assertEqual(cluster_suite.step_facts(self.cluster, "n9"), (None, "no output"))
        summary = cluster_suite.node_summary(self.cluster, "n3", "/nonexistent")
        self.assertEqual((summary["status"], summary["failure"]),
                         ("failed", "no suite started on the node (its step ended with exit status 143: "
                                    "srun: error: n3: task 0: Terminated)"))


class DriverRefusals(unittest.TestCase):
    """run_clomp.sh --nodes refuses before it starts anything: one line, exit 2, no folder left."""

    def run_driver(self, env, *args):
        out = tempfile.mkdtemp(prefix="clomp-nodes-driver.")
        self.addCleanup(shutil.rmtree, out)
        full = dict((k, v) for k, v in os.environ.items() if not k.startswith("SLURM_"))
        full.update(env)
        done = subprocess.run([os.path.join(render_fixture.TOP, "run_clomp.sh"), "--out", out] + list(args), env=full,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        return done.returncode, done.stderr.decode(), os.listdir(out)

    def test_outside_an_allocation(self):
        rc, err, left = self.run_driver({}, "--nodes", "all", "--quick")
        self.assertEqual((rc, left), (2, []))
        self.assertEqual(err, "run_clomp.sh: --nodes: not inside a Slurm allocation: submit slurm/clomp-nodes.sbatch "
                              "(sbatch -N COUNT) or run under salloc -N COUNT\n")

    @unittest.skipUnless(shutil.which("srun"), "no srun (slurm-client)")
    def test_more_nodes_than_the_allocation_or_a_hostile_node_name(self):
        job = {"SLURM_JOB_ID": "1", "SLURM_JOB_NODELIST": "n[1-2]"}
        rc, err, left = self.run_driver(job, "--nodes", "3", "--quick")
        self.assertEqual((rc, left, err.count("\n")), (2, [], 1), err)
        self.assertIn("--nodes 3: the allocation has 2 nodes (n1,n2)", err)
        job["SLURM_JOB_NODELIST"] = "n1,$(reboot)"
        rc, err, left = self.run_driver(job, "--nodes", "all")
        self.assertEqual((rc, left, err.count("\n")), (2, [], 1), err)
        self.assertIn("node '$(reboot)' is not a name of letters", err)
        rc, err, left = self.run_driver(job, "--nodes", "all", "--resume", "4")
        self.assertEqual((rc, err), (2, "run_clomp.sh: --resume: no cluster 4 in %s\n" % err.split(" in ")[-1].strip()))


class ClusterFolder(unittest.TestCase):
    """The command line read and the cluster folder opened before anything launches (cluster_open)."""

    def test_options_split_from_the_node_suites_arguments(self):
        self.assertEqual(cluster_open.parse(["--quick", "--nodes", "2", "--out", "d", "a b", "./clomp"]),
                         ("2", "d", "", ["--quick", "a b", "./clomp"]))
        self.assertEqual(cluster_open.parse(["--nodes=all", "--resume", "3"]), ("all", "out", "3", []))
        for args, said in ((["--nodes", "all", "--compare=x"], "--compare=x is not for a cluster"),
                           (["--nodes", "all", "--dry-run"], "--dry-run is not for a cluster"),
                           (["--quick"], "needs all or a number of nodes"),
                           (["--nodes", "all", "--resume", "07"], "'07' is not a cluster ID"),
                           (["--nodes"], "--nodes: needs a value")):
            with self.assertRaises(cluster_open.Usage) as refused:
                cluster_open.parse(args)
            self.assertIn(said, str(refused.exception), args)

    def test_a_new_cluster_takes_the_lowest_free_id_and_keeps_its_arguments(self):
        out = tempfile.mkdtemp(prefix="clomp-nodes-open.")
        self.addCleanup(shutil.rmtree, out)
        os.mkdir(os.path.join(out, "CLOMP-cluster_1"))
        os.symlink("/nonexistent", os.path.join(out, "CLOMP-cluster_2"))   # a link, even a dangling one, is passed over
        cluster, cluster_id, args = cluster_open.open_cluster(out, "", ["a b", "", "c\nd"])
        self.assertEqual((cluster, cluster_id), (os.path.join(out, "CLOMP-cluster_3"), "3"))
        with open(os.path.join(cluster, "arguments"), "rb") as f:
            self.assertEqual(f.read(), b"a b\0\0c\nd\0")
        open(os.path.join(cluster, "nodes.txt"), "w").close()
        self.assertEqual(cluster_open.open_cluster(out, "3", []), (cluster, "3", ["a b", "", "c\nd"]))
        with self.assertRaises(cluster_open.Usage) as refused:
            cluster_open.open_cluster(out, "3", ["--quick"])
        self.assertIn("keep the arguments they started with", str(refused.exception))
        with self.assertRaises(cluster_open.Usage):
            cluster_open.open_cluster(out, "1", [])   # no nodes.txt: never a cluster


class ClusterBundles(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="clomp-nodes-bundle.")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def archive(self, index, members=None, name="CLOMP-cluster_1"):
        summary = {"clomp_node_summary": 1, "node": "n1", "status": "failed", "failure": "lost",
                   "facts": {"cpu_model": "x", "cores": 1, "memory_gib": 1, "runtime": "r", "plan": "p"},
                   "busy": None, "busy_reason": None, "processes": 0, "figures": {}}
        files = {"summaries/n1.json": json.dumps(summary).encode(), "CLUSTER.json": json.dumps(index).encode()}
        files.update(members or {})
        import hashlib
        files["MANIFEST"] = "".join("%s  %s\n" % (hashlib.sha256(d).hexdigest(), r) for r, d in sorted(files.items())).encode()
        out = os.path.join(self.dir, name + ".tar.gz")
        bundle.write_archive(files, name, out)
        return out

    def verdict(self, path):
        buf = io.StringIO()
        return cluster_bundle.validate(path, buf, validate), buf.getvalue()

    def node(self, **kw):
        entry = {"node": "n1", "status": "failed", "failure": "lost", "bundle": None, "summary": "summaries/n1.json"}
        entry.update(kw)
        return {"clomp_cluster_bundle": 1, "nodes": [entry]}

    def test_a_failed_node_makes_it_valid_but_not_submission_grade(self):
        path = self.archive(self.node())
        self.assertTrue(cluster_bundle.is_cluster(path))
        rc, said = self.verdict(path)
        self.assertEqual(rc, 3, said)
        self.assertIn("cluster bundle of 1 node (1 failed)", said)
        self.assertIn("  n1: FAILED, no bundle: lost", said)
        from clomp_results.buyers import submissions
        with self.assertRaises(submissions.SubmissionError):   # the buyer's table: no complete node, no submission
            cluster_bundle.submissions(path, "c", None, submissions_module)

    def test_a_bad_index_is_refused_with_one_line(self):
        for index, why in ((self.node(bundle="../../etc/passwd"), "its bundle is not a member"),
                           (self.node(summary="summaries/n2.json"), "its summary summaries/n1.json"),
                           ({"clomp_cluster_bundle": 1, "nodes": [self.node()["nodes"][0]] * 2}, "a safe name of its own"),
                           (self.node(node="n1;rm"), "a safe name of its own"),
                           (self.node(status="fine"), "neither complete nor failed"),
                           ({"nodes": []}, "no \"clomp_cluster_bundle\": 1")):
            rc, said = self.verdict(self.archive(index))
            self.assertEqual(rc, 1, said)
            self.assertEqual(len(said.splitlines()), 1, said)
            self.assertIn(why, said)

    def test_a_complete_node_without_its_bundle_is_invalid(self):
        rc, said = self.verdict(self.archive(self.node(status="complete")))
        self.assertEqual(rc, 1, said)
        self.assertIn("complete but no bundle", said)

    def test_a_node_bundle_that_is_not_valid_fails_the_cluster_only_when_the_node_is_complete(self):
        junk = {"nodes/n1/CLOMP_n1_1.tar.gz": b"not a bundle"}
        rc, said = self.verdict(self.archive(self.node(bundle="nodes/n1/CLOMP_n1_1.tar.gz"), junk))
        self.assertEqual(rc, 3, said)
        self.assertIn("  n1: nodes/n1/CLOMP_n1_1.tar.gz: not a CLOMP bundle", said)
        rc, said = self.verdict(self.archive(self.node(bundle="nodes/n1/CLOMP_n1_1.tar.gz", status="complete"), junk))
        self.assertEqual(rc, 1, said)
        self.assertIn("node n1: its bundle is not valid (exit 2)", said)

    def test_a_suite_bundle_is_not_a_cluster_bundle(self):
        path = os.path.join(self.dir, "CLOMP_host_1.tar.gz")
        bundle.write_archive({"CLOMP_host_1.env": b"x"}, "CLOMP_host_1", path)
        self.assertFalse(cluster_bundle.is_cluster(path))
        plain = os.path.join(self.dir, "plain.tar.gz")
        with tarfile.open(plain, "w:gz") as tar:
            info = tarfile.TarInfo("CLOMP-cluster_2/CLUSTER.json")
            info.size = 2
            tar.addfile(info, io.BytesIO(b"{}"))
        self.assertTrue(cluster_bundle.is_cluster(plain))   # GNU-format header: its name field
        self.assertFalse(cluster_bundle.is_cluster(os.path.join(self.dir, "absent.tar.gz")))
        self.assertFalse(cluster_bundle.is_cluster(RESULTS))   # a directory not named CLOMP-cluster_ID


class DriverLaunch(unittest.TestCase):
    """run_clomp.sh --nodes launches as the shell driver (suite/nodes.sh) did, with a stand-in srun on PATH that
    records its arguments: one step per node with the words written out below, its output and exit status
    in steps/NODE.log and NODE.rc, a stop (TERM) relayed to the steps, which are waited for, then the gathering
    (every node failed here: no suite ran)."""

    FAKE_SRUN = """#!/bin/sh
for a in "$@"; do case $a in --nodelist=*) node=${a#--nodelist=} ;; esac; done
printf '%s\\n' "$@" >"$FAKE_SRUN_DIR/$node.args.tmp" && mv "$FAKE_SRUN_DIR/$node.args.tmp" "$FAKE_SRUN_DIR/$node.args"
[ "$node" != "$FAKE_SRUN_HANG" ] || exec sleep 60
echo "srun: error: $node: task 0: Exited with exit code 3"
exit 3
"""

    def test_steps_their_words_logs_statuses_and_a_stop_relayed(self):
        import signal
        import time
        tmp = tempfile.mkdtemp(prefix="clomp-nodes-launch.")
        self.addCleanup(shutil.rmtree, tmp)
        bindir = os.path.join(tmp, "bin")
        os.mkdir(bindir)
        with open(os.path.join(bindir, "srun"), "w") as f:
            f.write(self.FAKE_SRUN)
        os.chmod(os.path.join(bindir, "srun"), 0o755)
        env = dict((k, v) for k, v in os.environ.items() if not k.startswith("SLURM_"))
        env.update({"SLURM_JOB_ID": "7", "SLURM_JOB_NODELIST": "n[1-2]", "FAKE_SRUN_DIR": tmp, "FAKE_SRUN_HANG": "n2",
                    "PATH": bindir + os.pathsep + env.get("PATH", "")})
        out = os.path.join(tmp, "out")
        driver = subprocess.Popen([os.path.join(render_fixture.TOP, "run_clomp.sh"), "--nodes", "all", "--out", out,
                                   "--quick", "a b"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(600):   # until both steps have started
            if all(os.path.exists(os.path.join(tmp, n + ".args")) for n in ("n1", "n2")):
                break
            time.sleep(0.1)
        driver.send_signal(signal.SIGTERM)
        stdout, stderr = driver.communicate(timeout=120)
        cluster = os.path.join(out, "CLOMP-cluster_1")
        lines = stdout.decode().splitlines()
        self.assertEqual(driver.returncode, 1, stderr)
        self.assertEqual(lines[:3], ["CLOMP cluster %s: Slurm job 7, nodes n1,n2" % cluster,
                                     "n1: started (fresh), log %s/steps/n1.log" % cluster,
                                     "n2: started (fresh), log %s/steps/n2.log" % cluster])
        self.assertIn("Cluster FAILED on 2 of 2 nodes (n1 n2): run_clomp.sh --nodes all --out %s --resume 1 runs what "
                      "is missing" % os.path.abspath(out), lines)
        for node, rc in (("n1", "3"), ("n2", "143")):
            with open(os.path.join(tmp, node + ".args")) as f:
                self.assertEqual(f.read().splitlines(),
                                 ["--nodes=1", "--ntasks=1", "--nodelist=" + node, "--job-name=clomp-" + node,
                                  "--kill-on-bad-exit=1", os.path.join(render_fixture.TOP, "run_clomp.sh"), "--out",
                                  os.path.join(cluster, "nodes", node), "--quick", "a b"])
            with open(os.path.join(cluster, "steps", node + ".rc")) as f:
                self.assertEqual(f.read(), rc + "\n")
            with open(os.path.join(cluster, "steps", node + ".log")) as f:
                log = f.read()
            self.assertRegex(log, "^---- step on %s, [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} " % node)
            self.assertTrue(os.path.isdir(os.path.join(cluster, "nodes", node)))
        with open(os.path.join(cluster, "steps", "n1.log")) as f:
            self.assertIn("srun: error: n1: task 0: Exited with exit code 3\n", f.read())


if __name__ == "__main__":
    unittest.main()
