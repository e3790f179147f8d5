"""A figure only from the processes that gave it as a result (issue 43, item
4): a copy of tests/golden/suite whose target input ran as three processes
(run 3's record made a copy of run 1's), then 0, 1 or 2 of them made busy
(the noise census's verdict) or marked invalid. The suite's closing lines
(between.py), the HTML headline and the buyer's table each give a median
only when all 3 processes gave the figure, say how many of how many, and
otherwise "no result (... gave one: N busy)"; the oracle is the records' own
members read here with json and a plain median. NaN reaches no output."""
from __future__ import annotations

import csv
import json
import os
import re
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_fixture import GOLDEN, Scratch, Tables  # noqa: E402
from clomp_results.core import between, catalogue, given, loader  # noqa: E402
from clomp_results.buyers import buyers_table, submissions  # noqa: E402

HELPER = between.stats_helper()


def plain_median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


class Rule(unittest.TestCase):
    def test_a_median_needs_three_processes_and_half_of_them(self):
        for k, total, want in ((1, 3, False), (2, 3, False), (3, 3, True), (3, 6, True), (3, 7, False), (2, 2, False),
                               (5, 9, True), (4, 9, False)):
            self.assertEqual(given.Given([1.0] * k, total).summarised, want, (k, total))

    def test_the_texts_name_how_many_of_how_many_and_why(self):
        g = given.Given([1.0], 3, {given.BUSY: 2})
        self.assertEqual(g.no_result_text(), "no result (1 of 3 processes gave one: 2 busy)")
        self.assertEqual(g.count_text(), "1 of 3 processes (2 busy)")
        self.assertEqual(given.Given([1.0, 2.0], 2).no_result_text(), "no result (2 of 2 processes gave one; a median needs 3)")
        sides = [("side A", given.Given([], 3, {given.BUSY: 3})), ("side B", given.Given([1.0] * 2, 3, {given.INVALID: 1}))]
        self.assertEqual(given.side_reason(sides), "side A: 3 of 3 processes busy; side B: 1 of 3 processes invalid")
        self.assertEqual(given.side_reason([("side A", given.Given([1.0] * 3, 3))]), "")


class OldRecords(unittest.TestCase):
    """A record before schema minor 7 has no busy verdict: clomp's rule (docs/noise.md: a team thread lost 25% of
    the probe's time or more) is applied to its census's lost shares; neither: "load not recorded"."""

    def test_the_rule_on_old_records_agrees_with_a_plain_one_over_a_grid_of_lost_shares(self):
        import itertools
        shares = [0.0, 0.01, 0.1, 0.2499, 0.25, 0.2501, 0.43, 0.57, 1.0]
        for threads in (1, 2, 3):
            for lost in itertools.product(shares, repeat=threads):
                doc = {"schema_minor": 6, "noise_census": {"probed": True, "threads": [
                    {"thread": i, "cpu": i, "lost_fraction": x, "largest_detour_us": 100.0} for i, x in enumerate(lost)]}}
                busy, why = given.census_busy(doc)
                self.assertEqual(busy, max(lost) >= 0.25, lost)
                self.assertEqual(given.busy(doc), max(lost) >= 0.25, lost)
                if busy:
                    worst = lost.index(max(lost))
                    self.assertIn("thread %d (CPU %d) lost %.1f%%" % (worst, worst, 100 * max(lost)), why)
                    self.assertIn("schema minor 6", why)

    def test_a_records_own_verdict_wins_and_without_figures_the_load_is_not_recorded(self):
        quiet_but_said_busy = {"noise_census": {"probed": True, "busy": True, "busy_reason": "said so",
                                                "threads": [{"lost_fraction": 0.0}]}}
        self.assertEqual(given.census_busy(quiet_but_said_busy), (True, "said so"))
        for doc in ({}, {"noise_census": None}, {"noise_census": {"probed": False, "note": "--noise-census=off"}},
                    {"noise_census": {"probed": True, "busy": None}}, {"noise_census": {"probed": True, "threads": []}}):
            busy, why = given.census_busy(doc)
            self.assertIsNone(busy, doc)
            self.assertTrue(why.startswith("load not recorded: "), why)
            self.assertFalse(given.busy(doc))

    def test_the_golden_suite_as_recorded_is_busy_in_its_key_processes(self):
        for run in (1, 2, 3):
            with open(os.path.join(GOLDEN, "CLOMP_vm_1_key.run%d.json" % run)) as f:
                doc = json.load(f)
            lost = [t["lost_fraction"] for t in doc["noise_census"]["threads"]]
            self.assertNotIn("busy", doc["noise_census"])
            self.assertEqual(given.busy(doc), max(lost) >= 0.25)
            self.assertTrue(given.busy(doc))


