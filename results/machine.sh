#!/usr/bin/env bash
# machine.sh DIR [EXE]: the machine description that goes into a submission
# bundle, one file per source, written into DIR (created; must not exist):
# CPUs and cores, NUMA layout, topology, kernel, frequency governors, and the
# binary's build facts. Taken when the suite starts, so that a bundle made
# later still describes the node the numbers came from.
set -u
dir=${1:?usage: machine.sh DIR [EXE]}
exe=${2-}
mkdir "$dir" || exit 1

# capture FILE CMD...: CMD's output in DIR/FILE, or why there is none.
capture() {
    local file=$1
    shift
    if command -v "$1" >/dev/null 2>&1; then
        "$@" >"$dir/$file" 2>&1 || echo "($* exited $?)" >>"$dir/$file"
    else
        echo "not available: $1 is not installed" >"$dir/$file"
    fi
}

capture lscpu.txt lscpu
# One line per CPU: the validator counts cores (unique core, socket pairs) from it.
capture lscpu-cores.csv lscpu -p=CPU,CORE,SOCKET,NODE
capture numactl-H.txt numactl -H
lstopo=lstopo
! command -v lstopo-no-graphics >/dev/null 2>&1 || lstopo='lstopo-no-graphics'
capture lstopo.txt "$lstopo" --of console
{
    echo "uname -a: $(uname -a)"
    echo "/proc/version: $(cat /proc/version 2>/dev/null || echo 'not available')"
    echo "/proc/cmdline: $(cat /proc/cmdline 2>/dev/null || echo 'not available')"
    echo "cpus allowed: $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status 2>/dev/null)"
    echo "nproc: $(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc 2>/dev/null)"
} >"$dir/kernel.txt"
{
    found=0
    for g in /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor; do
        [ -r "$g" ] || continue
        found=1
        cpu=${g#/sys/devices/system/cpu/}
        echo "${cpu%%/*}: $(cat "$g")"
    done
    [ "$found" = 1 ] || echo "not available (no cpufreq in /sys)"
    echo "numa_balancing: $(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo 'not available')"
    echo "transparent hugepages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo 'not available')"
} >"$dir/governor.txt"
head -n 3 /proc/meminfo >"$dir/meminfo.txt" 2>/dev/null || echo "not available" >"$dir/meminfo.txt"
if [ -n "$exe" ]; then
    "$exe" --version >"$dir/build.txt" 2>&1 || echo "($exe --version exited $?)" >>"$dir/build.txt"
fi
exit 0
