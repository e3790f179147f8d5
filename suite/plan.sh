# shellcheck shell=bash
# The suite's plan: every run in order, the MPI layouts of a hybrid suite, the dry
# run's listing and the signature --resume checks. Sourced by run_clomp.sh; sets
# mpi_ranks, plan, last_key_run and total_runs. Reads, declared here and assigned
# before any function below runs: run_clomp.sh's settings, estimate_why and have_python:
declare -g here max_threads time_scale target_parts target_zones zone_scale_factor max_zone_scale
declare -g replicates numa exe launcher mpi_given mpi_launcher constructs estimate_why have_python writer
declare -ga positional launcher_words
# shellcheck source=suite/cliff.sh
. "$here/suite/cliff.sh"
# shellcheck source=suite/suite_grain.sh
. "$here/suite/suite_grain.sh"

# ---- MPI: the launcher's rank count, the same launcher with another, the layout ------
# The launcher as clomp-write launcher reads it (write/launcher.c). mpi_ranks: the
# rank count the --mpi launcher gives (-np N, -n N, --ntasks=N ...), or "" when none.
read_mpi_ranks() {
    mpi_ranks=''
    [ "$mpi_given" = 1 ] || return 0
    find_writer   # suite/common.sh
    mpi_ranks=$("$writer" launcher ranks "$mpi_launcher")
    [ -z "$mpi_ranks" ] || is_count "$mpi_ranks" ||
        die_usage "--mpi: '$mpi_ranks' is not a rank count in \"$mpi_launcher\""
    # Without MAX_THREADS, the ranks on a node share its cores.
    [ -n "${positional[1]-}" ] || max_threads=$(($(count_cores) / $("$writer" launcher per-node "$mpi_launcher")))
    [ "$max_threads" -ge 1 ] || max_threads=1
}
# The launcher of a run of set SET: the --mpi one as given, or for a packed
# layout (set packedT) with cores/T ranks for each rank it gives the key runs.
mpi_launcher_for() { "$writer" launcher for "$1" "$mpi_launcher" "$mpi_ranks" "$max_threads"; }
# The rank layout of every MPI run, for the .env file.
mpi_layout() { "$writer" launcher layout "$mpi_launcher" "$mpi_ranks" "$max_threads" "${plan[@]:0:total_runs}"; }

# ---- the plan: every run, in order -------------------------------------------------
# A run is "set|numa policy|numThreads allocThreads numParts zonesPerPart zoneSize
# flopScale timeScale"; an empty policy is clomp's default, first touch.
# The shape of a run of THREADS threads at ZONES zones: team_shape (suite/common.sh).
sweep_shape() { team_shape "$1" "$2" "$target_parts"; }
# The rule, as the dry run and the header state it, with the key runs' shape.
parts_rule_line() {
    local shape
    shape=$(sweep_shape "$max_threads" "$target_zones")
    echo "parts follow the team: $target_parts (CLOMP 1.2's) where the thread count divides it, else a multiple" \
        "of the threads with $target_zones zones in all (within 5%); at $max_threads threads ${shape% *} x ${shape#* } zones"
}

# Sets plan (every run), last_key_run (the runs before it are the key runs)
# and total_runs. The key runs (the target input's replicates spread among
# them), a hybrid suite's packed layouts and the sweeps are clomp-write plan's
# (write/plan.c: a suite plans without python3 too).
build_plan() {
    local answer
    # Parts follow the team and CLOMP 1.2 wants zonesPerPart > 0, so a run of T threads holds T zones at
    # least: past the target input's zones no shape is the target input (past twice, 0 zones per part).
    [ "$max_threads" -le "$target_zones" ] || die_usage "MAX_THREADS: $max_threads threads cannot share the target input's\
 $target_zones zones (each thread's parts hold one zone at least): at most $target_zones, or raise --target-zones"
    find_writer   # suite/common.sh
    answer=$("$writer" plan "$max_threads" "$target_parts" "$target_zones" "$zone_scale_factor" "$max_zone_scale" \
        "$replicates" "$numa" "$time_scale" "$mpi_given" "$mpi_ranks" "$mpi_launcher") || exit 2
    mapfile -t plan <<<"$answer"
    # shellcheck disable=SC2034  # read by run_clomp.sh's run loop
    last_key_run=${plan[0]} plan=("${plan[@]:1}")
    add_offload_runs     # suite/offload.sh: offload builds with a device only
    add_cliff_run        # suite/cliff.sh: cores + 1, oversubscribed, never submitted
    add_construct_runs   # suite/constructs.sh: after every mesh run
    total_runs=${#plan[@]}
    # shellcheck disable=SC2034  # printed by run_clomp.sh and written to .env (suite/env_file.sh)
    parts_rule=$(parts_rule_line)
}

# mmss SECONDS: mm:ss; anything else (an unknown estimate's ?) as it is.
mmss() { if [[ $1 =~ ^[0-9]+$ ]]; then printf '%02d:%02d' $(($1 / 60)) $(($1 % 60)); else printf '%s' "$1"; fi; }

# The dry run: every run with its command, estimated time and memory (the
# results package's listing of the plan, suite/calibrate.sh ask_estimate).
# Without python3 (a compute node), the same lines with no estimate (~?s).
print_plan() {
    local k set_name policy args
    local -a a words
    echo "Plan: $total_runs runs of $exe (max threads $max_threads, timeScale $time_scale)"
    if [ "$have_python" = 1 ]; then ask_estimate --listing; return; fi
    for ((k = 0; k < total_runs; k++)); do
        IFS='|' read -r set_name policy args <<<"${plan[k]}"
        read -r -a a <<<"$args"
        words=()
        [ "$mpi_given" = 0 ] || read -r -a words <<<"$(mpi_launcher_for "$set_name")"
        read -r -a words <<<"${words[*]} ${launcher_words[*]} $exe ${policy:+--numa=$policy} $(construct_options "$set_name" "${a[0]}")"
        printf '[%d/%d] %-10s %s %s  ~?s  %d bytes\n' $((k + 1)) "$total_runs" "$set_name" "${words[*]}" "$args" \
            $((a[2] * a[3] * a[4] + 72 * a[2]))
    done
    echo "Estimated total: unknown: $estimate_why; nothing was run."
}

plan_signature() {
    local rows=()   # --constructs=epcc4 changes what the construct runs measure, not the plan's runs
    [ "${constructs-1}" != epcc4 ] || rows=(constructs=epcc4)
    printf '%s;' "exe=$exe" "launcher=$launcher" ${mpi_launcher:+"mpi=$mpi_launcher"} ${rows[@]+"${rows[@]}"} "${plan[@]}"
}