class ThreeProcesses(unittest.TestCase):
    """The golden suite with run 3 a third process of the target input."""

    def setUp(self):
        self.scratch = Scratch()
        env = self.scratch.path(".env")
        with open(env) as f:
            text = f.read()
        text = text.replace("key||2 -1 64 100 32 1 1;key||2 -1 64 100 32 1 1;key||2 1 64 100 32 1 1;",
                            "key||2 -1 64 100 32 1 1;key||2 -1 64 100 32 1 1;key||2 -1 64 100 32 1 1;", 1)
        with open(env, "w") as f:
            f.write(text)
        shutil.copyfile(self.scratch.path("_key.run1.json"), self.scratch.path("_key.run3.json"))
        for run in (1, 2, 3):   # the golden records' own census: none busy (the test decides)
            self.edit(run, lambda doc: doc.setdefault("noise_census", {}).update(busy=False))

    def tearDown(self):
        self.scratch.close()

    def edit(self, run, change):
        path = self.scratch.path("_key.run%d.json" % run)
        with open(path) as f:
            doc = json.load(f)
        change(doc)
        with open(path, "w") as f:
            json.dump(doc, f)

    def busy(self, runs):
        for run in runs:
            self.edit(run, lambda doc: doc["noise_census"].update(busy=True, busy_reason="thread 0 lost 60%"))

    def oracle(self, fig, runs):
        """The figure's values of RUNS, read from the records with json."""
        out = []
        for run in runs:
            with open(self.scratch.path("_key.run%d.json" % run)) as f:
                doc = json.load(f)
            m = [x for x in doc["measurements"] if x["key"] == fig["measurement"]][0]
            v = m
            for part in fig["json"].split("."):
                v = v.get(part) if isinstance(v, dict) else None
            out.append(v)
        return out

    def between_rows(self):
        csv_lines, txt = between.report(loader.load_suite(self.scratch.dir), HELPER)
        self.assertNotIn("nan", "\n".join(txt + csv_lines).lower())
        return dict((r["figure"], r) for r in csv.DictReader(csv_lines)), txt

    def static_overhead(self):
        return catalogue.load().primary()

    def check(self, busy_runs, given_runs):
        self.busy(busy_runs)
        fig = self.static_overhead()
        rows, txt = self.between_rows()
        row = rows[fig.key]
        self.assertEqual((row["processes"], row["of"], row["busy"]), (str(len(given_runs)), "3", str(len(busy_runs))))
        line = [t for t in txt if t.strip().startswith(fig.label)][0]
        if len(given_runs) == 3:
            want = plain_median(self.oracle(fig, given_runs))
            self.assertAlmostEqual(float(row["median"]), want, delta=1e-12 * abs(want) + 1e-15)
            self.assertIn("3 of 3 processes", line)
        else:
            self.assertEqual(row["median"], "")
            self.assertIn("no result (%d of 3 processes gave one: %d busy)" % (len(given_runs), len(busy_runs)), line)
        return rows

    def test_all_three_processes_give_a_median_of_three(self):
        self.check([], [1, 2, 3])

    def test_two_of_three_give_no_result_and_say_one_was_busy(self):
        self.check([3], [1, 2])

    def test_one_of_three_gives_no_result_and_says_two_were_busy(self):
        self.check([2, 3], [1])

    def test_an_invalid_measurement_is_counted_as_invalid(self):
        fig = self.static_overhead()
        self.edit(2, lambda doc: [m.update(valid=False, invalid_reason="test", overhead_us_per_loop=None)
                                  for m in doc["measurements"] if m["key"] == fig["measurement"]])
        row = self.between_rows()[0][fig.key]
        self.assertEqual((row["processes"], row["invalid"], row["median"]), ("2", "1", ""))

    def headline(self):
        rc, err, page = self.scratch.render()
        self.assertEqual(rc, 0, err)
        self.assertNotIn("nan", page.lower())
        self.assertNotIn("n/a%", page)
        rows = [t for t in Tables(page).tables if t and t[0][:3] == ["figure", "statistic", "value"]][0]
        return dict((r[0], r[1:]) for r in rows[1:]), page

    def test_the_headline_gives_the_median_of_three_and_no_result_from_one(self):
        label = self.static_overhead().label
        rows, _ = self.headline()
        self.assertEqual(rows[label][0], "median over 3 of 3 processes")
        self.busy([2, 3])
        rows, page = self.headline()
        self.assertEqual(rows[label][1], "no result (1 of 3 processes gave one: 2 busy)")
        # The busy banner: one sentence and a link to each run's reason.
        banner = re.search(r'<p class="notmet">(This machine was busy[^<]*)<a href="#busy-runs">', page)
        self.assertIsNotNone(banner)
        self.assertEqual(banner.group(1).count(". "), 0)
        self.assertIn('id="busy-runs"', page)

    def test_a_busy_run_is_no_green_ok(self):
        self.busy([2])
        _, page = self.headline()
        key_runs = [t for t in Tables(page).tables if t and t[0][:4] == ["run", "arguments", "numa", "status"]][0]
        status = dict((r[0], r[3]) for r in key_runs[1:])
        self.assertEqual(status["2"], "OK, busy machine: not a result")
        cells = re.findall(r'<td class="(\w+)">(OK[^<]*)</td>', page)
        self.assertNotIn(("met", "OK, busy machine: not a result"), cells)

    def test_the_buyers_table_gives_a_median_only_from_three(self):
        fig = self.static_overhead()
        for busy_runs, want in (([], "3 of 3"), ([3], "no result (2 of 3 processes gave one: 1 busy)"),
                                ([2], "no result (1 of 3 processes gave one: 2 busy)")):
            self.busy(busy_runs)
            sub = submissions.from_suite(self.scratch.dir, "s")
            cell = buyers_table.key_cell(buyers_table.Summaries(HELPER), sub, fig.key)
            if want == "3 of 3":
                self.assertAlmostEqual(cell["median"], plain_median(self.oracle(fig, [1, 2, 3])), places=9)
                self.assertNotIn("no result", cell["text"])
            else:
                self.assertEqual(cell["text"], want)
                self.assertIsNone(cell["median"])


if __name__ == "__main__":
    unittest.main()
