#!/usr/bin/env bash
# The noise census measured on this machine (docs/noise.md).
#
# 1. Its cost: the target input with and without the census
#    (--noise-census=off), in pairs of processes, random order within each
#    pair (seed printed; CLOMP_BENCH_SEED sets it); per process the wall
#    time and the census's own time (the probe, the per-chunk sampling
#    outside the clock) as a share of the run; per pair the difference on -
#    off of Static OMP's overhead and us/Loop and Bestcase's us/Loop, its
#    Hodges-Lehmann estimate with the exact signed-rank 95% interval (6
#    pairs or more; goal: below 0.01 us/Loop).
# 2. A competing process: the threads bound one per CPU (OMP_PLACES={0},{1},
#    OMP_PROC_BIND=close), a quiet run, then the same run beside a busy loop
#    pinned with taskset to the last team CPU (started and stopped here); per
#    thread the probe's lost fraction and the disturbed chunks, and per
#    measurement "k of n chunks disturbed", quiet against busy.
# Figures only: nothing here passes or fails.
#
# Usage: bench/noise.sh [--runs N] [--clomp PATH] [--cost-args "ARGS"] [--busy-args "ARGS"] [--skip-cost] [--skip-busy]
#   defaults: 6 pairs of the target input -1 1 64 100 32 1 100; the busy case 2 1 64 100 32 1 20
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
runs=6
clomp=$top/clomp
cost_args="-1 1 64 100 32 1 100"
busy_args="2 1 64 100 32 1 20"
skip_cost=
skip_busy=
usage="usage: $0 [--runs N] [--clomp PATH] [--cost-args \"ARGS\"] [--busy-args \"ARGS\"] [--skip-cost] [--skip-busy]"
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=${2:?$usage}; shift 2 ;;
        --clomp) clomp=${2:?$usage}; shift 2 ;;
        --cost-args) cost_args=${2:?$usage}; shift 2 ;;
        --busy-args) busy_args=${2:?$usage}; shift 2 ;;
        --skip-cost) skip_cost=1; shift ;;
        --skip-busy) skip_busy=1; shift ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
case $runs in '' | *[!0-9]* | 0) echo "$0: --runs needs a whole number above 0" >&2; exit 2 ;; esac
[ -x "$clomp" ] || { echo "$0: no clomp at $clomp" >&2; exit 2; }
command -v python3 >/dev/null || { echo "$0: python3 is needed for the figures" >&2; exit 2; }
command -v taskset >/dev/null || { echo "$0: taskset (util-linux) is needed for the competing process" >&2; exit 2; }

work=$(mktemp -d)
busy=
stop_busy() {
    if [ -n "$busy" ]; then
        kill "$busy" 2>/dev/null || :
        wait "$busy" 2>/dev/null || :
        busy=
    fi
}
trap 'stop_busy; rm -rf "$work"' EXIT
read -r -a cost_argv <<<"$cost_args"
read -r -a busy_argv <<<"$busy_args"
echo "machine: $(nproc) CPUs online; load: $(uptime | sed 's/.*load average/load average/')"

if [ -z "$skip_cost" ]; then
    # Pairs of processes, census on and off, in a random order within each
    # pair (bash's RANDOM, seeded and printed): drift between pairs cancels
    # in each pair's difference, and the order cannot favour either side.
    seed=${CLOMP_BENCH_SEED:-$$}
    RANDOM=$seed
    echo "== 1. the census's cost: $cost_args, $runs pairs of processes, random order within each pair (seed $seed) =="
    for ((i = 1; i <= runs; i++)); do
        if ((RANDOM % 2)); then order="on off"; else order="off on"; fi
        for mode in $order; do
            "$clomp" --noise-census="$mode" --json="$work/cost.$mode.$i.json" "${cost_argv[@]}" >/dev/null 2>&1 || :
        done
        printf '%s' "${order%% *}"
        printf ' '
    done
    echo "(first of each pair)"
    python3 - "$work" "$runs" "$top/bench" <<'PY'
import json, os, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, sys.argv[3])
from benchstats import paired_shift
def load(mode, i):
    p = os.path.join(work, "cost.%s.%d.json" % (mode, i))
    return json.load(open(p)) if os.path.exists(p) else None
