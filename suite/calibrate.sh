# shellcheck shell=bash
# The cost model's constants, measured on the node it runs on; every run's estimate
# (results/clomp_results/core/estimate.py); and the ETA the suite updates from the
# runs it has measured (docs/suite.md, "The dry run's estimate"). Sourced by
# run_clomp.sh after suite/plan.sh. Reads, declared here and assigned before any
# function below runs: run_clomp.sh's settings, the plan and have_python:
declare -g exe max_threads mpi_given calibrate total_runs have_python writer
declare -ga launcher_words plan

# The model's constants: this 2-core VM's, measured idle (docs/suite.md);
# calibrate_model replaces the first six (and fits the region cost) with
# figures measured on this node. REGION_US + REGION_SLOPE x f(T) is a region's
# cost at a team of T, f given by REGION_FIT: log2 T, T, or none (constant).
# PROCESS_SECONDS is each process's own set-up (clock calibration, noise
# census, topology, locality: the JSON's setup_seconds) and its start and exit:
# 0.25-0.31 s median on this VM at load 9-12, never measured idle (docs/suite.md).
ZONE_NS_CACHED=1.25 ZONE_NS_MEMORY=1.6 MEMORY_SPEEDUP=0.8 REGION_US=1.0 PROBE_US=0.35
REGION_SLOPE=0 REGION_FIT=constant
BUILD_NS_PER_BYTE=1.0 SETUP_NS_PER_BYTE=0.15 PROCESS_SECONDS=0.3

# calibrate_model: sets the model's constants from this node (the results
# package's calibration runs them: results/clomp_results/suite/calibration.py;
# not on a busy node nor above the cores, where their figures would be the
# contention's: 16 threads on 2 cores gave 108 minutes against 6:41), and
# calibration_note (what they are and where they came from, for the dry run
# and the .env); where it is not run, the constants stay the 2-core VM's and the note says why.
calibration_note=''
calibrate_model() {
    local why='' head='' regions='' line busy cores
    busy=$(topology_field busy) cores=$(count_cores)
    if [ "$calibrate" = off ]; then
        why='--calibrate=off'
    elif [ "$mpi_given" = 1 ]; then
        why='MPI suites are not calibrated'
    elif [ ! -x "$exe" ]; then
        why="$exe is not built yet"
    elif [ "$have_python" = 0 ]; then   # suite/results.sh
        why='python3 is not installed'
    elif [[ $busy == yes* ]]; then
        why="the node is busy: ${busy#yes: }; its figures would be the other work's"
    elif [ "$max_threads" -gt "$cores" ]; then
        why="the calibration would be oversubscribed: $max_threads threads on $cores cores"
    fi
    [ -n "$why" ] || while IFS= read -r line; do
        case ${line%%=*} in
            head) head=${line#*=} ;;
            regions) regions=${line#*=} ;;
            ZONE_NS_CACHED | ZONE_NS_MEMORY | MEMORY_SPEEDUP | REGION_US | REGION_SLOPE | REGION_FIT | PROBE_US | BUILD_NS_PER_BYTE)
                printf -v "${line%%=*}" '%s' "${line#*=}" ;;
        esac
    done < <(clomp_results calibration --run "$exe" "$max_threads" "$cores" "$(topology_field load)" \
        ${launcher_words[@]+"${launcher_words[@]}"})
    calibration_note=${head:-"not calibrated (${why:-the calibration failed}): the constants of the 2-core VM they were fit on"}
    calibration_note+="; zone update $ZONE_NS_CACHED ns in cache, $ZONE_NS_MEMORY ns from memory"
    calibration_note+=" (team speedup x$MEMORY_SPEEDUP per thread), regions ${regions:-$REGION_US us at any team size}, probes $PROBE_US us,"
    calibration_note+=" first touch $BUILD_NS_PER_BYTE ns/byte. The estimate assumes an idle node:"
    calibration_note+=" other work on it makes every OpenMP run slower"
}

# ---- every run's estimate, and the ETA: the remaining runs' estimates scaled by the measured ----
# estimate_of[PLAN LINE]: a run's estimate in seconds, or ? (estimate_why says why), by
# its plan line: every run of a line is estimated alike, a run --replicates auto
# inserts too (suite/replicates.sh). Without python3 (the model is the results package's)
# the runs still run and are recorded, with no estimate, ETA or default --run-timeout. eta_estimated,
# eta_measured: the estimates and measured wall times of the runs done in this
# invocation (by plan line, so that stage-2 runs inserted later count right).
declare -gA estimate_of=()
eta_estimated=0 eta_measured=0 estimate_why=''
ask_estimate() {  # ask_estimate --seconds|--listing: clomp-results estimate of the plan
    { echo '{"plan": ['; manifest_plan --launch; echo ']}'; } | clomp_results estimate "$@" "$exe" "$(count_cores)" "ZONE_NS_CACHED=$ZONE_NS_CACHED" \
        "ZONE_NS_MEMORY=$ZONE_NS_MEMORY" "MEMORY_SPEEDUP=$MEMORY_SPEEDUP" "REGION_US=$REGION_US" "PROBE_US=$PROBE_US" \
        "REGION_SLOPE=$REGION_SLOPE" "REGION_FIT=$REGION_FIT" \
        "BUILD_NS_PER_BYTE=$BUILD_NS_PER_BYTE" "SETUP_NS_PER_BYTE=$SETUP_NS_PER_BYTE" "PROCESS_SECONDS=$PROCESS_SECONDS"
}
estimate_plan() {
    local i answer=''
    local -a seconds=()
    if [ "$have_python" = 0 ]; then   # suite/results.sh
        estimate_why='no python3 (3.8+) on this node: the estimate is the results package'"'"'s'
    else
        answer=$(ask_estimate --seconds)
        case $? in
            0) mapfile -t seconds <<<"$answer" ;;
            3) die_usage "EXE: $exe does not list its schedules and constructs (--list-schedules, --list-constructs; built from older sources? rebuild with make)" ;;
            *) estimate_why='clomp-results estimate failed' ;;
        esac
        [ "${seconds[0]-}" != '?' ] ||
            estimate_why="$exe is not built yet, and the estimate counts its measurements from its own tables (make, then --dry-run again)"
    fi
    for ((i = 0; i < total_runs; i++)); do
        estimate_of["${plan[i]}"]=${seconds[i]:-?}
    done
}
# estimate_at I: run I's (0-based) estimate in whole seconds, 0 when unknown, in estimate (no subshell:
# the ETA reads every run's before each run).
estimate_at() {
    estimate=${estimate_of[${plan[$1]}]-0}
    [[ $estimate =~ ^[0-9]+$ ]] || estimate=0
}
# eta_note_run I SECONDS: run I (0-based) took SECONDS.
eta_note_run() {
    local estimate
    estimate_at "$1"
    eta_estimated=$((eta_estimated + estimate))
    eta_measured=$(awk -v a="$eta_measured" -v b="$2" 'BEGIN { printf "%.3f", a + b }')
}
# eta_seconds FROM DONE_FILE: the remaining time from run FROM (0-based) on, in whole
# seconds: the estimates of the runs DONE_FILE does not list, scaled (write/eta.c).
eta_seconds() {
    local i estimate
    local -a left=()
    [ -z "$estimate_why" ] || { echo '?'; return 0; }
    for ((i = $1; i < total_runs; i++)); do estimate_at "$i"; left+=("$estimate"); done
    "$writer" eta "$1" "$2" "$eta_estimated" "$eta_measured" ${left[@]+"${left[@]}"}
}
