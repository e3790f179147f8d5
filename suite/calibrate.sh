# shellcheck shell=bash
# The cost model's constants, measured on the node it runs on; every run's
# estimate (the results package's model, results/clomp_results/estimate.py,
# from the run's arguments, its clomp options and the executable's own tables);
# and the ETA the suite updates from the runs it has measured (docs/suite.md,
# "The dry run's estimate"). Sourced by run_clomp.sh after suite/plan.sh. Reads,
# declared here and assigned before any function below runs: run_clomp.sh's
# settings, the plan (suite/plan.sh) and have_python (suite/results.sh):
declare -g exe max_threads mpi_given calibrate total_runs have_python here launcher
declare -ga launcher_words plan

# The model's constants: this 2-core VM's, measured idle (docs/suite.md);
# calibrate_model replaces the first six with figures measured on this node.
ZONE_NS_CACHED=1.25 ZONE_NS_MEMORY=1.6 MEMORY_SPEEDUP=0.8 REGION_US=1.0 PROBE_US=0.35
BUILD_NS_PER_BYTE=1.0 SETUP_NS_PER_BYTE=0.15 PROCESS_SECONDS=0.05

# The two clomp processes of the calibration (about 1e7 zone updates per
# measurement, a fraction of a second on an idle node; each stopped after
# CALIBRATION_LIMIT seconds, where timeout(1) exists: at load 20 on the 2-core
# VM they took 52 s and 11 s, and on a node that busy the VM's constants are
# the better guess): the target input's schedules and probes on a mesh in the caches, at
# timeScale 1 (zone update time, regions, probes), and Serial Ref and
# Bestcase on an 80 MiB mesh (zone update time from memory, the team's speedup
# there, first-touch build time).
CALIBRATION_LIMIT=5
# shellcheck disable=SC2054  # the commas are clomp's list separators
CALIBRATION_CACHED=(--trials=1 --schedules=serial,bestcase,static,dynamic,manual,barrier,parallel,parallel_for)
# shellcheck disable=SC2054
CALIBRATION_MEMORY=(--trials=1 --schedules=serial,bestcase)

# calibration_figures CACHED_JSON MEMORY_JSON THREADS CORES: the model's constants
# from the two runs' JSON, as NAME=VALUE words (the results package's
# calibration, by the measurements' roles); nothing (status 1) when a figure is
# missing or not positive.
calibration_figures() { python3 "$here/results/clomp-results" calibration "$@"; }

# calibrate_model: sets the model's constants from this node, and
# calibration_note (what they are and where they came from, for the dry run
# and the .env). Without a working EXE, python3, or with --mpi or
# --calibrate=off, the constants stay the 2-core VM's (suite/plan.sh) and the
# note says so.
calibration_note=''
calibrate_model() {
    local why='' dir figures start seconds load threads=$max_threads cores
    cores=$(count_cores)
    if [ "$calibrate" = off ]; then
        why='--calibrate=off'
    elif [ "$mpi_given" = 1 ]; then
        why='MPI suites are not calibrated'
    elif [ ! -x "$exe" ]; then
        why="$exe is not built yet"
    elif ! command -v python3 >/dev/null 2>&1; then
        why='python3 is not installed'
    fi
    if [ -z "$why" ]; then
        dir=$(mktemp -d) || why='no temporary directory'
    fi
    if [ -z "$why" ]; then
        local -a limit=()
        ! command -v timeout >/dev/null 2>&1 || limit=(timeout "$CALIBRATION_LIMIT")
        load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)
        start=$(date +%s.%N)
        if ${limit[@]+"${limit[@]}"} ${launcher_words[@]+"${launcher_words[@]}"} "$exe" "${CALIBRATION_CACHED[@]}" \
            --json="$dir/cached.json" "$threads" 1 64 100 32 1 1 </dev/null >/dev/null 2>&1 &&
            ${limit[@]+"${limit[@]}"} ${launcher_words[@]+"${launcher_words[@]}"} "$exe" "${CALIBRATION_MEMORY[@]}" \
                --json="$dir/memory.json" "$threads" 1 16 163840 32 1 1 </dev/null >/dev/null 2>&1 &&
            figures=$(calibration_figures "$dir/cached.json" "$dir/memory.json" "$threads" "$cores"); then
            seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
            local word
            for word in $figures; do
                printf -v "${word%%=*}" '%s' "${word#*=}"
            done
        else
            why="the calibration runs of $exe failed or took over $CALIBRATION_LIMIT s (a busy node?)"
        fi
        rm -rf "$dir"
    fi
    if [ -n "$why" ]; then
        calibration_note="not calibrated ($why): the constants of the 2-core VM they were fit on"
    else
        calibration_note="calibrated on this node in $seconds s at load $load ($threads threads)"
    fi
    calibration_note+="; zone update $ZONE_NS_CACHED ns in cache, $ZONE_NS_MEMORY ns from memory"
    calibration_note+=" (team speedup x$MEMORY_SPEEDUP per thread), regions $REGION_US us, probes $PROBE_US us,"
    calibration_note+=" first touch $BUILD_NS_PER_BYTE ns/byte. The estimate assumes an idle node:"
    calibration_note+=" other work on it makes every OpenMP run slower"
}

