#!/usr/bin/env bash
# clomp --constructs beside EPCC's own microbenchmarks. With --epcc-version
# 4.0 (the default) it builds EPCC 4.0's syncbench, schedbench, taskbench and
# arraybench (one program per array size, as EPCC's Makefile does) from
# ../shared/reference/epcc-4.0 (or --epcc DIR) into a temporary folder with
# the compiler clomp was built with; syncbench needs omp_init_lock_with_hint,
# which libgomp up to GCC 12 lacks, so with gcc it is skipped and said so.
# It runs N processes of each side in turn (EPCC, clomp, EPCC, clomp, ...)
# at T threads with the same settings (EPCC 4.0's: 0.1 us delays, 1024 loop
# iterations per thread, 20 repetitions of 1000 us), and prints per
# measurement EPCC's median (of its processes' median overheads) and spread
# [min, max], clomp's level-1 median and spread, the ratio clomp / EPCC,
# whether clomp's median lies within EPCC's spread, and clomp's level-2
# figure (OUTER x INNER, default 2x2: oversubscribed on a 2-core machine).
# --epcc-version 3.1 runs EPCC 3.1's syncbench and schedbench as before
# (within: EPCC's spread or 30% of its median). Skips cleanly (exit 0)
# without the EPCC sources. Figures only: nothing here passes or fails a build.
#
# With 4.0, clomp does the same number of additions per delay as the EPCC
# program it is compared with chose in its nearest process (EPCC's "delay
# length", passed as --construct-delay-length): the calibration's steps are
# 10% apart and a binary's own code lands it on one or another, and the
# task rows' overheads grow with the length (docs/constructs.md).
# --own-delay lets clomp calibrate its own delays instead.
#
# Usage: bench/constructs.sh [--runs N] [--threads T] [--nested OxI] [--clomp PATH] [--epcc DIR]
#                            [--epcc-version 4.0|3.1] [--sizes LIST] [--own-delay]
#   defaults: 5 runs, 2 threads, 2x2, ./clomp, ../shared/reference/epcc-<version>,
#   4.0, arraybench sizes 1,27,729,19683 (EPCC's full set: 1,3,9,...,59049)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
runs=5 threads=2 nested=2x2 version=4.0 sizes=1,27,729,19683 delay=epcc
clomp=$top/clomp
epcc=
usage="usage: $0 [--runs N] [--threads T] [--nested OxI] [--clomp PATH] [--epcc DIR] [--epcc-version 4.0|3.1] [--sizes LIST] [--own-delay]"
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=${2:?$usage}; shift 2 ;;
        --threads) threads=${2:?$usage}; shift 2 ;;
        --nested) nested=${2:?$usage}; shift 2 ;;
        --clomp) clomp=${2:?$usage}; shift 2 ;;
        --epcc) epcc=${2:?$usage}; shift 2 ;;
        --epcc-version) version=${2:?$usage}; shift 2 ;;
        --sizes) sizes=${2:?$usage}; shift 2 ;;
        --own-delay) delay=own; shift ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
case $runs$threads in '' | *[!0-9]*) echo "$0: --runs and --threads need whole numbers" >&2; exit 2 ;; esac
case $sizes in '' | *[!0-9,]*) echo "$0: --sizes needs a comma-separated list of array sizes" >&2; exit 2 ;; esac
case $version in 3.1 | 4.0) ;; *) echo "$0: --epcc-version is 4.0 or 3.1, not '$version'" >&2; exit 2 ;; esac
[ -x "$clomp" ] || { echo "$0: no clomp at $clomp" >&2; exit 2; }
if [ -z "$epcc" ]; then
    epcc=$top/../shared/reference/epcc-$version
    [ -d "$epcc" ] || epcc=/work/shared/reference/epcc-$version
fi
if [ "$version" = 4.0 ]; then
    exec "$top/bench/constructs_epcc4.sh" "$runs" "$threads" "$nested" "$clomp" "$epcc" "$sizes" "$delay"
fi
if [ ! -f "$epcc/syncbench.c" ] || [ ! -f "$epcc/schedbench.c" ]; then
    echo "SKIP: EPCC v3.1 sources not found at $epcc (give --epcc DIR)"
    exit 0
