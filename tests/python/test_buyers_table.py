"""Issue 33: the buyer's table (./clomp_compare). Submissions (suite
directories, bundles, CLOMP 1.2 text) become records whose figures are the
runs' own JSON members (read here with json, the oracle); cells, verdicts
and differences come from clomp-stats, checked against plain
re-implementations (median, Holm); invalid bundles are refused unless
--include-invalid, then marked on every line; the archive keeps one row per
submission and gives the same page as the files."""
from __future__ import annotations

import csv
import decimal
import json
import os
import random
import statistics
import re
import shutil
import sqlite3
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bundle_lib import NAME, TOP, Stage, manifest_of  # noqa: E402
from clomp_results.core import between, catalogue, stats_helper  # noqa: E402
from clomp_results.buyers import buyers_table, submissions  # noqa: E402
from clomp_results.suite import html_key  # noqa: E402

COMPARE = os.path.join(TOP, "clomp_compare")
HELPER = between.stats_helper()
PRIMARY = catalogue.load().primary().key   # the project's overhead: the buyer's primary figure


def member(doc, path):
    """A record's member by a '.' path (the catalogue's), walked here: the oracle's own reading."""
    for part in path.split("."):
        doc = doc.get(part) if isinstance(doc, dict) else None
    return doc


def text12_output(host, values, inputs="2 -1 64 100 32 1 100"):
    """CLOMP 1.2's text output (its printf formats) for us/Loop VALUES of the seven columns."""
    us = values
    serial = us[2]
    speed = ["%7.1f" % (serial / v) for v in us[2:]]
    over = ["%7.2f" % (v - us[3]) for v in us[3:]]
    return "\n".join([
        "CORAL Benchmark Version 1.2", "       Invocation: ./clomp %s" % inputs, "         Hostname: %s" % host,
        "       Start time: Thu Nov 26 01:00:00 2026", "      numThreads: 2", "---------------------",
        "----------- Comma-delimited summary ----------",
        "./clomp %s, calc_deposit, OMP Barrier, Serial Ref, Bestcase OMP, Static OMP, Dynamic OMP, Manual OMP" % inputs,
        "Runtime, " + ", ".join("%7.3f" % (v / 100) for v in us),
        "us/Loop, " + ", ".join("%7.2f" % v for v in us),
        "Speedup,     N/A,     N/A, " + ", ".join(speed),
        "Efficacy,    N/A,     N/A,     N/A, " + ", ".join(" %6.1f%%" % (100 * us[3] / v) for v in us[3:]),
        "Overhead,    N/A,     N/A,     N/A, " + ", ".join(over),
        "CORAL RFP, 2 -1 64 100 32 1 100, 1.00, 2.00, 3.0, 4.00, 5.0, 6.00, 7.0, 8.00, 9.0", ""])


def clone_suite(stage, new_name, host=None, edit=None):
    """A copy of the staged suite renamed NEW_NAME (files and .env), HOST in its .env and its records (the
    validator compares them), EDIT(record) applied to run 1's record; MANIFEST rewritten."""
    dest = os.path.join(stage.root, "clones", new_name)
    shutil.copytree(stage.suite, dest)
    for here, _, names in os.walk(dest):
        for n in names:
            if n.startswith(NAME):
                os.rename(os.path.join(here, n), os.path.join(here, new_name + n[len(NAME):]))
    for here, dirs, _ in os.walk(dest):
        for d in dirs:
            if d.startswith(NAME):
                os.rename(os.path.join(here, d), os.path.join(here, new_name + d[len(NAME):]))
    env = os.path.join(dest, new_name + ".env")
    text = open(env).read()
    if host is not None:
        text = re.sub(r"(?m)^host: .*$", lambda m: "host: " + host, text, count=1)
        for n in os.listdir(dest):
            if n.endswith(".json"):
                doc = json.load(open(os.path.join(dest, n)))
                doc["host"] = host
                json.dump(doc, open(os.path.join(dest, n), "w"))
    open(env, "w").write(text)
    if edit is not None:
        rec = os.path.join(dest, new_name + "_key.run1.json")
        doc = json.load(open(rec))
        edit(doc)
        json.dump(doc, open(rec, "w"))
    os.unlink(os.path.join(dest, "MANIFEST"))
    open(os.path.join(dest, "MANIFEST"), "wb").write(manifest_of(dest))
    return dest


def plain_median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def plain_holm(p, alpha):
    order = sorted(range(len(p)), key=lambda i: (p[i], i))
    reject = [False] * len(p)
    for j, i in enumerate(order):
        if p[i] > alpha / (len(p) - j):
            break
        reject[i] = True
    return reject


