#!/usr/bin/env bash
# Cores counted as the job sees them (issue 47, item 3; numa/job_cores.c):
# clomp --topology on stand-in nodes (tests/lib/standin_node.sh, read through
# CLOMP_TOPOLOGY_ROOT) whose answers are worked out here from how each
# stand-in was built: a 128-core, 8-domain, SMT-2 node whole, a cpuset made of
# SMT siblings, a cgroup cpu.max quota (v2, an ancestor's, and v1's), Slurm's
# CPUs counted in hardware threads or in cores (the job's mask, scontrol, or
# neither), and --cores N. On this machine, the count agrees with lscpu and
# (where installed) hwloc's lstopo. Then what follows from the count: a team
# more than 64 threads per hardware thread refused in a line (exit 2) unless
# --oversubscribe, smaller oversubscribed teams run and marked, SMT named as
# SMT, and Nested OMP's default shape from the job's domains, the same
# whatever the threads' binding. No timing; quick lane.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source-path=SCRIPTDIR source=lib/standin_node.sh
. "$(dirname "$0")/lib/standin_node.sh"

export OMP_WAIT_POLICY=passive
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT
unset SLURM_JOB_ID SLURM_CPUS_ON_NODE SLURMD_NODENAME CLOMP_TOPOLOGY_ROOT

# field ROOT NAME [CLOMP OPTIONS...]: NAME's value in clomp --topology on the stand-in ROOT.
field() {
    local root=$1 name=$2
    shift 2
    CLOMP_TOPOLOGY_ROOT=$root "$CLOMP" --topology "$@" 2>&1 | sed -n "s/^$name: //p"
}
# set_mask ROOT LIST: the process's affinity mask (proc/self/status) on the stand-in.
set_mask() { printf 'Name:\tclomp\nCpus_allowed_list:\t%s\n' "$2" >"$1/proc/self/status"; }

# ---- a whole 128-core node: 2 sockets x 64 cores, SMT-2, 8 NUMA nodes, 2 L3 domains each ----
node=$tmp/n128
make_standin_node "$node" 2 64 2 8 2 || { echo "Bail out! cannot make the stand-in node"; exit 255; }
is "$(field "$node" cores) $(field "$node" 'hardware threads')" "128 256" \
    "a 128-core SMT-2 node: 128 cores (2 x 64), 256 hardware threads"
is "$(field "$node" 'threads per core')" "2 (SMT)" "its hardware threads are named SMT"
is "$(field "$node" sockets) $(field "$node" 'numa nodes') $(field "$node" 'l3 domains')" "2 8 16" \
    "its domains: 2 sockets, 8 NUMA nodes, 16 L3 domains"
like "$(field "$node" 'nested default')" "^8x16 at 128 threads \(default: one outer thread per NUMA node" \
    "Nested OMP's default at 128 threads: one outer thread per NUMA node, 8 x 16"

# ---- cpusets ---------------------------------------------------------------------------
set_mask "$node" 0,128
is "$(field "$node" cores) $(field "$node" 'hardware threads') $(field "$node" 'threads per core')" "1 2 2 (SMT)" \
    "a mask of two SMT siblings (CPUs 0 and 128) is 1 core of 2 hardware threads, not 2 cores"
set_mask "$node" 0-3,128-131
is "$(field "$node" cores) $(field "$node" 'hardware threads')" "4 8" "CPUs 0-3 and their siblings 128-131: 4 cores, 8 hardware threads"
set_mask "$node" 0-255
mkdir -p "$node/sys/fs/cgroup/job"
echo "0::/job" >"$node/proc/self/cgroup"
echo "0-1,128-129" >"$node/sys/fs/cgroup/job/cpuset.cpus.effective"
is "$(field "$node" cores) $(field "$node" 'hardware threads')" "2 4" \
    "the cgroup's cpuset (0-1 and their siblings) narrows an unrestricted mask: 2 cores, 4 hardware threads"
like "$(field "$node" 'counted from')" "affinity mask and cgroup cpuset \(of 256 online\)" "and the count says where it came from"
rm "$node/sys/fs/cgroup/job/cpuset.cpus.effective"

