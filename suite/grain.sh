#!/usr/bin/env bash
# The grain search's launcher for the full suite (suite/suite_grain.sh: its coarse search and the dry
# run's line): the results package's grain-driver (results/clomp_results/grain/grain_driver.py), which
# run_clomp.sh --grain runs too. python3 is there: the suite plans no search without it.
exec python3 "$(cd "$(dirname "$0")/.." && pwd)/results/clomp-results" grain-driver "$@"
