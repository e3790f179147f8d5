"""Issue 29, items 5 and 6: the tables re-rendered from the JSON records
are the ones today's code wrote (tests/golden/suite), and a host name or an
argument with commas, quotes, '<', '&' and newlines travels through the
loader, the tables and the validator without breaking a column or a line."""
from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bundle_lib import CLI, GOLDEN, NAME, Stage  # noqa: E402
from clomp_results.core import legacy, loader, tables  # noqa: E402
from clomp_results.suite import manifest_cli  # noqa: E402

HOSTILE = 'a,b"c<d&e\nf\x1b[2J'


def golden_lines(name):
    with open(os.path.join(GOLDEN, name), newline="") as f:
        return f.read().splitlines()


class AutoReplicatesPlan(unittest.TestCase):
    def test_each_added_target_process_is_a_run_after_the_last_key_run(self):
        # suite/replicates.sh inserts one more run of the target input after the key runs per line
        # "replicates auto: one more target process"; the later runs are numbered on (a plain oracle).
        plan = "exe=./clomp;launcher=;key||2 -1 64 100 32 1 1;key||2 1 64 100 32 1 1;6400zones||1 -1 64 100 32 1 1;"
        text = "plan: %s\nreplicates auto: one more target process (7): wide: x\n" \
               "replicates auto: one more target process (8): wide: x\nreplicates auto: stopped after 8\n" % plan
        got = [(p.index, p.set_name, p.args_text) for p in legacy.parse_env(text).plan]
        want = [(1, "key", "2 -1 64 100 32 1 1"), (2, "key", "2 1 64 100 32 1 1"), (3, "key", "2 -1 64 100 32 1 1"),
                (4, "key", "2 -1 64 100 32 1 1"), (5, "6400zones", "1 -1 64 100 32 1 1")]
        self.assertEqual(got, want)
        self.assertEqual(len(legacy.parse_env("plan: %s\n" % plan).plan), 3)

    def test_two_stage_processes_are_runs_at_the_numbers_the_env_records(self):
        # Two-stage auto (issue 31): "replicates auto: stage-2 process K of N: run R" puts a run of the
        # target input at run number R, in the order recorded; the pilot (the key runs) is as planned.
        plan = "exe=./clomp;launcher=;key||2 -1 64 100 32 1 1;key||2 1 64 100 32 1 1;" \
               "6400zones||1 -1 64 100 32 1 1;6400zones||2 -1 64 100 32 1 1;"
        text = ("plan: %s\nreplicates auto: stage 2: 2 fresh target processes at runs 3 5; interleaved\n"
                "replicates auto: stage-2 process 1 of 2: run 3\nreplicates auto: stage-2 process 2 of 2: run 5\n"
                "replicates auto: stopped after 2 processes (stage 2: runs 3 5; the pilot's left out): x\n") % plan
        env = legacy.parse_env(text)
        got = [(p.index, p.set_name, p.args_text) for p in env.plan]
        want = [(1, "key", "2 -1 64 100 32 1 1"), (2, "key", "2 1 64 100 32 1 1"), (3, "key", "2 -1 64 100 32 1 1"),
                (4, "6400zones", "1 -1 64 100 32 1 1"), (5, "key", "2 -1 64 100 32 1 1"),
                (6, "6400zones", "2 -1 64 100 32 1 1")]
        self.assertEqual(got, want)
        self.assertEqual(env.auto_stage2_runs, [3, 5])
        from clomp_results.core.records import Suite
        suite = Suite(name="s", source="s", env=env, done=[], records={}, summaries={}, csv=None, constructs=None,
                      processes=None, machine={}, files={})
        self.assertEqual(suite.auto_pilot_runs, [1], "the pilot: the target input's key runs that are not stage 2's")

    def test_a_hostile_stage_two_run_number_is_skipped_not_raised(self):
        # int() refuses over 4300 digits (Python 3.8.14+): a bundle's .env must not make the loader raise.
        text = "replicates auto: stage-2 process 1 of 1: run %s\nreplicates auto: stage-2 process 1 of 1: run 7\n" % ("9" * 5000)
        self.assertEqual(legacy.parse_env(text).auto_stage2_runs, [7])