# ---- CPU quotas ------------------------------------------------------------------------
echo "250000 100000" >"$node/sys/fs/cgroup/job/cpu.max"
is "$(field "$node" cores) $(field "$node" 'hardware threads')" "2 3" \
    "cpu.max of 2.5 CPUs on the whole node: 2 cores (whole cores the quota keeps busy), 3 hardware threads"
is "$(field "$node" 'cpu quota')" "2.5 CPUs (cgroup cpu.max)" "and the quota is stated"
mkdir -p "$node/sys/fs/cgroup/job/step"
echo "0::/job/step" >"$node/proc/self/cgroup"
echo "max 100000" >"$node/sys/fs/cgroup/job/step/cpu.max"
is "$(field "$node" cores)" 2 "a child cgroup without a quota keeps its parent's (2.5 CPUs: 2 cores)"
echo "800000 100000" >"$node/sys/fs/cgroup/job/step/cpu.max"
is "$(field "$node" cores)" 2 "the smallest quota on the way up wins (8 CPUs below 2.5)"
rm -r "$node/sys/fs/cgroup/job"
mkdir -p "$node/sys/fs/cgroup/cpu,cpuacct/slurm/job1"
printf '0::/\n4:cpu,cpuacct:/slurm/job1\n' >"$node/proc/self/cgroup"
echo 400000 >"$node/sys/fs/cgroup/cpu,cpuacct/slurm/job1/cpu.cfs_quota_us"
echo 100000 >"$node/sys/fs/cgroup/cpu,cpuacct/slurm/job1/cpu.cfs_period_us"
is "$(field "$node" cores)" 4 "a cgroup v1 quota (cfs_quota_us 400000 / cfs_period_us 100000) of 4 CPUs: 4 cores"
echo "0::/" >"$node/proc/self/cgroup"

# ---- Slurm's CPUs, in the unit Slurm counts them --------------------------------------------
bin=$tmp/bin
mkdir -p "$bin"
# A stand-in scontrol describing this node as CPUS (CPUs per node) with 2 threads per core.
fake_scontrol() {
    printf '#!/bin/sh\necho "NodeName=n1 Arch=x86_64 CoresPerSocket=64 CPUAlloc=0 CPUTot=%s CPULoad=0.00 Sockets=2 Boards=1 ThreadsPerCore=2 State=IDLE"\n' "$1" >"$bin/scontrol"
    chmod +x "$bin/scontrol"
}
slurm_field() {  # slurm_field CPUS_ON_NODE NAME: with the job's variables
    SLURM_JOB_ID=7 SLURM_CPUS_ON_NODE=$1 SLURMD_NODENAME=n1 PATH="$bin:$PATH" field "$node" "$2"
}
set_mask "$node" 0-7,128-135
is "$(slurm_field 16 cores)" 8 "a job confined to 8 cores' 16 hardware threads, SLURM_CPUS_ON_NODE=16: Slurm counts hardware threads, 8 cores"
like "$(slurm_field 16 slurm)" "^16 CPUs on this node, counted in hardware threads \(as many as the job's CPU mask holds\): 8 cores" \
    "and says which unit and why"
is "$(slurm_field 8 cores)" 8 "the same job with SLURM_CPUS_ON_NODE=8: Slurm counts cores (the mask has 8), 8 cores, not 8 / 2"
set_mask "$node" 0-255
fake_scontrol 256
is "$(slurm_field 16 cores)" 8 "an unconfined job (the whole node's mask), 16 CPUs, scontrol: CPUTot=256 with 2 threads per core: hardware threads, 8 cores"
fake_scontrol 128
is "$(slurm_field 16 cores)" 16 "the same where scontrol says CPUTot=128 (Sockets x CoresPerSocket: CPUs are cores): 16 cores"
like "$(slurm_field 16 slurm)" "counted in cores \(scontrol: CPUTot=128 = Sockets x CoresPerSocket\)" "naming scontrol's description"
rm "$bin/scontrol"
is "$(SLURM_JOB_ID=7 SLURM_CPUS_ON_NODE=16 PATH="$bin:/usr/bin:/bin" field "$node" cores)" 8 \
    "without scontrol, hardware threads are assumed (Slurm's default): 8 cores"
