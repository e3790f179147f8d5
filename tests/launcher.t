#!/usr/bin/env bash
# The --mpi launcher as the suite reads it (clomp-write launcher, write/launcher.c):
# its rank count, the same command with another count, its ranks per node, an srun
# launcher's CPU binding, the .env's rank layout and the preflight's oversubscribed
# warning, and whether Open MPI's launcher would refuse to run as root. The oracle
# is the shell the driver used before (suite/plan.sh, suite/slurm.sh and
# suite/env_file.sh, kept below as they were), asked the same on a grid of launchers,
# Slurm node counts, hostfiles, rank counts, thread counts and plans. The quick lane
# asks every launcher, but each of them of one Slurm node count besides none and of
# one rank x thread count (turn about, so every value is asked of some launchers):
# about 400 questions instead of 900; the full lane asks the whole cross product.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

# shellcheck source-path=SCRIPTDIR source=lib/writer.sh
. "$(dirname "$0")/lib/writer.sh"

# ---- the oracle: the driver's shell before write/launcher.c ----------------------------
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
mpi_ranks_per_node() {
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
mpi_launcher_for() {
    local threads
    case $1 in
        packed*) threads=${1#packed}; launcher_ranks "$mpi_launcher" $((mpi_ranks * max_threads / threads)) ;;
        *) echo "$mpi_launcher" ;;
    esac
}
# shellcheck disable=SC2034  # policy: kept as the driver had it
mpi_layout() {
    local i set_name policy args ranks
    echo "mpi launcher: $mpi_launcher"
    for ((i = 0; i < total_runs; i++)); do
        IFS='|' read -r set_name policy args <<<"${plan[i]}"
        ranks=$(launcher_ranks "$(mpi_launcher_for "$set_name")")
        echo "run $((i + 1)) ($set_name): ${ranks:-launcher-chosen} rank(s) x ${args%% *} threads: $(mpi_launcher_for "$set_name")"
    done
}
crowded() {   # check_preflight's hybrid loop (suite/env_file.sh)
    local i set_name args per
    for ((i = 0; i < total_runs; i++)); do
        IFS='|' read -r set_name _ args <<<"${plan[i]}"
        per=$(mpi_ranks_per_node "$(mpi_launcher_for "$set_name")")
        [ $((per * ${args%% *})) -le "$cores" ] && continue
        echo "$per MPI ranks x ${args%% *} threads per node on $cores cores: oversubscribed"
        break
    done
}
srun_cpu_binding() {
    local -a w
    local k
    read -r -a w <<<"$1"
    [ "${w[0]##*/}" = srun ] || return 0
    for ((k = 1; k < ${#w[@]}; k++)); do
        case ${w[k]} in
            --cpu-bind=* | --cpu_bind=*) echo "${w[k]#*=}"; return ;;
            --cpu-bind | --cpu_bind) echo "${w[k + 1]-}"; return ;;
        esac
    done
    echo "${SLURM_CPU_BIND:-the default of the task plugin}"
}

check_mpi_root() {   # suite/env_file.sh's
    local -a w
    [ "$mpi_given" = 1 ] && [ "$(id -u)" = 0 ] || return 0
    read -r -a w <<<"$mpi_launcher"
    case ${w[0]##*/} in mpirun | mpirun.* | mpiexec | mpiexec.* | orterun) ;; *) return 0 ;; esac
    "${w[0]}" --version 2>&1 | grep -Eq 'Open MPI|OpenRTE' || return 0
    [[ " $mpi_launcher " != *" --allow-run-as-root "* ]] || return 0
    [ "${OMPI_ALLOW_RUN_AS_ROOT:-}" != 1 ] || [ "${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-}" != 1 ] || return 0
    die_usage "--mpi: Open MPI's ${w[0]} refuses to run as root, so every run would fail: add --allow-run-as-root to \"$mpi_launcher\", or export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1, or run as another user"
}
die_usage() { echo "$1"; }

# ---- the grid ------------------------------------------------------------------------------
printf 'n1 slots=4\n# a comment\nn2:2   # another\n\n  n1\nn3\tslots=2\n' >"$root/hosts"
printf '# nothing but comments\n\n' >"$root/empty-hosts"
launchers=(
    "mpirun -np 4" "mpirun -n 8 --bind-to core" "mpiexec --np 2" "srun --ntasks 6" "srun --ntasks=12 -N 3"
    "srun -n12 --nodes 2" "srun -n 7 --nodes=2-4" "srun -n 5 --nodes=0" "srun -N" "mpirun -np" "mpirun -np 4 -np 8"
    "mpirun -n4 -np 8 -x OMP_NUM_THREADS" "mpirun --npernode 2 -np 8" "mpirun -npernode" "srun --ntasks-per-node 3 -n 9"
    "srun --ntasks-per-node=5" "mpirun --map-by ppr:2:node:pe=4 -np 8" "mpirun --map-by ppr:x:ppr:3:node -np 8"
    "mpirun --map-by ppr:4:socket -np 8" "mpirun -N 2 -np 8" "mpirun -np 8 -H a,b,a:2,c:4" "mpirun -np 8 --host a:1,,:3,"
    "mpirun -np 6 --hostfile $root/hosts" "mpirun -np 6 -machinefile $root/empty-hosts" "mpirun -np 6 --hostfile $root/missing"
    "mpirun -np 6 --hostfile" "/opt/slurm/bin/srun -n 4 --cpu-bind=cores" "srun --cpu_bind map_cpu:0,1 -n 2" "srun --cpu-bind"
    "srun -n 3" "srun/ -n 3" "env srun -n 3" "mpirun" "" "  mpirun   -np	4  ./clomp  " "$(printf 'srun -n 4\n-n 8')"
    "mpirun --ntasks= -np 3"
)   # a count that is not a number (-n5x) never gets this far: the driver refuses it first (is_count)
fails=0 cases=0
compare() {  # compare WHAT EXPECTED GOT
    cases=$((cases + 1))
    [ "$2" = "$3" ] && return 0
    fails=$((fails + 1))
    [ "$fails" -gt 5 ] || diag "$1: expected [$2], got [$3]"
}
node_counts=('' 3 2-8 x) teams=("1 4" "1 32" "6 4" "6 32") i=0
for cmd in "${launchers[@]}"; do
    i=$((i + 1))
    compare "ranks '$cmd'" "$(launcher_ranks "$cmd")" "$("$writer" launcher ranks "$cmd")"
    nodes_asked=("${node_counts[@]}") teams_asked=("${teams[@]}")
    full_lane || nodes_asked=('' "${node_counts[1 + i % 3]}") teams_asked=("${teams[i % 4]}")
    for nodes in "${nodes_asked[@]}"; do
        export SLURM_JOB_NUM_NODES=$nodes
        compare "per-node '$cmd' ($nodes)" "$(mpi_ranks_per_node "$cmd")" "$("$writer" launcher per-node "$cmd")"
    done
    for bind in '' sockets; do
        export SLURM_CPU_BIND=$bind
        binding=$(srun_cpu_binding "$cmd")
        compare "cpu-binding '$cmd' ($bind)" "${binding:+mpi cpu binding: $binding}" "$("$writer" launcher cpu-binding "$cmd")"
    done
    export SLURM_JOB_NUM_NODES=2
    mpi_launcher=$cmd mpi_ranks=6 max_threads=32   # the layout asks the same of every set: once alone
    compare "for packed4 '$cmd'" "$(mpi_launcher_for packed4)" "$("$writer" launcher for packed4 "$cmd" 6 32)"
    for team in "${teams_asked[@]}"; do
        read -r mpi_ranks max_threads <<<"$team"
        plan=("key||$max_threads -1 10 64 32 1 1" "packed4||4 1 10 640 32 1 1" "packed16||16 1 10 640 32 1 1"
            "6400zones||2 -1 10 640 32 1 1" "key|interleave|$max_threads -1 10 640 32 1 1")
        total_runs=${#plan[@]}
        compare "layout '$cmd' $mpi_ranks x $max_threads" "$(mpi_layout)" \
            "$("$writer" launcher layout "$cmd" "$mpi_ranks" "$max_threads" "${plan[@]}")"
        for cores in 2 8 512; do
            compare "crowded '$cmd' $mpi_ranks x $max_threads on $cores" "$(crowded 2>/dev/null)" \
                "$("$writer" launcher crowded "$cmd" "$mpi_ranks" "$max_threads" "$cores" "${plan[@]}")"
        done
    done
done
unset SLURM_JOB_NUM_NODES SLURM_CPU_BIND
# Whether Open MPI would refuse to run as root: stand-in launchers, Open MPI's and others.
mkdir "$root/bin"
printf '#!/bin/sh\necho "mpirun (Open MPI) 4.1.4"\n' >"$root/bin/mpirun"
printf '#!/bin/sh\necho "mpiexec (OpenRTE) 1.10" >&2\n' >"$root/bin/mpiexec.openmpi"
printf '#!/bin/sh\necho "HYDRA build details: MPICH"\n' >"$root/bin/mpiexec"
printf '#!/bin/sh\necho "Open MPI"\n' >"$root/bin/orterun"
chmod +x "$root/bin/"*
mpi_given=1 root_cases=0 root_fails=0 refused=0
for cmd in "mpirun -np 2" "$root/bin/mpirun -np 2 ./clomp" "mpirun --allow-run-as-root -np 2" "mpirun -np 2 --allow-run-as-root" \
    "mpirun -np 2 --allow-run-as-root=1" "mpiexec.openmpi -n 2" "mpiexec -n 2" "orterun -np 2" "mpirun.missing -np 2" \
    "srun -n 2" "" "  mpirun	-np 2 "; do
    for allow in "" "1 1" "1 0" "0 1" "1 "; do
        read -r a c <<<"$allow"
        mpi_launcher=$cmd
        want=$(PATH="$root/bin:$PATH" OMPI_ALLOW_RUN_AS_ROOT=$a OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=$c check_mpi_root)
        got=$(PATH="$root/bin:$PATH" OMPI_ALLOW_RUN_AS_ROOT=$a OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=$c "$writer" launcher root-refusal "$cmd")
        root_cases=$((root_cases + 1))
        [ -z "$want" ] || refused=$((refused + 1))
        [ "$want" = "$got" ] || { root_fails=$((root_fails + 1)); diag "root-refusal '$cmd' [$allow]: expected [$want], got [$got]"; }
    done
done
if [ "$(id -u)" != 0 ]; then
    skip "root-refusal answers as the driver's shell did" "not root: the shell asks nothing then"
else
    is "$root_fails $([ "$refused" -gt 3 ] && [ "$refused" -lt "$root_cases" ] && echo mixed)" "0 mixed" \
        "root-refusal refuses ($refused of $root_cases) exactly where the driver's shell did"
fi
is "$fails" 0 "clomp-write launcher answers as the driver's shell did in all $cases cases of the grid"
least=300
! full_lane || least=800
[ "$cases" -gt "$least" ]
ok $? "the grid asked more than $least questions ($cases)"

"$writer" launcher layout "srun -n 2" 2 8 "no plan line" >/dev/null 2>"$root/err"
is "$? $(cat "$root/err")" "2 clomp-write: launcher: not a plan line: no plan line" "a plan line without its two '|' is refused, exit 2"
"$writer" launcher frobnicate x >/dev/null 2>&1
is "$?" 2 "an unknown launcher question is a usage error, exit 2"
done_testing