class GoldenReRender(unittest.TestCase):
    def setUp(self):
        self.suite = loader.load_suite(GOLDEN)

    def test_every_summary_and_the_construct_table_re_render_line_for_line(self):
        rendered = tables.render(self.suite)
        expected = sorted(f for f in os.listdir(GOLDEN) if f.endswith(".summary")) + [NAME + ".constructs.csv"]
        self.assertEqual(sorted(rendered), sorted(expected))
        for name, lines in rendered.items():
            self.assertEqual(lines, golden_lines(name), name)

    def test_render_after_each_run_grows_the_summaries_to_the_golden_ones_line_for_line(self):
        # The run loop's progress step (suite/results.sh record_tables: render --progress), once per run as
        # the driver records them: after run N, each .summary holds the rows of runs 1..N of its set, and
        # after the last they are the golden files; no other table is written by it.
        import shutil
        import tempfile
        from clomp_results.suite import render
        work = tempfile.mkdtemp(prefix="clomp-rows-test.")
        try:
            suite = os.path.join(work, "suite")
            shutil.copytree(GOLDEN, suite)
            for f in os.listdir(suite):
                if f.endswith(".summary") or f.endswith(".constructs.csv"):
                    os.unlink(os.path.join(suite, f))
            # The manifest, the plan render reads: the golden suite predates it, and has the one the
            # converter builds (legacy.py; the driver's --resume of an old suite writes it so).
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(manifest_cli.main(["--write", os.path.join(suite, NAME)]), 0)
            # The driver's record of each run, appended run by run as today's driver writes it.
            facts = tables.driver_facts(self.suite)
            runs_csv = os.path.join(suite, NAME + ".runs.csv")
            with open(runs_csv, "w") as f:
                f.write("run,set,numa,status,exit_code,seconds\n")
            done = []
            for p in self.suite.plan:
                with open(runs_csv, "a") as f:
                    f.write("%d,%s,%s,%s\n" % (p.index, p.set_name, p.policy or "first-touch", ",".join(facts[p.index])))
                done.append(p)
                self.assertEqual(render.main(["--progress", os.path.join(suite, NAME)]), 0)
                with open(os.path.join(suite, "%s_%s.summary" % (NAME, p.set_name)), newline="") as got:
                    rows = [line.split(",", 1)[0] for line in got.read().splitlines()[1:]]
                self.assertEqual(rows, [str(q.index) for q in done if q.set_name == p.set_name], p.index)
            for f in sorted(f for f in os.listdir(GOLDEN) if f.endswith(".summary")):
                with open(os.path.join(suite, f), newline="") as got:
                    self.assertEqual(got.read().splitlines(), golden_lines(f), f)
            self.assertFalse(os.path.exists(os.path.join(suite, NAME + ".constructs.csv")))
            self.assertEqual([f for f in os.listdir(suite) if f.startswith(".")], [])
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def test_summary_figures_are_the_records_runtime_figures_read_independently(self):
        # An independent oracle: the JSON read with json and the .summary with csv, by name.
        with open(os.path.join(GOLDEN, NAME + "_key.summary"), newline="") as f:
            rows = list(csv.DictReader(f))
        checked = 0
        for row in rows:
            with open(os.path.join(GOLDEN, "%s_key.run%s.json" % (NAME, row["run"]))) as f:
                doc = json.load(f)
            by_key = {m["key"]: m for m in doc["measurements"]}
            for key, prefix in (("static", "static_omp"), ("serial", "serial_ref"), ("barrier", "omp_barrier")):
                want = by_key[key]["runtime_us_per_loop"]
                self.assertEqual(float(row[prefix + "_us_per_loop"]), want)
                checked += 1
            self.assertEqual(float(row["user_cpu_seconds"]), doc["process_cost"]["user_cpu_seconds"])
        self.assertEqual(checked, 9)

    def test_the_summary_header_comes_from_the_same_column_list_as_its_rows(self):
        rec = self.suite.record(1)
        row = tables.summary_row(self.suite.planned(1), rec, "OK", "0", "1.0")
        self.assertEqual(len(row), len(tables.summary_columns(rec)))

    def test_a_new_default_schedule_in_a_record_is_appended_to_the_summary(self):
        rec = self.suite.record(1)
        doc = json.loads(json.dumps(rec.doc))
        doc["measurements"].append(dict(doc["measurements"][4], key="static_2", name="Static,2 OMP", runtime_us_per_loop=1.5))
        rec2 = loader.RunRecord(1, "key", rec.file, doc)
        cols = tables.summary_columns(rec2)
        self.assertEqual(cols[-4:], ["static_2_omp_us_per_loop", "static_2_omp_speedup", "static_2_omp_efficacy_percent", "static_2_omp_overhead_us"])
        self.assertEqual(cols[:len(tables.summary_columns(rec))], tables.summary_columns(rec))
        row = tables.summary_row(self.suite.planned(1), rec2, "OK", "0", "1.0")
        self.assertEqual(row[cols.index("static_2_omp_us_per_loop")], "1.5")

    def test_a_failed_run_has_no_figures(self):
        row = tables.summary_row(self.suite.planned(1), self.suite.record(1), "FAILED", "1", "1.0")
        cols = tables.summary_columns(self.suite.record(1))
        self.assertEqual(row[cols.index("static_omp_us_per_loop")], "")
        self.assertEqual(row[cols.index("status")], "FAILED")

    def test_numbers_are_written_as_clomps_csv_writes_them(self):
        for value, text in ((100.0, "100"), (0.1, "0.1"), (1e-05, "1e-05"), (None, ""), (7, "7"), (1 / 3, "0.3333333333333333"), (0.1 + 0.2, "0.30000000000000004")):
            self.assertEqual(tables.number_text(value), text)
            if value is not None:
                self.assertEqual(float(text), value)


