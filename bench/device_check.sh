#!/usr/bin/env bash
# make device-check (docs/offload.md): builds every offload binary this
# machine can build (host plugin: clang + libomptarget; nvptx: gcc-offload-
# nvptx; amdgcn: gcc's amdgcn offload compiler, where it exists), then runs
# with each binary that has a device: Offload OMP against Serial Ref,
# Bestcase OMP, Static OMP and Dev Bestcase on the target input with clomp's
# statistics (chunks, medians, 95% intervals; ROUNDS rounds), the target
# probes (construct table, EPCC's method), and the crossover sweep: the
# smallest zones per part at which Offload OMP's median us/Loop interval lies
# wholly below Static OMP's. A binary without a device says so and exits 3:
# it is listed as not measured, never run on the host in its place. The
# host plugin runs on the CPU: its figures are the runtime's cost with no
# accelerator, and this script says no GPU was measured unless one was.
#
# Environment: THREADS (default: every CPU), ROUNDS (default 3), ZONES (the
# crossover sweep's zones per part, default "10 40 100 400 1000 4000"),
# TIME_SCALE (default 10), OUT (default out/device-check).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

threads=${THREADS:-$(nproc)}
rounds=${ROUNDS:-3}
zones=${ZONES:-"10 40 100 400 1000 4000"}
time_scale=${TIME_SCALE:-10}
out=${OUT:-out/device-check}
mkdir -p "$out" || exit 1
echo "device-check: $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n), load: $(uptime | sed 's/.*load average/load average/')"

buildable=()
clang_ok=0
[ -e /usr/lib/llvm-14/lib/libomptarget.rtl.x86_64.so ] && command -v clang >/dev/null && clang_ok=1
[ "$clang_ok" = 1 ] && buildable+=(host) || echo "device-check: host plugin: not built (needs clang and libomp-14-dev)"
if ls /usr/lib/gcc/x86_64-linux-gnu/*/accel/nvptx-none/mkoffload >/dev/null 2>&1; then
    buildable+=(nvptx)
else
    echo "device-check: nvptx: not built (needs gcc-offload-nvptx)"
fi
if ls /usr/lib/gcc/x86_64-linux-gnu/*/accel/amdgcn-amdhsa/mkoffload >/dev/null 2>&1; then
    buildable+=(amdgcn)
else
    echo "device-check: amdgcn: not built (no gcc amdgcn offload compiler here: Debian 12 has none for gcc 12)"
fi

gpu_measured=0
for kind in "${buildable[@]}"; do
    binary=./clomp-offload-$kind
    if ! make --no-print-directory -j2 OFFLOAD="$kind" "clomp-offload-$kind" >"$out/build-$kind.log" 2>&1; then
        echo "device-check: $kind: build failed (see $out/build-$kind.log)"
        continue
    fi
    "$binary" 1 1 1 2 32 1 1 --dry-run >"$out/probe-$kind.txt" 2>&1
    status=$?
    if [ "$status" -ne 0 ]; then
        echo "device-check: $kind: built, not measured: $(tail -1 "$out/probe-$kind.txt")"
        continue
    fi
    device=$(sed -n 's/^ *Offload device: //p' "$out/probe-$kind.txt")
    echo "device-check: $kind: $device"
    [ "$kind" = host ] || gpu_measured=1

    run=$out/$kind-target
    "$binary" "$threads" 1 64 100 32 1 "$time_scale" --rounds="$rounds" \
        --schedules=bestcase,static,offload_bestcase,offload --csv="$run.csv" >"$run.txt" 2>&1
    echo "device-check: $kind: target input (64 x 100 zones, $threads threads, $rounds rounds): exit $? ($run.txt)"
    grep -E '^ *(Static OMP|Offload OMP|Dev Bestcase|Bestcase OMP) +(Median|Verify|Launch):' "$run.txt"

    "$binary" "$threads" 1 64 100 32 1 1 --constructs=parallel,target,target_teams,target_teams_dpf,target_nowait,target_map_to,target_map_from,target_map_tofrom \
        >"$out/$kind-constructs.txt" 2>&1
    echo "device-check: $kind: target probes (EPCC's method): exit $? ($out/$kind-constructs.txt)"
    sed -n '/^Construct /,/^------/p' "$out/$kind-constructs.txt"

    # The crossover: Offload OMP's interval wholly below Static OMP's.
    crossover=''
    for z in $zones; do
        csv=$out/$kind-zones-$z.csv
        "$binary" "$threads" 1 64 "$z" 32 1 "$time_scale" --schedules=static,offload --csv="$csv" >/dev/null 2>&1 || {
            echo "device-check: $kind: $z zones per part: run failed"
            continue
        }
        line=$(python3 - "$csv" "$z" <<'PY'
import csv, sys
rows = {r["key"]: r for r in csv.DictReader(open(sys.argv[1]))}
s, o = rows["static"], rows["offload"]
f = lambda r, k: float(r[k]) if r[k] else float("nan")
below = f(o, "us_per_loop_ci_high") < f(s, "us_per_loop_ci_low")
g = lambda r: "%.4g [%.4g, %.4g]" % (f(r, "us_per_loop"), f(r, "us_per_loop_ci_low"), f(r, "us_per_loop_ci_high"))
print("%s zones/part: Static OMP %s, Offload OMP %s us/Loop (median, 95%% interval)%s" % (
    sys.argv[2], g(s), g(o), ": offload faster" if below else ""))
PY
)
        echo "device-check: $kind: $line"
        [ -z "$crossover" ] && [[ $line == *"offload faster"* ]] && crossover=$z
    done
    echo "device-check: $kind: crossover: ${crossover:-none in the sweep ($zones zones per part)}"
done

if [ "$gpu_measured" = 0 ]; then
    echo "device-check: no GPU was measured: every figure above is the host plugin's (the CPU, not an accelerator) or none"
fi
