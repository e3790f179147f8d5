# shellcheck shell=bash
# The suite's plan: every run in order, the MPI layouts of a hybrid suite,
# the dry run's listing and the signature --resume checks. Sourced by
# run_clomp.sh; sets mpi_ranks, plan, last_key_run and total_runs. The construct
# runs come last (suite/constructs.sh); each run's estimate is suite/calibrate.sh's. Reads,
# declared here and assigned before any function below runs: run_clomp.sh's
# settings, the estimate's reason (suite/calibrate.sh) and have_python (suite/results.sh):
declare -g here max_threads time_scale target_parts target_zones zone_scale_factor max_zone_scale
declare -g replicates numa exe launcher mpi_given mpi_launcher constructs estimate_why have_python
declare -ga positional launcher_words
# shellcheck source=suite/cliff.sh
. "$here/suite/cliff.sh"
# shellcheck source=suite/suite_grain.sh
. "$here/suite/suite_grain.sh"

# ---- MPI: the launcher's rank count, and the same launcher with another --------------
# launcher_ranks CMD [N]: the rank count CMD gives (the first of -np N, -n N, --np N,
# --ntasks N, --ntasks=N, -nN), or ""; with N, CMD with every such count replaced by N.
launcher_ranks() {
    local -a w
    local k out='' count='' found=0
    read -r -a w <<<"$1"
    for ((k = 0; k < ${#w[@]}; k++)); do
        case ${w[k]} in
            -np | -n | --np | --ntasks) [ "$found" = 1 ] || count=${w[k + 1]-}; out+="${w[k]} ${2-} "; k=$((k + 1)) ;;
            --ntasks=*) [ "$found" = 1 ] || count=${w[k]#--ntasks=}; out+="--ntasks=${2-} " ;;
            -n[0-9]*) [ "$found" = 1 ] || count=${w[k]#-n}; out+="-n${2-} " ;;
            *) out+="${w[k]} "; continue ;;
        esac
        found=1
    done
    if [ $# -ge 2 ]; then echo "${out% }"; else echo "$count"; fi
}
# mpi_ranks: the rank count the --mpi launcher gives, or "" when it gives none.
read_mpi_ranks() {
    mpi_ranks=''
    [ "$mpi_given" = 1 ] || return 0
    mpi_ranks=$(launcher_ranks "$mpi_launcher")
    [ -z "$mpi_ranks" ] || is_count "$mpi_ranks" ||
        die_usage "--mpi: '$mpi_ranks' is not a rank count in \"$mpi_launcher\""
    # Without MAX_THREADS, the ranks on a node share its cores.
    [ -n "${positional[1]-}" ] || max_threads=$(($(count_cores) / $(mpi_ranks_per_node "$mpi_launcher")))
    [ "$max_threads" -ge 1 ] || max_threads=1
}
# How many of CMD's ranks share a node: the count per node it gives (--npernode,
# -npernode, -N under mpirun, --ntasks-per-node, ppr:N:node), else its ranks
# over its nodes (srun's -N/--nodes, a -H/--host list or a hostfile's hosts,
# else the Slurm job's nodes), else all of them on this one. An estimate for
# the preflight: the validator counts where the ranks really ran.
mpi_ranks_per_node() {  # mpi_ranks_per_node CMD
    local -a w
    local k ranks nodes=${SLURM_JOB_NUM_NODES:-1} srun=0
    read -r -a w <<<"$1"
    ranks=$(launcher_ranks "$1")
    [ "${w[0]##*/}" != srun ] || srun=1
    for ((k = 0; k < ${#w[@]}; k++)); do
        case ${w[k]} in
            --npernode | -npernode | --ntasks-per-node) echo "${w[k + 1]-1}"; return ;;
            --ntasks-per-node=*) echo "${w[k]#*=}"; return ;;
            *ppr:[0-9]*:node*) ranks=${w[k]#*ppr:}; echo "${ranks%%:*}"; return ;;
            -N) if [ "$srun" = 1 ]; then nodes=${w[k + 1]-1}; else echo "${w[k + 1]-1}"; return; fi ;;
            --nodes) nodes=${w[k + 1]-1} ;;
            --nodes=*) nodes=${w[k]#*=} ;;
            -H | --host) nodes=$(tr ',' '\n' <<<"${w[k + 1]-}" | sed 's/:.*//' | sort -u | grep -c .) ;;
            --hostfile | -hostfile | --machinefile | -machinefile)
                nodes=$(sed 's/#.*//' "${w[k + 1]-}" 2>/dev/null | awk 'NF { print $1 }' | sort -u | grep -c .) ;;
        esac
    done
    [[ ${nodes%%-*} =~ ^[1-9][0-9]*$ ]] && nodes=${nodes%%-*} || nodes=1
    echo $(((${ranks:-1} + nodes - 1) / nodes))
}
# The launcher of a run of set SET: the --mpi one as given, or for a packed
# layout (set packedT) with cores/T ranks for each rank it gives the key runs.
mpi_launcher_for() {  # mpi_launcher_for SET
    local threads
    case $1 in
        packed*) threads=${1#packed}; launcher_ranks "$mpi_launcher" $((mpi_ranks * max_threads / threads)) ;;
        *) echo "$mpi_launcher" ;;
    esac
}
# 1.2's packed hybrid layouts: cores/4 ranks of 4 threads, cores/16 of 16, on
# the 6400-zone target input; only where a node has two such groups of cores,
# and the launcher's rank count can be scaled.
add_packed_layouts() {
    local t
    [ "$mpi_given" = 1 ] || return 0
    if [ -z "$mpi_ranks" ]; then
        echo "run_clomp.sh: notice: --mpi \"$mpi_launcher\" gives no rank count (-np N, -n N, --ntasks=N): no packed layouts" >&2
        return 0
    fi
    for t in 4 16; do
        [ "$max_threads" -ge $((2 * t)) ] || continue
        plan+=("packed$t||$t 1 $target_parts $(((target_zones + target_parts / 2) / target_parts)) 32 1 $time_scale")
    done
}
# The rank layout of every MPI run, for the .env file.
mpi_layout() {
    local i set_name policy args ranks
    echo "mpi launcher: $mpi_launcher"
    for ((i = 0; i < total_runs; i++)); do
        IFS='|' read -r set_name policy args <<<"${plan[i]}"
        ranks=$(launcher_ranks "$(mpi_launcher_for "$set_name")")
        echo "run $((i + 1)) ($set_name): ${ranks:-launcher-chosen} rank(s) x ${args%% *} threads: $(mpi_launcher_for "$set_name")"
    done
}

