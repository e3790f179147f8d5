# shellcheck shell=bash
# A suite's <base>.env: the preflight warnings about the node and the machine
# and environment the numbers came from. Sourced by run_clomp.sh; uses
# plan_signature and mpi_layout (suite/plan.sh) and the Slurm job facts
# (suite/slurm.sh); sets preflight. Reads, declared here and assigned before any
# function below runs: run_clomp.sh's settings, the plan (suite/plan.sh), and
# the model and its note (suite/plan.sh, suite/calibrate.sh):
declare -g base exe max_threads time_scale env_preset launcher mpi_given mpi_launcher total_runs suite_binding cores_line parts_rule
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
    env_sections=("build facts ($exe --version)" "$("$exe" --version 2>&1 || echo "not available")")
    env_sections+=("cores and domains ($exe --topology)" "$("$exe" --topology 2>&1 </dev/null || echo "not available")")
    env_sections+=("CPU (lscpu)" "$(lscpu 2>/dev/null || echo "not available")")
    env_sections+=("memory (/proc/meminfo)" "$(head -n 3 /proc/meminfo 2>/dev/null || echo "not available")")
    if command -v numactl >/dev/null 2>&1; then
        env_sections+=("NUMA layout" "$(numactl --hardware 2>&1)")
    elif command -v lstopo-no-graphics >/dev/null 2>&1; then
        env_sections+=("NUMA layout" "$(lstopo-no-graphics 2>&1)")
    else
        env_sections+=("NUMA layout" "not available (install numactl or hwloc)")
    fi
    vars=$(compgen -e | grep -E '^(OMP_|GOMP_|KMP_|XLSMPOPTS|BG_|OMPI_|SLURM_)' | sort)
    env_sections+=("OpenMP and launcher environment" "$([ -n "$vars" ] || echo "none set"
        while IFS= read -r var; do
            [ -z "$var" ] || printf '%s=%q\n' "$var" "${!var}"
        done <<<"$vars")")
    env_sections+=("ulimit -a" "$(ulimit -a)")
    env_sections+=("load average: $(cat /proc/loadavg 2>/dev/null || echo 'not available')" '')
    env_sections+=("cpu frequency governor: $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo 'not available')" '')
    env_sections+=("numa_balancing: $(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo 'not available')" '')
    env_sections+=("transparent hugepages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo 'not available')" '')
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
        [ "$mpi_given" = 0 ] || [ -z "$(srun_cpu_binding "$mpi_launcher")" ] ||
            echo "mpi cpu binding: $(srun_cpu_binding "$mpi_launcher")"
        printf '%s\n' "$env_slurm_lines"
        echo "plan: $(plan_signature)"
        printf '%s\n' "$env_offload_line"
        for ((k = 0; k + 1 < ${#env_sections[@]}; k += 2)); do
            echo "---- ${env_sections[k]}"
            [ -z "${env_sections[k + 1]}" ] || printf '%s\n' "${env_sections[k + 1]}"
        done
    } | add_to_file "$base.env"
}

check_preflight() {
    local cores load governor balancing
    cores=$(count_cores)
    local bind=${OMP_PROC_BIND:-}${KMP_AFFINITY:-} policy=${OMP_WAIT_POLICY:-}
    [[ -n $bind && ${bind,,} != false ]] || preflight+=("threads not bound (OMP_PROC_BIND unset or false): they may migrate mid-run")
    [ "${policy,,}" != passive ] || preflight+=("OMP_WAIT_POLICY=passive: sleeping threads add wake-up time to every loop")
    [ "${KMP_BLOCKTIME:-}" != 0 ] || preflight+=("KMP_BLOCKTIME=0: libomp threads sleep at once, like a passive wait policy")
    [ "${GOMP_SPINCOUNT:-}" != 0 ] || preflight+=("GOMP_SPINCOUNT=0: libgomp threads sleep at once, like a passive wait policy")
    load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
    if awk -v l="$load" -v c="$cores" 'BEGIN { exit !(l > 0.1 * c + 0.5) }'; then
        preflight+=("load average $load on $cores cores: the node is not dedicated")
    fi
    governor=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo '')
    [ -z "$governor" ] || [ "$governor" = performance ] ||
        preflight+=("CPU frequency governor is '$governor', not 'performance'")
    balancing=$(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo 0)
    [ "$balancing" = 0 ] || preflight+=("automatic NUMA balancing is on: pages may move during runs")
    slurm_preflight
    [ "$max_threads" -le "$cores" ] || preflight+=("$max_threads threads requested on $cores cores: oversubscribed")
    # Hybrid: every rank on a node runs its threads there.
    local i set_name args per
    for ((i = 0; i < total_runs && mpi_given; i++)); do
        IFS='|' read -r set_name _ args <<<"${plan[i]}"
        per=$(mpi_ranks_per_node "$(mpi_launcher_for "$set_name")")
        [ $((per * ${args%% *})) -le "$cores" ] && continue
        preflight+=("$per MPI ranks x ${args%% *} threads per node on $cores cores: oversubscribed")
        break
    done
    return 0
}

# Open MPI's mpirun refuses to start as root unless allowed (--allow-run-as-root,
# or OMPI_ALLOW_RUN_AS_ROOT=1 with OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1), and every
# run would fail: say how to allow it before anything runs (exit 2).
check_mpi_root() {
    local -a w
    [ "$mpi_given" = 1 ] && [ "$(id -u)" = 0 ] || return 0
    read -r -a w <<<"$mpi_launcher"
    case ${w[0]##*/} in mpirun | mpirun.* | mpiexec | mpiexec.* | orterun) ;; *) return 0 ;; esac
    "${w[0]}" --version 2>&1 | grep -Eq 'Open MPI|OpenRTE' || return 0
    [[ " $mpi_launcher " != *" --allow-run-as-root "* ]] || return 0
    [ "${OMPI_ALLOW_RUN_AS_ROOT:-}" != 1 ] || [ "${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-}" != 1 ] || return 0
    die_usage "--mpi: Open MPI's ${w[0]} refuses to run as root, so every run would fail: add --allow-run-as-root to \"$mpi_launcher\", or export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1, or run as another user"
}
