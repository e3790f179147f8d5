# shellcheck shell=bash
# What the tests' private Slurm clusters share (tests/lib/slurm.sh's single
# node, tests/lib/emu_cluster.sh's emulated nodes): sourced by both.
#
#   free_ports N          N TCP ports nobody listens on, on any address (each bound once by the kernel's
#                         choice, then released)
#   pids_alive PID...     the pids given that still run
#   tail_logs DIR         the last 15 lines of each DIR/*.log, on stderr (why a daemon did not come up)
#   wait_job_gone ID SECS waits until Slurm job ID has left the queue (SLURM_CONF's); 1 on time-out

free_ports() {
    python3 - "$1" <<'PY'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
PY
}

pids_alive() {
    local pid
    for pid in "$@"; do
        if kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
    done
}

tail_logs() {
    local f
    for f in "$1"/*.log; do
        [ -f "$f" ] || continue
        echo "--- $f" >&2
        tail -n 15 "$f" >&2
    done
}

wait_job_gone() {
    local id=$1 limit=$2 t=0
    while [ -n "$(squeue -h -j "$id" -o %i 2>/dev/null)" ]; do
        t=$((t + 1))
        [ "$t" -le $((limit * 5)) ] || return 1
        sleep 0.2
    done
}