# ---- the plan: every run, in order -------------------------------------------------
# A run is "set|numa policy|numThreads allocThreads numParts zonesPerPart zoneSize
# flopScale timeScale"; an empty policy is clomp's default, first touch.

# The target input (the first key run) runs REPLICATES times as separate
# processes, spread over the other key runs rather than back to back, so
# that what separates processes (placement, a neighbour, frequency) shows
# up between them: T K2 K3 T K4 K5 T ... Appends to plan.
interleave_replicates() {  # interleave_replicates REPLICATES KEY...  (the keys as words: no nameref before bash 4.3)
    local n=$1 others r k from to
    shift
    local key_list=("$@")
    others=$((${#key_list[@]} - 1))
    for ((r = 0; r < n; r++)); do
        plan+=("${key_list[0]}")
        from=$((1 + r * others / n))
        to=$((1 + (r + 1) * others / n))
        for ((k = from; k < to; k++)); do plan+=("${key_list[k]}"); done
    done
}

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
# and total_runs.
build_plan() {
    local zone_sizes=() thread_counts=() keys=() scale=1 n_keys t z i policy
    while [ "$scale" -le "$max_zone_scale" ]; do
        zone_sizes+=($((target_zones * scale)))
        scale=$((scale * zone_scale_factor))
    done
    for ((t = 1; t <= max_threads && t <= 16; t++)); do thread_counts+=("$t"); done
    for ((t = 32; t < max_threads; t *= 2)); do thread_counts+=("$t"); done
    [ "$max_threads" -le 16 ] || thread_counts+=("$max_threads")

    for z in "${zone_sizes[@]}"; do
        keys+=("key||$max_threads -1 $(sweep_shape "$max_threads" "$z") 32 1 $time_scale")
    done
    n_keys=${#zone_sizes[@]}
    for ((i = n_keys > 2 ? n_keys - 2 : 0; i < n_keys; i++)); do
        z=${zone_sizes[i]}
        keys+=("key||$max_threads 1 $(sweep_shape "$max_threads" "$z") 32 1 $time_scale")
    done
    if [ "$numa" = 1 ]; then
        # The first-touch runs of these sizes are the key runs above.
        for ((i = n_keys > 2 ? n_keys - 2 : 0; i < n_keys; i++)); do
            z=${zone_sizes[i]}
            for policy in interleave local node:0; do
                keys+=("key|$policy|$max_threads -1 $(sweep_shape "$max_threads" "$z") 32 1 $time_scale")
            done
        done
    fi
    plan=()
    interleave_replicates "$replicates" "${keys[@]}"
    # shellcheck disable=SC2034  # read by run_clomp.sh's run loop
    last_key_run=${#plan[@]}
    add_packed_layouts
    for z in "${zone_sizes[@]}"; do
        for t in $(cliff_thread_counts "$z" "${thread_counts[@]}"); do   # suite/cliff.sh
            plan+=("${z}zones||$t -1 $(sweep_shape "$t" "$z") 32 1 $time_scale")
        done
    done
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
