# shellcheck shell=bash
# The team-size cliff (issue 32, item 4; docs/suite.md, "The team-size cliff": what it measures and why):
# the thread sweep at the target input's zones holds cores - 1 and cores (write/plan.c), and one more run at cores + 1
# (set oversubscribed, measuring only what the cliff reads, CLIFF_SCHEDULES), which the report shows
# beside them and the bundle never carries (results/clomp_results/core/cliff.py). Sourced by
# suite/plan.sh; appends to plan. Reads run_clomp.sh's settings, assigned there before any function runs:
declare -g max_threads mpi_given quick time_scale target_zones

OVERSUBSCRIBED_SET=oversubscribed
# shellcheck disable=SC2034  # read by construct_options (suite/constructs.sh)
CLIFF_SCHEDULES=bestcase,static,barrier,parallel,parallel_for

# The oversubscribed run, after the sweeps: only when the sweep reaches the node's
# cores (MAX_THREADS = cores, the default), never in a hybrid (--mpi) suite, and
# not in a --quick smoke run (at timeScale 1 its step would say nothing).
add_cliff_run() {
    local t=$((max_threads + 1))
    [ "$mpi_given" = 0 ] && [ "$quick" = 0 ] && [ "$max_threads" -eq "$(count_cores)" ] || return 0
    plan+=("$OVERSUBSCRIBED_SET||$t -1 $(sweep_shape "$t" "$target_zones") 32 1 $time_scale")
}