fi
command -v python3 >/dev/null || { echo "$0: python3 is needed for the table" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The same compiler as clomp's (its --version names it: "compiler: ... (CC=gcc)").
cc=$("$clomp" --version | sed -n 's/^compiler: .*(CC=\(.*\))$/\1/p')
cc=${cc:-gcc}
cp "$epcc"/*.c "$epcc"/*.h "$work"/
(
    cd "$work"
    # EPCC's Makefile.defs: -O1, OpenMP 2 and 3 features; common.c built again with -DSCHEDBENCH for schedbench.
    flags=(-O1 -fopenmp -DOMPVER2 -DOMPVER3)
    "$cc" "${flags[@]}" -o syncbench syncbench.c common.c -lm
    "$cc" "${flags[@]}" -DSCHEDBENCH -o schedbench schedbench.c common.c -lm
) >"$work/build.log" 2>&1 || { echo "$0: EPCC did not build with $cc:"; cat "$work/build.log"; exit 1; }

sync_keys=parallel,for,parallel_for,barrier,single,critical,lock,atomic,reduction
loop_keys=static,static_n,dynamic_n,guided_n
input=("$threads" 1 4 10 32 1 1)
export OMP_NUM_THREADS=$threads
echo "machine: $(nproc) CPUs; load before: $(uptime | sed 's/.*load average: //')"
echo "compiler: $cc ($("$cc" --version | head -1)); OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-unset}; $runs processes of each, in turn, at $threads threads"
for ((i = 1; i <= runs; i++)); do
    "$work/syncbench" >"$work/epcc.sync.$i" 2>&1
    "$clomp" --constructs=$sync_keys --schedules=serial --nested="$nested" --quiet --csv="$work/clomp.sync.$i" \
        "${input[@]}" >/dev/null 2>&1 || echo "clomp run $i (sync) failed"
    "$work/schedbench" >"$work/epcc.sched.$i" 2>&1
    "$clomp" --constructs=$loop_keys --schedules=serial --nested="$nested" --quiet --csv="$work/clomp.sched.$i" \
        "${input[@]}" >/dev/null 2>&1 || echo "clomp run $i (schedules) failed"
    printf '.'
done
echo
echo "load after: $(uptime | sed 's/.*load average: //')"

python3 - "$work" "$runs" "$nested" "$(nproc)" <<'PY'
import csv, re, statistics, sys

work, runs, nested, cpus = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
epcc, mine, level2, ratio = {}, {}, {}, {}
for i in range(1, runs + 1):
    for kind in ("sync", "sched"):
        for line in open(f"{work}/epcc.{kind}.{i}"):
            m = re.match(r"^(.*\S) overhead = +(-?[0-9.]+) microseconds", line)
            if m:
                epcc.setdefault(m.group(1), []).append(float(m.group(2)))
        for row in csv.DictReader(open(f"{work}/clomp.{kind}.{i}")):
            name = row["construct_name"]
            if row["overhead_us"] == "":
                continue
            target = mine if row["level"] == "1" else level2
            target.setdefault(name, []).append(float(row["overhead_us"]))
            if row["level"] == "2" and row["level2_over_level1"]:
                ratio.setdefault(name, []).append(float(row["level2_over_level1"]))

def spread(values):
    return f"{statistics.median(values):9.3f} [{min(values):.3f}, {max(values):.3f}]"

outer, inner = (int(x) for x in nested.split("x"))
note = " (oversubscribed: %d threads on %d CPUs)" % (outer * inner, cpus) if outer * inner > cpus else ""
print(f"Overhead per construct instance, us: median over {runs} processes [min, max]; level 2 = {nested}{note}")
print(f"{'construct':14} {'EPCC 3.1':>28} {'clomp level 1':>28}  {'within':7} {'clomp level 2':>28} {'L2/L1':>6}")
inside = total = 0
for name in epcc:
    if name not in mine or name == "ORDERED":
        continue
    e, c = epcc[name], mine[name]
    med, cm = statistics.median(e), statistics.median(c)
    ok = min(e) <= cm <= max(e) or abs(cm - med) <= 0.3 * abs(med)
    inside += ok
    total += 1
    l2 = spread(level2[name]) if name in level2 else f"{'N/A':>28}"
    r = f"{statistics.median(ratio[name]):6.2f}" if name in ratio else f"{'':6}"
    print(f"{name:14} {spread(e):>28} {spread(c):>28}  {'yes' if ok else 'NO':7} {l2:>28} {r}")
print(f"clomp's level-1 median within EPCC's spread (or 30% of its median): {inside} of {total}")
PY
