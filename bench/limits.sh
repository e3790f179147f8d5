#!/usr/bin/env bash
# clomp --limits beside EPCC's BARRIER, on the same threads, for a gcc/libgomp
# and a clang/libomp build (docs/limits.md). For each compiler it builds clomp
# (this tree, in a temporary folder) and EPCC 3.1's syncbench from
# ../shared/reference/epcc-3.1 (or --epcc DIR) with EPCC's flags, then runs N
# rounds, each of them EPCC's syncbench and `clomp --limits --schedules=serial`
# per compiler in turn, at T threads bound as `make run` binds them
# (OMP_PROC_BIND=close OMP_PLACES=cores unless set). It prints per compiler
# the median [min, max] over the processes of: EPCC's BARRIER overhead (its
# barrier time less its 0.1 us delay, the figure EPCC reports), clomp's
# OpenMP barrier and each reference barrier (ns per barrier, each process's
# median over its repetitions), the best reference, OpenMP's barrier as a
# multiple of it, the reference and OpenMP fork/join, the median pair's round
# trip, and the latency bound in cycles; then how many processes were not a
# result (busy, INVALID), with the load before and after. Figures only:
# nothing here passes or fails a build. Skips cleanly (exit 0) without EPCC's
# sources; a compiler that is not installed is left out and said so.
#
# Usage: bench/limits.sh [--runs N] [--threads T] [--epcc DIR] [--compilers "gcc clang"]
#   defaults: 5 runs, 2 threads, ../shared/reference/epcc-3.1, gcc and clang
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
runs=5 threads=2 epcc='' compilers="gcc clang"
usage="usage: $0 [--runs N] [--threads T] [--epcc DIR] [--compilers \"gcc clang\"]"
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=${2:?$usage}; shift 2 ;;
        --threads) threads=${2:?$usage}; shift 2 ;;
        --epcc) epcc=${2:?$usage}; shift 2 ;;
        --compilers) compilers=${2:?$usage}; shift 2 ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
case $runs$threads in '' | *[!0-9]*) echo "$0: --runs and --threads need whole numbers" >&2; exit 2 ;; esac
for cc in $compilers; do
    case $cc in gcc | clang) ;; *) echo "$0: --compilers takes gcc and clang, not '$cc'" >&2; exit 2 ;; esac
done
if [ -z "$epcc" ]; then
    epcc=$top/../shared/reference/epcc-3.1
    [ -d "$epcc" ] || epcc=/work/shared/reference/epcc-3.1
fi
if [ ! -f "$epcc/syncbench.c" ] || [ ! -f "$epcc/common.c" ]; then
    echo "SKIP: EPCC v3.1 sources not found at $epcc (give --epcc DIR)"
    exit 0
