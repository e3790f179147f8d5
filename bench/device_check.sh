#!/usr/bin/env bash
# make device-check (docs/offload.md): ONE prepared script for a node with a
# device. It builds every offload binary this machine can build (host
# plugin: clang + libomptarget; nvptx: gcc-offload-nvptx; amdgcn: gcc's
# amdgcn offload compiler, where it exists) and, with each binary whose
# device opens, prints every device figure with its 95% interval:
#   1. the target input (64 x 100 zones): Bestcase OMP, Static OMP, Dev
#      Bestcase and Offload OMP (us/Loop, speedup, efficacy, overhead, the
#      launch per subcycle), ROUNDS rounds;
#   2. the target probes: the 12 target rows of the construct table (EPCC's
#      target-offload methods), level 1, one process each;
#   3. the crossover sweep: Static OMP and Offload OMP at 64 parts x ZONES
#      zones per part, compared by clomp-stats (ratio and its interval), and
#      the crossover's bracket, or "no crossover in the range".
# The figures are printed by the results package from the runs' JSON
# records (clomp-results offload): the same text as the suite's report.
# A binary without a device says so and is listed as built, not measured,
# never run on the host in its place. The host plugin runs on the CPU: its
# figures are the runtime's cost with no accelerator, marked as such, and
# the last line says when no GPU was measured.
#
# Budget: BUDGET seconds in all (default 450: under 8 minutes with the
# builds), each step under `timeout` with what is left; a step cut short
# says so. Environment: THREADS (default: every CPU), ROUNDS (default 3),
# ZONES (the sweep's zones per part, default "6 25 100 400 1600 6400"),
# TIME_SCALE (default 10; the sweep's SWEEP_TIME_SCALE, default 1: its smallest
# mesh is a target region per 384 zone updates), KINDS (default: every buildable kind), OUT
# (default out/device-check), BUDGET, PREBUILT=1 (use ./clomp-offload-KIND
# and build/clomp-stats as they are, built elsewhere: a node without the
# offload compiler, e.g. a lent GPU machine given Debian's binaries and their
# libgomp + plugin on LD_LIBRARY_PATH).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

threads=${THREADS:-$(nproc)}
rounds=${ROUNDS:-3}
zones=${ZONES:-"6 25 100 400 1600 6400"}
time_scale=${TIME_SCALE:-10}
sweep_scale=${SWEEP_TIME_SCALE:-1}
out=${OUT:-out/device-check}
budget=${BUDGET:-450}
start=$(date +%s)
mkdir -p "$out" || exit 1
say() { echo "device-check: $*"; }
left() { echo $((budget - ($(date +%s) - start))); }
load() { uptime | sed 's/.*load average/load average/'; }
say "$(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n), $(nproc) CPUs, $(load)"
command -v nvidia-smi >/dev/null 2>&1 && say "nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n 4 | paste -sd';' -)"

# The GPU kinds first: their figures are the ones the budget is for.
buildable=()
if ls /usr/lib/gcc/x86_64-linux-gnu/*/accel/nvptx-none/mkoffload >/dev/null 2>&1; then
    buildable+=(nvptx)
else
    say "nvptx: not built (needs gcc-offload-nvptx)"
fi
if ls /usr/lib/gcc/x86_64-linux-gnu/*/accel/amdgcn-amdhsa/mkoffload >/dev/null 2>&1; then
    buildable+=(amdgcn)
else
    say "amdgcn: not built (no gcc amdgcn offload compiler here: Debian 12 has none for gcc 12)"
fi
if [ -e /usr/lib/llvm-14/lib/libomptarget.rtl.x86_64.so ] && command -v clang >/dev/null; then
    buildable+=(host)
else
    say "host plugin: not built (needs clang and libomp-14-dev)"
fi
kinds=${KINDS:-${buildable[*]}}

# The statistics helper and the results package (the figures' text).
prebuilt() { [ -n "${PREBUILT:-}" ] && [ -x "$1" ]; }
prebuilt build/clomp-stats || make --no-print-directory -s clomp-stats >"$out/build-stats.log" 2>&1 || { say "clomp-stats: build failed ($out/build-stats.log)"; exit 1; }
figures() { python3 results/clomp-results offload "$@"; }

