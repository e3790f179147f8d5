# shellcheck shell=bash
# A suite's <base>.env: the preflight warnings about the node and the machine and
# environment the numbers came from. Sourced by run_clomp.sh; sets preflight. Reads,
# declared here and assigned before any function below runs: run_clomp.sh's
# settings, the plan (suite/plan.sh), the model and its note (suite/calibrate.sh):
declare -g base exe max_threads time_scale env_preset launcher mpi_given mpi_launcher mpi_ranks total_runs suite_binding cores_line parts_rule writer
declare -ga plan
declare -g calibration_note ZONE_NS_CACHED ZONE_NS_MEMORY MEMORY_SPEEDUP REGION_US PROBE_US BUILD_NS_PER_BYTE REGION_SLOPE REGION_FIT

# ---- .env: the machine and environment the numbers came from -------------------------
preflight=()
# env_sections: the machine description as the suite starts, HEADING then its text, in order:
# written to .env (its "---- HEADING" sections) and to the manifest (suite/manifest.sh).
env_sections=() env_slurm_lines='' env_offload_line=''
take_env_sections() {
    local var vars
    env_slurm_lines=$(slurm_env_lines) env_offload_line=$(offload_env_lines)   # suite/slurm.sh, suite/offload.sh
    # the build facts, cores, CPU, memory and NUMA layout: HEADING and text, each ended by a NUL (write/machine.c)
    mapfile -d '' env_sections < <("$writer" machine --sections "$exe")
    vars=$(compgen -e | grep -E '^(OMP_|GOMP_|KMP_|XLSMPOPTS|BG_|OMPI_|SLURM_)' | sort)
    env_sections+=("OpenMP and launcher environment" "$([ -n "$vars" ] || echo "none set"
        while IFS= read -r var; do
            [ -z "$var" ] || printf '%s=%q\n' "$var" "${!var}"
        done <<<"$vars")")
    env_sections+=("ulimit -a" "$(ulimit -a)")
    mapfile -d '' -O ${#env_sections[@]} env_sections < <("$writer" machine --state)   # load, governor, balancing, hugepages
    env_sections+=("preflight warnings" "$(if [ ${#preflight[@]} -eq 0 ]; then echo "none"; else printf 'WARNING: %s\n' "${preflight[@]}"; fi)")
}
write_env() {   # after take_env_sections
    local k
    {
        echo "date: $(date)"
        printf 'host: %q\n' "$(uname -n)"
        echo "uname: $(uname -a)"
        echo "suite: $base"
        echo "executable: $exe"
        echo "max threads: $max_threads"
        echo "cores: ${cores_line#Cores: }"
        echo "parts: $parts_rule"
        echo "time scale: $time_scale"
        echo "model: $calibration_note"
        echo "model constants: ZONE_NS_CACHED=$ZONE_NS_CACHED ZONE_NS_MEMORY=$ZONE_NS_MEMORY MEMORY_SPEEDUP=$MEMORY_SPEEDUP REGION_US=$REGION_US PROBE_US=$PROBE_US BUILD_NS_PER_BYTE=$BUILD_NS_PER_BYTE REGION_SLOPE=$REGION_SLOPE REGION_FIT=$REGION_FIT"
        echo "env preset: ${env_preset:-none}"
        echo "thread binding: $suite_binding"
        echo "launcher: ${launcher:-none}"
        if [ "$mpi_given" = 1 ]; then mpi_layout; else echo "mpi launcher: none"; fi
        [ "$mpi_given" = 0 ] || "$writer" launcher cpu-binding "$mpi_launcher"   # an srun launcher's
        printf '%s\n' "$env_slurm_lines"
        echo "plan: $(plan_signature)"
        printf '%s\n' "$env_offload_line"
        for ((k = 0; k + 1 < ${#env_sections[@]}; k += 2)); do
            echo "---- ${env_sections[k]}"
            [ -z "${env_sections[k + 1]}" ] || printf '%s\n' "${env_sections[k + 1]}"
        done
    } | add_to_file "$base.env"
}

# The preflight warnings (clomp-write preflight, write/preflight.c: the OpenMP
# settings, the load, governor and NUMA balancing, a shared Slurm node, more threads
# than cores, and in a hybrid suite the first run whose ranks crowd a node).
check_preflight() {
    local -a mpi=()
    [ "$mpi_given" = 0 ] || mpi=("$mpi_launcher" "$mpi_ranks" "${plan[@]:0:total_runs}")
    mapfile -t -O ${#preflight[@]} preflight < <("$writer" preflight "$(count_cores)" "$max_threads" ${mpi[@]+"${mpi[@]}"})
}

# Open MPI's mpirun refuses to start as root unless allowed, and every run would
# fail: say how to allow it before anything runs (exit 2; clomp-write launcher
# root-refusal, write/launcher.c, asks the launcher whether it is Open MPI's).
check_mpi_root() {
    local refusal
    [ "$mpi_given" = 1 ] && [ "$(id -u)" = 0 ] || return 0
    find_writer   # suite/common.sh
    refusal=$("$writer" launcher root-refusal "$mpi_launcher")
    [ -z "$refusal" ] || die_usage "$refusal"
}
