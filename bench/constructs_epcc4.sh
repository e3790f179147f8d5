#!/usr/bin/env bash
# bench/constructs.sh --epcc-version 4.0 (the default): EPCC 4.0's four
# programs beside clomp --constructs' rows of the same names. Called by
# bench/constructs.sh with its checked arguments: RUNS THREADS OxI CLOMP EPCC_DIR SIZES.
set -euo pipefail

runs=$1 threads=$2 nested=$3 clomp=$4 epcc=$5 sizes=$6
top=$(cd "$(dirname "$0")/.." && pwd)
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
# syncbench calls omp_init_lock_with_hint: libgomp up to GCC 12 declares it but has none. Then
# it is linked with bench/epcc_lock_hint.c (a hint ignored, as OpenMP allows), so that its
# other 13 rows count; the hinted rows are left out (clomp's say "not provided" there).
hint_note=
if (cd "$work" && "$cc" -O1 -fopenmp -o syncbench syncbench.c common.c -lm) >"$work/sync.log" 2>&1; then
    sync_note="syncbench built"
elif grep -q "undefined reference to \`omp_init_lock_with_hint'" "$work/sync.log" &&
    (cd "$work" && "$cc" -O1 -fopenmp -o syncbench syncbench.c common.c "$top/bench/epcc_lock_hint.c" -lm) \
        >>"$work/sync.log" 2>&1; then
    hint_note="EPCC's hinted locks ran unhinted: $cc's runtime has no omp_init_lock_with_hint"
    sync_note="syncbench built with bench/epcc_lock_hint.c ($hint_note)"
else
    sync_note="syncbench NOT built with $cc ($(grep -m1 -o 'error: .*\|undefined reference to .*' "$work/sync.log")): its rows are not compared"
fi
if [ -x "$work/syncbench" ]; then programs=(syncbench "${programs[@]}"); fi

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
run_epcc() {
    for p in "${programs[@]}"; do
        "$work/$p" >"$work/epcc.$p.$1" 2>&1 || echo "EPCC $p run $1 failed (exit $?)"
    done
}
run_clomp() {
    for kind in sync loop task data; do
        case $kind in
            sync) opts=("--constructs=$sync_keys") ;;
            loop) opts=("--constructs=$loop_keys" --construct-loop-delay=0.1 --construct-iters=1024) ;;
            task) opts=("--constructs=$task_keys") ;;
            data) opts=("--constructs=private,firstprivate,copyprivate,copyin" "--construct-sizes=$sizes") ;;
        esac
        "$clomp" "${opts[@]}" "${common[@]}" --csv="$work/clomp.$kind.$1" "${input[@]}" >/dev/null 2>"$work/clomp.$kind.$1.err" ||
            echo "clomp run $1 ($kind) failed: $(head -c 300 "$work/clomp.$kind.$1.err")"
    done
}
# In turn, the first side alternating (EPCC first in odd rounds), so that neither
# always runs into the other's wake.
for ((i = 1; i <= runs; i++)); do
    if ((i % 2)); then run_epcc "$i"; run_clomp "$i"; else run_clomp "$i"; run_epcc "$i"; fi
    printf '.'
done
echo
echo "load after: $(uptime | sed 's/.*load average: //')"

python3 "$top/bench/constructs_table.py" "$work" "$runs" "$nested" "$(nproc)" "$threads" "$hint_note"
