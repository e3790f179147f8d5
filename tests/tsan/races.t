#!/usr/bin/env bash
# Race detection (make tsan): every schedule, built with clang -fsanitize=thread
# and run with LLVM's Archer OMPT tool, shows no data race at 2 and 4 threads;
# and the detector is really on: the missing-barrier fault build is reported.

# shellcheck source-path=SCRIPTDIR source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

rc='' err=''
ARCHER=${ARCHER:-}
if [ -z "$ARCHER" ] || [ ! -f "$ARCHER" ]; then
    echo "Bail out! no libarcher.so (install libomp-dev; ARCHER=path)"
    exit 255
fi
# Archer supplies OpenMP's synchronisation to TSan; the uninstrumented runtime
# itself must be ignored or it reports false positives.
export OMP_TOOL_LIBRARIES=$ARCHER
export TSAN_OPTIONS='ignore_noninstrumented_modules=1 exitcode=66'
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

OMP_TOOL_VERBOSE_INIT=stderr run_clomp 1 1 4 10 32 1 1
like "$err" "Tool was started and is using the OMPT interface" "the OpenMP runtime loads Archer"

# Every measurement of the table, the optional schedules (taskloop, tasks...) too. Archer before
# LLVM 18 reports explicit tasks' firstprivate data as racing when libomp reuses the task's memory
# for the next task (fixed by LLVM's D158170, which marks it new memory at task end): a textbook
# `single` + `task` loop reports races there, so Tasks OMP is checked only with a newer Archer.
archer_llvm=$(sed -n 's|.*/llvm-\([0-9][0-9]*\)/.*|\1|p' <<<"$ARCHER")
if [ "${archer_llvm:-0}" -ge 18 ]; then
    every=$(schedule_list '' '' 1 | paste -sd, -)
else
    every=$(schedule_list '' '' 1 | grep -vx tasks | paste -sd, -)
    skip "Tasks OMP under ThreadSanitizer" "Archer of LLVM ${archer_llvm:-?} flags reused task memory as a race (fixed in LLVM 18)"
fi
for threads in 2 4; do
    run_clomp --schedules="$every" "$threads" 1 16 100 32 1 1
    is "$rc" 0 "every schedule of the table at $threads threads runs and verifies under ThreadSanitizer"
    [[ $err != *ThreadSanitizer* ]]
    ok $? "no data race is reported at $threads threads" || diag "$(printf '%s\n' "$err" | head -20)"
done
run_clomp --nested=2x2 4 1 16 100 32 1 1
[ "$rc" -eq 0 ] && [[ $err != *ThreadSanitizer* ]]
ok $? "nested 2x2 teams show no data race"

# --limits: the reference barriers' and fork/join's stamps are plain stores, ordered only by the
# atomics under test; the ping-pong's line is atomic.
run_clomp --schedules=serial --limits --limits-reps=2 --limits-time=50 --limits-trips=64 2 1 4 10 32 1 1
[ "$rc" -eq 0 ] && [[ $err != *ThreadSanitizer* ]]
ok $? "--limits' reference barriers, fork/join and ping-pong show no data race" || diag "$(printf '%s\n' "$err" | head -20)"

FAULTS_BIN=${CLOMP_FAULTS_BIN:-}
if [ -x "$FAULTS_BIN" ]; then
    CLOMP_FAULT=missing-barrier CLOMP_FAULT_SCHEDULE='Manual OMP' "$FAULTS_BIN" 2 1 16 100 32 1 1 >/dev/null 2>"$BUILD_DIR/tsan-fault.err"
    rc=$?
    is "$rc" 66 "the missing-barrier fault build ends with ThreadSanitizer's exit status"
    grep -q 'WARNING: ThreadSanitizer: data race' "$BUILD_DIR/tsan-fault.err"
    ok $? "the removed barrier is reported as a data race"
    CLOMP_FAULT=limits-skip-round CLOMP_FAULT_LIMITS=dissemination "$FAULTS_BIN" --schedules=serial --limits \
        --limits-reps=1 --limits-time=50 --limits-trips=64 2 1 4 10 32 1 1 >/dev/null 2>"$BUILD_DIR/tsan-limits.err"
    rc=$?
    grep -q 'WARNING: ThreadSanitizer: data race' "$BUILD_DIR/tsan-limits.err"
    ok $? "a dissemination barrier with a round skipped is reported as a data race too (exit $rc)"
else
    skip "the missing-barrier fault is reported as a data race" "no clomp-faults build"
fi

done_testing
