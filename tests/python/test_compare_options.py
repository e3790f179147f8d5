"""run_clomp.sh --compare's command line as compare_options.parse_compare reads it for compare_driver.py
(and --ompt-tax's, parse_ompt_tax, for ompt_tax_driver.py; `compare-options --parse` prints either):
each case worked by hand from docs/compare.md's rules (the values an option takes, with a space or
'=', clomp's own options and numbers passed on, seven numbers or none, --until against --replicates),
the NUL-separated answer the driver reads with mapfile, and each refusal one line with exit 2."""
import os
import subprocess
import unittest

from render_fixture import TOP

from clomp_results.compare.compare_options import Refused, parse_compare, parse_ompt_tax

DEFAULT = ["4", "1", "64", "100", "32", "1", "100"]
HOSTILE = 'a,b "q" <x> & \ttab\nnext'


class ParseCompare(unittest.TestCase):
    def test_options_with_a_space_or_an_equals_sign_and_clomps_arguments_passed_on(self):
        cases = [
            (["--compare", "gnu,llvm"], ["gnu,llvm", "10", "", "static_omp_median_overhead_us", "0", "0", "out"] + DEFAULT),
            # a key the tools printed before issue 43 is passed on as the catalogue names it now
            (["--compare=gnu,llvm", "--replicates=6", "--out", "d", "--primary", "barrier_us_per_loop"],
             ["gnu,llvm", "6", "", "omp_barrier_median_us_per_loop", "1", "0", "d"] + DEFAULT),
            # fewer than 6 pairs only with --force
            (["--compare", "a,b", "--replicates", "3", "--force"],
             ["a,b", "3", "", "static_omp_median_overhead_us", "0", "0", "out"] + DEFAULT),
            (["--quick", "--compare", "a,b", "--list-figures", "--schedules=barrier", "--quick=x"],
             ["a,b", "10", "", "static_omp_median_overhead_us", "0", "1", "out", "--schedules=barrier", "--quick=x",
              "4", "1", "64", "100", "32", "1", "1"]),
            (["--compare", "a,b", "2", "1", "64", "100", "32", "1", "7"],
             ["a,b", "10", "", "static_omp_median_overhead_us", "0", "0", "out", "2", "1", "64", "100", "32", "1", "7"]),
            # after --, everything is clomp's and no number counts
            (["--compare", "a,b", "--", "--json=x", "1"],
             ["a,b", "10", "", "static_omp_median_overhead_us", "0", "0", "out", "--json=x", "1"] + DEFAULT),
            (["--compare", "a,b", "--until", "decided,20"],
             ["a,b", "20", "6,10,13,17,20", "static_omp_median_overhead_us", "0", "0", "out"] + DEFAULT),
            (["--compare", "a,b", "--out", HOSTILE, "--primary=" + HOSTILE],
             ["a,b", "10", "", HOSTILE, "1", "0", HOSTILE] + DEFAULT),
        ]
        for args, want in cases:
            self.assertEqual(parse_compare("4", args), want, args)

    def test_each_refusal_names_what_is_wrong(self):
        cases = [
            (["--compare", "a,b", "--out"], "--out: needs a value (see --compare --help)"),
            (["--compare", "a,b", "--replicates", "1"], "--replicates: '1' must be a whole number of at least 2"),
            (["--compare", "a,b", "--replicates", "07"], "--replicates: '07' must be"),
            (["--compare", "a,b", "--until", "decided", "--replicates", "5"], "--until and --replicates: give one"),
            (["--compare", "a,b", "--until", "soon"], "--until: 'soon' is not decided[,MAX]"),
            (["--compare", "a,b", "1", "2"], "--compare: give all seven clomp numbers or none (got 2)"),
            (["--compare", "a,b,c"], "--compare: 'a,b,c' is not A,B (two sides, one comma)"),
            (["--replicates", "3"], "--compare: '' is not A,B"),
            (["--compare", "a,b", "--csv"], "--compare: clomp's --csv is the driver's own (the results go to --out)"),
            (["--compare", "a,b", "--json=x"], "--compare: clomp's --json is the driver's own"),
            (["--compare", "a,b", "--dry-run"], "--compare has no dry run (it runs its processes"),
            # the exact signed-rank test's smallest p from n pairs is 2/2^n: 0.25 from 3, 0.0625 from 5 (issue 43, item 6)
            (["--compare", "a,b", "--replicates", "3"], "--replicates 3: 3 pairs can never show a difference at p <= 0.05 "
             "with the exact signed-rank test (the smallest p from 3 pairs is 0.25); it needs 6 pairs"),
            (["--compare", "a,b", "--replicates=5"], "--replicates 5: 5 pairs can never show a difference at p <= 0.05 "
             "with the exact signed-rank test (the smallest p from 5 pairs is 0.0625); it needs 6 pairs"),
        ]
        for args, want in cases:
            with self.assertRaises(Refused, msg=args) as caught:
                parse_compare("4", args)
            self.assertTrue(str(caught.exception).startswith(want), (args, str(caught.exception)))

    def test_the_driver_reads_nul_separated_cells_or_one_line_and_exit_2(self):
        command = ["python3", os.path.join(TOP, "results", "clomp-results"), "compare-options", "--parse", "3"]
        done = subprocess.run(command + ["--compare", "a,b", "--out", HOSTILE], stdout=subprocess.PIPE)
        self.assertEqual(done.returncode, 0)
        self.assertEqual(done.stdout.decode().split("\0"),
                         ["a,b", "10", "", "static_omp_median_overhead_us", "0", "0", HOSTILE, "3", "1", "64", "100", "32", "1", "100", ""])
        done = subprocess.run(command + ["--compare", "a"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual((done.returncode, done.stdout, len(done.stderr.splitlines())), (2, b"", 1))


class ParseOmptTax(unittest.TestCase):
    def test_the_side_processes_out_and_clomps_arguments_quick_first(self):
        cases = [
            (["--ompt-tax", "--side", "gnu", "--replicates=4", "--out", HOSTILE, "--schedules=barrier", "--quick", "2",
              "--force"],
             ["gnu", "4", HOSTILE, "--quick", "--force", "--schedules=barrier", "2"]),
            (["--side=/x/clomp+OMP_X=1", "--ompt-tax=1", "--ompt-other"],
             ["/x/clomp+OMP_X=1", "10", "out", "--ompt-tax=1", "--ompt-other"]),
            (["--side", "--help"], ["--help", "10", "out"]),   # a value, not the help
            (["--replicates", "3", "-h", "--replicates", "1"], ["help"]),
        ]
        for args, want in cases:
            self.assertEqual(parse_ompt_tax(args), want, args)
        self.assertIn(parse_ompt_tax([])[0], ("llvm", "libomp"))

    def test_each_refusal_names_what_is_wrong(self):
        cases = [
            (["--side"], "--side: needs a value (see --ompt-tax --help)"),
            (["--replicates", "x"], "--replicates: 'x' must be a whole number of at least 2"),
            (["--replicates", "4"], "--replicates 4: 4 pairs can never show a difference at p <= 0.05 with the exact "
             "signed-rank test (the smallest p from 4 pairs is 0.125); it needs 6 pairs: give --replicates 6 or more "
             "(or --force to run them anyway)"),
            (["--side", "a,b"], "--side: 'a,b' is one side (no comma)"),
            (["--side", "gnu+CLOMP_OMPT=trivial"], "--side: the driver sets CLOMP_OMPT itself"),
            (["--ompt=trivial"], "--ompt-tax: the tool is the driver's to choose (no --ompt)"),
            (["--compare", "a,b"], "--ompt-tax: give the side with --side, not --compare"),
            (["--dry-run"], "--ompt-tax has no dry run (it runs its processes; ./run_clomp.sh --dry-run plans a suite)"),
        ]
        for args, want in cases:
            with self.assertRaises(Refused, msg=args) as caught:
                parse_ompt_tax(args)
            self.assertEqual(str(caught.exception), want)


if __name__ == "__main__":
    unittest.main()
