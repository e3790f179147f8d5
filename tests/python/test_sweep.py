"""Issue 32, items 3 and 4: --sweep's presets pick the runtime's own knobs
(GOMP_SPINCOUNT on libgomp, KMP_BLOCKTIME and the barrier patterns on
libomp) and refuse a runtime without them; combinations run the first axis
slowest; the team-size cliff is flagged on synthetic records exactly when
the step from cores - 1 to cores exceeds the stated factor, and is not
judged for a team of one or a figure marked not valid; the oversubscribed
run is never submitted: the bundle leaves its files out and the grade
refuses a suite that carries it."""
from __future__ import annotations

import copy
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bundle_lib import GOLDEN  # noqa: E402
from clomp_results.core import catalogue, cliff, loader  # noqa: E402
from clomp_results.bundle import grade  # noqa: E402
from clomp_results.sweep import sweep_plan  # noqa: E402
from clomp_results.core.records import PlannedRun, RunRecord  # noqa: E402


class ReportText(unittest.TestCase):
    def test_every_class_of_control_character_in_the_header_or_a_record_reaches_no_text_or_csv_raw(self):
        """The 22 classes of the bundle tests in the header's host, arguments, side, runtime, note and setting
        values, and in a record's measurement name: the sweep report's text and CSV carry none raw
        (safe_text.lines_text), by Python's Unicode database."""
        import json
        import shutil
        import tempfile
        from clomp_results.core import stats_helper
        from clomp_results.sweep import sweep_report
        from test_untrusted_strings import CLASSES, raw_in_lines
        tmp = tempfile.mkdtemp(prefix="clomp-sweep-test.")
        try:
            stem = os.path.join(tmp, "CLOMP_h_1_sweep")
            for r in (1, 2):
                with open("%s_c1r%d.json" % (stem, r), "w") as f:
                    json.dump({"schema": "clomp-result", "measurements": [
                        {"key": "static", "name": "Static\x1b[31m", "us_per_loop": 3.0 + r}]}, f)
            for cls, payload in CLASSES.items():
                # (the driver's header is its own lines of tab-separated cells: no line or cell separator in one)
                said = "".join(" " if c == "\t" or len(("a" + c + "b").splitlines()) > 1 else c for c in payload)
                header = ("date\tnow\nhost\th{0}\narguments\t2 1 64 100 32 1 1{0}\nreplicates\t3\norder\t1\n"
                          "side\tA\tgnu{0}\tgcc{0}\t./clomp{0}\t\nruntime\tlibgomp{0}\t12{0}\nnote\tnote{0}\n"
                          "setting\tOMP_X\tv{0}\ncombination\t1\tGOMP_SPINCOUNT=1{0}\n").format(said)
                text, csv_text, _, _ = sweep_report.report(stem, header, stats_helper.find())
                self.assertEqual(raw_in_lines(text) + raw_in_lines(csv_text), [], cls)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class Presets(unittest.TestCase):
    def combos(self, specs, runtime="", patterns=False):
        axes, notes = sweep_plan.parse(specs, runtime, patterns)
        return sweep_plan.combinations(axes), notes

    def test_wait_on_libgomp_is_the_policy_times_gomp_spincount(self):
        combos, notes = self.combos(["wait"], "libgomp.so.1.0.0")
        want = [[("OMP_WAIT_POLICY", p), ("GOMP_SPINCOUNT", s)] for p in ("active", "passive")
                for s in ("0", "10000", "300000", "infinite")]
        self.assertEqual(combos, want)
        self.assertIn("libgomp", notes[0])

    def test_wait_on_libomp_is_the_policy_times_kmp_blocktime(self):
        combos, _ = self.combos(["wait"], "libomp.so.5")
        self.assertEqual(combos, [[("OMP_WAIT_POLICY", p), ("KMP_BLOCKTIME", b)] for p in ("active", "passive")
                                  for b in ("0", "200", "infinite")])

    def test_wait_on_an_unknown_runtime_is_refused(self):
        with self.assertRaisesRegex(sweep_plan.SpecError, r"has no wait knob in a runtime profile \(ibm-xl"):
            self.combos(["wait"], "libxlsmp.so.1")
        with self.assertRaisesRegex(sweep_plan.SpecError, r"has no wait knob .*profiles: .*libgomp"):
            self.combos(["wait"], "libnosuch.so.1")

    def test_barrier_on_libomp_sets_every_barrier_to_one_pattern(self):
        combos, _ = self.combos(["barrier"], "libomp.so.5", True)
        self.assertEqual(len(combos), 4)
        for combo, p in zip(combos, ("linear", "tree", "hyper", "hierarchical")):
            self.assertEqual(combo, [(v, "%s,%s" % (p, p)) for v in ("KMP_PLAIN_BARRIER_PATTERN", "KMP_FORKJOIN_BARRIER_PATTERN",
                                                                      "KMP_REDUCTION_BARRIER_PATTERN")])

    def test_barrier_is_refused_on_libgomp_and_on_a_libomp_without_patterns(self):
        with self.assertRaisesRegex(sweep_plan.SpecError, "has no barrier-pattern settings"):
            self.combos(["barrier"], "libgomp.so.1.0.0", True)
        with self.assertRaisesRegex(sweep_plan.SpecError, "does not read KMP_PLAIN_BARRIER_PATTERN"):
            self.combos(["barrier"], "libomp.so.5", False)

    def test_a_preset_and_variables_combine_the_first_axis_slowest(self):
        combos, _ = self.combos(["A=1,2", "wait"], "libomp.so.5")
        self.assertEqual(len(combos), 12)
        self.assertEqual([c[0] for c in combos[:6]], [("A", "1")] * 6)
        self.assertEqual(combos[6][:2], [("A", "2"), ("OMP_WAIT_POLICY", "active")])

    def test_a_preset_and_its_own_variable_are_swept_twice(self):
        with self.assertRaisesRegex(sweep_plan.SpecError, "OMP_WAIT_POLICY is swept twice"):
            self.combos(["wait", "OMP_WAIT_POLICY=active"], "libomp.so.5")

    def test_a_control_character_in_a_value_is_refused(self):
        with self.assertRaisesRegex(sweep_plan.SpecError, "control character"):
            self.combos(["A=x\ty"])


