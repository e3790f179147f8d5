# shellcheck shell=bash
# An emulated multi-node Slurm cluster on this one machine, for tests/cluster.t
# (make cluster-check): one slurmctld, and per node one slurmd in a UTS
# namespace of its own (its host name: n1, n2, ...) pinned to one CPU (round
# robin over the CPUs this process may use; TaskPlugin=task/none, so a job's
# tasks inherit the node's CPU), all on 127.0.0.1 with ports found free at
# start; munged, state, spool, logs and pid files under one private directory.
# Slurm's PMIx plugin keeps each step's files under TmpFS, which is per node
# here (TmpFS=DIR/tmp/%n), so the nodes share one file system: the test's
# files, wherever they are, are every node's. Source it after tests/lib/tap.sh:
#
#   emu_missing           prints why the cluster cannot run here (not root, a tool missing), else nothing
#   emu_start N           starts N nodes in a new directory (emu_dir, under EMU_BASE, default the
#                         build directory) and waits until all are idle; exports SLURM_CONF and
#                         EMU_DIR; returns 1 (the logs' tails on stderr) when it does not come up
#   emu_stop              cancels the jobs, stops exactly the daemons emu_start started (their pids,
#                         TERM then KILL) and the job step daemons of this cluster, removes the
#                         directory; safe to call twice. Call it from the test's EXIT trap
#   emu_daemons_left      prints the pids this cluster started that still run (none: empty)
#   emu_node_pid NODE     the pid of NODE's slurmd (its namespaces are the node's)
#   emu_node_processes NODE  the pids of processes in NODE's namespace but slurmd itself
#   emu_processes_in [NS...]  the pids of processes in these UTS namespaces (default: every node's;
#                         empty once emu_stop is done: nothing of the cluster is left running)
#   emu_wait_idle SECS [N] waits until N nodes (default every node) are idle; returns 1 on time-out
#
# tests/lib/emu-node-shell is the "remote shell" that mpirun's rsh launcher
# uses to start its daemons on an emulated node (mpirun --mca plm_rsh_agent).
#
# Written for issue 50 from the proof of concept in ../shared/reference/slurm-cluster
# (not copied): the differences are free ports, a per-node TmpFS instead of a
# mount namespace per node (no folder restriction), and a stop that leaves nothing.

# shellcheck source-path=SCRIPTDIR source=daemons.sh
. "$(dirname "${BASH_SOURCE[0]}")/daemons.sh"

emu_dir='' emu_pids=() emu_nodes=0 emu_ns=()

emu_missing() {
    local tool
    [ "$(id -u)" = 0 ] || { echo "needs root (slurmd, namespaces)"; return; }
    for tool in munged slurmctld slurmd sbatch srun scancel squeue sinfo scontrol; do
        command -v "$tool" >/dev/null 2>&1 || { echo "no $tool (apt-get install slurm-wlm munge)"; return; }
    done
    for tool in unshare nsenter taskset python3; do
        command -v "$tool" >/dev/null 2>&1 || { echo "no $tool"; return; }
    done
    unshare --uts true 2>/dev/null || echo "unshare --uts is refused here (no UTS namespaces)"
}

emu_pid_file() {  # emu_pid_file NAME: the pid in DIR/run/NAME.pid, once it is there
    local pid=''
    for _ in $(seq 50); do
        [ -s "$emu_dir/run/$1.pid" ] && pid=$(tr -dc '0-9' <"$emu_dir/run/$1.pid") && [ -n "$pid" ] && break
        sleep 0.1
    done
    [ -n "$pid" ] && echo "$pid"
}

