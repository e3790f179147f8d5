# shellcheck shell=bash
# The suite's construct runs (docs/constructs.md, "In the suite"): clomp --constructs once at the key
# thread count (level 1, level 2 and the node's limits), then once per inner team size at a fixed outer
# team (the paper's figure 5). Sourced by run_clomp.sh; appends to plan. Reads run_clomp.sh's settings,
# assigned there before any function below runs:
declare -g constructs mpi_given max_threads target_zones time_scale

# The sweep's outer team, and the smallest largest inner team: on a node of
# fewer than 2 x 4 cores the sweep still has two points (2x2 and 2x4),
# oversubscribed (clomp says so in the run's output).
CONSTRUCT_OUTER=2 CONSTRUCT_INNER_CAP=4
# Three chunk sizes per schedule, not schedbench's eight: keeps each run to seconds.
CONSTRUCT_CHUNKS=1,8,64

# A construct run's set: constructs (the key table) or constructs_outerO (the sweep).
is_construct_set() { [[ $1 == constructs || $1 == constructs_outer* ]]; }

# The sweep's inner team sizes: 2, 4, 8, ... up to max(max_threads / OUTER, CAP),
# and that largest size itself when it is not a power of two.
construct_inner_sizes() {
    local top=$((max_threads / CONSTRUCT_OUTER)) i last=0
    [ "$top" -ge "$CONSTRUCT_INNER_CAP" ] || top=$CONSTRUCT_INNER_CAP
    for ((i = 2; i <= top; i *= 2)); do echo "$i"; last=$i; done
    [ "$last" = "$top" ] || echo "$top"
}

# The construct runs, on the target input's zones in parts that follow the
# team (sweep_shape), at timeScale 1 (only Serial Ref runs: --schedules=serial);
# none with --no-constructs or --mpi.
add_construct_runs() {
    local i
    [ "$constructs" != 0 ] && [ "$mpi_given" = 0 ] || return 0
    plan+=("constructs||$max_threads -1 $(sweep_shape "$max_threads" "$target_zones") 32 1 1")
    for i in $(construct_inner_sizes); do
        plan+=("constructs_outer$CONSTRUCT_OUTER||$i -1 $(sweep_shape "$i" "$target_zones") 32 1 1")
    done
}

# EPCC's repetitions, test time and loop delay scaled with the suite's timeScale
# (its default 100: 10 repetitions of 500 us, 5 us per loop iteration; --quick's
# 1: 6 repetitions, the fewest that give an interval, of 50 us, 0.2 us).
construct_settings() {  # -> "REPS TIME_US LOOP_DELAY_US"
    awk -v ts="$time_scale" 'function clamp(v, lo, hi) { return v < lo ? lo : v > hi ? hi : v }
        BEGIN { printf "%d %d %g\n", clamp(int(ts / 10), 6, 10), clamp(5 * ts, 50, 500), clamp(ts / 20, 0.2, 5) }'
}

# The rows the suite runs, its tables and charts show and its estimate counts:
# EPCC 3.1's syncbench and schedbench by default; with --constructs=epcc4 also
# EPCC 4.0's (issue 32, item 5): the late arriver, the lock hints, ORDERED,
# ATOMIC_SEQCST (sync), the monotonic schedules and TASKLOOP (loop), taskbench's
# twelve (task) and arraybench's four clauses at three array sizes (data), each
# kind with its own table and chart in the report. Opt-in: they multiply the
# construct runs' time two to three times (docs/constructs.md, "In the suite").
SUITE_CONSTRUCTS=parallel,for,parallel_for,barrier,single,critical,lock,atomic,reduction,static,static_n,dynamic_n,guided_n
EPCC4_SYNC=barrier_var,lock_contended_hint,lock_uncontended,lock_uncontended_hint,ordered,atomic_seqcst
EPCC4_LOOP=static_monotonic,static_n_monotonic,dynamic_n_monotonic,guided_n_monotonic,taskloop_n
EPCC4_TASK=parallel_task,parallel_task_deps,master_task,master_task_deps,master_task_busy_workers,conditional_task
EPCC4_TASK+=,task_wait,task_barrier,nested_task,nested_master_task,branch_task_tree,leaf_task_tree
EPCC4_DATA=private,firstprivate,copyprivate,copyin
# Three of arraybench's eleven sizes: the smallest, the middle and the largest.
CONSTRUCT_SIZES=1,243,59049

# The --constructs list of the suite's construct runs.
suite_construct_list() {
    local rows=$SUITE_CONSTRUCTS
    [ "${constructs-1}" != epcc4 ] || rows+=",$EPCC4_SYNC,$EPCC4_LOOP,$EPCC4_TASK,$EPCC4_DATA"
    echo "$rows"
}

# The clomp options of a run of SET with THREADS threads (nothing for a mesh run).
construct_options() {  # construct_options SET THREADS
    local reps time delay
    ! is_offload_set "$1" || { offload_options "$1"; return 0; }   # suite/offload.sh
    # The team-size cliff's oversubscribed run measures what the cliff reads (suite/cliff.sh).
    [ "$1" != "$OVERSUBSCRIBED_SET" ] || { echo "--schedules=$CLIFF_SCHEDULES"; return 0; }
    is_construct_set "$1" || return 0
    read -r reps time delay <<<"$(construct_settings)"
    printf '%s ' "--constructs=$(suite_construct_list)" --schedules=serial "--construct-reps=$reps" "--construct-time=$time" \
        "--construct-loop-delay=$delay" "--construct-chunks=$CONSTRUCT_CHUNKS"
    [ "${constructs-1}" != epcc4 ] || printf '%s ' "--construct-sizes=$CONSTRUCT_SIZES"
    [[ $1 != constructs_outer* ]] || printf '%s' "--nested=${1#constructs_outer}x$2"
    # The node's own limits (clomp --limits: docs/limits.md) once, on the key runs' team: the report's
    # "Node limits" and the buyer's barrier multiple read this run's record.
    [ "$1" != constructs ] || printf '%s' --limits
    echo
}
