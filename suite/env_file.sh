# shellcheck shell=bash
# A suite's <base>.env: the preflight warnings about the node and the machine
# and environment the numbers came from. Sourced by run_clomp.sh; reads its
# settings (base, exe, max_threads, time_scale, env_preset, launcher,
# mpi_given) and uses plan_signature and mpi_layout (suite/plan.sh).
# shellcheck disable=SC2154  # the settings above: assigned by run_clomp.sh

# ---- .env: the machine and environment the numbers came from -------------------------
preflight=()
write_env() {
    local var
    {
        echo "date: $(date)"
        printf 'host: %q\n' "$(uname -n)"
        echo "uname: $(uname -a)"
        echo "suite: $base"
        echo "executable: $exe"
        echo "max threads: $max_threads"
        echo "time scale: $time_scale"
        echo "env preset: ${env_preset:-none}"
        echo "launcher: ${launcher:-none}"
        if [ "$mpi_given" = 1 ]; then mpi_layout; else echo "mpi launcher: none"; fi
        echo "plan: $(plan_signature)"
        echo "---- build facts ($exe --version)"
        "$exe" --version 2>&1 || echo "not available"
        echo "---- CPU (lscpu)"
        lscpu 2>/dev/null || echo "not available"
        echo "---- memory (/proc/meminfo)"
        head -n 3 /proc/meminfo 2>/dev/null || echo "not available"
        echo "---- NUMA layout"
        if command -v numactl >/dev/null 2>&1; then
            numactl --hardware 2>&1
        elif command -v lstopo-no-graphics >/dev/null 2>&1; then
            lstopo-no-graphics 2>&1
        else
            echo "not available (install numactl or hwloc)"
        fi
        echo "---- OpenMP and launcher environment"
        local vars
        vars=$(compgen -e | grep -E '^(OMP_|GOMP_|KMP_|XLSMPOPTS|BG_|OMPI_|SLURM_)' | sort)
        [ -n "$vars" ] || echo "none set"
        while IFS= read -r var; do
            [ -z "$var" ] || printf '%s=%q\n' "$var" "${!var}"
        done <<<"$vars"
        echo "---- ulimit -a"
        ulimit -a
        echo "---- load average: $(cat /proc/loadavg 2>/dev/null || echo 'not available')"
        echo "---- cpu frequency governor: $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo 'not available')"
        echo "---- numa_balancing: $(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo 'not available')"
        echo "---- transparent hugepages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo 'not available')"
        echo "---- preflight warnings"
        if [ ${#preflight[@]} -eq 0 ]; then echo "none"; else printf 'WARNING: %s\n' "${preflight[@]}"; fi
    } >>"$base.env"
}

check_preflight() {
    local cores load governor balancing
    cores=$(count_cores)
    case ${OMP_PROC_BIND:-}${KMP_AFFINITY:-} in
        '' | [Ff][Aa][Ll][Ss][Ee]) preflight+=("threads not bound (OMP_PROC_BIND unset or false): they may migrate mid-run") ;;
    esac
    case ${OMP_WAIT_POLICY:-} in
        [Pp][Aa][Ss][Ss][Ii][Vv][Ee]) preflight+=("OMP_WAIT_POLICY=passive: sleeping threads add wake-up time to every loop") ;;
    esac
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
    [ "$max_threads" -le "$cores" ] || preflight+=("$max_threads threads requested on $cores cores: oversubscribed")
    return 0
}
