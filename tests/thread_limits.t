#!/usr/bin/env bash
# Thread counts the runtime or the system cannot create are refused before
# the first parallel region: exit 3 and one line naming the limit, never a
# SIGSEGV inside libgomp (100000 threads from OMP_NUM_THREADS, from
# numThreads, a 100000x100000 --nested shape). A count under the limits
# still runs, oversubscribed; the limits are made small here (ulimit -s,
# OMP_STACKSIZE, OMP_THREAD_LIMIT) so that a creatable count stays cheap.
# Every run says --oversubscribe: without it a team of more than 64 threads
# per hardware thread is refused before these limits as a mistake (exit 2,
# tests/job_cores.t); with it, what the system cannot create is still refused.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
export OMP_WAIT_POLICY=passive
input=(1 64 100 32 1 1)   # allocThreads .. timeScale: the target input, one iteration scale

# refused DESC LIMIT_ERE ENV... -- ARGS...: exit 3, one line on stderr naming the limit.
refused() {
    local desc=$1 limit=$2 envs=()
    shift 2
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    rc=0
    err=$(env ${envs[@]+"${envs[@]}"} timeout 60 "$CLOMP" --oversubscribe "$@" </dev/null 2>&1 >/dev/null) || rc=$?
    is "$rc" 3 "$desc: exit 3"
    like "$(line_count "$err"):$err" "^1:clomp: .*$limit" "$desc: one line naming the limit"
}

refused "OMP_NUM_THREADS=100000 with numThreads -1" "threads requested .*above" OMP_NUM_THREADS=100000 -- -1 "${input[@]}"
refused "numThreads 100000" "100000 threads requested .*above" -- 100000 "${input[@]}"
refused "--nested=100000x100000" "--nested 100000x100000: 10000000000 threads requested, .*above" -- --nested=100000x100000 4 "${input[@]}"
refused "OMP_THREAD_LIMIT=3 with 4 threads" "above the OpenMP thread limit of 3 \\(OMP_THREAD_LIMIT" OMP_THREAD_LIMIT=3 -- 4 "${input[@]}"

if [ "$(ulimit -s)" = unlimited ] || [ "$(ulimit -s)" -ge 256 ]; then
    # libgomp starts a team from the launching thread's stack: 1500 threads need more than 256 KiB.
    rc=0
    err=$( (ulimit -s 256 && OMP_NUM_THREADS=1500 timeout 60 "$CLOMP" --oversubscribe --dry-run -1 "${input[@]}" </dev/null 2>&1 >/dev/null)) || rc=$?
    if "$CLOMP" --version | grep -q '^compiler: GCC'; then
        like "$rc:$err" "^3:clomp: 1500 threads requested .*256 KiB stack \\(ulimit -s\\)" \
            "1500 threads under a 256 KiB stack (libgomp): exit 3 naming ulimit -s"
    else
        ok 0 "1500 threads under a 256 KiB stack: not a libgomp build, no stack bound"
    fi
    rc=0
    out=$( (ulimit -s 256 && OMP_NUM_THREADS=1000 timeout 60 "$CLOMP" --oversubscribe --dry-run -1 "${input[@]}" </dev/null 2>&1)) || rc=$?
    if "$CLOMP" --version | grep -q '^compiler: GCC'; then
        like "$rc:$(grep -c '^ *numThreads: 1000 ' <<<"$out")" "^0:1$" "1000 threads under the same stack (under the bound): the team is created, exit 0"
    else
        # libomp gives its threads explicit stacks of the main thread's size
        # (ulimit -s, unless KMP_STACKSIZE or OMP_STACKSIZE says), which glibc
        # refuses when they cannot hold the static TLS (the COPYIN arrays): libomp
        # would end the run ("OMP: Error #29"); clomp refuses it first, any count.
        like "$rc:$(line_count "$out"):$out" "^3:1:clomp: 1000 threads requested .*a thread's 256 KiB stack \\(libomp's, from the main thread's ulimit -s; set OMP_STACKSIZE\\) cannot hold its [0-9]+ KiB of thread-local storage" \
            "1000 threads under the same stack (libomp: its threads get 256 KiB stacks, too small for the TLS): exit 3, one line naming ulimit -s"
    fi
    rc=0
    out=$( (ulimit -s 256 && OMP_NUM_THREADS=2 timeout 60 "$CLOMP" --oversubscribe --dry-run -1 "${input[@]}" </dev/null 2>&1)) || rc=$?
    if "$CLOMP" --version | grep -q '^compiler: GCC'; then
        like "$rc:$(grep -c '^ *numThreads: 2 ' <<<"$out")" "^0:1$" "2 threads under a 256 KiB stack (libgomp: glibc sizes its threads' stacks with the TLS added): exit 0"
    else
        like "$rc:$(line_count "$out"):$out" "^3:1:clomp: 2 threads requested .*256 KiB stack \\(libomp's" \
            "2 threads under a 256 KiB stack (libomp): exit 3 naming the stack, never the runtime's abort"
        rc=0
        out=$( (ulimit -s 256 && OMP_STACKSIZE=2M OMP_NUM_THREADS=2 timeout 60 "$CLOMP" --oversubscribe --dry-run -1 "${input[@]}" </dev/null 2>&1)) || rc=$?
        like "$rc:$(grep -c '^ *numThreads: 2 ' <<<"$out")" "^0:1$" "and with OMP_STACKSIZE=2M, as the line says, the team is created: exit 0"
    fi
else
    skip "the main thread's stack bound (3 or 4 tests)" "ulimit -s is below 256 KiB"
fi

# A thread's stack holds its static thread-local storage (glibc): one too
# small for it is refused, naming how much it needs; the inner-team bound
# then counts what is left beside it.
refused "--nested=2x100 with OMP_STACKSIZE=64K" "a thread's 64 KiB stack \\(OMP_STACKSIZE\\) cannot hold its [0-9]+ KiB of thread-local storage" \
    OMP_STACKSIZE=64K -- --nested=2x100 --schedules=nested 4 "${input[@]}"
tls_kib=$(sed -n 's/.*cannot hold its \([0-9]*\) KiB of thread-local storage.*/\1/p' <<<"$err")
stack=$(( ${tls_kib:-0} + 64 ))K   # 64 KiB beside the TLS: room for about 220 inner threads (gcc)
if "$CLOMP" --version | grep -q '^compiler: GCC'; then
    refused "--nested=2x400 with OMP_STACKSIZE=$stack (64 KiB beside the TLS)" "inner teams of 400 .*${stack%K} KiB stack \\(OMP_STACKSIZE" \
        OMP_STACKSIZE=$stack -- --nested=2x400 --schedules=nested 4 "${input[@]}"
else
    skip "--nested=2x400 beside the TLS (2 tests)" "not a libgomp build: no inner-team stack bound"
fi
# 1000 zones a part, not the target's 100: clomp runs a fixed number of zone
# updates, so a tenth of the oversubscribed nested regions (5 s of CPU on 2 cores
# with 100) still start the 2 inner teams of 20 on these stacks.
rc=0
OMP_STACKSIZE=$stack timeout 120 "$CLOMP" --oversubscribe --nested=2x20 --schedules=nested 4 1 64 1000 32 1 1 </dev/null >/dev/null 2>&1 || rc=$?
is "$rc" 0 "--nested=2x20 with OMP_STACKSIZE=$stack (40 threads, oversubscribed, under the bound): runs, exit 0"

done_testing