fi
command -v python3 >/dev/null || { echo "$0: python3 is needed for the table" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
built=()
for cc in $compilers; do
    if ! command -v "$cc" >/dev/null; then
        echo "$cc: not installed, left out"
        continue
    fi
    if ! make -C "$top" --no-print-directory CC="$cc" BUILD="$work/build-$cc" PROGRAM="$work/clomp-$cc" \
        "$work/clomp-$cc" >"$work/build-$cc.log" 2>&1; then
        echo "$cc: clomp did not build:"; tail -5 "$work/build-$cc.log"; continue
    fi
    mkdir -p "$work/epcc-$cc"
    cp "$epcc"/*.c "$epcc"/*.h "$work/epcc-$cc/"
    # EPCC's Makefile.defs: -O1, OpenMP 2 and 3 features.
    if ! (cd "$work/epcc-$cc" && "$cc" -O1 -fopenmp -DOMPVER2 -DOMPVER3 -o syncbench syncbench.c common.c -lm) \
        >"$work/epcc-$cc.log" 2>&1; then
        echo "$cc: EPCC did not build:"; tail -5 "$work/epcc-$cc.log"; continue
    fi
    built+=("$cc")
done
[ ${#built[@]} -gt 0 ] || { echo "$0: nothing built" >&2; exit 1; }

export OMP_NUM_THREADS=$threads OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}
echo "machine: $(nproc) CPUs; load before: $(uptime | sed 's/.*load average: //')"
echo "$runs processes of each, in turn, at $threads threads; OMP_PROC_BIND=$OMP_PROC_BIND OMP_PLACES=$OMP_PLACES" \
     "OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-unset}"
for cc in "${built[@]}"; do
    echo "$cc: $("$cc" --version | head -1); runtime: $(ldd "$work/clomp-$cc" | grep -Eo "lib(g|i)?omp[^ ]*" | head -1)"
done
for ((i = 1; i <= runs; i++)); do
    for cc in "${built[@]}"; do
        "$work/epcc-$cc/syncbench" >"$work/epcc.$cc.$i" 2>&1 || echo "EPCC run $i ($cc) failed"
        "$work/clomp-$cc" --limits --schedules=serial --quiet --json="$work/clomp.$cc.$i.json" \
            "$threads" 1 4 10 32 1 1 >/dev/null 2>"$work/clomp.$cc.$i.err" ||
            echo "clomp run $i ($cc) failed: $(head -1 "$work/clomp.$cc.$i.err")"
    done
    printf '.'
done
echo
echo "load after: $(uptime | sed 's/.*load average: //')"

python3 - "$work" "$runs" "${built[@]}" <<'PY'
import json, re, statistics, sys

work, runs, compilers = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def spread(values):
    if not values:
        return f"{'-':>26}"
    return f"{statistics.median(values):9.1f} [{min(values):.1f}, {max(values):.1f}]".rjust(26)

rows = [("EPCC BARRIER overhead, ns", "epcc"), ("OpenMP barrier, ns", "omp_barrier"),
        ("Central counter, ns", "central"), ("Dissemination, ns", "dissemination"),
        ("Tournament, ns", "tournament"), ("OpenMP / best reference, x", "barrier_multiple"),
        ("Reference fork/join, ns", "reference_forkjoin"), ("OpenMP fork/join, ns", "omp_forkjoin"),
        ("Median pair round trip, ns", "round_trip"), ("Latency bound, cycles", "bound_cycles")]
figures = {cc: {key: [] for _, key in rows} for cc in compilers}
notes = {cc: {"busy": 0, "invalid": 0, "failed": 0, "best": []} for cc in compilers}
for cc in compilers:
    for i in range(1, runs + 1):
        for line in open(f"{work}/epcc.{cc}.{i}", errors="replace"):
            m = re.match(r"^BARRIER overhead = +(-?[0-9.]+) microseconds", line)
            if m:
                figures[cc]["epcc"].append(float(m.group(1)) * 1000)
        try:
            l = json.load(open(f"{work}/clomp.{cc}.{i}.json"))["limits"]
        except (OSError, ValueError, KeyError, TypeError):
            notes[cc]["failed"] += 1
            continue
        if l is None or l.get("figures") is None:
            notes[cc]["failed"] += 1
            continue
        notes[cc]["busy"] += bool(l["busy"])
        for t in l["timings"]:
            if t["key"] in figures[cc]:
                if t["valid"]:
                    figures[cc][t["key"]].append(t["median_ns"])
                else:
                    notes[cc]["invalid"] += 1
        f = l["figures"]
        for key, name in (("barrier_multiple", "barrier_multiple"), ("bound_cycles", "barrier_bound_cycles")):
            if f[name]["value"] is not None:   # withheld where it is not a result (a busy machine, an INVALID input)
                figures[cc][key].append(f[name]["value"])
        if l["round_trip"]["median_ns"] is not None:
            figures[cc]["round_trip"].append(l["round_trip"]["median_ns"])
        if l["best_reference"]:
            notes[cc]["best"].append(l["best_reference"])

print(f"median over {runs} processes [min, max]; each clomp figure is that process's median over its repetitions")
print(f"{'':30}" + "".join(f"{cc:>26}" for cc in compilers))
for label, key in rows:
    print(f"{label:30}" + "".join(spread(figures[cc][key]) for cc in compilers))
print(f"{'EPCC / clomp OpenMP barrier':30}" + "".join(
    (f"{statistics.median(figures[cc]['epcc']) / statistics.median(figures[cc]['omp_barrier']):26.2f}"
     if figures[cc]["epcc"] and figures[cc]["omp_barrier"] else f"{'-':>26}") for cc in compilers))
for cc in compilers:
    n = notes[cc]
    best = max(set(n["best"]), key=n["best"].count) if n["best"] else "-"
    print(f"{cc}: best reference most often {best}; {n['busy']} of {runs} processes busy (their multiples and bounds "
          f"are not results: left out), {n['invalid']} timings not a result (left out), {n['failed']} clomp runs "
          f"without figures")
PY
