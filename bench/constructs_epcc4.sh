#!/usr/bin/env bash
# bench/constructs.sh --epcc-version 4.0 (the default): EPCC 4.0's four
# programs beside clomp --constructs' rows of the same names. Called by
# bench/constructs.sh with its checked arguments: RUNS THREADS OxI CLOMP EPCC_DIR SIZES.
set -euo pipefail

runs=$1 threads=$2 nested=$3 clomp=$4 epcc=$5 sizes=$6
for f in syncbench.c schedbench.c taskbench.c arraybench.c common.c common.h; do
    if [ ! -f "$epcc/$f" ]; then
        echo "SKIP: EPCC 4.0 sources not found at $epcc (no $f; give --epcc DIR)"
        exit 0
    fi
done
command -v python3 >/dev/null || { echo "$0: python3 is needed for the table" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The same compiler as clomp's (its --version names it: "compiler: ... (CC=gcc)").
cc=$("$clomp" --version | sed -n 's/^compiler: .*(CC=\(.*\))$/\1/p')
cc=${cc:-gcc}
cp "$epcc"/*.c "$epcc"/*.h "$work"/
programs=()
(
    cd "$work"
    # EPCC 4.0's Makefile.defs: -fopenmp, no optimisation flag given; ours: -O1, as for 3.1.
    flags=(-O1 -fopenmp)
    "$cc" "${flags[@]}" -o schedbench schedbench.c common.c -lm
    "$cc" "${flags[@]}" -o taskbench taskbench.c common.c -lm
    for n in ${sizes//,/ }; do
        "$cc" "${flags[@]}" -DIDA="$n" -o "arraybench_$n" arraybench.c common.c -lm
    done
) >"$work/build.log" 2>&1 || { echo "$0: EPCC 4.0 did not build with $cc:"; cat "$work/build.log"; exit 1; }
programs+=(schedbench taskbench)
for n in ${sizes//,/ }; do programs+=("arraybench_$n"); done
# syncbench calls omp_init_lock_with_hint: libgomp up to GCC 12 has none.
if (cd "$work" && "$cc" -O1 -fopenmp -o syncbench syncbench.c common.c -lm) >"$work/sync.log" 2>&1; then
    programs=(syncbench "${programs[@]}")
    sync_note="syncbench built"
else
    sync_note="syncbench NOT built with $cc ($(grep -o "undefined reference to \`[a-z_]*'" "$work/sync.log" | head -1)): its rows are not compared"
fi

# clomp's rows of the same measurements, with EPCC 4.0's settings.
sync_keys=parallel,for,parallel_for,barrier,barrier_var,single,critical,lock,lock_contended_hint,lock_uncontended
sync_keys+=,lock_uncontended_hint,ordered,atomic,atomic_seqcst,reduction
loop_keys=static,static_monotonic,static_n,static_n_monotonic,dynamic_n,dynamic_n_monotonic,guided_n
loop_keys+=,guided_n_monotonic,taskloop_n
task_keys=parallel_task,parallel_task_deps,master_task,master_task_deps,master_task_busy_workers,conditional_task
task_keys+=,task_wait,task_barrier,nested_task,nested_master_task,branch_task_tree,leaf_task_tree
input=("$threads" 1 4 10 32 1 1)
common=(--schedules=serial "--nested=$nested" --quiet --construct-delay=0.1)
export OMP_NUM_THREADS=$threads
echo "machine: $(nproc) CPUs; load before: $(uptime | sed 's/.*load average: //')"
echo "compiler: $cc ($("$cc" --version | head -1)); OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-unset}; $runs processes of each, in turn, at $threads threads; $sync_note"
for ((i = 1; i <= runs; i++)); do
    for p in "${programs[@]}"; do
        "$work/$p" >"$work/epcc.$p.$i" 2>&1 || echo "EPCC $p run $i failed (exit $?)"
    done
    for kind in sync loop task data; do
        case $kind in
            sync) opts=("--constructs=$sync_keys") ;;
            loop) opts=("--constructs=$loop_keys" --construct-loop-delay=0.1 --construct-iters=1024) ;;
            task) opts=("--constructs=$task_keys") ;;
            data) opts=("--constructs=private,firstprivate,copyprivate,copyin" "--construct-sizes=$sizes") ;;
        esac
        "$clomp" "${opts[@]}" "${common[@]}" --csv="$work/clomp.$kind.$i" "${input[@]}" >/dev/null 2>"$work/clomp.$kind.$i.err" ||
            echo "clomp run $i ($kind) failed: $(head -c 300 "$work/clomp.$kind.$i.err")"
    done
    printf '.'
done
echo
echo "load after: $(uptime | sed 's/.*load average: //')"

python3 - "$work" "$runs" "$nested" "$(nproc)" "$threads" <<'PY'
import csv, glob, os, re, statistics, sys

work, runs, nested, cpus, threads = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
epcc, mine, level2 = {}, {}, {}
order = []
# EPCC 4.0 prints "NAME median_ovrhd = X microseconds": the median over its
# repetitions of the test time minus the reference's median, per instance.
renamed = {"LOCK_CONTENDED": "LOCK/UNLOCK"}
for path in sorted(glob.glob(f"{work}/epcc.*.*")):
    for line in open(path, errors="replace"):
        m = re.match(r"^(.*\S) median_ovrhd += +(-?[0-9.]+) microseconds", line)
        if m:
            name = renamed.get(m.group(1), m.group(1))
            if name not in epcc:
                order.append(name)
            epcc.setdefault(name, []).append(float(m.group(2)))
for path in sorted(glob.glob(f"{work}/clomp.*.*")):
    if path.endswith(".err") or os.path.getsize(path) == 0:
        continue
    for row in csv.DictReader(open(path)):
        if row["overhead_us"] == "":
            continue
        # Level 1 at the run's threads (not the level-1 base at INNER threads), and level 2.
        target = mine if row["level"] == "1" and row["inner_threads"] == threads else None
        target = level2 if row["level"] == "2" else target
        if target is not None:
            target.setdefault(row["construct_name"], []).append(float(row["overhead_us"]))

def spread(values):
    return f"{statistics.median(values):9.3f} [{min(values):.3f}, {max(values):.3f}]"

outer, inner = (int(x) for x in nested.split("x"))
note = " (oversubscribed: %d threads on %d CPUs)" % (outer * inner, cpus) if outer * inner > cpus else ""
print(f"Overhead per instance, us: median over {runs} processes [min, max]; EPCC: its median_ovrhd; "
      f"level 2 = {nested}{note}")
print(f"{'measurement':24} {'EPCC 4.0':>30} {'clomp level 1':>30} {'ratio':>7}  {'within':6} {'clomp level 2':>30}")
inside = total = 0
for name in order:
    e = epcc[name]
    c = mine.get(name)
    if c is None:
        print(f"{name:24} {spread(e):>30} {'(no clomp figure)':>30}")
        continue
    med, cm = statistics.median(e), statistics.median(c)
    ok = min(e) <= cm <= max(e)
    inside += ok
    total += 1
    ratio = f"{cm / med:7.2f}" if med > 0 and cm > 0 else f"{'-':>7}"
    l2 = spread(level2[name]) if name in level2 else f"{'N/A':>30}"
    print(f"{name:24} {spread(e):>30} {spread(c):>30} {ratio}  {'yes' if ok else 'NO':6} {l2:>30}")
print(f"clomp's level-1 median within EPCC 4.0's spread over its processes: {inside} of {total}")
for hinted, plain in (("LOCK_CONTENDED_HINT", "LOCK/UNLOCK"), ("LOCK_UNCONTENDED_HINT", "LOCK_UNCONTENDED")):
    parts = []
    for side, table in (("EPCC", epcc), ("clomp", mine)):
        if hinted in table and plain in table:
            a, b = statistics.median(table[hinted]), statistics.median(table[plain])
            parts.append(f"{side} {a:.3f} vs {b:.3f} us" + (f" ({a / b:.2f}x)" if a > 0 and b > 0 else ""))
    if parts:
        print(f"the hint's effect, {hinted} against {plain}: " + "; ".join(parts))
PY
