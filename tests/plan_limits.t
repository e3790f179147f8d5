#!/usr/bin/env bash
# The suite's largest team: parts follow the team (a multiple of the threads) and CLOMP 1.2
# wants zonesPerPart > 0, so a run of T threads holds T zones at least and MAX_THREADS past
# the target input's zones has no shape (past twice them the plan's rounding gave 0 zones per
# part and the estimate a traceback). The oracle is that arithmetic: the refusal names the
# target zones as the largest MAX_THREADS, and at that limit every planned run has parts a
# multiple of its threads and one zone per part at least. Dry runs only: no run, no file.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source-path=SCRIPTDIR source=lib/driver.sh
. "$(dirname "$0")/lib/driver.sh"

refuse "MAX_THREADS 100000 past the target input's 6400 zones" \
    '^run_clomp\.sh: MAX_THREADS: 100000 threads .* 6400 zones .*: at most 6400, or raise --target-zones$' \
    --dry-run --quick "$CLOMP" 100000
refuse "MAX_THREADS one past --target-zones 5" \
    '^run_clomp\.sh: MAX_THREADS: 6 threads .* 5 zones .*: at most 5,' --dry-run --quick "$CLOMP" 6 --target-zones 5

# At the limit: every run (mesh runs: numThreads allocThreads numParts zonesPerPart ...) is a shape
# CLOMP 1.2 accepts, and the estimate answers.
drive --dry-run --quick --no-constructs --target-zones 4 "$CLOMP" 4
is "$rc" 0 "MAX_THREADS equal to --target-zones plans a suite"
bad=$(printf '%s\n' "$out" | awk '/^\[[0-9]+\/[0-9]+\] / {
        for (j = NF; j > 0 && $j !~ /^~/; j--) ;   # the seven arguments end before the ~estimate
        t = $(j - 7); p = $(j - 5); z = $(j - 4); n++
        if (t < 1 || p < t || p % t != 0 || z < 1) print }
    END { if (n == 0) print "no runs listed" }')
is "$bad" "" "at the limit every run's parts are a multiple of its threads with one zone per part at least"
[[ $err != *Traceback* && $out == *"Estimated total"* ]]
ok $? "at the limit the estimate answers (no traceback)"

done_testing