pairs = [(load("on", i), load("off", i)) for i in range(1, runs + 1)]
pairs = [(a, b) for a, b in pairs if a is not None and b is not None]
on, off = [a for a, _ in pairs], [b for _, b in pairs]
def wall(d): return d["process_cost"]["wall_seconds"]
def fig(d, key, member):
    for m in d["measurements"]:
        if m["key"] == key:
            return m[member]
print("%-34s %12s %12s" % ("median over processes", "census on", "census off"))
print("%-34s %12.3f %12.3f" % ("wall seconds", statistics.median(map(wall, on)), statistics.median(map(wall, off))))
for key, member in (("static", "overhead_us_per_loop"), ("bestcase", "us_per_loop"), ("barrier", "us_per_loop")):
    a = [fig(d, key, member) for d in on if fig(d, key, member) is not None]
    b = [fig(d, key, member) for d in off if fig(d, key, member) is not None]
    if a and b:
        print("%-34s %12.3f %12.3f" % ("%s %s" % (key, member), statistics.median(a), statistics.median(b)))
print("census on - off, per pair (Hodges-Lehmann, exact signed-rank 95% interval; goal: |difference| < 0.01 us/Loop):")
for key, member in (("static", "overhead_us_per_loop"), ("static", "us_per_loop"), ("bestcase", "us_per_loop")):
    d = [fig(a, key, member) - fig(b, key, member) for a, b in pairs
         if fig(a, key, member) is not None and fig(b, key, member) is not None]
    if not d:
        continue
    est, lo, hi, cov = paired_shift(d)
    ci = "95%% CI %+.4f .. %+.4f (covers %.3f)" % (lo, hi, cov) if lo is not None else "no 95%% CI from %d pairs (needs 6)" % len(d)
    print("  %-32s %+.4f us/Loop, %s, %d pairs" % ("%s %s" % (key, member), est, ci, len(d)))
own = [(d["noise_census"]["probe_seconds"] + d["noise_census"]["sampling_seconds"]) / wall(d) for d in on]
print("census's own time (probe + sampling) / wall: median %.3f%%, max %.3f%%" % (100 * statistics.median(own), 100 * max(own)))
print("  probe %.1f ms, sampling %.1f ms (medians)" % (
    1e3 * statistics.median(d["noise_census"]["probe_seconds"] for d in on),
    1e3 * statistics.median(d["noise_census"]["sampling_seconds"] for d in on)))
PY
fi

# (The heredocs keep their lines unindented: the block is not indented.)
if [ -z "$skip_busy" ]; then
last=$(($(nproc) - 1))
places="{0}"
for ((c = 1; c <= last && c < 2; c++)); do places="$places,{$c}"; done
echo "== 2. a busy loop pinned to CPU $last: $busy_args, threads bound (OMP_PLACES=$places OMP_PROC_BIND=close) =="
OMP_PLACES=$places OMP_PROC_BIND=close "$clomp" --json="$work/quiet.json" "${busy_argv[@]}" >/dev/null 2>&1 || :
taskset -c "$last" sh -c 'while :; do :; done' &
busy=$!
OMP_PLACES=$places OMP_PROC_BIND=close "$clomp" --json="$work/busy.json" "${busy_argv[@]}" >/dev/null 2>&1 || :
stop_busy
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
runs = {name: json.load(open(os.path.join(work, name + ".json"))) for name in ("quiet", "busy")}
print("%-10s %6s %4s %10s %12s %18s" % ("run", "thread", "CPU", "lost %", "detour us", "chunks disturbed"))
for name, d in runs.items():
    for t in d["noise_census"]["threads"]:
        print("%-10s %6d %4d %10.2f %12.0f %11d of %d" % (name, t["thread"], t["cpu"], 100 * t["lost_fraction"],
              t["largest_detour_us"], t["timed_spans_disturbed"], t["timed_spans"]))
print("%-14s %22s %22s" % ("measurement", "quiet: disturbed", "busy: disturbed"))
q = {m["key"]: m for m in runs["quiet"]["measurements"]}
for m in runs["busy"]["measurements"]:
    a = q.get(m["key"])
    if m["noise_spans"] is None or a is None or a["noise_spans"] is None:
        continue
    warn = " (noise comparable)" if m["noise_comparable"] else ""
    print("%-14s %15d of %-4d %15d of %-4d%s" % (m["key"], a["noise_spans_disturbed"], a["noise_spans"],
          m["noise_spans_disturbed"], m["noise_spans"], warn))
PY
fi
echo "load after: $(uptime | sed 's/.*load average/load average/')"
