"""The --compare report (compare_report.py) from process records it is given:
a comparison that changes compiler and OpenMP runtime at once says so in its
header and suggests gnu,libomp; one that changes one of them does not; every
comparison ends with one overall answer for the primary figure (named by its
KEY), or says it was not measured; figures with one value everywhere are not
counted. clomp-stats does the statistics (build/clomp-stats)."""
import decimal
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import unittest
from unittest import mock

from render_fixture import TOP

from clomp_results.compare import compare_report, compare_sides, compare_words

HELPER = os.environ.get("CLOMP_STATS") or os.path.join(TOP, "build", "clomp-stats")


HOSTILE = 'a,b "q" <x> & \ttab\nnext'


def scrambled(r, n):
    """1..n in an order without a trend ((5 r) mod (n + 1), n + 1 prime to 5): pair differences that drift
    with the pair number would be serially correlated, which the report checks and widens for."""
    return (5 * r) % (n + 1)


def record(value, compiler, runtime):
    return {"schema": "clomp-result", "build": {"compiler": compiler}, "ompt": {"runtime": runtime},
            "measurements": [{"name": "Static OMP", "key": "static", "role": "checked", "selected": True, "us_per_loop": value * 3,
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
                    json.dump(record((1 + scrambled(r, n) / 100.0) * factor, compiler, runtime), f)
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

    def test_each_side_says_which_library_its_processes_loaded(self):
        """The records' ompt.runtime_path, counted per side, in the text and the JSON; a path that is not the
        one ldd resolved is said; records without it say so."""
        n = 6
        self.make((("GCC 12.2.0", "libgomp"), ("GCC 12.2.0", "libomp")), n=n)
        for r in range(1, n + 1):
            for label, path in (("A", "/lib/libgomp.so.1"), ("B", "/x/llvm-19/lib/libomp.so.5" if r <= 4 else None)):
                name = "%s_%s%d.json" % (self.stem, label, r)
                doc = json.load(open(name))
                doc["ompt"]["runtime_path"] = path
                json.dump(doc, open(name, "w"))
        header = ("date\tnow\nhost\th\narguments\t2 1 64 100 32 1 1\nreplicates\t%d\norder\tABBA\nsequence\t%s\n"
                  "side\tA\tgnu\tgcc build\t./clomp\t\t/lib/libgomp.so.1\tlibgomp1 12\tnot set\n"
                  "side\tB\tlibomp19\tclang build\tbuild-clang/clomp\t/x\t/lib/libomp.so.5\tlibomp5-19 1:19\tnot set\n"
                  % (n, "ABBA" * (n // 2)))
        text, _, js = compare_report.report(self.stem, header, HELPER)
        self.assertIn("loaded by its processes: /lib/libgomp.so.1 (all 6 processes)\n", text)
        b = "/x/llvm-19/lib/libomp.so.5 (4 processes); not recorded (a clomp before schema_minor 15) (2 processes); " \
            "not the library ldd resolved for the side (/lib/libomp.so.5)"
        self.assertIn("loaded by its processes: %s\n" % b, text)
        sides = json.loads(js)["sides"]
        self.assertEqual([s["runtime_library"]["loaded_by_processes"] for s in sides],
                         ["/lib/libgomp.so.1 (all 6 processes)", b])

    def test_the_runtime_alone_gets_no_such_note(self):
        text = self.make((("GCC 12.2.0", "libgomp"), ("GCC 12.2.0", "libomp")))[0]
        self.assertNotIn("at once", text)

    def test_every_comparison_ends_with_one_answer_for_the_primary_figure(self):
        text, csv_text, js = self.make((("GCC 12.2.0", "libgomp"), ("GCC 12.2.0", "libgomp")))
        last = text.rstrip("\n").split("\n")[-1]
        self.assertTrue(last.startswith("Overall (static_omp_median_overhead_us: Static OMP overhead us/Loop (median "
                                        "chunks), the primary figure): B's Static OMP overhead us/Loop (median chunks) "
                                        "is 1.0"), last)
        self.assertIn(" us above A's (shift ", last)
        # static us/Loop, static overhead, the hostile name's us/Loop and calc_deposit's; the CPU seconds are the
        # same in every process: not counted.
        self.assertEqual(json.loads(js.decode())["figures_compared"], 4)
        self.assertIn("Not counted (constant): user_cpu_seconds (the same value in every process), system_cpu_seconds", text)

    def test_a_name_with_commas_quotes_tabs_and_newlines_keeps_every_output_whole(self):
        import csv
        import io
        text, csv_text, js = self.make((("GCC", "libgomp"), ("GCC", "libgomp")))
        rows = list(csv.reader(io.StringIO(csv_text)))
        self.assertEqual({len(r) for r in rows}, {31})
        self.assertIn('a,b "q" <x> &  tab next us/Loop (median chunk)', [r[0] for r in rows])
        # the table names the figure by its KEY (letters, digits, '_'); the name stays whole in the CSV and JSON
        self.assertEqual(len([l for l in text.splitlines() if l.startswith("a_b_q_x_tab_next_median_us_per_loop ")]), 1)
        self.assertFalse([l for l in text.splitlines() if l.lstrip().startswith("next")])
        self.assertIn("a_b_q_x_tab_next_median_us_per_loop", [r[15] for r in rows])
        figures = [f["figure"] for f in json.loads(js.decode())["figures"]]
        self.assertIn('a,b "q" <x> &  tab next us/Loop (median chunk)', figures)

    def test_every_class_of_control_character_in_a_record_or_the_header_reaches_no_text_or_csv_raw(self):
        """The 22 classes of the bundle tests (test_untrusted_strings.CLASSES) in the compilers, runtimes and a
        measurement's name of the records, and in the header's host, arguments and a setting: the text and the
        CSV carry none raw (safe_text.lines_text), by Python's Unicode database."""
        from test_untrusted_strings import CLASSES, raw_in_lines
        for cls, payload in CLASSES.items():
            with mock.patch(__name__ + ".HOSTILE", "name" + payload):
                text, csv_text, _ = self.make((("GCC" + payload, "libgomp" + payload), ("GCC", "libomp")))
            self.assertEqual(raw_in_lines(text) + raw_in_lines(csv_text), [], cls)
            # (the driver's header is its own lines of tab-separated cells: no line or cell separator in one; its
            # side records go to clomp-stats, which refuses control characters in them)
            said = "".join(" " if c == "\t" or len(("a" + c + "b").splitlines()) > 1 else c for c in payload)
            header = ("date\tnow\nhost\th%s\narguments\t2 1 64 100 32 1 1%s\nreplicates\t6\norder\tABBA\n"
                      "sequence\tABBAABBAABBA\nsetting\tA\tOMP_X\tv%s\n"
                      "side\tA\tgnu\tgcc build\t./clomp\t\t/lib/libgomp.so.1\tlibgomp1 12\tnot set\n"
                      "side\tB\tllvm\tclang build\tbuild-clang/clomp\t\t/lib/libomp.so.5\tlibomp5 14\tnot set\n"
                      % (said, said, said))
            text, csv_text, _ = compare_report.report(self.stem, header, HELPER)
            self.assertEqual(raw_in_lines(text) + raw_in_lines(csv_text), [], cls + " in the header")

    def test_an_unchanged_primary_figure_answers_no_difference(self):
        text = self.make((("GCC", "libgomp"), ("GCC", "libgomp")), b_factor=1.0)[0]
        self.assertIn("Overall (static_omp_median_overhead_us: Static OMP overhead us/Loop (median chunks), the primary "
                      "figure): no difference detectable with 6 pairs; every pair differs by the same amount",
                      text.rstrip("\n").split("\n")[-1])

    def test_a_key_printed_before_issue_43_names_its_figure(self):
        text = self.make((("GCC", "libgomp"), ("GCC", "libgomp")))[0]
        old = compare_report.report(self.stem, "replicates\t6\nsequence\tABBAAB\n", HELPER, "static_overhead")[0]
        self.assertEqual(text.rstrip("\n").split("\n")[-1], old.rstrip("\n").split("\n")[-1])

    def test_a_primary_figure_not_measured_is_said(self):
        self.make((("GCC", "libgomp"), ("GCC", "libgomp")))
        text = compare_report.report(self.stem, "replicates\t6\nsequence\tABBAAB\n", HELPER, "barrier_level1_overhead")[0]
        self.assertIn("Overall: no answer on the primary figure, barrier_level1_overhead: it was not measured here", text)

    def test_a_side_whose_processes_were_busy_is_named_in_the_last_line(self):
        # Item 6 of issue 43: side B's 6 processes ran on a busy machine and marked Static OMP invalid; the last
        # line says which reason holds on which side (the records' census and valid flags, read here as the oracle).
        self.make((("GCC", "libgomp"), ("GCC", "libgomp")))
        for r in range(1, 7):
            path = "%s_B%d.json" % (self.stem, r)
            with open(path) as f:
                doc = json.load(f)
            doc["noise_census"] = {"busy": True, "busy_reason": "thread 0 lost 60%"}
            doc["measurements"][0].update(valid=False, overhead_us_per_loop=None, us_per_loop=None)
            with open(path, "w") as f:
                json.dump(doc, f)
        text = compare_report.report(self.stem, "replicates\t6\nsequence\tABBAAB\n", HELPER)[0]
        self.assertEqual(text.rstrip("\n").split("\n")[-1],
                         "Overall: no answer on the primary figure, static_omp_median_overhead_us: it was not a result in "
                         "any pair (side B: 6 of 6 processes busy; the processes' output is in .full).")

    def test_busy_or_invalid_processes_give_no_value_their_pairs_are_left_out_and_named(self):
        # The reviewer's case: records that keep their values but say they are not a result (the noise census
        # busy, Static OMP valid: false). The oracle reads the records' own flags back: a pair is kept when
        # neither process is busy and (for Static OMP's figures) neither marked it invalid; the medians are the
        # kept values'; each side's left-out processes are counted by reason.
        n, busy, invalid = 8, {("A", 2), ("B", 5), ("B", 6)}, {("A", 7), ("B", 3), ("B", 5)}
        self.make((("GCC", "libgomp"), ("GCC", "libgomp")), n=n)
        for label, r in busy | invalid:
            path = "%s_%s%d.json" % (self.stem, label, r)
            with open(path) as f:
                doc = json.load(f)
            if (label, r) in busy:
                doc["noise_census"] = {"busy": True, "busy_reason": "thread 1 lost 40%"}
            if (label, r) in invalid:
                doc["measurements"][0]["valid"] = False   # its values stay in the record, as clomp writes them
            with open(path, "w") as f:
                json.dump(doc, f)
        docs = {}
        for label in "AB":
            for r in range(1, n + 1):
                with open("%s_%s%d.json" % (self.stem, label, r)) as f:
                    docs[label, r] = json.load(f)

        def result(label, r, static):
            d = docs[label, r]
            return not (d.get("noise_census") or {}).get("busy") and not (static and d["measurements"][0].get("valid") is False)

        text, _, js = compare_report.report(self.stem, "replicates\t%d\nsequence\t%s\n" % (n, "AB" * n), HELPER)
        by_key = dict((f["key"], f) for f in json.loads(js.decode())["figures"])
        dropped = json.loads(js.decode())["dropped"]
        for key, static, value in (("static_omp_median_overhead_us", True, lambda d: d["measurements"][0]["overhead_us_per_loop"]),
                                   ("static_omp_median_us_per_loop", True, lambda d: d["measurements"][0]["us_per_loop"]),
                                   ("calc_deposit_median_us_per_loop", False, lambda d: d["measurements"][2]["us_per_loop"]),
                                   ("user_cpu_seconds", False, lambda d: d["process_cost"]["user_cpu_seconds"])):
            kept = [r for r in range(1, n + 1) if result("A", r, static) and result("B", r, static)]
            self.assertTrue(0 < len(kept) < n)
            fig = by_key[key]
            self.assertEqual(fig["a"], [value(docs["A", r]) for r in kept], key)
            self.assertEqual(fig["b"], [value(docs["B", r]) for r in kept], key)
            if key != "user_cpu_seconds":   # 1.0 everywhere: not counted, no median
                self.assertAlmostEqual(fig["median_a"], statistics.median(value(docs["A", r]) for r in kept), places=12)
                self.assertAlmostEqual(fig["median_b"], statistics.median(value(docs["B", r]) for r in kept), places=12)
            for label in "AB":
                lost = {}
                for r in range(1, n + 1):
                    if (docs[label, r].get("noise_census") or {}).get("busy"):
                        lost["busy"] = lost.get("busy", 0) + 1
                    elif static and docs[label, r]["measurements"][0].get("valid") is False:
                        lost["marked invalid by its run"] = lost.get("marked invalid by its run", 0) + 1
                self.assertEqual(dict((d["reason"], d["processes"]) for d in dropped if d["key"] == key and d["side"] == label),
                                 lost, "%s side %s" % (key, label))
        kept = [r for r in range(1, n + 1) if result("A", r, True) and result("B", r, True)]
        self.assertIn("Primary figure: static_omp_median_overhead_us (Static OMP overhead us/Loop (median chunks)), %d pairs."
                      % len(kept), text)
        self.assertIn("Processes left out: %d of %d pairs kept; A lost 2 (busy 1, marked invalid by its run 1); B lost 3 "
                      "(busy 2, marked invalid by its run 1); B lost more: the pairs kept may favour B." % (len(kept), n), text)

    def test_every_process_busy_compares_nothing_and_says_why(self):
        self.make((("GCC", "libgomp"), ("GCC", "libgomp")))
        for label in "AB":
            for r in range(1, 7):
                path = "%s_%s%d.json" % (self.stem, label, r)
                with open(path) as f:
                    doc = json.load(f)
                doc["noise_census"] = {"busy": True, "busy_reason": "thread 1 lost 40%"}
                with open(path, "w") as f:
                    json.dump(doc, f)
        text, _, js = compare_report.report(self.stem, "replicates\t6\nsequence\tABBAAB\n", HELPER)
        self.assertEqual(json.loads(js.decode())["figures"], [])
        self.assertIn("Verdict: nothing could be compared: no figure was a result in any pair (side A: 6 of 6 processes "
                      "busy; side B: 6 of 6 processes busy), so neither a difference nor its absence can be said.", text)
        for key in ("static_omp_median_us_per_loop", "calc_deposit_median_us_per_loop", "user_cpu_seconds"):
            self.assertIn("\n  %s: no pair kept; A lost 6 (busy 6); B lost 6 (busy 6)\n" % key, text)
        # Nothing compared: no sentence about an empty family of other figures, no table heading without rows.
        self.assertNotIn("Other figures:", text)
        self.assertNotIn("A median", text)
        self.assertEqual(text.rstrip("\n").split("\n")[-1],
                         "Overall: no answer on the primary figure, static_omp_median_overhead_us: it was not a result in "
                         "any pair (side A: 6 of 6 processes busy; side B: 6 of 6 processes busy; the processes' output "
                         "is in .full).")

    def test_a_figure_holm_finds_different_at_its_second_step_has_an_interval_that_excludes_no_change(self):
        # Two Holm figures over 10 pairs: Static OMP us/Loop doubled (p = 2/1024, Holm's first step, at
        # 0.05/2) and X, whose differences have the ranks 1, 3, 4 negative (W- = 8: p = 50/1024 = 0.0488,
        # above 0.05/2, at or below 0.05/1, Holm's second step). Its interval is at that step's level, 95%.
        n, ranks = 10, [5, -1, 9, 2, -4, 7, 10, -3, 6, 8]   # in no order: no serial correlation
        for r in range(1, n + 1):
            for label in "AB":
                doc = record((1 + scrambled(r, n) / 100.0) * (2 if label == "B" else 1), "GCC", "libgomp")
                doc["measurements"] = doc["measurements"][:1] + [
                    {"name": "X", "key": "x", "selected": True,
                     "us_per_loop": 5.0 + r / 7.0 + (ranks[r - 1] * 0.01 if label == "B" else 0.0)}]
                with open("%s_%s%d.json" % (self.stem, label, r), "w") as f:
                    json.dump(doc, f)
        js = compare_report.report(self.stem, "replicates\t%d\nsequence\t%s\n" % (n, "AB" * n), HELPER)[2]
        x = [f for f in json.loads(js.decode())["figures"] if f["key"] == "x_median_us_per_loop"][0]
        self.assertAlmostEqual(x["paired"]["p"], 50 / 1024.0, places=12)
        self.assertEqual(x["detected"], 1, "Holm's second step rejects at 0.05/1")
        self.assertAlmostEqual(x["paired"]["ci_level_asked"], 1 - 0.05 / 1, places=12)
        low, high = x["paired"]["shift_ci"]
        self.assertTrue(low > 0 and high > 0, "a figure said to differ has an interval holding no change: %r" % ([low, high],))

    def primary_only(self, a, b, looks=None, invalid_b=()):
        """Pairs whose primary figure (the project's overhead, static_omp_median_overhead_us) is a[i], b[i]; B's processes numbered in INVALID_B
        marked not a result by their run (no overhead, the reason clomp gives)."""
        n = len(a)
        for r in range(1, n + 1):
            for label, v in (("A", a[r - 1]), ("B", b[r - 1])):
                m = {"name": "Static OMP", "key": "static", "role": "checked", "selected": True, "us_per_loop": 10.0,
                     "overhead_us_per_loop": v}
                if label == "B" and r in invalid_b:
                    m.update(overhead_us_per_loop=None, valid=False, invalid_reason="its Runtime us/Loop 18.28 (the mean "
                             "over its chunks) is 3.42x its median chunk's 5.35, beyond the factor 2: ...")
                with open("%s_%s%d.json" % (self.stem, label, r), "w") as f:
                    json.dump({"schema": "clomp-result", "measurements": [m]}, f)
        header = "replicates\t%d\nsequence\t%s\n" % (n, "AB" * n) + ("looks\t%s\n" % looks if looks else "")
        return compare_report.report(self.stem, header, HELPER)

    def test_ties_and_zeros_never_say_differs_beside_an_interval_holding_0(self):
        # Issue 44: five differences of +0.004 and three zeros gave p = 0.037 (normal, zeros dropped), "decided",
        # beside a shift interval 0.000 .. 0.004. The exact conditional p is 2/32.
        a = [1.0] * 8
        b = [1.004, 1.0, 1.004, 1.004, 1.0, 1.004, 1.0, 1.004]
        text, _, js = self.primary_only(a, b)
        overall = text.rstrip("\n").split("\n")[-1]
        self.assertIn("no difference detectable with 8 pairs", overall)
        figure = [f for f in json.loads(js.decode())["figures"] if f["key"] == "static_omp_median_overhead_us"][0]
        self.assertAlmostEqual(figure["paired"]["p"], 2 / 32.0, places=12)
        self.assertFalse(figure["detected"])

    def test_ten_zeros_and_six_ones_differ_with_an_interval_that_excludes_0(self):
        a = [1.0] * 16
        b = [1.0 + (1 if (5 * r) % 17 >= 11 else 0) for r in range(1, 17)]   # six ones, in no order
        text, _, js = self.primary_only(a, b)
        overall = text.rstrip("\n").split("\n")[-1]
        self.assertIn("above A's (shift 0.0 (excluded)..", overall)
        figure = [f for f in json.loads(js.decode())["figures"] if f["key"] == "static_omp_median_overhead_us"][0]
        self.assertAlmostEqual(figure["paired"]["p"], 2 / 64.0, places=12)
        self.assertTrue(figure["paired"]["shift_ci_low_open"])

    def test_six_equal_differences_at_the_first_look_decide_nothing_and_print_no_missing_interval(self):
        text = self.primary_only([1.0] * 6, [2.0] * 6, looks="6,10,13,17,20")[0]
        self.assertNotIn("None", text)
        self.assertIn("no interval: the test keeps every shift at this level", text)
        self.assertIn("not decided", text.split("Group-sequential")[1])
        self.assertIn("every pair differs by the same amount", text.rstrip("\n").split("\n")[-1])

    def test_a_side_losing_more_processes_is_named_with_the_reason(self):
        a = [1.0 + 0.01 * ((5 * r) % 11) for r in range(1, 11)]
        b = [v + 0.5 for v in a]
        text, _, js = self.primary_only(a, b, invalid_b=(2, 7))
        self.assertIn("Processes left out: 8 of 10 pairs kept; A lost 0; B lost 2 (mean and median chunk apart 2); "
                      "B lost more: the pairs kept may favour B.", text)
        # Static OMP marked invalid: its us/Loop (10.0 kept in the record) is no result either, left out for the same reason.
        dropped = json.loads(js.decode())["dropped"]
        self.assertEqual(sorted(dropped, key=lambda d: d["key"]),
                         [{"key": key, "side": "B", "processes": 2, "reason": "mean and median chunk apart"}
                          for key in ("static_omp_median_overhead_us", "static_omp_median_us_per_loop")])

    def test_the_error_rate_of_the_report_is_stated(self):
        text = self.make((("GCC", "libgomp"), ("GCC", "libgomp")))[0]
        self.assertIn("the primary answer at 0.05 and the other figures' family under Holm at 0.05: a false 'differs' "
                      "anywhere in this report has probability at most 0.1", text)

    def test_power_says_what_it_assumes(self):
        a = [1.0 + 0.01 * ((5 * r) % 11) for r in range(1, 11)]
        b = [v + 0.003 * (-1) ** r for r, v in enumerate(a)]
        text = self.primary_only(a, b)[0]
        self.assertIn("80% power at a shift of about", text)
        self.assertIn("if differences are normal with the spread seen (sd 0.003)", text)
        self.assertIn("planned on the spread's 80% upper bound", text)

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
                                     "barrier_level1_overhead")[0]

    def test_figures_the_same_in_every_process_are_not_called_equal(self):
        # Both sides give the figure, with one value everywhere: constant, never tested, so never "no difference".
        for r in range(1, 7):
            for label in "AB":
                levels = [{"level": 1, "outer_threads": None, "inner_threads": 2, "status": "measured",
                           "overhead_us": 0.5, "problem": None}]
                doc = {"schema": "clomp-result", "constructs": {"rows": [{"construct_name": "BARRIER", "levels": levels}]}}
                with open("%s_%s%d.json" % (self.stem, label, r), "w") as f:
                    json.dump(doc, f)
        text = compare_report.report(self.stem, "replicates\t6\nsequence\tABBAABBAABBA\n", HELPER,
                                     "barrier_level1_overhead")[0]
        self.assertNotIn("no difference detectable", text)
        self.assertIn("Verdict: nothing was tested: every figure both sides gave is constant by definition", text)
        self.assertEqual(text.rstrip("\n").split("\n")[-1], "Overall: no answer: nothing was tested (above).")

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
        self.assertIn("Verdict: no difference detectable with 6 pairs in any figure.", text)


def ask(*args):
    return subprocess.run([HELPER] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def plain_signed_rank(d):
    """(Hodges-Lehmann, exact two-sided p) of untied, non-zero d: every one of the 2^n sign patterns."""
    n = len(d)
    walsh = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    m = len(walsh)
    hl = walsh[m // 2] if m % 2 else (walsh[m // 2 - 1] + walsh[m // 2]) / 2
    ranks = {i: 1 + sum(abs(d[j]) < abs(d[i]) for j in range(n)) for i in range(n)}
    w = sum(ranks[i] for i in range(n) if d[i] > 0)
    ws = [sum(k + 1 for k in range(n) if mask >> k & 1) for mask in range(2 ** n)]
    low, high = sum(x <= w for x in ws), sum(x >= w for x in ws)
    return hl, min(1.0, 2 * min(low, high) / 2 ** n)


def plain_holm(p, alpha):
    order = sorted(range(len(p)), key=lambda i: (p[i], i))
    reject, adjusted, running, stopped = [0] * len(p), [0.0] * len(p), 0.0, False
    for j, i in enumerate(order):
        if not stopped and p[i] <= alpha / (len(p) - j):
            reject[i] = 1
        else:
            stopped = True
        running = max(running, min(1.0, (len(p) - j) * p[i]))
        adjusted[i] = running
    return reject, adjusted


@unittest.skipUnless(os.access(HELPER, os.X_OK), "clomp-stats is not built (make clomp-stats)")
class SideRuntime(unittest.TestCase):
    """with_runtime: each side's runtime library as `env LD_LIBRARY_PATH=FIRST:... SETTINGS...
    clomp-results runtime-library BINARY` (what the driver ran before) answers it, and where its
    threads run: the first placement variable its settings set, else the driver's environment."""
    def test_each_side_gets_the_runtime_its_own_environment_loads(self):
        clomp = os.path.join(TOP, "clomp")
        if not os.access(clomp, os.X_OK) or shutil.which("ldd") is None:
            self.skipTest("needs ./clomp and ldd")
        real = compare_sides.runtime_library.loaded_runtime(clomp)[0]
        if real == "unknown":
            self.skipTest("./clomp loads no OpenMP runtime ldd names")
        # The name the binary asks for (libgomp.so.1, libomp.so.5), from ldd's own line for that library.
        needed = [line.split(" => ")[0].strip() for line in
                  subprocess.run(["ldd", clomp], stdout=subprocess.PIPE).stdout.decode().splitlines()
                  if " => " in line and os.path.realpath(line.split(" => ")[1].split(" (")[0]) == os.path.realpath(real)]
        if not needed:
            self.skipTest("ldd names no library that is %s" % real)
        with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as setting:
            for directory in (first, setting):   # copies, so that their real paths differ from the system's
                shutil.copy(real, os.path.join(directory, needed[0]))
            header = "date\td\nside\tA\tgnu\tw\t%s\t\nside\tB\tx\tw\t%s\t%s\n" % (clomp, clomp, first)
            header += "setting\tA\tLD_LIBRARY_PATH\t%s\nsetting\tA\tOMP_X\ta\tb\nsetting\tA\tOMP_PLACES\tcores\n" % setting
            sides = [line.split("\t") for line in compare_sides.with_runtime(header).splitlines() if line.startswith("side")]
            for side, env in ((sides[0], ["LD_LIBRARY_PATH=" + setting, "OMP_X=a\tb", "OMP_PLACES=cores"]),
                              (sides[1], ["LD_LIBRARY_PATH=" + first + (":" + os.environ["LD_LIBRARY_PATH"]
                                                                      if os.environ.get("LD_LIBRARY_PATH") else "")])):
                answer = subprocess.run(["env"] + env + ["python3", os.path.join(TOP, "results", "clomp-results"),
                                                         "runtime-library", clomp],
                                        stdout=subprocess.PIPE, check=True).stdout.decode().rstrip("\n").split("\t")
                self.assertEqual(len(side), 9, side)
                self.assertEqual(side[6:8], answer, side[1])
            self.assertTrue(sides[0][6].startswith(setting) and sides[1][6].startswith(first), sides)
            clean = {k: v for k, v in os.environ.items() if k not in ("OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY",
                                                                      "KMP_AFFINITY")}
            for driver, b_placement in (({}, "not set: the threads may migrate (no OMP_PROC_BIND, OMP_PLACES, "
                                              "KMP_AFFINITY, GOMP_CPU_AFFINITY)"),
                                        ({"GOMP_CPU_AFFINITY": "0-1"}, "set in the driver's environment (GOMP_CPU_AFFINITY=0-1)")):
                with mock.patch.dict(os.environ, dict(clean, **driver), clear=True):
                    sides = [line.split("\t") for line in compare_sides.with_runtime(header).splitlines() if line.startswith("side")]
                self.assertEqual([sides[0][8], sides[1][8]], ["set by the side (OMP_PLACES)", b_placement])


class PairedAnswers(unittest.TestCase):
    def test_paired_gives_the_hodges_lehmann_shift_and_exact_p_of_every_sign_pattern(self):
        rng = random.Random(31)
        for n in (6, 7, 9, 12):
            a = [rng.uniform(1, 2) for _ in range(n)]
            b = [x + rng.gauss(0.3, 0.5) for x in a]
            doc = json.loads(ask("paired", "--json", ",".join(map(repr, a)), ",".join(map(repr, b))).stdout)
            hl, p = plain_signed_rank([y - x for x, y in zip(a, b)])
            self.assertAlmostEqual(doc["estimate"], hl, places=12)
            self.assertAlmostEqual(doc["p"], p, places=12)
            self.assertEqual(doc["test"], "exact")
            self.assertEqual(doc["decided"], 1 if p <= 0.05 else 0)
            self.assertEqual(doc["nominal_alpha"], 0.05)

    def test_paired_names_p_b_greater_as_the_share_of_pairs_with_b_larger(self):
        a, b = [1, 2, 3, 4, 5, 6], [2, 2, 7, 1, 9, 5.5]
        doc = json.loads(ask("paired", "--json", ",".join(map(str, a)), ",".join(map(str, b))).stdout)
        share = sum(1.0 if y > x else 0.5 if y == x else 0.0 for x in a for y in b) / 36
        self.assertAlmostEqual(doc["p_b_greater"], share, places=14)

    def test_the_detectable_shift_keeps_its_digits_when_the_shift_interval_is_wide(self):
        # detection 5's pairs at +0.2 us (two outlying processes): the shift's interval is -0.6..2.9,
        # and the 80%-power shift (about 0.3) once printed as "0" at that interval's precision.
        a = [2.81, 0.717, 0.847, 0.768, 1.61, 0.785, 0.997, 0.917, 0.834, 1.01]
        b = [1.02, 7.10, 1.10, 0.923, 1.03, 1.85, 1.09, 1.03, 1.05, 1.15]
        doc = json.loads(ask("paired", "--json", ",".join(map(str, a)), ",".join(map(str, b))).stdout)
        self.assertGreater(doc["ci_high"] - doc["ci_low"], 1.0)
        shown = float(doc["detectable_text"])
        self.assertGreater(doc["detectable_80"], 0.0)
        self.assertLessEqual(abs(shown - doc["detectable_80"]), 0.01 * doc["detectable_80"],
                             "detectable_text %r for detectable_80 %r" % (doc["detectable_text"], doc["detectable_80"]))

    def test_looks_lower_the_level_and_tests_share_it(self):
        a, b = "1,2,3,4,5,6,7,8,9,10", "2,3,4,5,6,7,8,9,10,11.5"
        fixed = json.loads(ask("paired", "--json", "--tests", "4", a, b).stdout)
        self.assertEqual(fixed["nominal_alpha"], 0.0125)
        looks = json.loads(ask("paired", "--json", "--looks", "6,10,13,17,20", a, b).stdout)
        self.assertEqual(looks["look"], 2)
        self.assertLess(looks["nominal_alpha"], 0.05)
        self.assertLessEqual(looks["overall_alpha"], 0.05)

    def test_holm_agrees_with_a_plain_step_down(self):
        rng = random.Random(7)
        for m in (1, 2, 5, 16):
            p = [rng.uniform(0, 0.08) ** 1.5 for _ in range(m)]
            doc = json.loads(ask("holm", "--json", "0.05", ",".join(map(repr, p))).stdout)
            reject, adjusted = plain_holm(p, 0.05)
            self.assertEqual(doc["reject"], reject)
            for x, y in zip(doc["adjusted"], adjusted):
                self.assertAlmostEqual(x, y, places=14)
        doc = json.loads(ask("holm", "--json", "0.05", "0.01,0.04,0.03,0.005").stdout)
        self.assertEqual((doc["reject"], doc["adjusted"]), ([1, 0, 0, 1], [0.03, 0.06, 0.06, 0.02]))

    def test_tied_p_values_share_their_step_and_every_report_takes_the_level_from_c(self):
        # Issue 44: p = (0.01, 0.01, 0.5) gave 0.9833/0.975 in C and 0.9833/0.9833 in Python. One Holm: both
        # tied figures are tested at the first tie's step (Holm rejects both or neither there).
        doc = json.loads(ask("holm", "--json", "0.05", "0.01,0.01,0.5").stdout)
        self.assertEqual(doc["reject"], [1, 1, 0])
        for got, want in zip(doc["interval_level"], [1 - 0.05 / 3, 1 - 0.05 / 3, 1 - 0.05 / 3]):
            self.assertAlmostEqual(got, want, places=12)
        self.assertFalse(hasattr(compare_report, "holm"), "the report has no Holm of its own")

    def test_bad_input_is_refused_with_one_line_and_exit_2(self):
        for args, said in ((["paired", "1,2,3", "1,2"], "3 values of A but 2 of B"),
                           (["paired", "--looks", "6,6", "1,2", "1,2"], "--looks: '6,6'"),
                           (["paired", "--alpha", "2", "1,2", "1,2"], "--alpha: '2'"),
                           (["holm", "0.05", "0.1,1.5"], "'1.5' is not between 0 and 1"),
                           (["paired", "1,x", "1,2"], "'x' is not a number")):
            done = ask(*args)
            err = done.stderr.decode()
            self.assertEqual((done.returncode, err.count("\n")), (2, 1), args)
            self.assertIn(said, err)


class IntervalText(unittest.TestCase):
    """The shift's interval in words (compare_words.interval_text): each bound at the decimals clomp-stats
    printed it with, rounded outward: never inside the computed interval, and no wider than one step of
    those decimals needs. Brute force over values, each side of 0, printed as clomp-stats does (nearest)."""

    @staticmethod
    def values():
        rng = random.Random(54)
        out = [0.0, 1e-9, 0.005, 0.015, 0.125, 0.5, 1.0, 2.5, 9.995, 10.0, 11.06, 99.95, 123.456, 1e6 + 0.5]
        out += [rng.uniform(0, 10 ** rng.randint(-3, 5)) for _ in range(400)]
        return out + [-x for x in out]

    def test_bounds_round_outward_at_clomp_stats_decimals(self):
        bad = []
        for x in self.values():
            for low, high in ((x, x + abs(x) * 0.37 + 0.001), (x - abs(x) * 0.21 - 0.002, x)):
                for d in range(0, 5):
                    c = {"ci_low": low, "ci_high": high, "ci_low_text": "%.*f" % (d, low), "ci_high_text": "%.*f" % (d, high)}
                    text = compare_words.interval_text(c)
                    lo, hi = text.split("..")
                    step = decimal.Decimal(1).scaleb(-d)
                    exact_lo, exact_hi = decimal.Decimal(repr(low)), decimal.Decimal(repr(high))
                    if any((len(t.split(".")[1]) if "." in t else 0) != d for t in (lo, hi)):
                        bad.append("not at %d decimals: %r..%r printed %s" % (d, low, high, text))
                    elif decimal.Decimal(lo) > exact_lo or decimal.Decimal(hi) < exact_hi:
                        bad.append("inward: %r..%r at %d decimals printed %s" % (low, high, d, text))
                    elif decimal.Decimal(lo) + step <= exact_lo or decimal.Decimal(hi) - step >= exact_hi:
                        bad.append("wider than it needs: %r..%r at %d decimals printed %s" % (low, high, d, text))
                    elif hi.startswith("-") and decimal.Decimal(hi) == 0 or lo.startswith("-") and decimal.Decimal(lo) == 0:
                        bad.append("a negative zero: %s" % text)
        self.assertEqual(bad[:5], [], "%d of the printed intervals are wrong" % len(bad))

    def test_an_end_at_zero_the_test_rejects_is_said_excluded(self):
        c = {"ci_low": 0.0, "ci_high": 0.123, "ci_low_text": "0.00", "ci_high_text": "0.12", "ci_low_open": True}
        self.assertEqual(compare_words.interval_text(c), "0.00 (excluded)..0.13")
        self.assertIsNone(compare_words.interval_text({"ci_low": None}))


class OmptTaxLeftOut(unittest.TestCase):
    """--ompt-tax's report (ompt_tax_report.py) from two forged comparisons: a figure no pair of a
    comparison gave as a result is no row, and is named with each side's processes and reasons."""

    def test_a_figure_no_pair_gave_is_named_with_its_reasons_not_a_row(self):
        from clomp_results.compare import ompt_tax_report
        work = tempfile.mkdtemp(prefix="clomp-tax-test.")
        self.addCleanup(shutil.rmtree, work, True)
        kept = {"figure": "Serial Ref us/Loop (median chunk)", "key": "serial_ref_median_us_per_loop", "median_a": 2.0,
                "median_b": 2.2, "scale": "ratio", "estimate": 1.1, "ci_95": [1.0, 1.2]}
        dropped = [{"key": "omp_barrier_median_us_per_loop", "side": "A", "processes": 1, "reason": "busy"},
                   {"key": "omp_barrier_median_us_per_loop", "side": "B", "processes": 2, "reason": "busy"},
                   {"key": "omp_barrier_median_us_per_loop", "side": "B", "processes": 1, "reason": "marked invalid by its run"},
                   {"key": "serial_ref_median_us_per_loop", "side": "B", "processes": 1, "reason": "busy"}]
        for name in ("trivial", "sampling"):
            os.mkdir(os.path.join(work, name))
            with open(os.path.join(work, name, "CLOMP_h_1_compare.json"), "w") as f:
                json.dump({"figures": [kept], "dropped": dropped}, f)
            for r in (1, 2, 3):
                with open(os.path.join(work, name, "CLOMP_h_1_compare_B%d.json" % r), "w") as f:
                    json.dump({"schema": "clomp-result", "measurements": []}, f)
        text, csv_text = ompt_tax_report.report(os.path.join(work, "CLOMP_h_1"), "libomp", 3, work, "")
        # The oracle: the forged dropped records of the figure the comparisons kept no pair of.
        for name in ("trivial", "sampling"):
            self.assertIn("Not in the table: no pair of the %s comparison gave as a result (busy or invalid processes, "
                          "docs/compare.md): omp_barrier_median_us_per_loop (A: 1 busy; B: 2 busy, 1 marked invalid by its "
                          "run).\n" % name, text)
        self.assertEqual([line.split(",")[0] for line in csv_text.splitlines()[1:]], [kept["figure"]])


if __name__ == "__main__":
    unittest.main()