def plain_holm_steps(p, alpha):
    """Each p-value's step level (1 - alpha / (m - rank), rank the p-values below it: tied ones share the
    first tie's step) and its Holm-adjusted p-value (the running maximum of min(1, (m - rank) p) in sorted
    order, ties in the order given)."""
    m = len(p)
    order = sorted(range(m), key=lambda i: (p[i], i))
    level, adjusted, running = [0.0] * m, [0.0] * m, 0.0
    for rank, i in enumerate(order):
        level[i] = 1 - alpha / (m - sum(1 for q in p if q < p[i]))
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return level, adjusted


def synthetic(label, static, barrier=None):
    r = submissions._empty(label, "synthetic", label)
    r["key"] = {PRIMARY: list(static)}
    if barrier is not None:
        r["key"]["omp_barrier_us_per_loop"] = list(barrier)
    return r


class Records(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stage = Stage(quiet=True)     # processes that gave their figures (bundle_lib.quiet_node)
        cls.suite = submissions.load(cls.stage.suite, "vm")[0]

    @classmethod
    def tearDownClass(cls):
        cls.stage.close()

    def test_a_suite_directory_gives_the_runs_own_figures_for_the_target_input(self):
        checked = 0
        for fig in catalogue.load().in_set("key"):
            want = []
            for run in (1, 2):    # the target input's two processes (runs 1 and 2: 2 -1 64 100 32 1 1)
                doc = json.load(open(self.stage.path("%s_key.run%d.json" % (NAME, run))))
                # a quiet node's process: no census thread lost 25% (clomp's busy rule), so it gives its figures
                self.assertLess(max(t["lost_fraction"] for t in doc["noise_census"]["threads"]), 0.25)
                if fig.get("measurement"):
                    m = [x for x in doc["measurements"] if x["key"] == fig["measurement"]]
                    value = member(m[0], fig["json"]) if m and m[0].get("valid") is not False else None
                else:
                    value = member(doc, fig["json"])
                if value is not None:
                    want.append(value)
            self.assertEqual(self.suite["key"].get(fig.key, []), want, fig.key)
            checked += bool(want)
        self.assertGreaterEqual(checked, 12)
        self.assertEqual(self.suite["target_input"], "2 -1 64 100 32 1 1")

    def test_the_header_says_the_machine_from_its_description(self):
        h = dict(self.suite["header"])
        self.assertEqual(h["host"], "vm")
        self.assertEqual(h["CPU model"], "Intel(R) Xeon(R) Processor")
        self.assertEqual(h["sockets x cores x threads"], "1 x 2 x 1")
        self.assertEqual(h["NUMA nodes"], "1")
        self.assertEqual(h["memory"], "23.5 GiB")
        self.assertIn("GCC 12.2.0", h["compiler"])
        self.assertEqual(h["validation"], "VALID, NOT SUBMISSION-GRADE")

    def test_the_thread_sweep_holds_every_thread_count_of_the_target_inputs_other_inputs(self):
        # runs 4 (1 thread) and 5, 1, 2 (2 threads) have the target's zones; run 3 (allocThreads 1) does not.
        fork_join = catalogue.load().figure_of("parallel", "median_us_per_loop").key
        self.assertEqual(sorted(self.suite["sweep"][fork_join]), ["1", "2"])
        self.assertEqual(len(self.suite["sweep"][fork_join]["2"]), 3)

    def test_a_key_cell_is_the_median_with_the_processes_range(self):
        values = self.suite["key"][PRIMARY]
        cell = buyers_table.Summaries(HELPER).cell(values)
        self.assertAlmostEqual(cell["median"], plain_median(values), places=9)
        # clomp-stats writes numbers to 15 significant digits
        self.assertAlmostEqual(cell["low"], min(values), delta=1e-13 * abs(min(values)))
        self.assertAlmostEqual(cell["high"], max(values), delta=1e-13 * abs(max(values)))
        self.assertIn("min .. max of 2 processes", cell["interval"])

    def test_the_table_agrees_with_the_suites_own_between_process_report(self):
        # The suite ran its target input as 2 processes: no median from 2 (issue 43), in the buyer's table as in
        # the suite's own between-process report; each says how many gave it.
        table = buyers_table.build([self.suite], HELPER)
        cells = dict((r["figure"], r["cells"][0]) for r in table["key"])
        checked = 0
        for row in csv.DictReader(open(self.stage.path(NAME + "_key.processes.csv"))):
            if row["figure"] not in cells:
                continue
            cell = cells[row["figure"]]
            self.assertEqual((row["median"], cell["median"]), ("", None), row["figure"])
            self.assertEqual(cell["text"], row["said"], row["figure"])
            self.assertEqual(cell["text"], "no result (2 of 2 processes gave one; a median needs 3)")
            checked += 1
        self.assertGreaterEqual(checked, 12)

    def test_a_chart_escapes_its_labels_and_takes_log_axes_for_wide_ranges(self):
        from clomp_results.core import svg_chart
        svg = svg_chart.chart("t", "threads", "us", [("<b>&x", [(1, 0.1, None, None), (64, 100.0, 90.0, 110.0)])])
        self.assertNotIn("<b>", svg)
        self.assertIn("&lt;b&gt;&amp;x", svg)
        self.assertIn("threads (log scale)", svg)
        self.assertIn("us (log scale)", svg)
        svg = svg_chart.chart("t", "threads", "us", [("a", [(1, 1.0, None, None), (2, 1.5, None, None)])])
        self.assertNotIn("log scale", svg)
        self.assertEqual(svg_chart.chart("t", "x", "y", [("a", [])]), "")

    def test_a_compare_result_gives_one_submission_per_side_from_its_processes_records(self):
        stem = os.path.join(self.stage.root, "CLOMP_vm_4_compare")
        runs = {"A": (1, 2), "B": (2, 1, 1)}
        for side, which in runs.items():
            for r, run in enumerate(which, start=1):
                shutil.copy(self.stage.path("%s_key.run%d.json" % (NAME, run)), "%s_%s%d.json" % (stem, side, r))
        open(stem + ".json", "w").write("{}")
        a, b = submissions.load(stem + ".json", "cmp")
        self.assertEqual((a["label"], b["label"]), ("cmp A", "cmp B"))
        want = {}
        for run in (1, 2):
            doc = json.load(open(self.stage.path("%s_key.run%d.json" % (NAME, run))))
            want[run] = [m["runtime_us_per_loop"] for m in doc["measurements"] if m["key"] == "barrier"][0]
        self.assertEqual(a["key"]["omp_barrier_us_per_loop"], [want[1], want[2]])
        self.assertEqual(b["key"]["omp_barrier_us_per_loop"], [want[2], want[1], want[1]])
        self.assertIn("not validated", a["validation"]["status"])

    def test_clomp_12_text_is_one_process_without_intervals_and_says_so(self):
        us = [0.01, 0.30, 20.0, 19.0, 25.0, 60.0, 40.0]
        r = submissions.from_text12("t.txt", "old", text12_output("oldhost", us).encode())
        self.assertEqual(r["key"]["omp_barrier_us_per_loop"], [0.30])
        self.assertEqual(r["key"]["static_omp_overhead_us"], [round(25.0 - 19.0, 2)])
        self.assertEqual(r["key"]["static_omp_speedup"], [round(20.0 / 25.0, 1)])
        self.assertNotIn("omp_parallel_us_per_loop", r["key"])
        self.assertIn("1 process, no interval", r["notes"][0])
        cell = buyers_table.target_cell(buyers_table.Summaries(HELPER), r, "barrier_latency")
        self.assertEqual(cell["verdict"], "unavailable")

    def test_text_without_a_summary_block_is_not_a_submission(self):
        with self.assertRaises(submissions.SubmissionError):
            submissions.from_text12("x", "x", b"hello\n")

    def test_holm_from_clomp_stats_agrees_with_a_plain_holm(self):
        rng = random.Random(33)
        for _ in range(40):
            p = [rng.choice([rng.random(), rng.random() * 0.02, 0.01]) for _ in range(rng.randint(1, 9))]
            got = stats_helper.holm(HELPER, 0.05, p)
            self.assertEqual(got["rejected"], plain_holm(p, 0.05), p)
            level, adjusted = plain_holm_steps(p, 0.05)
            # the level each interval is drawn at: its step's where Holm rejects, else Bonferroni's 1 - alpha/m
            drawn = [lv if r else 1 - 0.05 / len(p) for lv, r in zip(level, plain_holm(p, 0.05))]
            for name, want in (("step_level", level), ("adjusted", adjusted), ("interval_level", drawn)):
                self.assertEqual(len(got[name]), len(p))
                for g, w in zip(got[name], want):
                    self.assertAlmostEqual(g, w, places=12, msg="%s of %r" % (name, p))

    def test_a_doubled_primary_figure_is_beyond_noise_and_a_copy_is_not(self):
        a = [1.0, 1.1, 0.9, 1.05, 0.95, 1.02]
        summ = buyers_table.Summaries(HELPER)
        d = buyers_table.differences(HELPER, summ, synthetic("A", a), synthetic("B", [2 * v for v in a]))
        self.assertEqual(d[PRIMARY]["verdict"], "beyond noise")
        self.assertAlmostEqual(d[PRIMARY]["estimate"], 2.0, places=6)
        d = buyers_table.differences(HELPER, summ, synthetic("A", a), synthetic("B", list(a)))
        self.assertEqual(d[PRIMARY]["verdict"], "within noise")

    def test_a_side_whose_processes_were_busy_cannot_decide_and_says_so(self):
        # Issue 43, item 6: the baseline's 6 processes all gave the figure; this submission's 1 of 6 did, 5 ran on a
        # busy machine: no median, no test, and the reason named on its side, on the closing line too.
        a = [1.0, 1.1, 0.9, 1.05, 0.95, 1.02]
        b = synthetic("B", [2.0])
        b["given"][PRIMARY] = {"of": 6, "busy": 5, "invalid": 0, "failed": 0, "not measured": 0}
        d = buyers_table.differences(HELPER, buyers_table.Summaries(HELPER), synthetic("A", a), b)
        self.assertEqual(d[PRIMARY]["verdict"], "cannot decide")
        self.assertEqual(d[PRIMARY]["text"], "cannot decide: this submission: 5 of 6 processes busy")
        table = buyers_table.build([synthetic("A", a), b], HELPER)
        self.assertEqual(buyers_table.key_cell(buyers_table.Summaries(HELPER), b, PRIMARY)["text"],
                         "no result (1 of 6 processes gave one: 5 busy)")
        self.assertTrue(buyers_table.primary_lines(table)[-1].endswith(
            ": cannot decide: this submission: 5 of 6 processes busy"), buyers_table.primary_lines(table))

    def test_one_process_a_side_is_no_test_possible(self):
        summ = buyers_table.Summaries(HELPER)
        d = buyers_table.differences(HELPER, summ, synthetic("A", [1.0, 1.2, 1.1]), synthetic("B", [3.0]))
        self.assertEqual(d[PRIMARY]["verdict"], "no test possible")
        self.assertIn("ratio of medians 2.73", d[PRIMARY]["text"])
        self.assertEqual(d["serial_ref_us_per_loop"]["verdict"], "not measured")
        self.assertEqual(d["serial_ref_us_per_loop"]["text"], "not measured in either")

    def test_six_processes_give_the_median_with_its_interval_and_say_so(self):
        # Six values: the 95% interval of the median is [min, max] (order statistics 1 and 6); a plain oracle.
        values = [1.0, 1.3, 0.9, 1.2, 1.1, 1.05]
        cell = buyers_table.Summaries(HELPER).cell(values)
        self.assertAlmostEqual(cell["median"], statistics.median(values), places=12)
        self.assertEqual((cell["low"], cell["high"]), (min(values), max(values)))
        self.assertEqual(cell["interval"], "95% interval of the median, 6 processes")

    def test_csv_text_from_a_submission_cannot_run_as_a_spreadsheet_formula(self):
        from clomp_results.buyers import buyers_cli
        import io as _io
        buf = _io.StringIO()
        buyers_cli.SpreadsheetSafeWriter(buf).writerow(['=HYPERLINK("http://x")', "+1+1", "@SUM(A1)", "-x", "-1.5", 2.0, "vm"])
        row = next(csv.reader(_io.StringIO(buf.getvalue())))
        self.assertEqual(row, ["'=HYPERLINK(\"http://x\")", "'+1+1", "'@SUM(A1)", "'-x", "-1.5", "2.0", "vm"])

    def test_two_processes_a_side_say_too_few_rather_than_within_noise(self):
        summ = buyers_table.Summaries(HELPER)
        d = buyers_table.differences(HELPER, summ, synthetic("A", [1.0, 1.1]), synthetic("B", [7.0, 7.2]))
        self.assertEqual(d[PRIMARY]["verdict"], "too few processes")
        self.assertIn("no difference detectable with 2 and 2 processes", d[PRIMARY]["text"])

    def test_a_side_losing_more_processes_is_named_with_the_reason(self):
        a = [1.0, 1.1, 0.9, 1.05, 0.95, 1.02]
        other = synthetic("B", [v + 0.01 for v in a[:4]])
        other["dropped"] = {PRIMARY: [3, 5]}
        other["dropped_why"] = {PRIMARY: {"mean and median chunk apart": 2}}
        d = buyers_table.differences(HELPER, buyers_table.Summaries(HELPER), synthetic("A", a), other)
        self.assertIn("baseline lost 0; this submission lost 2 (mean and median chunk apart 2); this submission lost "
                      "more: the processes kept may favour it", d[PRIMARY]["text"])

    def target_sub(self, cycles, core):
        sub = synthetic("B", [1.0])
        sub["targets"] = {"barrier_latency": {"label": "Barrier latency", "measurement": "barrier", "bound": 200.0,
                                              "citation": "", "not_judged": "", "cycles": list(cycles), "ci": None,
                                              "core_cycles": None, "verdict": None, "clock": "nominal TSC cycles"}}
        sub["clock"] = {"ghz": 2.4, "core_ghz": core, "source": "measured" if core else "unknown",
                        "clock": "nominal TSC cycles"}
        return buyers_table.target_cell(buyers_table.Summaries(HELPER), sub, "barrier_latency")

    def test_a_target_without_the_core_clock_is_unavailable_as_clomp_says(self):
        # Issue 44: the HTML's judge fell back to nominal TSC cycles and said "met" where clomp says "unavailable".
        for cycles in ([100.0, 110.0, 120.0], [100.0, 101, 102, 103, 104, 105, 106]):
            cell = self.target_sub(cycles, None)
            self.assertEqual(cell["verdict"], "unavailable", cell["text"])
        self.assertEqual(html_key.judge(HELPER, 100.0, 120.0, 200.0, 2.4, None, None), "unavailable")

    def test_below_six_processes_a_target_verdict_is_about_those_processes_only(self):
        cell = self.target_sub([100.0, 110.0, 120.0], [2.4, 2.4])
        self.assertEqual(cell["verdict"], "met")
        self.assertTrue(cell["qualified"])
        self.assertIn("met (in 3 of 3 processes; 6 needed for a 95% statement)", cell["text"])
        cell = self.target_sub([100.0, 101, 102, 103, 104, 105, 106], [2.4, 2.4])
        self.assertEqual((cell["verdict"], cell["qualified"]), ("met", False), cell["text"])

    def test_the_families_and_their_error_rates_are_stated(self):
        a = [1.0, 1.1, 0.9, 1.05, 0.95, 1.02]
        subs = [synthetic(label, [v * f for v in a]) for label, f in (("A", 1), ("B", 2), ("C", 1))]
        for sub in subs:
            sub["valid"] = True
        table = buyers_table.build(subs, HELPER)
        self.assertIn("of the 2 submissions against the baseline, one family under Holm at 0.05", table["family"])
        self.assertIn("0.1 over the table's 2 submissions", table["family"])
        verdicts = [d["figures"][[f["figure"] for f in d["figures"]].index(PRIMARY)]["verdict"]
                    for d in table["differences"]]
        self.assertEqual(verdicts, ["beyond noise", "within noise"])

    def test_the_rest_are_judged_under_holm_at_their_step_levels(self):
        a = [1.0, 1.1, 0.9, 1.05, 0.95, 1.02, 0.97, 1.03]
        summ = buyers_table.Summaries(HELPER)
        d = buyers_table.differences(HELPER, summ, synthetic("A", a, a), synthetic("B", a, [3 * v for v in a]))
        self.assertEqual(d["omp_barrier_us_per_loop"]["verdict"], "beyond noise")
        self.assertIn("Holm", d["omp_barrier_us_per_loop"]["rule"])
        self.assertTrue(d[PRIMARY]["rule"].startswith("primary figure"), d[PRIMARY]["rule"])


class NodeFigures(unittest.TestCase):
    """Issue 48: per machine, METG(50%) from a grain run the suite carries and OpenMP's barrier over the best
    reference from its --limits run; "n/a" and why where the suite has neither."""

    @classmethod
    def setUpClass(cls):
        cls.stage = Stage()

    @classmethod
    def tearDownClass(cls):
        cls.stage.close()

    def with_node_runs(self, name, multiple, metg_team):
        dest = clone_suite(self.stage, name)
        rec = os.path.join(dest, name + "_constructs.run6.json")
        doc = json.load(open(rec))
        doc["limits"] = {"threads": 2, "busy": False, "not_measured": None, "figures": {"barrier_multiple": multiple}}
        json.dump(doc, open(rec, "w"))
        grain = {"schema": "clomp-grain", "schema_version": 1, "schedules": [
            {"schedule": "static", "name": "Static OMP", "teams": [metg_team]}]}
        json.dump(grain, open(os.path.join(dest, name + "_grain.json"), "w"))
        os.unlink(os.path.join(dest, "MANIFEST"))
        with open(os.path.join(dest, "MANIFEST"), "wb") as f:
            f.write(manifest_of(dest))
        return submissions.load(dest, name)[0], doc, grain

    def test_a_suite_without_either_run_says_n_a_and_why(self):
        node = submissions.load(self.stage.suite, "vm")[0]["node"]
        self.assertRegex(node["grain_metg50_us"]["text"], r"^n/a: no grain run in the suite's files \(a full suite runs one unless --no-grain;")
        self.assertRegex(node["limits_barrier_multiple"]["text"], r"^n/a: no --limits run in the suite")
        self.assertEqual([node[k]["median"] for k in ("grain_metg50_us", "limits_barrier_multiple")], [None, None])

    def test_the_figures_are_the_records_own_with_their_intervals_and_labels_from_the_catalogue(self):
        team = {"threads": 2, "half_efficiency": {"zones": 1536, "below": 96, "decided": True, "text": "1536 zones",
                                                  "metg_us": {"value": 12.5, "ci_95": [11.0, 14.25], "n": 6}}}
        sub, doc, grain = self.with_node_runs("CLOMP_vm_41", {"value": 2.75, "ci_95": [2.5, 3.125], "valid": True}, team)
        multiple = member(doc, "limits.figures.barrier_multiple")
        metg = grain["schedules"][0]["teams"][0]["half_efficiency"]["metg_us"]
        def outward(x, up):   # 3 significant digits, away from the interval's inside (decimal arithmetic)
            exp = decimal.Decimal(repr(x)).adjusted() - 2
            return "%g" % decimal.Decimal(repr(x)).quantize(decimal.Decimal(1).scaleb(exp),
                                                           decimal.ROUND_CEILING if up else decimal.ROUND_FLOOR)
        one_process = " (one process, run 6: interval over its repetitions)"
        self.assertEqual(sub["node"]["limits_barrier_multiple"]["text"], "%g [%s..%s]%s" % (
            multiple["value"], outward(multiple["ci_95"][0], False), outward(multiple["ci_95"][1], True), one_process))
        self.assertEqual(sub["node"]["limits_barrier_multiple"]["text"], "2.75 [2.5..3.13]" + one_process,
                         "3.125 rounds up, never in")
        self.assertEqual(sub["node"]["grain_metg50_us"]["text"],
                         "<= %g [%s..%s] us at 2 threads (1536 zones reached 50%%; 96 zones, the size below, did not; "
                         "from CLOMP_vm_41_grain.json, as bundled: the validator refused the submission)" % (
                             metg["value"], outward(metg["ci_95"][0], False), outward(metg["ci_95"][1], True)))
        table = buyers_table.build([sub], HELPER)
        cat = catalogue.load()
        self.assertEqual([(r["figure"], r["label"]) for r in table["node"]],
                         [(k, cat.figure(k).label) for k in ("grain_metg50_us", "limits_barrier_multiple")])
        from clomp_results.buyers import buyers_cli, buyers_html
        page = buyers_html.page([sub], table)
        self.assertIn("2.75 [2.5..3.13]" + one_process, page)
        self.assertIn("&lt;= 12.5 [11..14.3] us at 2 threads (1536 zones reached 50%; 96 zones", page)
        rows = {r[1]: r for r in csv.reader(buyers_cli.csv_text([sub], table).splitlines()) if r and r[0] == "node"}
        self.assertEqual(sorted(rows), ["grain_metg50_us", "limits_barrier_multiple"])
        head = buyers_cli.CSV_HEADER
        for key, fig in (("grain_metg50_us", metg), ("limits_barrier_multiple", multiple)):
            row = dict(zip(head, rows[key]))
            self.assertEqual((row["threads"], float(row["median"]), float(row["low"]), float(row["high"])),
                             ("2", fig["value"], fig["ci_95"][0], fig["ci_95"][1]), key)
            self.assertEqual(row["text"], sub["node"][key]["text"])
        self.assertTrue(dict(zip(head, rows["grain_metg50_us"]))["interval"].startswith("upper bound: 1536 zones"))
        self.assertEqual(dict(zip(head, rows["limits_barrier_multiple"]))["interval"],
                         "one process, run 6: interval over its repetitions")

    def test_a_multiple_that_is_not_a_result_and_an_undecided_metg_say_why(self):
        team = {"threads": 2, "half_efficiency": {"zones": None, "decided": False, "metg_us": None,
                                                  "text": "not decided: no interval at 64 zones (4 busy)"}}
        sub, _, _ = self.with_node_runs("CLOMP_vm_42", {"value": 9.0, "ci_95": None, "valid": False,
                                                        "not_a_result": "a few repetitions took most of the time"}, team)
        self.assertEqual(sub["node"]["limits_barrier_multiple"]["text"], "n/a: not a result: a few repetitions took most of the time")
        self.assertEqual(sub["node"]["grain_metg50_us"]["text"], "n/a at 2 threads: not decided: no interval at 64 zones "
                         "(4 busy) (from CLOMP_vm_42_grain.json, as bundled: the validator refused the submission)")
        self.assertEqual([sub["node"][k]["median"] for k in ("grain_metg50_us", "limits_barrier_multiple")], [None, None])


class Command(unittest.TestCase):
    def setUp(self):
        self.stage = Stage(quiet=True)
        self.out = os.path.join(self.stage.root, "page")

    def tearDown(self):
        self.assertTrue(self.stage.canary_intact(), "the canary directory was touched")
        self.assertEqual(self.stage.leftovers(), [], "a temporary directory was left behind")
        self.stage.close()

    def compare(self, *args):
        return self.stage.run([COMPARE, "--out", self.out] + list(args), timeout=120)

    def text(self, name, host, us):
        path = os.path.join(self.stage.root, name)
        open(path, "w").write(text12_output(host, us))
        return path

    def test_a_suite_and_clomp_12_text_make_the_page_csv_and_json(self):
        old = self.text("old.txt", "oldhost", [0.01, 0.30, 20.0, 19.0, 25.0, 60.0, 40.0])
        rc, out, _ = self.compare("--name", "vm=" + self.stage.suite, old)
        self.assertEqual(rc, 0, out)
        page = open(os.path.join(self.out, "buyers_table.html")).read()
        self.assertIn("<th>vm</th>", page)
        self.assertIn("<th>old</th>", page)
        rows = list(csv.DictReader(open(os.path.join(self.out, "buyers_table.csv"))))
        cell = [r for r in rows if r["section"] == "key" and r["row"] == "omp_barrier_us_per_loop" and r["submission"] == "old"]
        self.assertEqual(float(cell[0]["median"]), 0.30)
        doc = json.load(open(os.path.join(self.out, "buyers_table.json")))
        self.assertEqual([s["label"] for s in doc["submissions"]], ["vm", "old"])
        diff = [r for r in rows if r["section"].startswith("difference_from_vm") and r["row"] == "static_omp_overhead_us"]
        self.assertEqual(diff[0]["verdict"], "no test possible")

    def test_baseline_names_the_submission_the_others_are_compared_with(self):
        old = self.text("old.txt", "oldhost", [0.01, 0.30, 20.0, 19.0, 25.0, 60.0, 40.0])
        rc, out, _ = self.compare("--baseline", "old", "--name", "vm=" + self.stage.suite, old)
        self.assertEqual(rc, 0, out)
        doc = json.load(open(os.path.join(self.out, "buyers_table.json")))
        self.assertEqual(doc["table"]["baseline"], "old")
        self.assertEqual([d["label"] for d in doc["table"]["differences"]], ["vm"])
        rc, out, _ = self.compare("--baseline", "nobody", old)
        self.assertEqual(rc, 2, out)

    def test_an_invalid_bundle_is_refused_with_its_reasons_and_nothing_is_written(self):
        os.unlink(self.stage.path(NAME + "_key.run2.json"))
        bundle = self.stage.pack()
        rc, out, _ = self.compare(bundle)
        self.assertEqual(rc, 1, out)
        self.assertRegex(out, r"INVALID \(\d+ reasons\)")
        self.assertIn("listed but missing", out)
        self.assertFalse(os.path.exists(self.out))

    def test_an_included_invalid_bundle_is_marked_on_every_line_where_it_appears(self):
        os.unlink(self.stage.path(NAME + "_key.run2.json"))
        bundle = self.stage.pack()
        rc, out, _ = self.compare("--include-invalid", "--name", "bad=" + bundle)
        self.assertEqual(rc, 0, out)
        page = open(os.path.join(self.out, "buyers_table.html")).read()
        cells = re.findall(r"<td[^>]*>.*?</td>", page, re.S)
        self.assertTrue(cells)
        self.assertEqual([c for c in cells if "[INVALID submission]" not in c], [])
        rows = list(csv.DictReader(open(os.path.join(self.out, "buyers_table.csv"))))
        self.assertEqual({r["submission_valid"] for r in rows}, {"0"})

    def test_hostile_labels_and_host_names_are_escaped_in_the_page(self):
        evil = '<script>alert("x")</script>\'&'
        old = self.text("old.txt", evil, [0.01, 0.30, 20.0, 19.0, 25.0, 60.0, 40.0])
        rc, out, _ = self.compare("--name", evil + "=" + old)
        self.assertEqual(rc, 0, out)
        page = open(os.path.join(self.out, "buyers_table.html")).read()
        self.assertNotIn("<script>", page)
        self.assertIn("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#x27;&amp;", page)


class Archive(unittest.TestCase):
    def setUp(self):
        self.stage = Stage()
        self.db = os.path.join(self.stage.root, "results.sqlite")
        root = self.stage.root
        self.five = [self.stage.suite, clone_suite(self.stage, "CLOMP_vm_2"), clone_suite(self.stage, "CLOMP_vm2_1", host="vm2")]
        for i, us in enumerate(([0.01, 0.30, 20.0, 19.0, 25.0, 60.0, 40.0], [0.01, 0.50, 21.0, 20.0, 29.0, 65.0, 44.0])):
            path = os.path.join(root, "old%d.txt" % i)
            open(path, "w").write(text12_output("old%d" % i, us))
            self.five.append(path)

    def tearDown(self):
        self.assertTrue(self.stage.canary_intact())
        self.stage.close()

    def compare(self, out, *args):
        return self.stage.run([COMPARE, "--out", os.path.join(self.stage.root, out)] + list(args), timeout=180)

    def test_a_record_archived_before_issue_43_is_read_by_todays_keys(self):
        # The buyer's Parallel For us/Loop was a median chunk keyed parallel_for_us_per_loop: an archived record
        # with that key reads back as the catalogue's figure of that statistic.
        from clomp_results.buyers import archive
        new = catalogue.load().figure_of("parallel_for", "median_us_per_loop").key
        db = archive.open_archive(self.db)
        try:
            r = submissions._empty("old", "synthetic", "old")
            r.update(sha256="a" * 64, content_sha256="a" * 64, key={"parallel_for_us_per_loop": [1.5]},
                     sweep={"fork_join_us": {"2": [0.9]}})
            archive.add(db, r)
            got = archive.select(db, "all")[0]
        finally:
            db.close()
        self.assertEqual((got["key"], got["sweep"]), ({new: [1.5]}, {catalogue.load().figure_of("parallel", "median_us_per_loop").key: {"2": [0.9]}}))

    def rows(self):
        with sqlite3.connect(self.db) as db:
            return db.execute("SELECT label, host, suite_id, conflict FROM submissions ORDER BY id").fetchall()

    def test_adding_five_submissions_twice_leaves_five_and_the_archive_page_equals_the_files_page(self):
        rc, out, _ = self.compare("files", "--archive", self.db, *self.five)
        self.assertEqual(rc, 0, out)
        rc, out, _ = self.compare("files2", "--archive", self.db, *self.five)
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.count("already archived"), 5, out)
        self.assertEqual(len(self.rows()), 5)
        rc, out, _ = self.compare("archived", "--archive", self.db, "--select", "all")
        self.assertEqual(rc, 0, out)
        for name in ("buyers_table.html", "buyers_table.csv", "buyers_table.json"):
            with open(os.path.join(self.stage.root, "files", name)) as a, open(os.path.join(self.stage.root, "archived", name)) as b:
                self.assertEqual(a.read(), b.read(), name)
        with sqlite3.connect(self.db) as db:
            n = db.execute("SELECT count(*) FROM figures f JOIN submissions s ON s.id = f.submission_id"
                           " WHERE s.host = 'old1' AND f.section = 'key'").fetchone()[0]
        self.assertEqual(n, 8)   # the eight key figures 1.2's text gives (the catalogue's key set), one process

    def test_select_picks_by_host(self):
        rc, out, _ = self.compare("x", "--archive", self.db, *self.five)
        self.assertEqual(rc, 0, out)
        rc, out, _ = self.compare("vm2", "--archive", self.db, "--select", "host=vm2")
        self.assertEqual(rc, 0, out)
        doc = json.load(open(os.path.join(self.stage.root, "vm2", "buyers_table.json")))
        self.assertEqual([s["host"] for s in doc["submissions"]], ["vm2"])
        rc, out, _ = self.compare("bad", "--archive", self.db, "--select", "colour=red")
        self.assertEqual(rc, 3, out)

    def test_the_same_host_and_id_with_other_contents_are_both_kept_and_flagged(self):
        # another copy under the original name: same host (vm) and id (1), other contents (a record's start
        # time: still valid, since the validator compares what the files say of the runs, not this)
        other = os.path.join(self.stage.root, "other", NAME)
        shutil.copytree(self.stage.suite, other)
        rec = os.path.join(other, NAME + "_key.run1.json")
        doc = json.load(open(rec))
        doc["start_time"] = "Fri Nov 27 09:00:00 2026"
        json.dump(doc, open(rec, "w"))
        open(os.path.join(other, "MANIFEST"), "wb").write(manifest_of(other))
        rc, out, _ = self.compare("x", "--archive", self.db, self.stage.suite, other)
        self.assertEqual(rc, 0, out)
        self.assertIn("flagged", out)
        rows = self.rows()
        self.assertEqual(len(rows), 2)
        self.assertTrue(all(r[3] for r in rows), rows)
        # The page made while archiving says what the archive says: the first submission's flag, set
        # when the second was added, included; it equals the page --select builds.
        rc, out, _ = self.compare("y", "--archive", self.db, "--select", "all")
        self.assertEqual(rc, 0, out)
        for name in ("buyers_table.html", "buyers_table.json"):
            with open(os.path.join(self.stage.root, "x", name)) as a, open(os.path.join(self.stage.root, "y", name)) as b:
                self.assertEqual(a.read(), b.read(), name)
        doc = json.load(open(os.path.join(self.stage.root, "x", "buyers_table.json")))
        self.assertTrue(all(s.get("conflict") for s in doc["submissions"]), doc["submissions"])


if __name__ == "__main__":
    unittest.main()