# ---- every run's estimate, and the ETA: the remaining runs' estimates scaled by the measured ----
# estimate_of[PLAN LINE]: a run's estimate in seconds, or ? (estimate_why says why), by
# its plan line: every run of a line is estimated alike, a run --replicates auto
# inserts too (suite/replicates.sh). The model is the results package's
# (results/clomp_results/estimate.py): without python3 the runs still run and are
# recorded, with no estimate, ETA or default --run-timeout. eta_estimated,
# eta_measured: the estimates and measured wall times of the runs done in this
# invocation (by plan line, so that stage-2 runs inserted later count right).
# estimate_runs: each run as the model reads it, SET|POLICY|ARGS|OPTIONS|COMMAND
# (its clomp options, and its command before them as the dry run lists it).
declare -gA estimate_of=()
eta_estimated=0 eta_measured=0 estimate_why='' estimate_runs=()
ask_estimate() {  # ask_estimate --seconds|--listing: clomp-results estimate of estimate_runs
    printf '%s\n' "${estimate_runs[@]}" | clomp_results estimate "$@" "$exe" "${max_threads:-1}" "ZONE_NS_CACHED=$ZONE_NS_CACHED" \
        "ZONE_NS_MEMORY=$ZONE_NS_MEMORY" "MEMORY_SPEEDUP=$MEMORY_SPEEDUP" "REGION_US=$REGION_US" "PROBE_US=$PROBE_US" \
        "BUILD_NS_PER_BYTE=$BUILD_NS_PER_BYTE" "SETUP_NS_PER_BYTE=$SETUP_NS_PER_BYTE" "PROCESS_SECONDS=$PROCESS_SECONDS"
}
estimate_plan() {
    local i set_name policy args answer='' mpi_cmd
    local -a a seconds=()
    estimate_runs=()
    for ((i = 0; i < total_runs; i++)); do
        IFS='|' read -r set_name policy args <<<"${plan[i]}"
        read -r -a a <<<"$args"
        mpi_cmd=''
        [ "$mpi_given" = 0 ] || mpi_cmd="$(mpi_launcher_for "$set_name") "   # suite/plan.sh
        estimate_runs+=("${plan[i]}|$(construct_options "$set_name" "${a[0]}")|$mpi_cmd${launcher:+$launcher }$exe${policy:+ --numa=$policy}")
    done
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
# estimate_at I: run I's (0-based) estimate in whole seconds, 0 when unknown.
estimate_at() {
    local e=${estimate_of[${plan[$1]}]-0}
    [[ $e =~ ^[0-9]+$ ]] || e=0
    echo "$e"
}
# eta_note_run I SECONDS: run I (0-based) took SECONDS.
eta_note_run() {
    eta_estimated=$((eta_estimated + $(estimate_at "$1")))
    eta_measured=$(awk -v a="$eta_measured" -v b="$2" 'BEGIN { printf "%.3f", a + b }')
}
# eta_seconds FROM DONE_FILE: the remaining time from run FROM (0-based) on: the
# estimates of the runs not listed in DONE_FILE, times measured / estimated of the
# runs done so far (1 before any), in whole seconds.
eta_seconds() {
    local i left=0
    [ -z "$estimate_why" ] || { echo '?'; return 0; }
    for ((i = $1; i < total_runs; i++)); do
        grep -qx "$((i + 1))" "$2" 2>/dev/null || left=$((left + $(estimate_at "$i")))
    done
    awk -v left="$left" -v est="$eta_estimated" -v meas="$eta_measured" \
        'BEGIN { f = (est > 0 && meas > 0) ? meas / est : 1; printf "%d\n", left * f + 0.5 }'
}
