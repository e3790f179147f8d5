#!/usr/bin/env bash
# The suite's preflight warnings (clomp-write preflight, write/preflight.c): threads
# not bound, a wait policy that sleeps, a busy node, a governor other than
# performance, NUMA balancing, a shared Slurm node, more threads than cores and a
# hybrid run that crowds a node, in that order. The oracle is the shell the driver
# used before (suite/env_file.sh's check_preflight, kept below as it was but for
# the stand-in root prefixed to the files it reads), asked the same on a grid of
# OpenMP settings, load averages, governors, balancing switches, core and thread
# counts, with and without an MPI launcher. The quick lane asks each stand-in node
# with each setting two of its four shapes and launchers (turn about: every shape
# with every launcher still asked; 70 cases), the full lane all four (140).
# shellcheck disable=SC2317  # the oracle's functions run in a bash -c, by declare -f

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

# shellcheck source-path=SCRIPTDIR source=lib/writer.sh
. "$(dirname "$0")/lib/writer.sh"

# ---- the oracle: the driver's shell before write/preflight.c (R: the stand-in root) ---------
check_preflight() {
    local cores load governor balancing
    cores=$(count_cores)
    local bind=${OMP_PROC_BIND:-}${KMP_AFFINITY:-} policy=${OMP_WAIT_POLICY:-}
    [[ -n $bind && ${bind,,} != false ]] || preflight+=("threads not bound (OMP_PROC_BIND unset or false): they may migrate mid-run")
    [ "${policy,,}" != passive ] || preflight+=("OMP_WAIT_POLICY=passive: sleeping threads add wake-up time to every loop")
    [ "${KMP_BLOCKTIME:-}" != 0 ] || preflight+=("KMP_BLOCKTIME=0: libomp threads sleep at once, like a passive wait policy")
    [ "${GOMP_SPINCOUNT:-}" != 0 ] || preflight+=("GOMP_SPINCOUNT=0: libgomp threads sleep at once, like a passive wait policy")
    load=$(cut -d' ' -f1 "$R"/proc/loadavg 2>/dev/null || echo 0)
    if awk -v l="$load" -v c="$cores" 'BEGIN { exit !(l > 0.1 * c + 0.5) }'; then
        preflight+=("load average $load on $cores cores: the node is not dedicated")
    fi
    governor=$(cat "$R"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo '')
    [ -z "$governor" ] || [ "$governor" = performance ] ||
        preflight+=("CPU frequency governor is '$governor', not 'performance'")
    balancing=$(cat "$R"/proc/sys/kernel/numa_balancing 2>/dev/null || echo 0)
    [ "$balancing" = 0 ] || preflight+=("automatic NUMA balancing is on: pages may move during runs")
    slurm_preflight
    [ "$max_threads" -le "$cores" ] || preflight+=("$max_threads threads requested on $cores cores: oversubscribed")
    # Hybrid: every rank on a node runs its threads there (the first run that crowds one).
    [ "$mpi_given" = 0 ] || mapfile -t -O ${#preflight[@]} preflight < <("$writer" launcher crowded \
        "$mpi_launcher" "$mpi_ranks" "$max_threads" "$cores" "${plan[@]:0:total_runs}")
    return 0
}
slurm_preflight() { mapfile -t -O ${#preflight[@]} preflight < <("$writer" slurm preflight); }
count_cores() { echo "$cores_given"; }

# ---- the grid ------------------------------------------------------------------------------
stand_in() {  # stand_in NAME LOADAVG GOVERNOR BALANCING ('-': no such file)
    local dir=$root/$1
    mkdir -p "$dir/proc/sys/kernel" "$dir/sys/devices/system/cpu/cpu0/cpufreq"
    [ "$2" = - ] || printf '%s' "$2" >"$dir/proc/loadavg"
    [ "$3" = - ] || printf '%s' "$3" >"$dir/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
    [ "$4" = - ] || printf '%s' "$4" >"$dir/proc/sys/kernel/numa_balancing"
}
stand_in idle $'0.00 0.01 0.05 1/99 1234\n' $'performance\n' $'0\n'
stand_in busy $'7.92 5.10 3.00 9/400 77\n' $'powersave\n' $'1\n'
stand_in none - - -
stand_in odd '' '' ''
stand_in edge $'1.30 1 1 1/1 1\n' $'schedutil\n\n' $'2\n'
settings=(
    "" "OMP_PROC_BIND=close" "OMP_PROC_BIND=FALSE" "OMP_PROC_BIND=false KMP_AFFINITY=false" "KMP_AFFINITY=compact OMP_WAIT_POLICY=Passive"
    "OMP_PROC_BIND=spread OMP_WAIT_POLICY=active KMP_BLOCKTIME=0 GOMP_SPINCOUNT=0" "OMP_PROC_BIND=true KMP_BLOCKTIME=00 GOMP_SPINCOUNT=10"
)
shapes=("8 8" "8 9" "2 1" "64 32") mpis=("0" "1 mpirun -np 4" "1 srun -n 16 --ntasks-per-node=2")
fails=0 cases=0 warned=0 k=0
for stand in idle busy none odd edge; do
    for s in "${settings[@]}"; do
        for ((j = 0; j < 4; j++)); do   # four of the twelve shapes and launchers a node, all twelve in turn
            k=$((k + 1)) shape=${shapes[k % 4]} mpi=${mpis[(k / 4) % 3]}
            full_lane || [ $(((j + (k - 1) / 4) % 2)) = 0 ] || continue
            {
                read -r cores_given max_threads <<<"$shape"
                read -r mpi_given mpi_launcher <<<"$mpi"
                mpi_ranks=$("$writer" launcher ranks "$mpi_launcher")
                args=("$cores_given" "$max_threads")
                [ "$mpi_given" = 0 ] || args+=("$mpi_launcher" "$mpi_ranks" "key||$max_threads -1 64 100 32 1 1" "packed4||4 1 64 100 32 1 1")
                # shellcheck disable=SC2086  # the settings' words
                want=$(env -i PATH="$PATH" R="$root/$stand" $s cores_given="$cores_given" max_threads="$max_threads" \
                    mpi_given="$mpi_given" mpi_launcher="$mpi_launcher" mpi_ranks="$mpi_ranks" writer="$writer" bash -c \
                    "$(declare -f check_preflight slurm_preflight count_cores)
                    plan=('key||$max_threads -1 64 100 32 1 1' 'packed4||4 1 64 100 32 1 1') total_runs=2 preflight=()
                    check_preflight; printf '%s\n' \"\${preflight[@]}\"" 2>&1)
                # shellcheck disable=SC2086
                got=$(env -i PATH="$PATH" CLOMP_PREFLIGHT_ROOT="$root/$stand" $s "$writer" preflight "${args[@]}" 2>&1)
                cases=$((cases + 1))
                [ "$(grep -c . <<<"$want")" -lt 3 ] || warned=$((warned + 1))
                if [ "$want" != "$got" ]; then
                    fails=$((fails + 1))
                    [ "$fails" -gt 3 ] || diag "$stand [$s] $shape [$mpi]: expected [$want], got [$got]"
                fi
            }
        done
    done
done
is "$fails" 0 "clomp-write preflight warns as the driver's shell did, in its order, in all $cases cases"
[ "$warned" -gt 10 ] && [ "$warned" -lt "$cases" ]
ok $? "the grid holds nodes with three warnings or more ($warned) and nodes with fewer"
"$writer" preflight 2 >/dev/null 2>&1
is "$?" 2 "without the thread count it is a usage error, exit 2"
done_testing
