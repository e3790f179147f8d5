"""The --compare report (compare_report.py) from process records it is given:
a comparison that changes compiler and OpenMP runtime at once says so in its
header and suggests gnu,libomp; one that changes one of them does not; every
comparison ends with one overall answer for the primary figure, or says it
was not measured. clomp-stats does the statistics (build/clomp-stats)."""
import json
import os
import shutil
import tempfile
import unittest

from render_fixture import TOP

from clomp_results import compare_report

HELPER = os.environ.get("CLOMP_STATS") or os.path.join(TOP, "build", "clomp-stats")


HOSTILE = 'a,b "q" <x> & \ttab\nnext'


def record(value, compiler, runtime):
    return {"schema": "clomp-result", "build": {"compiler": compiler}, "ompt": {"runtime": runtime},
            "measurements": [{"name": "Static OMP", "selected": True, "us_per_loop": value * 3,
                              "overhead_us_per_loop": value},
                             {"name": HOSTILE, "selected": True, "us_per_loop": value},
                             {"name": "calc_deposit", "selected": True, "us_per_loop": 1.0 + value / 1000}],
            "process_cost": {"user_cpu_seconds": 1.0, "system_cpu_seconds": 0.0}}


@unittest.skipUnless(os.access(HELPER, os.X_OK), "clomp-stats is not built (make clomp-stats)")
class CompareReport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="clomp-compare-test.")
        self.stem = os.path.join(self.dir, "CLOMP_h_1_compare")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def make(self, sides, b_factor=2.0, n=6):
        for r in range(1, n + 1):
            for label, (compiler, runtime), factor in (("A", sides[0], 1.0), ("B", sides[1], b_factor)):
                with open("%s_%s%d.json" % (self.stem, label, r), "w") as f:
                    json.dump(record((1 + r / 100.0) * factor, compiler, runtime), f)
        header = ("date\tnow\nhost\th\narguments\t2 1 64 100 32 1 1\nreplicates\t%d\norder\tABBA\nsequence\t%s\n"
                  "side\tA\tgnu\tgcc build\t./clomp\t\t/lib/libgomp.so.1\tlibgomp1 12\tnot set\n"
                  "side\tB\tllvm\tclang build\tbuild-clang/clomp\t\t/lib/libomp.so.5\tlibomp5 14\tnot set\n"
                  % (n, "ABBA" * (n // 2)))
        return compare_report.report(self.stem, header, HELPER)

    def test_compiler_and_runtime_changed_at_once_is_said_in_the_header(self):
        text = self.make((("GCC 12.2.0", "libgomp"), ("clang 14.0.6", "libomp")))[0]
        head = text.split("\n\n")[0]
        self.assertIn("differ in the compiler (GCC 12.2.0; clang 14.0.6) and the OpenMP runtime (libgomp; libomp)", head)
        self.assertIn("--compare gnu,libomp", head)

    def test_the_runtime_alone_gets_no_such_note(self):
        text = self.make((("GCC 12.2.0", "libgomp"), ("GCC 12.2.0", "libomp")))[0]
        self.assertNotIn("at once", text)

    def test_every_comparison_ends_with_one_answer_for_the_primary_figure(self):
        text, csv_text, js = self.make((("GCC 12.2.0", "libgomp"), ("GCC 12.2.0", "libgomp")))
        last = text.rstrip("\n").split("\n")[-1]
        self.assertTrue(last.startswith("Overall (Static OMP overhead us/Loop, the primary figure): B's Static OMP "
                                        "overhead us/Loop is 2.00x A's ("), last)
        self.assertEqual(json.loads(js.decode())["figures_compared"], 6)

    def test_a_name_with_commas_quotes_tabs_and_newlines_keeps_every_output_whole(self):
        import csv
        import io
        text, csv_text, js = self.make((("GCC", "libgomp"), ("GCC", "libgomp")))
        rows = list(csv.reader(io.StringIO(csv_text)))
        self.assertEqual({len(r) for r in rows}, {15})
        self.assertIn('a,b "q" <x> &  tab next us/Loop', [r[0] for r in rows])
        self.assertEqual(len([l for l in text.splitlines() if l.startswith('a,b "q"')]), 1)
        figures = [f["figure"] for f in json.loads(js.decode())["figures"]]
        self.assertIn('a,b "q" <x> &  tab next us/Loop', figures)

    def test_an_unchanged_primary_figure_answers_no_difference(self):
        text = self.make((("GCC", "libgomp"), ("GCC", "libgomp")), b_factor=1.0)[0]
        self.assertIn("Overall (Static OMP overhead us/Loop, the primary figure): no difference detectable with 6 runs",
                      text.rstrip("\n").split("\n")[-1])

    def test_a_primary_figure_not_measured_is_said(self):
        self.make((("GCC", "libgomp"), ("GCC", "libgomp")))
        text = compare_report.report(self.stem, "replicates\t6\nsequence\tABBAAB\n", HELPER, "BARRIER level 1 (x2) overhead us")[0]
        self.assertIn("Overall: the primary figure, BARRIER level 1 (x2) overhead us, was not measured here", text)

    def construct_records(self, statuses, n=6):
        """--compare --constructs records: two construct levels per process, with these statuses."""
        for r in range(1, n + 1):
            for label in "AB":
                levels = [{"level": 1, "outer_threads": None, "inner_threads": 2, "status": s, "overhead_us": 0.5 + r / 100.0,
                           "problem": "the noise census: a team thread lost 25% of its time or more" if s == "unresolved" else None}
                          for s in statuses]
                doc = {"schema": "clomp-result", "constructs": {"rows": [{"construct_name": "BARRIER", "levels": levels}]}}
                with open("%s_%s%d.json" % (self.stem, label, r), "w") as f:
                    json.dump(doc, f)
        return compare_report.report(self.stem, "replicates\t%d\nsequence\t%s\n" % (n, "ABBA" * (n // 2)), HELPER,
                                     "BARRIER level 1 (x2) overhead us")[0]

    def test_constructs_all_unresolved_say_nothing_could_be_compared_not_no_difference(self):
        text = self.construct_records(["unresolved", "unresolved"])
        self.assertNotIn("no difference detectable", text)
        self.assertIn("Verdict: nothing could be compared: every construct level of all 12 processes was unresolved "
                      "(24 levels; the first's reason: the noise census: a team thread lost 25% of its time or more)", text)
        self.assertEqual(text.rstrip("\n").split("\n")[-1], "Overall: no answer: nothing could be compared (above).")

    def test_constructs_unresolved_or_failed_give_the_count_of_each(self):
        text = self.construct_records(["unresolved", "failed"])
        self.assertNotIn("no difference detectable", text)
        self.assertIn("nothing could be compared: no figure was measured by both sides (construct levels not measured, "
                      "over all 12 processes: 12 failed, 12 unresolved)", text)

    def test_one_measured_construct_level_is_compared_as_before(self):
        text = self.construct_records(["measured", "unresolved"])
        self.assertNotIn("nothing could be compared", text)
        self.assertIn("Verdict: no difference detectable with 6 runs in any figure.", text)


if __name__ == "__main__":
    unittest.main()
