#!/usr/bin/env bash
# How often does --replicates auto's reported interval hold the true median? Simulates, side by
# side on the same populations, the one-at-a-time rule issue 31 replaced (start with 6 processes,
# add one while the interval is wider than the LARGER of +-10% and +-0.1 us, report the interval it
# stopped on) and the two-stage rule (a pilot of 6 plans N with clomp-stats' own code,
# timing/replication.c; N fresh processes give the interval, wanted within the SMALLER width), and
# prints each rule's coverage, the nominal coverage of the intervals it reported, how many processes
# it ran, and for the old rule how often it stopped at 6 and how often those covered. The
# simulation is tests/unit/test_replication.c's (its own generator and exact binomial ranks), run
# with REPS repetitions per population. Figures only: nothing here passes or fails.
#
# Usage: bench/auto_coverage.sh [REPS]   (default 100000: about a minute on one core)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
reps=${1:-100000}
case $reps in '' | *[!0-9]*) echo "$0: REPS must be a whole number" >&2; exit 2 ;; esac
make -C "$top" -s --no-print-directory build/tests/test_replication >&2
echo "bench/auto_coverage.sh: $reps repetitions per population; load: $(uptime | sed 's/.*load average: //')"
CLOMP_COVERAGE_REPS=$reps "$top/build/tests/test_replication" | sed 's/^# coverage //'
echo "load after: $(uptime | sed 's/.*load average: //')"
