# shellcheck shell=bash
# A stand-in node for clomp's topology (numa/job_cores.c reads it where
# CLOMP_TOPOLOGY_ROOT names it): the sysfs and proc files the kernel gives,
# for a node that is not this one.
#
# make_standin_node ROOT SOCKETS CORES_PER_SOCKET THREADS_PER_CORE NODES L3_PER_NODE [LOAD]
#
# CPUs numbered as Linux numbers them on x86: the first hardware thread of
# every core first (CPU c is core c, on socket c / CORES_PER_SOCKET), then
# each further hardware thread of them (CPU c + k x cores is core c's k-th
# sibling). NUMA nodes split the cores evenly in order (several per socket,
# or several sockets per node), and L3 domains split each node's cores. The
# process may use every CPU (proc/self/status), its cgroup is the root one
# with no cpuset or quota (proc/self/cgroup "0::/"), and its load average
# is LOAD (default 0.00: an idle node).
make_standin_node() {
    local root=$1 sockets=$2 per=$3 tpc=$4 nodes=$5 l3=$6 load=${7:-0.00}
    local cores=$((sockets * per)) cpus c core dir node first list
    local per_node=$((cores / nodes)) per_l3
    per_l3=$((per_node / l3))
    cpus=$((cores * tpc))
    local -a dirs=()
    for ((c = 0; c < cpus; c++)); do
        dirs+=("$root/sys/devices/system/cpu/cpu$c/topology" "$root/sys/devices/system/cpu/cpu$c/cache/index3")
    done
    for ((node = 0; node < nodes; node++)); do dirs+=("$root/sys/devices/system/node/node$node"); done
    mkdir -p "${dirs[@]}" "$root/proc/self" "$root/sys/fs/cgroup" || return 1
    # siblings FIRST LAST: the CPUs of cores FIRST..LAST, every hardware thread, as a sysfs list.
    siblings() {
        local s='' j
        for ((j = 0; j < tpc; j++)); do
            if [ "$1" = "$2" ]; then s+=",$(($1 + j * cores))"; else s+=",$(($1 + j * cores))-$(($2 + j * cores))"; fi
        done
        echo "${s#,}"
    }
    echo "0-$((cpus - 1))" >"$root/sys/devices/system/cpu/online"
    for ((c = 0; c < cpus; c++)); do
        core=$((c % cores))
        dir=$root/sys/devices/system/cpu/cpu$c
        siblings "$core" "$core" >"$dir/topology/thread_siblings_list"
        echo "$core" >"$dir/topology/core_id"
        echo $((core / per)) >"$dir/topology/physical_package_id"
        echo 3 >"$dir/cache/index3/level"
        echo Unified >"$dir/cache/index3/type"
        first=$((core / per_l3 * per_l3))
        siblings "$first" $((first + per_l3 - 1)) >"$dir/cache/index3/shared_cpu_list"
    done
    for ((node = 0; node < nodes; node++)); do
        list=$(siblings $((node * per_node)) $(((node + 1) * per_node - 1)))
        echo "$list" >"$root/sys/devices/system/node/node$node/cpulist"
    done
    printf 'Name:\tclomp\nCpus_allowed_list:\t0-%d\n' $((cpus - 1)) >"$root/proc/self/status"
    echo "0::/" >"$root/proc/self/cgroup"
    echo "$load $load $load 1/100 1" >"$root/proc/loadavg"
}