def doc(fork_join, barrier, valid=True, parallel_for=None, static_overhead=None):
    return {"measurements": [{"key": "parallel", "us_per_loop": fork_join},
                             {"key": "barrier", "us_per_loop": barrier, "valid": valid},
                             {"key": "parallel_for", "us_per_loop": parallel_for},
                             {"key": "static", "us_per_loop": 9.0, "overhead_us_per_loop": static_overhead}]}


class Cliff(unittest.TestCase):
    def judge(self, runs, cores):
        """The verdict rows by measurement key (the catalogue's cliff set: the probes' median-chunk us/Loop and
        Static OMP's median-chunk overhead, issue 47)."""
        keys = dict((f.key, f["measurement"]) for f in catalogue.load().in_set("cliff"))
        self.assertEqual(sorted(keys.values()), ["barrier", "parallel", "parallel_for", "static"])
        return {keys[r["figure"]]: r for r in cliff.judge(cliff.points(runs, "6400zones"), cores)}

    def test_a_step_above_the_factor_is_flagged_and_one_below_is_not(self):
        f = cliff.CLIFF_FACTOR
        runs = [("6400zones", 3, doc(1.0, 1.0)), ("6400zones", 4, doc(1.0 * f * 0.99, 1.0 * f * 1.01)),
                (cliff.OVERSUBSCRIBED_SET, 5, doc(50.0, 80.0)), ("64000zones", 4, doc(100.0, 100.0))]
        got = self.judge(runs, 4)
        self.assertFalse(got["parallel"]["cliff"])
        self.assertTrue(got["barrier"]["cliff"])
        self.assertAlmostEqual(got["barrier"]["step"], f * 1.01)
        self.assertEqual(got["barrier"]["over"], 80.0)
        self.assertTrue(got["barrier"]["why"].startswith("CLIFF: "))
        self.assertEqual(got["parallel"]["below"], 1.0)   # the target zones' run, not the 64000 zones' one

    def test_a_team_of_one_below_is_not_judged(self):
        got = self.judge([("6400zones", 1, doc(0.01, 0.01)), ("6400zones", 2, doc(5.0, 5.0))], 2)
        self.assertFalse(got["barrier"]["cliff"])
        self.assertIsNone(got["barrier"]["step"])
        self.assertIn("a team of one", got["barrier"]["why"])

    def test_the_parallel_for_probe_and_the_static_overhead_are_judged_too(self):
        got = self.judge([("6400zones", 3, doc(1.0, 1.0, parallel_for=2.0, static_overhead=0.5)),
                          ("6400zones", 4, doc(1.0, 1.0, parallel_for=2.2, static_overhead=1.5)),
                          (cliff.OVERSUBSCRIBED_SET, 5, doc(9.0, 9.0, parallel_for=30.0, static_overhead=40.0))], 4)
        self.assertFalse(got["parallel_for"]["cliff"])
        self.assertAlmostEqual(got["parallel_for"]["step"], 1.1)
        self.assertEqual(got["parallel_for"]["over"], 30.0)
        self.assertTrue(got["static"]["cliff"])   # 1.5 over 0.5: 3x, the overhead's member, not Static's us/Loop
        self.assertAlmostEqual(got["static"]["step"], 3.0)
        self.assertEqual(got["static"]["over"], 40.0)

    def test_a_figure_marked_not_valid_is_not_judged(self):
        got = self.judge([("6400zones", 3, doc(1.0, 1.0)), ("6400zones", 4, doc(1.0, 9.0, valid=False))], 4)
        self.assertIsNone(got["barrier"]["step"])
        self.assertIn("no valid figure at 4 threads", got["barrier"]["why"])