like "$(SLURM_JOB_ID=7 SLURM_CPUS_ON_NODE=16 PATH="$bin:/usr/bin:/bin" field "$node" slurm)" "hardware threads, assumed" "and said to be assumed"
is "$(SLURM_CPUS_ON_NODE=16 field "$node" cores)" 128 "SLURM_CPUS_ON_NODE outside a job (no SLURM_JOB_ID) is not read"

# ---- --cores N -----------------------------------------------------------------------------
is "$(field "$node" cores --cores=5)" 5 "--cores=5 gives the count"
like "$(field "$node" 'counted from' --cores=5)" "; --cores 5 given: 5$" "and says it was given"
CLOMP_TOPOLOGY_ROOT=$node "$CLOMP" --topology --cores=0 >/dev/null 2>"$tmp/err"
is "$? $(cat "$tmp/err")" "2 clomp: --cores: '0' must be 1..1048576" "--cores=0 is refused in a line, exit 2"

# ---- this machine: as lscpu and hwloc count it ----------------------------------------------
real=$("$CLOMP" --topology | sed -n 's/^cores: //p')
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
online=$(cat /sys/devices/system/cpu/online 2>/dev/null)
if [ "$allowed" = "$online" ] && [ -z "${SLURM_JOB_ID:-}" ] && ! grep -qsv '^max' /sys/fs/cgroup/cpu.max; then
    is "$real" "$(lscpu -p=CORE,SOCKET | grep -v '^#' | sort -u | wc -l)" "on this machine clomp counts the cores lscpu counts ($real)"
    if command -v lstopo-no-graphics >/dev/null 2>&1; then
        is "$real" "$(lstopo-no-graphics --only core 2>/dev/null | grep -c .)" "and hwloc's lstopo counts as many"
    else
        skip "and hwloc's lstopo counts as many" "hwloc not installed"
    fi
else
    skip "on this machine clomp counts the cores lscpu counts" "the process may not use every CPU (mask, cgroup or Slurm)"
    skip "and hwloc's lstopo counts as many" "the process may not use every CPU"
fi
OMP_PROC_BIND=close OMP_PLACES=cores "$CLOMP" --topology >"$tmp/bound"
is "$(sed -n 's/^cores: //p' "$tmp/bound")" "$real" \
    "with OMP_PROC_BIND=close (libgomp binds the initial thread to one place as it loads) the count is the same"

