# shellcheck shell=bash
# A private single-node Slurm cluster for tests/slurm.t: munged, slurmctld and
# slurmd with a generated slurm.conf, their state, logs, sockets and pid files
# all under one temporary directory, on ports found free. Source it after
# tests/lib/tap.sh:
#
#   slurm_missing          prints why Slurm cannot run here (not root, a package missing), else nothing
#   slurm_start            starts the three daemons in a new temporary directory (slurm_dir) and
#                          waits until the node is idle; exports SLURM_CONF; returns 1 (with the
#                          logs' tails on stderr) when it does not come up
#   slurm_stop             stops exactly the daemons slurm_start started (their pids, TERM then KILL)
#                          and removes its directory; safe to call twice. Call it from the test's EXIT trap:
#                          slurm_start makes INT and TERM exit, so it runs on an interrupt too
#   slurm_daemons_left     prints the pids of the daemons started here that still run (none: empty)
#   slurm_wait_job ID SECS waits until job ID has left the queue; returns 1 on time-out
#
# Why not the system's slurm: a test must not depend on, or disturb, a cluster
# configured on the machine, and must leave nothing behind.

# shellcheck source-path=SCRIPTDIR source=daemons.sh
. "$(dirname "${BASH_SOURCE[0]}")/daemons.sh"

slurm_dir='' slurm_pids=()

slurm_missing() {
    local tool
    [ "$(id -u)" = 0 ] || { echo "needs root (slurmd runs jobs as their users)"; return; }
    for tool in munged slurmctld slurmd sbatch srun scancel squeue sinfo; do
        command -v "$tool" >/dev/null 2>&1 || { echo "no $tool (apt-get install slurm-wlm munge)"; return; }
    done
    command -v python3 >/dev/null 2>&1 || echo "no python3 (finds free ports)"
}

slurm_pid_of() {  # slurm_pid_of NAME: the pid in DIR/run/NAME.pid, if it is there
    [ -s "$slurm_dir/run/$1.pid" ] && tr -dc '0-9' <"$slurm_dir/run/$1.pid"
}

slurm_start() {
    local host ctl_port node_port cpus name pid
    # munged wants every directory above its socket searchable by all: a
    # directory of its own in /tmp, not one inside the test's private one.
    slurm_dir=$(mktemp -d "${TMPDIR:-/tmp}/clomp-slurm.XXXXXX") || return 1
    trap 'exit 130' INT
    trap 'exit 143' TERM
    mkdir -p "$slurm_dir"/{state,spool,log,run,munge} && chmod 755 "$slurm_dir" "$slurm_dir/run" || return 1
    host=$(hostname -s)
    read -r ctl_port node_port < <(free_ports 2)
    cpus=$(nproc --all)
    head -c 1024 /dev/urandom >"$slurm_dir/munge/munge.key" && chmod 400 "$slurm_dir/munge/munge.key"
    munged --key-file="$slurm_dir/munge/munge.key" --socket="$slurm_dir/run/munge.sock" \
        --pid-file="$slurm_dir/run/munged.pid" --log-file="$slurm_dir/log/munged.log" \
        --seed-file="$slurm_dir/munge/seed" || return 1
    slurm_note_pid munged
    cat >"$slurm_dir/slurm.conf" <<CONF
ClusterName=clomptest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$slurm_dir/run/munge.sock
CredType=cred/munge
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool
SlurmctldPidFile=$slurm_dir/run/slurmctld.pid
SlurmdPidFile=$slurm_dir/run/slurmd.pid
SlurmctldLogFile=$slurm_dir/log/slurmctld.log
SlurmdLogFile=$slurm_dir/log/slurmd.log
SlurmctldPort=$ctl_port
SlurmdPort=$node_port
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
MpiDefault=none
ReturnToService=2
KillWait=5
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=clomp Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
    export SLURM_CONF=$slurm_dir/slurm.conf
    # The test's own environment must not look like an allocation.
    unset SLURM_JOB_ID SLURM_JOBID SLURM_CPUS_ON_NODE SLURM_JOB_NODELIST SLURM_NODELIST
    slurmctld -f "$SLURM_CONF" || { slurm_logs; return 1; }
    slurm_note_pid slurmctld
    slurmd -f "$SLURM_CONF" || { slurm_logs; return 1; }
    slurm_note_pid slurmd
    for _ in $(seq 100); do
        if sinfo -h -o %T 2>/dev/null | grep -qx idle; then return 0; fi
        sleep 0.2
    done
    echo "slurm did not come up in 20 s" >&2
    slurm_logs
    return 1
}

# Daemons write their pid files a moment after they fork: wait for it.
slurm_note_pid() {
    local pid=''
    for _ in $(seq 50); do
        pid=$(slurm_pid_of "$1") && [ -n "$pid" ] && break
        sleep 0.1
    done
    [ -n "$pid" ] && slurm_pids+=("$pid")
}

slurm_logs() {
    tail_logs "$slurm_dir/log"
}

slurm_daemons_left() {
    pids_alive ${slurm_pids[@]+"${slurm_pids[@]}"}
}

slurm_stop() {
    local pid name left
    [ -n "$slurm_dir" ] || return 0
    # Jobs first (their steps are children of slurmd's slurmstepd), then the daemons.
    if [ -n "${SLURM_CONF:-}" ] && [ -n "$(slurm_daemons_left)" ]; then
        scancel --full --quiet -u root 2>/dev/null || true
    fi
    for name in slurmd slurmctld munged; do
        pid=$(slurm_pid_of "$name") && [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null
    done
    for pid in ${slurm_pids[@]+"${slurm_pids[@]}"}; do kill -TERM "$pid" 2>/dev/null; done
    for _ in $(seq 50); do
        left=$(slurm_daemons_left)
        [ -n "$left" ] || break
        sleep 0.1
    done
    for pid in $(slurm_daemons_left); do kill -KILL "$pid" 2>/dev/null; done
    # slurmstepd of a job killed with its daemons: its pids are under spool.
    slurm_kill_steps
    rm -rf "$slurm_dir"
    slurm_dir=''
}

# Job step daemons left by a job still running when slurmd stopped: found by
# their command line naming our spool directory's cluster, never by name alone.
slurm_kill_steps() {
    local pid
    for pid in $(pgrep -x slurmstepd 2>/dev/null); do
        if grep -qF "$slurm_dir" "/proc/$pid/environ" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null; fi
    done
}

slurm_wait_job() {  # slurm_wait_job ID SECONDS
    wait_job_gone "$1" "$2"
}