class NeverSubmitted(unittest.TestCase):
    def test_the_oversubscribed_runs_files_are_left_out_of_the_bundle(self):
        name = "CLOMP_h_3"
        for rel in ("CLOMP_h_3_oversubscribed.run9.json", "CLOMP_h_3_oversubscribed.summary",
                    "CLOMP_h_3_oversubscribed.full", "CLOMP_h_3.oversubscribed.csv"):
            self.assertTrue(cliff.never_submitted(rel, name), rel)
        for rel in ("CLOMP_h_3.csv", "CLOMP_h_3_6400zones.summary", "CLOMP_h_3_key.run1.json", "CLOMP_h_33_oversubscribed.full"):
            self.assertFalse(cliff.never_submitted(rel, name), rel)

    def test_the_grade_refuses_a_suite_that_carries_it_and_not_one_that_left_it_out(self):
        base = loader.load_suite(GOLDEN)
        s = copy.deepcopy(base)
        n = len(s.env.plan) + 1
        s.env.plan = s.env.plan + [PlannedRun(n, "oversubscribed", "", ("3", "-1", "63", "102", "32", "1", "1"))]
        left_out = grade.submission_reasons(s, 2)
        self.assertEqual([r for r in left_out if "cliff" in r or (" %d" % n) in r], [])
        s.records[n] = RunRecord(n, "oversubscribed", "%s_oversubscribed.run%d.json" % (s.name, n), copy.deepcopy(s.records[1].doc))
        carried = [r for r in grade.submission_reasons(s, 2) if "cliff" in r]
        self.assertEqual(len(carried), 1)
        self.assertRegex(carried[0], r"cliff's oversubscribed run \(cores \+ 1\) is not submission data.*runs %d " % n)


class NoCharts(object):
    def figure(self, stem, heading, caption):
        return ["<figure id=%s>" % stem]


def construct_row(key, name, kind=None, run="7", level="1"):
    row = {"run": run, "set": "constructs", "construct": key, "construct_name": name, "level": level,
           "outer_threads": "", "inner_threads": "2", "status": "measured", "problem": "", "overhead_us": "1.5",
           "overhead_ci95_low_us": "1.0", "overhead_ci95_high_us": "2.0", "overhead_cycles": "3000"}
    if kind is not None:
        row["kind"] = kind
    return row


class ConstructKinds(unittest.TestCase):
    def test_each_kind_gets_its_own_table_and_chart_in_the_kinds_order(self):
        from clomp_results.suite import html_construct_kinds
        rows = [construct_row("parallel_task", "PARALLEL TASK"), construct_row("barrier", "BARRIER"),
                construct_row("private", "PRIVATE 243"), construct_row("static_monotonic", "STATIC_MONOTONIC"),
                construct_row("x", "<X & Y>", kind="weird")]
        kinds = {"parallel_task": "task", "barrier": "sync", "private": "data", "static_monotonic": "loop"}
        html = "\n".join(html_construct_kinds.sections(rows, kinds, NoCharts()))
        heads = [line for line in html.splitlines() if line.startswith("<h3>")]
        self.assertEqual(heads, ["<h3>Synchronisation</h3>", "<h3>Loop schedules</h3>", "<h3>Tasks (EPCC 4.0 taskbench)</h3>",
                                 "<h3>Data clauses (EPCC 4.0 arraybench)</h3>", "<h3>Other constructs (kind weird)</h3>"])
        self.assertEqual(html.count("<table>"), 5)
        for stem in ("constructs_sync", "constructs_loops", "constructs_task", "constructs_data"):
            self.assertIn("<figure id=%s>" % stem, html)
        task = html.split("<h3>Tasks")[1].split("<h3>")[0]
        self.assertIn("PARALLEL TASK", task)
        self.assertNotIn("BARRIER", task)
        self.assertIn("&lt;X &amp; Y&gt;", html)
        self.assertNotIn("<X & Y>", html)

    def test_a_rows_own_kind_column_wins_over_the_listing(self):
        from clomp_results.suite import html_construct_kinds
        html = "\n".join(html_construct_kinds.sections([construct_row("barrier", "BARRIER", kind="task")],
                                                       {"barrier": "sync"}, NoCharts()))
        self.assertIn("<h3>Tasks (EPCC 4.0 taskbench)</h3>", html)


class SweepLinks(unittest.TestCase):
    def test_the_report_links_the_sweep_pages_beside_it_by_id_and_nothing_else(self):
        import tempfile
        import shutil
        from clomp_results.suite import html_page, report
        d = tempfile.mkdtemp(prefix="clomp-sweep-links.")
        try:
            for name in ("CLOMP_h_10_sweep.html", "CLOMP_h_2_sweep.html", "CLOMP_h_3_compare.txt",
                         'CLOMP_h_4_sweep.html"><script>', "x_1_sweep.html"):
                open(os.path.join(d, name), "w").close()
            found = report.sweep_pages(d)
            self.assertEqual(found, ["CLOMP_h_2_sweep.html", "CLOMP_h_10_sweep.html"])
            html = "\n".join(html_page.sweeps_section(found))
            self.assertIn('<a href="CLOMP_h_2_sweep.html">', html)
            self.assertEqual(html_page.sweeps_section([]), [])
        finally:
            shutil.rmtree(d)


if __name__ == "__main__":
    unittest.main()
