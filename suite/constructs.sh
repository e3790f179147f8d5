# shellcheck shell=bash
# The suite's construct runs (docs/constructs.md, "In the suite"): clomp --constructs once at the key
# thread count (level 1, level 2 and the node's limits), then once per inner team size at a fixed outer
# team (the paper's figure 5). Sourced by run_clomp.sh; appends to plan. Reads run_clomp.sh's settings,
# assigned there before any function below runs:
declare -g constructs mpi_given max_threads target_zones time_scale writer

# A construct run's set: constructs (the key table) or constructs_outerO (the sweep).
is_construct_set() { [[ $1 == constructs || $1 == constructs_outer* ]]; }

# The construct runs, on the target input's zones in parts that follow the
# team (sweep_shape), at timeScale 1 (only Serial Ref runs: --schedules=serial);
# none with --no-constructs or --mpi.
add_construct_runs() {
    local i
    [ "$constructs" != 0 ] && [ "$mpi_given" = 0 ] || return 0
    plan+=("constructs||$max_threads -1 $(sweep_shape "$max_threads" "$target_zones") 32 1 1")
    # The sweep's inner team sizes under 2 outer threads (clomp-write sets, write/suite_sets.c).
    for i in $("$writer" sets inner-sizes "$max_threads"); do
        plan+=("constructs_outer2||$i -1 $(sweep_shape "$i" "$target_zones") 32 1 1")
    done
}

# The clomp options of a run of SET with THREADS threads (nothing for a mesh run).
construct_options() {  # construct_options SET THREADS
    # The team-size cliff's oversubscribed run measures what the cliff reads (suite/cliff.sh).
    [ "$1" != "$OVERSUBSCRIBED_SET" ] || { echo "--schedules=$CLIFF_SCHEDULES"; return 0; }
    # A construct or offload run's: EPCC's settings scaled with the timeScale, the rows, the sweep's
    # nesting, the node's limits once (clomp-write sets options, write/suite_sets.c).
    is_construct_set "$1" || is_offload_set "$1" || return 0   # suite/offload.sh
    "$writer" sets options "$1" "$2" "$time_scale" "${constructs-1}"
}