emu_start() {
    local n=$1 base=${EMU_BASE:-${BUILD_DIR:-$PWD/build}} ports ctl_port i pid cpus
    mkdir -p "$base" || return 1
    # munged wants every directory above its socket searchable by all.
    emu_dir=$(mktemp -d "$base/emu-cluster.XXXXXX") || return 1
    trap 'exit 130' INT
    trap 'exit 143' TERM
    mkdir -p "$emu_dir"/{state,spool,log,run,munge,tmp} && chmod 755 "$emu_dir" "$emu_dir/run" || return 1
    read -r -a ports < <(free_ports $((n + 1)))
    ctl_port=${ports[0]}
    mapfile -t cpus < <(python3 -c 'import os; print("\n".join(str(c) for c in sorted(os.sched_getaffinity(0))))')
    head -c 1024 /dev/urandom >"$emu_dir/munge/munge.key" && chmod 400 "$emu_dir/munge/munge.key"
    munged --key-file="$emu_dir/munge/munge.key" --socket="$emu_dir/run/munge.sock" \
        --pid-file="$emu_dir/run/munged.pid" --log-file="$emu_dir/log/munged.log" \
        --seed-file="$emu_dir/munge/seed" || return 1
    pid=$(emu_pid_file munged) && emu_pids+=("$pid")
    {
        cat <<CONF
ClusterName=clompemu
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$emu_dir/run/munge.sock
CredType=cred/munge
StateSaveLocation=$emu_dir/state
SlurmdSpoolDir=$emu_dir/spool/%n
TmpFS=$emu_dir/tmp/%n
SlurmctldPidFile=$emu_dir/run/slurmctld.pid
SlurmdPidFile=$emu_dir/run/slurmd.%n.pid
SlurmctldLogFile=$emu_dir/log/slurmctld.log
SlurmdLogFile=$emu_dir/log/slurmd.%n.log
SlurmctldPort=$ctl_port
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
ReturnToService=1
KillWait=5
SlurmdTimeout=300
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
CONF
        for i in $(seq 1 "$n"); do
            echo "NodeName=n$i NodeAddr=127.0.0.1 Port=${ports[$i]} CPUs=1 State=UNKNOWN"
        done
        echo "PartitionName=emu Nodes=n[1-$n] Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO"
    } >"$emu_dir/slurm.conf"
    export SLURM_CONF=$emu_dir/slurm.conf EMU_DIR=$emu_dir
    # The test's own environment must not look like an allocation.
    unset SLURM_JOB_ID SLURM_JOBID SLURM_CPUS_ON_NODE SLURM_JOB_NODELIST SLURM_NODELIST
    slurmctld -f "$SLURM_CONF" || { emu_logs; return 1; }
    pid=$(emu_pid_file slurmctld) && emu_pids+=("$pid")
    for i in $(seq 1 "$n"); do
        mkdir -p "$emu_dir/spool/n$i" "$emu_dir/tmp/n$i"
        chmod 1777 "$emu_dir/tmp/n$i"
        # Its own host name; slurmd forks into the background, still in that namespace.
        # shellcheck disable=SC2016  # expanded by that sh, from its arguments
        unshare --uts sh -c 'hostname "$1" && exec taskset -c "$2" slurmd -f "$3"' sh "n$i" \
            "${cpus[$(((i - 1) % ${#cpus[@]}))]}" "$SLURM_CONF" || { emu_logs; return 1; }
        pid=$(emu_pid_file "slurmd.n$i") && emu_pids+=("$pid") && emu_ns+=("$(readlink "/proc/$pid/ns/uts")")
    done
    emu_nodes=$n
    emu_wait_idle 30 && return 0
    echo "the emulated cluster did not come up in 30 s" >&2
    sinfo >&2
    emu_logs
    return 1
}

emu_wait_idle() {  # emu_wait_idle SECONDS [COUNT]: until COUNT nodes (default all) are idle
    local idle want=${2:-$emu_nodes}
    for _ in $(seq $(($1 * 5))); do
        idle=$(sinfo -h -N -o '%N %T' 2>/dev/null | awk '$2 == "idle"' | wc -l)
        [ "$idle" = "$want" ] && return 0
        sleep 0.2
    done
    return 1
}

emu_logs() {
    tail_logs "$emu_dir/log"
}

emu_node_pid() {  # emu_node_pid NODE
    [ -s "$emu_dir/run/slurmd.$1.pid" ] && tr -dc '0-9' <"$emu_dir/run/slurmd.$1.pid"
}

# The processes in NODE's UTS namespace (its job steps: slurmstepd and the
# tasks), slurmd itself left out.
emu_node_processes() {
    local node_pid ns
    node_pid=$(emu_node_pid "$1") || return 0
    ns=$(readlink "/proc/$node_pid/ns/uts" 2>/dev/null) || return 0
    emu_processes_in "$ns" | grep -vx "$node_pid"
}

# The processes in any of the namespaces given (every node's, by default:
# what is left of the cluster once its daemons are gone).
emu_processes_in() {
    local proc pid ns want wants=("$@")
    [ $# -gt 0 ] || wants=(${emu_ns[@]+"${emu_ns[@]}"})
    [ ${#wants[@]} -gt 0 ] || return 0
    for proc in /proc/[0-9]*; do
        pid=${proc#/proc/}
        ns=$(readlink "$proc/ns/uts" 2>/dev/null) || continue
        for want in "${wants[@]}"; do
            if [ "$ns" = "$want" ]; then echo "$pid"; break; fi
        done
    done
}

emu_daemons_left() {
    pids_alive ${emu_pids[@]+"${emu_pids[@]}"}
}

emu_stop() {
    local pid left
    [ -n "$emu_dir" ] || return 0
    if [ -n "$(emu_daemons_left)" ]; then
        scancel --full --quiet -u root 2>/dev/null || true
    fi
    for pid in ${emu_pids[@]+"${emu_pids[@]}"}; do kill -TERM "$pid" 2>/dev/null; done
    for _ in $(seq 50); do
        left=$(emu_daemons_left)
        [ -n "$left" ] || break
        sleep 0.1
    done
    for pid in $(emu_daemons_left); do kill -KILL "$pid" 2>/dev/null; done
    # Whatever still runs on a node (a step whose slurmd is gone, a stopped task) goes with it.
    for pid in $(emu_processes_in); do kill -KILL "$pid" 2>/dev/null; done
    rm -rf "$emu_dir"
    emu_dir=''
}

