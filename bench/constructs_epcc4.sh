#!/usr/bin/env bash
# bench/constructs.sh --epcc-version 4.0 (the default): EPCC 4.0's four
# programs beside clomp --constructs' rows of the same names. Called by
# bench/constructs.sh with its checked arguments: RUNS THREADS OxI CLOMP EPCC_DIR SIZES DELAY
# (DELAY: epcc, clomp given the delay length of the EPCC program it is compared
# with; own, clomp calibrating its own).
set -euo pipefail

runs=$1 threads=$2 nested=$3 clomp=$4 epcc=$5 sizes=$6 delay=${7:-epcc}
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
epcc_flags=(-O1 -fopenmp -falign-functions=64)
programs=()
(
    cd "$work"
    # EPCC 4.0's Makefile.defs: -fopenmp, no optimisation flag given; ours: -O1, as for 3.1,
    # and every function starting a 64-byte line, as clomp's delays do (kernels/delay.c):
    # a delay loop across two lines ran 10% slower here, and where the linker put
    # EPCC's was chance (four of seven gcc programs across, three of seven clang).
    flags=("${epcc_flags[@]}")
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
if (cd "$work" && "$cc" "${epcc_flags[@]}" -o syncbench syncbench.c common.c -lm) >"$work/sync.log" 2>&1; then
    sync_note="syncbench built"
elif grep -q "undefined reference to \`omp_init_lock_with_hint'" "$work/sync.log" &&
    (cd "$work" && "$cc" "${epcc_flags[@]}" -o syncbench syncbench.c common.c "$top/bench/epcc_lock_hint.c" -lm) \
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
common=(--schedules=serial "--nested=$nested" --quiet)
export OMP_NUM_THREADS=$threads
echo "machine: $(nproc) CPUs; load before: $(uptime | sed 's/.*load average: //')"
echo "compiler: $cc ($("$cc" --version | head -1)); OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-unset}; $runs processes of each, in turn, at $threads threads; $sync_note"
echo "EPCC built with: ${epcc_flags[*]}"
placed=("clomp=$clomp:epcc_delay")
for p in "${programs[@]}"; do
    # arraybench's tests run array_delay, a loop of its own, at the length its delay calibrated.
    case $p in arraybench_*) placed+=("$p=$work/$p:array_delay" "$p=$work/$p:delay") ;; *) placed+=("$p=$work/$p:delay") ;; esac
done
python3 "$top/bench/delay_placement.py" "${placed[@]}"
run_epcc() {
    for p in "${programs[@]}"; do
        "$work/$p" >"$work/epcc.$p.$1" 2>&1 || echo "EPCC $p run $1 failed (exit $?)"
    done
}
# The delay length (additions) EPCC's program $1 chose in its process $2:
# "<tab>186 delay length (iterations)"; empty if that process printed none.
epcc_length() {
    [ -f "$work/epcc.$1.$2" ] || return 0
    sed -n 's/^[[:space:]]*\([0-9][0-9]*\) delay length (iterations).*/\1/p' "$work/epcc.$1.$2" | head -1
}
# clomp's delay options for a comparison with EPCC's program $1 in round $2:
# the length that program chose in this round, or in the round before when
# clomp runs first; EPCC 4.0's 0.1 us when clomp calibrates its own (or
# EPCC's process printed no length: then "own" in the lengths line).
delay_options() {
    local length=
    if [ "$delay" = epcc ]; then
        length=$(epcc_length "$1" "$2")
        [ -n "$length" ] || length=$(epcc_length "$1" $(($2 - 1)))
    fi
    if [ -n "$length" ]; then
        echo "$1 $2 $length" >>"$work/lengths"
        echo "--construct-delay-length=$length --construct-loop-delay-length=$length"
    else
        [ "$delay" = own ] || echo "$1 $2 own" >>"$work/lengths"
        echo "--construct-delay=0.1 --construct-loop-delay=0.1"
    fi
}
run_clomp_kind() {   # ROUND KIND PROGRAM OPTIONS...: one clomp process, its CSV as clomp.KIND.ROUND
    local i=$1 kind=$2 program=$3
    shift 3
    # shellcheck disable=SC2046 # two options, split on purpose
    "$clomp" "$@" $(delay_options "$program" "$i") "${common[@]}" --csv="$work/clomp.$kind.$i" "${input[@]}" \
        >/dev/null 2>"$work/clomp.$kind.$i.err" ||
        echo "clomp run $i ($kind) failed: $(head -c 300 "$work/clomp.$kind.$i.err")"
}
run_clomp() {
    run_clomp_kind "$1" sync syncbench "--constructs=$sync_keys"
    run_clomp_kind "$1" loop schedbench "--constructs=$loop_keys" --construct-iters=1024
    run_clomp_kind "$1" task taskbench "--constructs=$task_keys"
    # One process per array size: each of EPCC's arraybench_N chose its own length.
    for n in ${sizes//,/ }; do
        run_clomp_kind "$1" "data$n" "arraybench_$n" "--constructs=private,firstprivate,copyprivate,copyin" \
            "--construct-sizes=$n"
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
if [ -s "$work/lengths" ]; then
    echo "delay lengths, additions (EPCC's own, each clomp process given its EPCC program's of the round;" \
        "own: that EPCC process printed none, clomp calibrated 0.1 us itself):" \
        "$(sort -k1,1 -k2n "$work/lengths" | awk '$1 != p {printf "%s%s:", p == "" ? "" : "; ", $1; p = $1} {printf " %s", $3}')"
else
    echo "delay lengths: clomp calibrated its own (--own-delay: 0.1 us as EPCC's default)"
fi

python3 "$top/bench/constructs_table.py" "$work" "$runs" "$nested" "$(nproc)" "$threads" "$hint_note"
