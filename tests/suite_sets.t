#!/usr/bin/env bash
# The suite's construct and offload runs (clomp-write sets, write/suite_sets.c):
# the construct sweep's inner team sizes, the offload crossover sweep's points
# and the clomp options of a construct or offload run. The oracle is the shell
# the driver used before (suite/constructs.sh and suite/offload.sh, kept below
# as they were), asked the same on a grid of team sizes, timeScales, parts and
# zones per part, sets and --constructs settings.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

# shellcheck source-path=SCRIPTDIR source=lib/writer.sh
. "$(dirname "$0")/lib/writer.sh"

# ---- the oracle: the driver's shell before write/suite_sets.c ---------------------------------
CONSTRUCT_OUTER=2 CONSTRUCT_INNER_CAP=4
CONSTRUCT_CHUNKS=1,8,64
is_construct_set() { [[ $1 == constructs || $1 == constructs_outer* ]]; }
construct_inner_sizes() {
    local top=$((max_threads / CONSTRUCT_OUTER)) i last=0
    [ "$top" -ge "$CONSTRUCT_INNER_CAP" ] || top=$CONSTRUCT_INNER_CAP
    for ((i = 2; i <= top; i *= 2)); do echo "$i"; last=$i; done
    [ "$last" = "$top" ] || echo "$top"
}
construct_settings() {  # -> "REPS TIME_US LOOP_DELAY_US"
    awk -v ts="$time_scale" 'function clamp(v, lo, hi) { return v < lo ? lo : v > hi ? hi : v }
        BEGIN { printf "%d %d %g\n", clamp(int(ts / 10), 6, 10), clamp(5 * ts, 50, 500), clamp(ts / 20, 0.2, 5) }'
}
SUITE_CONSTRUCTS=parallel,for,parallel_for,barrier,single,critical,lock,atomic,reduction,static,static_n,dynamic_n,guided_n
EPCC4_SYNC=barrier_var,lock_contended_hint,lock_uncontended,lock_uncontended_hint,ordered,atomic_seqcst
EPCC4_LOOP=static_monotonic,static_n_monotonic,dynamic_n_monotonic,guided_n_monotonic,taskloop_n
EPCC4_TASK=parallel_task,parallel_task_deps,master_task,master_task_deps,master_task_busy_workers,conditional_task
EPCC4_TASK+=,task_wait,task_barrier,nested_task,nested_master_task,branch_task_tree,leaf_task_tree
EPCC4_DATA=private,firstprivate,copyprivate,copyin
CONSTRUCT_SIZES=1,243,59049
suite_construct_list() {
    local rows=$SUITE_CONSTRUCTS
    [ "${constructs-1}" != epcc4 ] || rows+=",$EPCC4_SYNC,$EPCC4_LOOP,$EPCC4_TASK,$EPCC4_DATA"
    echo "$rows"
}
construct_options() {  # construct_options SET THREADS (less the cliff's line: suite/constructs.sh keeps it)
    local reps time delay
    ! is_offload_set "$1" || { offload_options "$1"; return 0; }
    is_construct_set "$1" || return 0
    read -r reps time delay <<<"$(construct_settings)"
    printf '%s ' "--constructs=$(suite_construct_list)" --schedules=serial "--construct-reps=$reps" "--construct-time=$time" \
        "--construct-loop-delay=$delay" "--construct-chunks=$CONSTRUCT_CHUNKS"
    [ "${constructs-1}" != epcc4 ] || printf '%s ' "--construct-sizes=$CONSTRUCT_SIZES"
    [[ $1 != constructs_outer* ]] || printf '%s' "--nested=${1#constructs_outer}x$2"
    [ "$1" != constructs ] || printf '%s' --limits
    echo
}
OFFLOAD_PROBES=target,target_teams,target_teams_dpf,target_nowait,target_map_to,target_map_from,target_map_tofrom,target_map_alloc,target_atomic,target_reduction,target_teams_parallel,target_teams_parallels
OFFLOAD_PROBE_BYTES=8,4096,524288
OFFLOAD_PROBE_SIZES=1,243,59049
OFFLOAD_SWEEP_FACTORS="1/16 1/4 1 4 16 64"
is_offload_set() { [[ $1 == offload || $1 == offload_zpp* || $1 == offload_probes ]]; }
offload_sweep() {  # offload_sweep PARTS ZPP
    awk -v p="$1" -v zpp="$2" -v ts="$time_scale" -v factors="$OFFLOAD_SWEEP_FACTORS" 'BEGIN {
        base = int(ts / 10); if (base < 1) base = 1
        n = split(factors, f, " ")
        for (i = 1; i <= n; i++) {
            split(f[i], q, "/"); z = int(zpp * q[1] / (q[2] ? q[2] : 1) + 0.5); if (z < 1) z = 1
            if (z == last) continue
            need = int((20 * p * z + 999999) / 1e6); print z, (need > base ? need : base); last = z
        } }'
}
offload_options() {  # offload_options SET
    local reps time
    case $1 in
        offload) echo "--schedules=bestcase,static,offload_bestcase,offload" ;;
        offload_zpp*) echo "--schedules=static,offload" ;;
        offload_probes)
            read -r reps time _ <<<"$(construct_settings)"
            echo "--constructs=$OFFLOAD_PROBES --schedules=serial --construct-reps=$reps --construct-time=$time" \
                "--construct-chunks=$OFFLOAD_PROBE_BYTES --construct-sizes=$OFFLOAD_PROBE_SIZES"
            ;;
    esac
}

# compare WHAT WANT GOT: counts a case, and a difference (the first three said).
fails=0 cases=0
compare() {
    cases=$((cases + 1))
    [ "$2" = "$3" ] || { fails=$((fails + 1)); [ "$fails" -gt 3 ] || diag "$1: expected [$2], got [$3]"; }
}

# ---- the grid ------------------------------------------------------------------------------
for max_threads in 1 2 3 4 7 8 9 15 16 17 31 32 48 64 96 100 128 255 256 1000; do
    compare "inner sizes at $max_threads" "$(construct_inner_sizes)" "$("$writer" sets inner-sizes "$max_threads")"
done
is "$fails" 0 "clomp-write sets inner-sizes gives the sweep the driver's shell gave in all $cases cases"

fails=0 cases=0
for time_scale in 1 9 10 101 100000; do
    for parts in 1 4 64 1024; do
        for zpp in 1 3 8 15 401 6400 65536; do
            compare "sweep $parts $zpp at $time_scale" "$(offload_sweep "$parts" "$zpp")" \
                "$("$writer" sets offload-sweep "$parts" "$zpp" "$time_scale")"
        done
    done
done
is "$fails" 0 "clomp-write sets offload-sweep gives the points the driver's shell gave in all $cases cases"

fails=0 cases=0
for time_scale in 1 3 19 20 77 100 101 1000; do
    for constructs in 1 epcc4; do
        for set in constructs constructs_outer2 constructs_outer3 offload offload_zpp6400 offload_probes key oversubscribed; do
            for threads in 1 16; do
                compare "$set x$threads at $time_scale ($constructs)" "$(construct_options "$set" "$threads")" \
                    "$("$writer" sets options "$set" "$threads" "$time_scale" "$constructs")"
            done
        done
    done
done
is "$fails" 0 "clomp-write sets options gives the options the driver's shell gave in all $cases cases"

"$writer" sets offload-sweep 4 0 100 >/dev/null 2>&1
is "$?" 2 "a zones per part of 0 is a usage error, exit 2"
"$writer" sets inner-sizes >/dev/null 2>&1
is "$?" 2 "without the team size it is a usage error, exit 2"
done_testing
