# shellcheck shell=bash
# The cost model's constants measured on the node it runs on, and the ETA the
# suite updates from the runs it has measured (docs/suite.md, "The dry run's
# estimate"). Sourced by run_clomp.sh after suite/plan.sh, whose model
# (run_seconds_exact) reads the constants; reads its settings (exe,
# launcher_words, max_threads, mpi_given, calibrate, dry_run).
# shellcheck disable=SC2154  # the settings above: assigned by run_clomp.sh

# The two clomp processes of the calibration (about 1e7 zone updates per
# measurement, a fraction of a second on an idle node; each stopped after
# CALIBRATION_LIMIT seconds, where timeout(1) exists: at load 20 on the 2-core
# VM they took 52 s and 11 s, and on a node that busy the VM's constants are
# the better guess): the target input's schedules and probes on a mesh in the caches, at
# timeScale 1 (zone update time, regions, probes), and Serial Ref and
# Bestcase on an 80 MiB mesh (zone update time from memory, the team's speedup
# there, first-touch build time).
# shellcheck disable=SC2054  # the commas are clomp's list separators
CALIBRATION_LIMIT=5
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

# ---- the ETA: the remaining runs' estimates, scaled by how the measured runs compared ----
# plan_estimates[i]: run i's estimate (seconds); eta_estimated, eta_measured: the
# estimates and measured wall times of the runs done in this invocation.
plan_estimates=() eta_estimated=0 eta_measured=0
estimate_plan() {
    local i set_name args
    local -a a
    plan_estimates=()
    for ((i = 0; i < total_runs; i++)); do
        IFS='|' read -r set_name _ args <<<"${plan[i]}"
        read -r -a a <<<"$args"
        plan_estimates+=("$(plan_run_seconds "$set_name" "${a[@]}")")
    done
}
# eta_note_run I SECONDS: run I (0-based) took SECONDS.
eta_note_run() {
    eta_estimated=$((eta_estimated + ${plan_estimates[$1]:-0}))
    eta_measured=$(awk -v a="$eta_measured" -v b="$2" 'BEGIN { printf "%.3f", a + b }')
}
# eta_seconds FROM DONE_FILE: the remaining time from run FROM (0-based) on: the
# estimates of the runs not listed in DONE_FILE, times measured / estimated of the
# runs done so far (1 before any), in whole seconds.
eta_seconds() {
    local i left=0
    for ((i = $1; i < total_runs; i++)); do
        grep -qx "$((i + 1))" "$2" 2>/dev/null || left=$((left + ${plan_estimates[i]:-0}))
    done
    awk -v left="$left" -v est="$eta_estimated" -v meas="$eta_measured" \
        'BEGIN { f = (est > 0 && meas > 0) ? meas / est : 1; printf "%d\n", left * f + 0.5 }'
}
