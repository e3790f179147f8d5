# shellcheck shell=bash
# The cost model's constants, measured on the node it runs on; every run's
# estimate (the results package's model, results/clomp_results/estimate.py,
# from the run's arguments, its clomp options and the executable's own tables);
# and the ETA the suite updates from the runs it has measured (docs/suite.md,
# "The dry run's estimate"). Sourced by run_clomp.sh after suite/plan.sh. Reads,
# declared here and assigned before any function below runs: run_clomp.sh's
# settings, the plan (suite/plan.sh) and have_python (suite/results.sh):
declare -g exe max_threads mpi_given calibrate total_runs have_python here
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

# The calibration's clomp processes (about 1e7 zone updates per measurement, a
# fraction of a second each on an idle node; each stopped after
# CALIBRATION_LIMIT seconds where timeout(1) exists): the target input's
# schedules and probes on a mesh in the caches at timeScale 1 (zone update
# time, regions, probes) at a few team sizes (calibration_teams: the region
# cost is fitted over them), and Serial Ref and Bestcase on an 80 MiB mesh
# whose parts follow the team (zone update time from memory, the team's
# speedup there, first-touch build time). Not run on a busy node or where the
# team would outnumber the cores: their figures would be the contention's
# (16 threads on 2 cores: 108 minutes estimated against 6:41).
CALIBRATION_LIMIT=5 CALIBRATION_MEMORY_ZONES=2621440
# shellcheck disable=SC2054  # the commas are clomp's list separators
CALIBRATION_CACHED=(--trials=1 --schedules=serial,bestcase,static,dynamic,manual,barrier,parallel,parallel_for)
# shellcheck disable=SC2054
CALIBRATION_MEMORY=(--trials=1 --schedules=serial,bestcase)

# The team sizes of the cached runs: 2, T/4, T/2 and T (T = MAX_THREADS), each once.
calibration_teams() {
    local t=$1
    [ "$t" -ge 2 ] || { echo "$t"; return 0; }
    printf '%s\n' 2 $((t / 4)) $((t / 2)) "$t" | awk -v t="$t" '$1 >= 2 && $1 <= t && !seen[$1]++'
}

# calibration_figures MEMORY_JSON CORES CACHED_JSON...: the model's constants
# from the runs' JSON, as NAME=VALUE words (the results package's calibration,
# by the measurements' roles and each run's own team); nothing (status 1) when a
# figure is missing or not positive.
calibration_figures() { python3 "$here/results/clomp-results" calibration "$@"; }

# calibrate_model: sets the model's constants from this node, and
# calibration_note (what they are and where they came from, for the dry run
# and the .env). Without a working EXE or python3, with --mpi or
# --calibrate=off, on a busy node or above the cores, the constants stay the
# 2-core VM's (above) and the note says why.
calibration_note=''
calibrate_model() {
    local why='' dir figures start seconds load threads=$max_threads cores busy t word
    local -a limit=() cached=()
    cores=$(count_cores)
    busy=$(topology_field busy)
    if [ "$calibrate" = off ]; then
        why='--calibrate=off'
    elif [ "$mpi_given" = 1 ]; then
        why='MPI suites are not calibrated'
    elif [ ! -x "$exe" ]; then
        why="$exe is not built yet"
    elif ! command -v python3 >/dev/null 2>&1; then
        why='python3 is not installed'
    elif [[ $busy == yes* ]]; then
        why="the node is busy: ${busy#yes: }; its figures would be the other work's"
    elif [ "$threads" -gt "$cores" ]; then
        why="the calibration would be oversubscribed: $threads threads on $cores cores"
    fi
    if [ -z "$why" ]; then
        dir=$(mktemp -d) || why='no temporary directory'
    fi
    if [ -z "$why" ]; then
        ! command -v timeout >/dev/null 2>&1 || limit=(timeout "$CALIBRATION_LIMIT")
        load=$(topology_field load)
        start=$(date +%s.%N)
        for t in $(calibration_teams "$threads"); do
            # shellcheck disable=SC2046  # team_shape's two numbers
            ${limit[@]+"${limit[@]}"} ${launcher_words[@]+"${launcher_words[@]}"} "$exe" "${CALIBRATION_CACHED[@]}" \
                --json="$dir/cached$t.json" "$t" 1 $(team_shape "$t" 6400 64) 32 1 1 </dev/null >/dev/null 2>&1 || break
            cached+=("$dir/cached$t.json")
        done
        # shellcheck disable=SC2046  # team_shape's two numbers
        if [ ${#cached[@]} -gt 0 ] && [ -s "${cached[-1]}" ] &&
            ${limit[@]+"${limit[@]}"} ${launcher_words[@]+"${launcher_words[@]}"} "$exe" "${CALIBRATION_MEMORY[@]}" \
                --json="$dir/memory.json" "$threads" 1 $(team_shape "$threads" "$CALIBRATION_MEMORY_ZONES" 16) 32 1 1 \
                </dev/null >/dev/null 2>&1 &&
            figures=$(calibration_figures "$dir/memory.json" "$cores" "${cached[@]}"); then
            seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
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
        calibration_note="calibrated on this node in $seconds s at load ${load%% *} ($threads threads)"
    fi
    calibration_note+="; zone update $ZONE_NS_CACHED ns in cache, $ZONE_NS_MEMORY ns from memory"
    calibration_note+=" (team speedup x$MEMORY_SPEEDUP per thread), regions $(region_text), probes $PROBE_US us,"
    calibration_note+=" first touch $BUILD_NS_PER_BYTE ns/byte. The estimate assumes an idle node:"
    calibration_note+=" other work on it makes every OpenMP run slower"
}

# The region cost as the note states it: its fit over team sizes T.
region_text() {
    case $REGION_FIT in
        log2) echo "$REGION_US + $REGION_SLOPE x log2(T) us (fitted over T = $(calibration_teams "$max_threads" | paste -sd, -))" ;;
        linear) echo "$REGION_US + $REGION_SLOPE x T us (fitted over T = $(calibration_teams "$max_threads" | paste -sd, -))" ;;
        *) echo "$REGION_US us at any team size" ;;
    esac
}

# ---- every run's estimate, and the ETA: the remaining runs' estimates scaled by the measured ----
# estimate_of[PLAN LINE]: a run's estimate in seconds, or ? (estimate_why says why), by
# its plan line: every run of a line is estimated alike, a run --replicates auto
# inserts too (suite/replicates.sh). The model is the results package's
# (results/clomp_results/estimate.py): without python3 the runs still run and are
# recorded, with no estimate, ETA or default --run-timeout. eta_estimated,
# eta_measured: the estimates and measured wall times of the runs done in this
# invocation (by plan line, so that stage-2 runs inserted later count right).
# The model reads the plan as the manifest holds it, each run with its launch words
# (suite/manifest.sh manifest_plan --launch), as JSON.
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