# step SECONDS_WANTED LOG CMD...: runs CMD under what is left of the budget.
step() {
    local want=$1 log=$2 rest
    shift 2
    rest=$(left)
    if [ "$rest" -lt 10 ]; then say "skipped (budget of ${budget}s spent): $*"; return 124; fi
    [ "$want" -le "$rest" ] || want=$rest
    timeout "$want" "$@" >"$log" 2>&1
}

TARGET_PROBES="target target_teams target_teams_dpf target_nowait target_map_to target_map_from target_map_tofrom
    target_map_alloc target_atomic target_reduction target_teams_parallel target_teams_parallels"
gpu_measured=0
for kind in $kinds; do
    binary=./clomp-offload-$kind
    if prebuilt "$binary"; then
        say "$kind: prebuilt $binary, not rebuilt (PREBUILT)"
    elif ! make --no-print-directory -j"$(nproc)" OFFLOAD="$kind" "clomp-offload-$kind" >"$out/build-$kind.log" 2>&1; then
        say "$kind: build failed (see $out/build-$kind.log)"
        continue
    fi
    say "$kind: built in $(($(date +%s) - start)) s from the start"
    if ! "$binary" 1 1 1 2 32 1 1 --dry-run >"$out/probe-$kind.txt" 2>&1; then
        say "$kind: built, not measured: $(tail -n 1 "$out/probe-$kind.txt")"
        continue
    fi
    say "$kind: $(sed -n 's/^ *Offload device: //p' "$out/probe-$kind.txt")"
    grep -q 'host plugin' "$out/probe-$kind.txt" || gpu_measured=1
    records=()

    run=$out/$kind-target
    step 150 "$run.txt" "$binary" "$threads" 1 64 100 32 1 "$time_scale" --rounds="$rounds" \
        --schedules=bestcase,static,offload_bestcase,offload --json="$run.json"
    rc=$?
    say "$kind: target input (64 x 100 zones, $threads threads, $rounds rounds): exit $rc ($run.txt), $(load)"
    [ "$rc" -ne 0 ] || records+=("$run.json")

    # One process per probe (only Serial Ref beside it, as the suite's probe
    # run): a probe that kills its process (on an H200, 2026-11-26, one of
    # them ended the run with "an illegal memory access", cause not isolated)
    # costs its own row, not the others', and is named.
    for probe in $TARGET_PROBES; do
        probes=$out/$kind-probe-$probe
        step 30 "$probes.txt" "$binary" "$threads" 1 64 100 32 1 1 --schedules=serial --constructs="$probe" \
            --construct-chunks=8,4096,524288 --construct-sizes=1,243,59049 --json="$probes.json"
        rc=$?
        if [ "$rc" -eq 0 ]; then
            records+=("$probes.json")
        else
            say "$kind: target probe $probe: exit $rc: $(grep -v '^$' "$probes.txt" | tail -n 1) ($probes.txt)"
        fi
    done
    say "$kind: target probes (EPCC's method, one process each) done, $(load)"

    for z in $zones; do
        sweep=$out/$kind-zones-$z
        # At least 20 iterations (clomp's 20 chunks, an interval for each median).
        scale=$(awk -v s="$sweep_scale" -v z="$z" 'BEGIN { n = int((20 * 64 * z + 999999) / 1e6); print (n > s ? n : s) }')
        step 40 "$sweep.txt" "$binary" "$threads" 1 64 "$z" 32 1 "$scale" --schedules=static,offload --json="$sweep.json"
        rc=$?
        if [ "$rc" -eq 0 ]; then records+=("$sweep.json"); else say "$kind: $z zones per part: exit $rc ($sweep.txt)"; fi
    done
    say "$kind: sweep done, $(load)"
    if [ ${#records[@]} -gt 0 ]; then
        figures "${records[@]}" | sed "s/^/device-check: $kind: /"
    fi
done

say "finished in $(($(date +%s) - start)) s, $(load)"
if [ "$gpu_measured" = 0 ]; then
    say "no GPU was measured: every figure above is the host plugin's (the CPU, not an accelerator) or none"
fi