class HostileNames(unittest.TestCase):
    def setUp(self):
        self.stage = Stage()
        for f in os.listdir(self.stage.suite):
            if f.endswith(".json"):
                p = self.stage.path(f)
                with open(p) as fh:
                    doc = json.load(fh)
                doc["host"] = HOSTILE
                doc["invocation"] = "./clomp " + HOSTILE
                for row in (doc.get("constructs") or {}).get("rows") or []:
                    row["construct_name"] = HOSTILE
                with open(p, "w") as fh:
                    json.dump(doc, fh)
        env = self.stage.path(NAME + ".env")
        with open(env) as fh:
            text = fh.read()
        text = text.replace("host: vm\n", "host: $'a,b\"c<d&e\\nf\\E[2J'\n", 1)
        with open(env, "w") as fh:
            fh.write(text)
        self.stage.remanifest()

    def tearDown(self):
        self.assertTrue(self.stage.canary_intact())
        self.stage.close()

    def test_the_hostile_host_is_read_back_exactly(self):
        suite = loader.load_suite(self.stage.suite)
        self.assertEqual(suite.env.facts["host"], HOSTILE)
        self.assertEqual(suite.record(1).doc["host"], HOSTILE)

    def test_the_construct_table_keeps_its_columns_and_reads_back_the_name(self):
        suite = loader.load_suite(self.stage.suite)
        lines = tables.render(suite)[NAME + ".constructs.csv"]
        rows = list(csv.reader(io.StringIO("\n".join(lines) + "\n", newline="")))
        header = rows[0]
        self.assertTrue(all(len(r) == len(header) for r in rows[1:]))
        self.assertEqual({r[header.index("construct_name")] for r in rows[1:]}, {HOSTILE})

    def test_the_validator_prints_one_line_per_reason_and_no_escape(self):
        # The records changed, the tables not: each difference is a reason, its hostile text escaped.
        rc, out, _ = self.stage.validate(self.stage.pack())
        self.assertEqual(rc, 1, out)
        self.assertIn("construct_name is 'PARALLEL', its record gives 'a,b\"c<d&e\\nf\\x1b[2J'", out)
        self.assertNotIn("\x1b", out)
        self.assertTrue(all(line.startswith(("clomp_validate: ", "  - ")) for line in out.splitlines()), out)
        # The tables re-rendered from the records: what the suite says agrees again, and the names stay data.
        rc, out, _ = self.stage.run([CLI, "tables", self.stage.suite, "--write"])
        self.assertEqual(rc, 0, out)
        self.stage.remanifest()
        rc, out, _ = self.stage.validate(self.stage.pack())
        self.assertEqual(rc, 3, out)
        self.assertNotIn("\x1b", out)
        self.assertTrue(all(line.startswith(("clomp_validate: ", "  - ", "  note: ", "  rule: ")) for line in out.splitlines()), out)

    def test_a_hostile_cell_in_a_table_stays_in_its_column(self):
        data = "a,b\n%s,2\n" % tables.text_cell(HOSTILE)
        t = loader.read_table("x.csv", data.encode())
        self.assertEqual(t.rows, [{"a": HOSTILE, "b": "2"}])


if __name__ == "__main__":
    unittest.main()