# ---- an absurd team is refused; an oversubscribed one runs, marked ----------------------------
two=$tmp/two
make_standin_node "$two" 1 2 1 1 1 || exit 255
started=$(now)
CLOMP_TOPOLOGY_ROOT=$two "$CLOMP" --nested=64x64 -1 1 64 100 32 1 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
elapsed=$(awk -v a="$started" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
is "$rc" 2 "--nested=64x64 on 2 CPUs (4,096 threads, 2,048 per hardware thread) is refused with exit 2"
is "$(wc -l <"$tmp/err") $(wc -c <"$tmp/out")" "1 0" "in one line, nothing on standard output"
like "$(cat "$tmp/err")" "^clomp: --nested=64x64: 4096 threads on the 2 hardware threads of this job \(2048 per hardware thread, above 64\): refused as a mistake; --oversubscribe runs it anyway$" \
    "naming the shape, the threads, the hardware threads and --oversubscribe"
ok "$(awk -v e="$elapsed" 'BEGIN { exit !(e < 1) }'; echo $?)" "within a second ($elapsed s)"
if [ "$("$CLOMP" --topology | sed -n 's/^hardware threads: //p')" -lt 64 ]; then
    "$CLOMP" --nested=64x64 -1 1 64 100 32 1 1 >/dev/null 2>&1
    is "$?" 2 "on this machine too"
else
    skip "on this machine too" "it has 64 hardware threads or more"
fi
CLOMP_TOPOLOGY_ROOT=$two "$CLOMP" 200 1 200 1 32 1 1 >/dev/null 2>"$tmp/err"
like "$? $(cat "$tmp/err")" "^2 clomp: numThreads 200: 200 threads on the 2 hardware threads of this job \(100 per hardware thread" \
    "numThreads 200 on 2 CPUs is refused the same way"
CLOMP_TOPOLOGY_ROOT=$two run_clomp --nested=64x64 --oversubscribe --dry-run 2 1 64 100 32 1 1
is "$rc" 0 "--oversubscribe lets it through (a dry run)"
like "$out" "^   Oversubscribed: 4096 threads on 2 hardware threads \(2 cores\): they time-share them \(--oversubscribe\)$" \
    "and the set-up lines mark it oversubscribed"
CLOMP_TOPOLOGY_ROOT=$two run_clomp --dry-run --json="$tmp/d64.json" 64 1 64 100 32 1 1
is "$rc" 0 "64 threads on 2 CPUs (tests/scale.t's) stay allowed"
like "$out" "^   Oversubscribed: 64 threads on 2 hardware threads \(2 cores\): they time-share them$" "marked oversubscribed"
is "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["resolved"]["job_cores"]; print(j["team"], j["team_threads"], j["cores"], j["hardware_threads"])' "$tmp/d64.json" 2>&1)" \
    "oversubscribed 64 2 2" "the JSON records the team against the job's cores"
CLOMP_TOPOLOGY_ROOT=$two run_clomp --dry-run --nested=8x8 64 1 64 100 32 1 1
is "$rc" 0 "and so does 8x8 (64 threads)"
CLOMP_TOPOLOGY_ROOT=$two run_clomp --dry-run --nested=2x4 4 1 8 100 32 1 1
is "$rc" 0 "and so does the suite's 2x4 construct run"
like "$out" "^   Oversubscribed: 8 threads on 2 hardware threads" "marked oversubscribed"

# ---- SMT named as SMT --------------------------------------------------------------------------
smt=$tmp/smt
make_standin_node "$smt" 1 1 2 1 1 || exit 255
CLOMP_TOPOLOGY_ROOT=$smt run_clomp --schedules=serial 2 1 2 10 32 1 1
like "$out" "WARNING: the team of 2 threads is larger than the 1 core of this job: with SMT \(up to 2 hardware threads per core\)" \
    "2 threads on 1 core of 2 hardware threads: the warning names SMT, not time-sharing"
like "$out" "^       SMT shared: 2 threads on 1 core: SMT" "and the set-up lines say SMT shared"
[[ $out != *"time-share"* ]]
ok $? "nothing says the threads time-share"

# ---- Nested OMP's default shape from the job's domains -----------------------------------------
shape() {  # shape ROOT THREADS: the dry run's Nested OMP shape line, without its label
    CLOMP_TOPOLOGY_ROOT=$1 "$CLOMP" --dry-run "$2" 1 "$2" 10 32 1 1 2>&1 | sed -n 's/^ Nested OMP shape: //p'
}
like "$(shape "$node" 128)" "^8x16 \(OUTERxINNER requested; default: one outer thread per NUMA node of this job's CPUs \(8\), 16 inner each\)" \
    "128 threads on the 128-core node nest 8 x 16 (one outer thread per NUMA node)"
like "$(shape "$node" 12)" "^2x6 \(.*per socket" "12 threads: 8 NUMA nodes do not divide them, 2 sockets do: 2 x 6"
l3=$tmp/l3
make_standin_node "$l3" 1 16 1 1 4 || exit 255
like "$(shape "$l3" 16)" "^4x4 \(.*per L3 domain of this job's CPUs \(4\)" "one socket, one node, four L3 domains: 16 threads nest 4 x 4"
like "$(shape "$l3" 6)" "^2x3 \(OUTERxINNER requested; default: two halves, as this job's CPUs are on 1 NUMA node, 1 socket and 4 L3 domains\)" \
    "where no domain divides the team: two halves, saying why"
is "$(OMP_PROC_BIND=close OMP_PLACES=cores shape "$node" 64)" "$(OMP_PROC_BIND=false shape "$node" 64)" \
    "the default is the same bound or not (it follows the topology, not where threads happen to run)"

done_testing
