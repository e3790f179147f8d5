"""Between processes from the records (suite/between_processes.sh's output
re-rendered by between.py on tests/golden/suite), and clomp-stats' JSON
answer: the same fields as its tab-separated one, by name, checked against
plain re-implementations (median, [min, max] coverage 1 - 2^(1-n))."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bundle_lib import GOLDEN, NAME, TOP, Stage  # noqa: E402
from clomp_results.core import between, loader  # noqa: E402

HELPER = os.environ.get("CLOMP_STATS") or os.path.join(TOP, "build", "clomp-stats")
SUMMARY_FIELDS = ["n", "median", "min", "max", "ci_low", "ci_high", "ci_coverage", "range_coverage",
                  "median_text", "min_text", "max_text", "ci_low_text", "ci_high_text",
                  "prediction_low", "prediction_high", "prediction_coverage", "processes_for_prediction",
                  "prediction_low_text", "prediction_high_text"]
COMPARE_FIELDS = ["n_a", "n_b", "median_a", "median_b", "scale", "estimate", "ci_low", "ci_high", "ci_coverage",
                  "u", "p", "test", "detected", "estimate_text", "ci_low_text", "ci_high_text"]


def ask(*args):
    return subprocess.run([HELPER] + list(args), stdout=subprocess.PIPE, check=True).stdout.decode().strip()


@unittest.skipUnless(os.access(HELPER, os.X_OK), "clomp-stats is not built (make clomp-stats)")
class Between(unittest.TestCase):
    def test_the_golden_suites_between_process_files_re_render_line_for_line(self):
        # The files were made when a record before schema minor 7 (no busy verdict) counted as not busy: they
        # re-render from the quiet copy, whose processes all give their figures (bundle_lib.quiet_node).
        stage = Stage(quiet=True)
        try:
            csv_lines, txt = between.report(loader.load_suite(stage.suite), HELPER)
        finally:
            stage.close()
        for suffix, lines in (("_key.processes.csv", csv_lines), ("_key.processes.txt", txt)):
            with open(os.path.join(GOLDEN, NAME + suffix)) as f:
                self.assertEqual(lines, f.read().splitlines(), suffix)
        busy = between.report(loader.load_suite(GOLDEN), HELPER)[0]     # as recorded: its key processes were busy
        self.assertTrue(any("no result (0 of 2 processes gave one: 2 busy)" in line for line in busy), busy[:3])

    def test_the_llnl_rows_come_from_the_records_targets(self):
        csv_lines, _ = between.report(loader.load_suite(GOLDEN), HELPER)
        figures = [line.split(",")[2] for line in csv_lines[1:]]
        self.assertEqual([f for f in figures if "llnl" in f], ["omp_barrier_llnl_target_cycles", "parallel_for_llnl_target_cycles"])

    def test_summary_json_names_the_tab_fields(self):
        rng = random.Random(29)
        for n in (1, 2, 5, 6, 7, 30, 39, 80):
            values = ["%.6g" % rng.uniform(-5, 50) for _ in range(n)]
            doc = json.loads(ask("summary", "--json", *values))
            tab = ask("summary", *values).split("\t")
            self.assertEqual(list(doc), SUMMARY_FIELDS)
            for name, text in zip(SUMMARY_FIELDS, tab):
                self.assertEqual(doc[name], None if text == "NA" else (text if name.endswith("_text") else json.loads(text)), name)
            xs = sorted(float(v) for v in values)
            median = xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
            self.assertAlmostEqual(doc["median"], median, places=9)
            self.assertEqual((doc["min"], doc["max"]), (xs[0], xs[-1]))
            if n >= 2:
                self.assertAlmostEqual(doc["range_coverage"], 1 - 2.0 ** (1 - n))
            self.assertEqual(doc["ci_low"] is None, n < 6)
            # The next process: order statistics j and n+1-j hold it with probability (n+1-2j)/(n+1).
            if n >= 2:
                j = max([1] + [k for k in range(1, n // 2 + 1) if (n + 1 - 2 * k) / (n + 1) >= 0.95])
                self.assertEqual((doc["prediction_low"], doc["prediction_high"]), (xs[j - 1], xs[n - j]))
                self.assertAlmostEqual(doc["prediction_coverage"], (n + 1 - 2 * j) / (n + 1))
            self.assertEqual(doc["processes_for_prediction"], 39)

    def test_compare_json_names_the_tab_fields(self):
        a, b = "1,2,3,4,5,6,7", "2,3,4,5,6,7,9"
        for extra in ([], ["--level", "0.9"]):
            doc = json.loads(ask("compare", "--json", *(extra + [a, b])))
            tab = ask("compare", *(extra + [a, b])).split("\t")
            self.assertEqual(list(doc), COMPARE_FIELDS)
            self.assertEqual([str(doc[k]) if isinstance(doc[k], str) else doc[k] for k in COMPARE_FIELDS],
                             [t if k in ("scale", "test") or k.endswith("_text") else json.loads(t) for k, t in zip(COMPARE_FIELDS, tab)])
            self.assertEqual((doc["median_a"], doc["median_b"]), (4, 5))


if __name__ == "__main__":
    unittest.main()
