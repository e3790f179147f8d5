"""clomp-stats summary|pilot-n --table CSV INPUT RUNS KEY COLUMN (stats/suite_table.c), what
run_clomp.sh --replicates auto asks (suite/replicates.sh): the values it reads from a suite's
<base>.csv by column name are those Python's csv module selects by the same rule (OK runs among
RUNS, of INPUT, of measurement KEY, not valid 0, not empty), quotes, commas and run numbers that
contain one another included; and pilot-n's half_width and within are the larger side of
summary's interval against the smaller of PCT% of |median| and the floor."""
from __future__ import annotations

import csv
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bundle_lib import GOLDEN, NAME, TOP  # noqa: E402

HELPER = os.environ.get("CLOMP_STATS") or os.path.join(TOP, "build", "clomp-stats")
INPUT_COLUMNS = ["numThreads", "allocThreads", "numParts", "zonesPerPart", "zoneSize", "flopScale", "timeScale", "numa"]


def ask(*args):
    # A timeout: a table that once made the reader loop forever (an empty run cell) must fail, not hang.
    done = subprocess.run([HELPER] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def answer(*args):
    rc, out, err = ask(*args)
    if rc != 0:
        raise AssertionError("clomp-stats %s: exit %d: %s" % (" ".join(args), rc, err))
    return json.loads(out)


def oracle(path, input_, runs, key, column):
    """(values, processes) by the rule, with Python's csv module."""
    values, processes = [], set()
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["run_status"] != "OK" or row["run"] not in runs.split() or \
                    " ".join(row.get(c, "") for c in INPUT_COLUMNS) != input_:
                continue
            processes.add(row["run"])
            if row["key"] == key and row.get(column, "") != "" and row.get("valid") != "0":
                values.append(float(row[column]))
    return values, len(processes)


@unittest.skipUnless(os.access(HELPER, os.X_OK), "clomp-stats is not built (make clomp-stats)")
class StatsTable(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def hostile_table(self):
        """A table whose host cells hold commas, quotes, line breaks and other hostile text before
        the figure's column, rows of other runs, inputs, statuses and keys, and a not-a-result row."""
        header = ["run", "set", "run_status", "key", "host", "overhead_us", "valid"] + INPUT_COLUMNS
        target = ["2", "-1", "64", "100", "32", "1", "1", "first-touch"]
        rows = [
            ["1", "key", "OK", "static", 'a,"b",<c>&', "0.5", "1"] + target,
            ["1", "key", "OK", "dynamic", "x", "9", "1"] + target,
            ["2", "key", "OK", "static", ',\n,"\r\n,', "0.75", ""] + target,   # one record over three lines
            ["12", "key", "OK", "static", "h", "100", "1"] + target,   # run 12 is not run 1 or 2
            ["3", "key", "FAILED", "static", "h", "50", "1"] + target,
            ["4", "key", "OK", "static", "h", "1.25", "0"] + target,   # not a result: no value, still a process
            ["5", "key", "OK", "static", "h", "", "1"] + target,       # no figure: still a process
            ["6", "key", "OK", "static", "h", "7", "1"] + target[:7] + ["interleave"],
            ["7", "key", "OK", "static", '"quoted, twice"', "-0.25", "1"] + target,
        ]
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows([header] + rows)
        path = os.path.join(self.tmp.name, "t.csv")
        with open(path, "w") as f:
            f.write(buffer.getvalue())
        return path, " ".join(target)

    def test_the_values_read_by_column_name_are_the_csv_modules(self):
        path, target = self.hostile_table()
        for runs in ("1 2 3 4 5 6 7", "1 2", "12", "2 4 5", "8 9"):
            want, processes = oracle(path, target, runs, "static", "overhead_us")
            got = answer("summary", "--json", "--table", path, target, runs, "static", "overhead_us")
            self.assertEqual(got["runs"], processes, runs)
            self.assertEqual(got["n"], len(want), runs)
            if want:
                self.assertAlmostEqual(got["median"], statistics.median(want), 12, runs)
                self.assertEqual(got["min"], min(want), runs)

    def test_the_golden_suites_table_gives_what_the_values_given_by_hand_give(self):
        path = os.path.join(GOLDEN, NAME + ".csv")
        with open(path, newline="") as f:
            first = next(csv.DictReader(f))
        target = " ".join(first[c] for c in INPUT_COLUMNS)
        runs = " ".join(str(r) for r in range(1, 10))
        for key, column in (("barrier", "us_per_loop"), ("static", "overhead_us"), ("static", "speedup")):
            want, processes = oracle(path, target, runs, key, column)
            self.assertTrue(want, key)
            from_table = answer("pilot-n", "--json", "10", "0.1", "30", "--table", path, target, runs, key, column)
            by_hand = answer("pilot-n", "--json", "10", "0.1", "30", *[repr(v) for v in want])
            self.assertEqual(from_table.pop("runs"), processes)
            self.assertEqual(from_table, by_hand, key)

    def test_no_value_is_an_answer_of_runs_and_n_0(self):
        path, target = self.hostile_table()
        for sub in (["summary", "--json"], ["pilot-n", "--json", "10", "0.1", "30"]):
            self.assertEqual(answer(*sub, "--table", path, target, "4 5", "static", "overhead_us"), {"runs": 2, "n": 0})
            self.assertEqual(answer(*sub, "--table", path + ".none", target, "1", "static", "overhead_us"),
                             {"runs": 0, "n": 0})

    def test_an_empty_run_cell_or_no_run_column_is_no_run(self):
        path, target = self.hostile_table()
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:   # a damaged row: its run cell empty
            f.write(text + ",key,OK,static,h,0.5,1," + target.replace(" ", ",") + "\n")
        want, processes = oracle(path, target, "1 2", "static", "overhead_us")
        self.assertEqual(answer("summary", "--json", "--table", path, target, "1 2", "static", "overhead_us")["n"],
                         len(want))
        with open(path, "w") as f:   # no run column at all
            f.write(text.replace("run,set,", "round,set,", 1))
        self.assertEqual(answer("summary", "--json", "--table", path, target, "1 2", "static", "overhead_us"),
                         {"runs": 0, "n": 0})

    def test_a_cell_that_is_not_a_number_is_refused_with_one_line(self):
        path, target = self.hostile_table()
        rc, out, err = ask("summary", "--json", "--table", path, target, "1", "static", "host")
        self.assertEqual((rc, out, len(err.splitlines())), (2, "", 1))
        self.assertIn("is not a number", err)
        rc, _, err = ask("summary", "--table", path, target, "1")
        self.assertEqual((rc, len(err.splitlines())), (2, 1))

    def test_half_width_and_within_judge_the_values_own_interval(self):
        samples = [[0.5, 0.52, 0.49, 0.61, 0.5, 0.47, 0.55], [1.0, 1.01, 0.99, 1.02, 0.98, 1.0, 1.03, 0.97],
                   [3.0, 3.5, 2.5, 4.0, 2.0, 3.2], [0.5, 0.6, 0.7], [5.0] * 8]
        for values in samples:
            args = [repr(v) for v in values]
            summary = answer("summary", "--json", *args)
            for pct, floor in (("10", "0.1"), ("50", "none"), ("1", "0.001")):
                got = answer("pilot-n", "--json", pct, floor, "30", *args)
                wanted = abs(statistics.median(values)) * float(pct) / 100
                if floor != "none":
                    wanted = min(wanted, float(floor))
                self.assertAlmostEqual(got["wanted"], wanted, 12)
                if summary["ci_low"] is None:
                    self.assertEqual((got["half_width"], got["within"]), (None, 0), values)
                    continue
                half = max(summary["median"] - summary["ci_low"], summary["ci_high"] - summary["median"])
                self.assertAlmostEqual(got["half_width"], half, 12)
                self.assertEqual(got["within"], int(half <= wanted), (values, pct, floor))


if __name__ == "__main__":
    unittest.main()
