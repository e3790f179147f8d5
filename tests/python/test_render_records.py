"""The report follows the records, not lists in the code: a new LLNL target
row in a record is a new row of the page, a new checked measurement a new
series of the charts; a measurement flagged invalid (valid false) shows its
reason and no figure, a construct row 'unresolved' shows as such, and the
noise census's busy verdict leads the page. A default schedule and a sync
construct that no code of the package names (as a new row of clomp's C
tables makes them) reach the .summary, the construct table, the charts and
the page, the construct charted by its row's kind column alone."""
import csv
import glob
import json
import os
import shutil
import unittest

from render_fixture import TOP, Scratch, Tables

from clomp_results.core import between, tables, view
from clomp_results.suite import charts, html_constructs, report
from clomp_results.core.loader import load_suite

STATS = os.environ.get("CLOMP_STATS") or os.path.join(TOP, "build", "clomp-stats")
# The fixture's constructs by kind: an oracle written out here, not the package's or clomp's table.
LOOPS = {"static", "static_n", "dynamic_n", "guided_n"}


class FromRecords(unittest.TestCase):
    def setUp(self):
        self.s = Scratch(quiet=True)     # processes that gave their figures (bundle_lib.quiet_node)

    def tearDown(self):
        self.s.close()

    def edit_record(self, run_file, change):
        path = self.s.path(run_file)
        with open(path) as f:
            doc = json.load(f)
        change(doc)
        with open(path, "w") as f:
            json.dump(doc, f)

    def test_a_new_llnl_target_in_the_record_is_a_new_row(self):
        def add(doc):
            doc["llnl_targets"]["critical_latency"] = {
                "cycles": 1234.0, "cycles_ci_95": [1200.0, 1300.0], "target_below": 1000, "verdict": "not met",
                "clock": "nominal TSC cycles", "label": "Critical latency (a new target)", "measurement": "barrier",
                "figure": "us/Loop", "citation": "a new RFP", "not_judged": None}
        self.edit_record("_key.run1.json", add)
        rc, err, page = self.s.render("no")
        self.assertEqual(rc, 0, err)
        rows = {r[0]: r for t in Tables(page).tables if t[0][0] == "target" for r in t}
        self.assertIn("Critical latency (a new target)", rows)
        self.assertEqual(rows["Critical latency (a new target)"][2], "< 1000")
        self.assertEqual(rows["Critical latency (a new target)"][4], "a new RFP")

    def test_an_invalid_measurement_shows_its_reason_not_its_figures(self):
        def flag(doc):
            for m in doc["measurements"]:
                if m["key"] == "static":
                    m["valid"] = False
                    m["invalid_reason"] = "faster than Bestcase beyond its interval"
        self.edit_record("_key.run2.json", flag)
        rc, err, page = self.s.render("no")
        self.assertEqual(rc, 0, err)
        key_runs = next(t for t in Tables(page).tables if t[0][0] == "run")
        run2 = next(r for r in key_runs if r[0] == "2")
        self.assertEqual(run2[4], "n/a")      # Static speedup
        self.assertIn("invalid, not a result: faster than Bestcase beyond its interval", run2[6])
        run1 = next(r for r in key_runs if r[0] == "1")
        self.assertNotEqual(run1[4], "n/a")

    @unittest.skipUnless(os.access(STATS, os.X_OK), "clomp-stats is not built (make clomp-stats)")
    def test_the_headline_says_how_many_processes_gave_each_figure(self):
        def flag(doc):   # run 2's Static OMP not a result: null figures, as clomp writes them
            for m in doc["measurements"]:
                if m["key"] == "static":
                    m.update(valid=False, invalid_reason="faster than Bestcase beyond its interval", runtime_speedup=None,
                             runtime_efficacy_percent=None, runtime_overhead_us_per_loop=None, overhead_us_per_loop=None)
        self.edit_record("_key.run2.json", flag)
        csv_lines, _ = between.report(load_suite(self.s.dir), STATS)
        with open(self.s.path("_key.processes.csv"), "w") as f:
            f.write("\n".join(csv_lines) + "\n")
        used = {line.split(",")[2]: line.split(",")[3] for line in csv_lines[1:]}
        self.assertEqual((used["static_omp_speedup"], used["omp_barrier_us_per_loop"]), ("1", "2"))
        rc, err, page = self.s.render("no")
        self.assertEqual(rc, 0, err)
        headline = {r[0]: r[2] for r in next(t for t in Tables(page).tables if t[0][0] == "figure")}
        # Issue 43: no median from fewer than 3 processes; each row says how many gave the figure, and why not.
        self.assertEqual(headline["Static OMP speedup (median chunks)"], "no result (1 of 2 processes gave one: 1 invalid)")
        self.assertEqual(headline["Static OMP overhead us/Loop (median chunks)"],
                         "no result (1 of 2 processes gave one: 1 invalid)")
        self.assertEqual(headline["OMP Barrier us/Loop (median chunk)"],
                         "no result (2 of 2 processes gave one; a median needs 3)")
        self.assertNotIn("median of 2 processes", page)

    def test_an_unresolved_construct_row_is_not_a_result(self):
        def mark(r):
            if r["construct"] == "atomic" and r["set"] == "constructs" and r["level"] == "1":
                r["status"] = "unresolved"
                r["problem"] = "innerreps 10: the region's own cost is not negligible"
        self.s.edit_table(".constructs.csv", mark)
        rc, err, page = self.s.render("no")
        self.assertEqual(rc, 0, err)
        table = next(t for t in Tables(page).tables if t[0][0] == "construct")
        atomic = next(r for r in table if r[0] == "ATOMIC")
        self.assertEqual(atomic[1], "unresolved: innerreps 10: the region's own cost is not negligible")
        self.assertEqual(atomic[2], "")       # no cycles either

    def test_a_busy_census_leads_the_page(self):
        self.edit_record("_key.run1.json", lambda doc: doc["noise_census"].update(busy=True))
        rc, err, page = self.s.render("no")
        self.assertEqual(rc, 0, err)
        self.assertIn("This machine was busy", page)
        self.assertLess(page.index("This machine was busy"), page.index('id="key-results"'))
        other = Scratch(quiet=True)
        try:
            self.assertNotIn("This machine was busy", other.render("no")[2])
        finally:
            other.close()
        loaded = Scratch()      # the golden suite as recorded: schema minor 6, no verdict, 43-57% lost per thread
        try:
            page = loaded.render("no")[2]
            self.assertIn("This machine was busy", page)
            self.assertIn("clomp&#x27;s rule applied to a record of schema minor 6", page)
        finally:
            loaded.close()

    def test_a_record_nested_past_the_parser_is_a_damaged_record(self):
        # json.loads raises RecursionError, not ValueError, on deep nesting: refused the same way.
        with open(self.s.path("_key.run2.json"), "w") as f:
            f.write("[" * 200000)
        rc, err, page = self.s.render("no")
        self.assertEqual(rc, 0, err)
        self.assertNotIn("Traceback", err)
        top = page[:page.index('id="key-results"')]
        self.assertIn("CLOMP_vm_1_key.run2.json: not a clomp JSON record (maximum recursion depth", top)

    def test_a_damaged_or_missing_record_is_said_at_the_top(self):
        with open(self.s.path("_key.run2.json"), "w") as f:
            f.write("{not json")
        os.unlink(self.s.path("_6400zones.run4.json"))
        rc, err, page = self.s.render("no")
        self.assertEqual(rc, 0, err)
        top = page[:page.index('id="key-results"')]
        self.assertIn("Files not read (the report leaves them out): CLOMP_vm_1_key.run2.json: not a clomp JSON record", top)
        self.assertIn("No JSON record for run(s) 2 4:", top)

    def test_the_drivers_failure_line_heads_the_page(self):
        with open(self.s.path(".env")) as f:
            env = f.read()
        lines = [l for l in env.splitlines() if not l.startswith("---- complete ")]
        lines.append("---- complete Thu Nov 26 01:13:29 UTC 2026: 1 of 8 runs FAILED; first: run 3 (key, exit status 7): "
                     "clomp: <boom> & out")
        with open(self.s.path(".env"), "w") as f:
            f.write("\n".join(lines) + "\n")
        rc, err, page = self.s.render("no")
        self.assertEqual(rc, 0, err)
        self.assertIn('<p class="notmet">1 of 8 runs FAILED; first: run 3 (key, exit status 7): clomp: &lt;boom&gt; &amp; out</p>',
                      page[:page.index('id="key-results"')])

    def test_a_new_checked_measurement_is_a_new_chart_series(self):
        suite = load_suite(self.s.path(""))
        rows = report.measurement_rows(suite)
        extra = [dict(r, key="guided", name="Guided OMP") for r in rows if r["key"] == "static"]
        runs = view.mesh_runs(rows + extra)
        drawn = {c.stem: c for c in charts.suite_charts(runs, [])}
        for stem in ("speedup_6400zones", "overhead_6400zones", "efficacy"):
            text = " ".join(drawn[stem].clauses)
            self.assertIn("title 'Guided OMP'", text, stem)
            self.assertIn("title 'Static OMP'", text, stem)
        self.assertNotIn("Serial Ref", " ".join(drawn["overhead_6400zones"].clauses))   # the reference is no series

    def test_a_256_core_sweep_wraps_the_construct_table(self):
        """7 inner-team runs (2x2 .. 2x128): the first 4 beside level 1, the other 3 in a table of their own."""
        shapes = [2 ** k for k in range(1, 8)]
        rows = []
        for name in ("BARRIER", "REDUCTION"):
            base = {"construct_name": name, "status": "measured", "overhead_us": "1.5", "overhead_ci95_low_us": "1.0",
                    "overhead_ci95_high_us": "2.0"}
            rows.append(dict(base, run="6", set="constructs", level="1", inner_threads="256", outer_threads="1"))
            for i, inner in enumerate(shapes):
                rows.append(dict(base, run=str(7 + i), set="constructs_outer2", level="2", outer_threads="2",
                                 inner_threads=str(inner), level2_over_level1="%.2f" % (1 + i / 100)))
        page = "\n".join(html_constructs.constructs_table(rows))
        tables_ = page.split("<table>")[1:]
        self.assertEqual(len(tables_), 2, page)
        self.assertEqual([t.count("<th>") for t in tables_], [3 + 4, 1 + 3])   # construct, level 1, cycles + runs
        for i, inner in enumerate(shapes):
            self.assertEqual(page.count("<th>level 2, 2x%d (run %d), us</th>" % (inner, 7 + i)), 1, inner)
        for t in tables_:
            self.assertEqual(t.count("<tr><td>BARRIER</td>") + t.count("<tr><td>REDUCTION</td>"), 2)
        for i in range(len(shapes)):
            self.assertEqual(page.count("L2/L1 %.2f" % (1 + i / 100)), 2)   # every run's ratio, on both rows

    def test_a_construct_is_charted_by_its_kind_not_its_chunk(self):
        levels = view.construct_levels([
            {"run": "7", "set": "constructs_outer2", "construct": "x", "construct_name": "NEW SYNC", "kind": "sync",
             "chunk": "8", "level": "2", "outer_threads": "2", "inner_threads": "2", "status": "measured",
             "overhead_us": "1.5", "overhead_ci95_low_us": "1.0", "overhead_ci95_high_us": "2.0"}])
        stems = [c.stem for c in charts.suite_charts([], levels)]
        self.assertEqual(stems, ["constructs_sync"])

    def test_a_schedule_and_a_construct_no_code_here_names_reach_every_output(self):
        def add_measurement(doc):
            static = [m for m in doc["measurements"] if m["key"] == "static"][0]
            doc["measurements"].append(dict(static, key="zz_fresh", name="ZZ Fresh OMP"))
        for path in sorted(glob.glob(self.s.path("_*.run*.json"))):   # every mesh run's record
            if "_constructs" not in path:
                self.edit_record(path[len(self.s.path("")):], add_measurement)

        def add_construct(doc):   # as a clomp with a kind column (schema minor 9) writes the table
            c = doc["constructs"]
            for row in c["rows"]:
                row["kind"] = "loop" if row["construct"] in LOOPS else "sync"
            first = c["rows"][0]
            c["csv_columns"] = ([k for k in first if k not in ("levels", "level2_over_level1", "kind")]
                                + list(first["levels"][0].keys()) + ["level2_over_level1", "kind"])
            barrier = [r for r in c["rows"] if r["construct"] == "barrier"][0]
            c["rows"].append(dict(barrier, construct="zz_fresh_sync", construct_name="ZZ FRESH SYNC"))
        for path in sorted(glob.glob(self.s.path("_constructs*.run*.json"))):
            self.edit_record(path[len(self.s.path("")):], add_construct)
        with open(self.s.path(".csv"), newline="") as f:   # clomp's own CSV row of the new measurement
            rows = list(csv.DictReader(f))
        columns = list(rows[0].keys())
        rows += [dict(r, key="zz_fresh", name="ZZ Fresh OMP") for r in rows if r["key"] == "static"]
        with open(self.s.path(".csv"), "w", newline="") as f:
            w = csv.DictWriter(f, columns, lineterminator="\n")
            w.writeheader()
            w.writerows(rows)

        tables.write_files(self.s.dir, tables.render(load_suite(self.s.path(""))))
        suite = load_suite(self.s.path(""))
        with open(self.s.path("_key.summary"), newline="") as f:
            run1 = [r for r in csv.DictReader(f) if r["run"] == "1"][0]
        static_us = [m for m in suite.record(1).measurements if m.key == "static"][0].doc["runtime_us_per_loop"]
        self.assertEqual(float(run1["zz_fresh_omp_us_per_loop"]), static_us)
        with open(self.s.path(".constructs.csv"), newline="") as f:
            table = list(csv.DictReader(f))
        self.assertEqual(list(table[0].keys())[-2:], ["level2_over_level1", "kind"])   # the record's column order
        fresh = [r for r in table if r["construct"] == "zz_fresh_sync"]
        self.assertEqual(sorted({r["run"] for r in fresh}), ["6", "7", "8"])
        self.assertEqual({r["kind"] for r in fresh}, {"sync"})

        levels = view.construct_levels(suite.constructs.rows)          # no kinds map: the column alone
        drawn = {c.stem: " ".join(c.clauses) for c in charts.suite_charts(view.mesh_runs(report.measurement_rows(suite)), levels)}
        self.assertIn("title 'ZZ FRESH SYNC'", drawn["constructs_sync"])
        self.assertNotIn("ZZ FRESH SYNC", drawn.get("constructs_loops", ""))
        self.assertIn("title 'ZZ Fresh OMP'", drawn["speedup_6400zones"])
        rc, err, page = self.s.render("yes" if shutil.which("gnuplot") else "no")
        self.assertEqual(rc, 0, err)
        self.assertIn("ZZ FRESH SYNC", page)            # the construct table holds every row
        if shutil.which("gnuplot"):                     # the schedule reaches the page in its charts
            self.assertIn("ZZ Fresh OMP", page)


if __name__ == "__main__":
    unittest.main()
