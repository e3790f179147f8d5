#!/usr/bin/env bash
# A big node in emulation (issue 47, item 7): clomp and the suite inside a
# QEMU guest (TCG: correctness, not timing) with 32 vCPUs in 2 sockets of 8
# cores, SMT-2, and 4 NUMA nodes of 8 CPUs (tests/numa-vm/boot-guest.sh, with
# the host's bash, coreutils and lscpu in the initramfs).
#
# Every expectation comes from the guest's own topology as lscpu reports it
# (lscpu -p=CPU,CORE,SOCKET,NODE, read here): the cores are its distinct
# (core, socket) pairs, the hardware threads its CPUs, and so on. Checked:
#   clomp --topology: cores, hardware threads, SMT, sockets, NUMA nodes, and
#     the nested default (one outer thread per NUMA node); two SMT siblings
#     (numactl --physcpubind) count as 1 core;
#   placement, a thread per core (OMP_PLACES=cores): each thread on a core of
#     its own, on the node lscpu gives its CPU, pages local, no warning;
#   SMT, a thread per hardware thread (OMP_PLACES=threads): the SMT line and
#     warning, and every thread sharing a core;
#   Nested OMP from the topology (spread,close): 4 x 4, each inner team on
#     one NUMA node, the four teams on four nodes;
#   the suite: a dry run plans MAX_THREADS = the cores, every run a part per
#     thread; and a tiny suite (timeScale 1, MAX_THREADS 2, 4 runs) completes
#     with every run OK, its records counting the guest's cores.
# Full lane only (make check-all, make bignode-vm-check): 3 min 6 s on this
# 2-core machine at load 14-17 (2026-11-29). Skips with a reason when qemu, busybox or
# the guest kernel is unavailable.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
skip_all_unless_full_lane "the emulated 32-vCPU guest boots and runs for minutes"

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
export NUMA_VM_CACHE=${NUMA_VM_CACHE:-$build/numa-vm}

skip_all() {
    skip "clomp and the suite on an emulated 32-vCPU, 2-socket, 4-node, SMT-2 guest" "$1"
    done_testing
}
[ -z "${CLOMP_SANITIZED:-}" ] || skip_all "sanitized build (make asan): the plain build's make check-all boots the guest"
command -v qemu-system-x86_64 >/dev/null 2>&1 || skip_all "qemu-system-x86_64 not installed (apt-get install qemu-system-x86)"
command -v busybox >/dev/null 2>&1 || skip_all "busybox not installed (apt-get install busybox-static)"
command -v numactl >/dev/null 2>&1 || skip_all "numactl not installed (apt-get install numactl)"
command -v python3 >/dev/null 2>&1 || skip_all "python3 reads the guest's JSON records here"
for helper in "${CLOMP_WRITE:-$build/clomp-write}" "${CLOMP_STATS:-$build/clomp-stats}"; do
    [ -x "$helper" ] || skip_all "$helper is not built (make clomp-write clomp-stats)"
done

work=$(mktemp -d) || exit 255
trap 'rm -rf "$work"' EXIT
mkdir -p "$NUMA_VM_CACHE"

# The guest's script (busybox sh; bash for the suite). Small inputs: under
# TCG every barrier of 16 threads costs milliseconds, so the placement runs
# have 2 iterations (64 parts of 10000 zones) and one timed chunk.
cat >"$work/script" <<'EOF'
hostname bignode
export OMP_WAIT_POLICY=passive
small="64 10000 32 1 1 --trials=1 --noise-census=off"
run_case lscpu lscpu -p=CPU,CORE,SOCKET,NODE
run_case topology clomp --topology
siblings=$(lscpu -p=CPU,CORE,SOCKET | awk -F, '!/^#/ && $2 == 0 && $3 == 0 { printf "%s%s", n++ ? "," : "", $1 }')
run_case siblings numactl --physcpubind="$siblings" clomp --topology
run_case placement env OMP_PLACES=cores OMP_PROC_BIND=close clomp --schedules=static --json=/tmp/p.json 16 -1 $small
run_case placement_json cat /tmp/p.json
run_case smt env OMP_PLACES=threads OMP_PROC_BIND=close clomp --schedules=static 32 -1 $small
run_case nested env OMP_PLACES=cores OMP_PROC_BIND=spread,close clomp --schedules=nested --json=/tmp/n.json 16 -1 $small
run_case nested_json cat /tmp/n.json
cd /clomp || exit 1
export CLOMP_WRITE=/bin/clomp-write CLOMP_STATS=/bin/clomp-stats
tiny="--calibrate=off --quick --max-zone-scale 1 --replicates 1 --no-constructs --out /tmp/s"
run_case plan bash ./run_clomp.sh --dry-run $tiny /bin/clomp
run_case suite bash ./run_clomp.sh $tiny /bin/clomp 2
run_case suite_env cat /tmp/s/CLOMP_bignode_1.env
run_case suite_runs cat /tmp/s/CLOMP_bignode_1.runs.csv
run_case suite_key_json cat /tmp/s/CLOMP_bignode_1_key.run1.json
EOF

out=$NUMA_VM_CACHE/guest-bignode.txt
started=$(now)
"$top/tests/numa-vm/boot-guest.sh" --nodes 4 --cpus-per-node 8 --sockets 2 --threads-per-core 2 --mem-per-node 256 \
    --tools --tree "$top" --program "$CLOMP" --program "${CLOMP_WRITE:-$build/clomp-write}" \
    --program "${CLOMP_STATS:-$build/clomp-stats}" --script "$work/script" --out "$out" \
    --log "$NUMA_VM_CACHE/console-bignode.log" 2>"$work/boot-err"
status=$?
note "32-vCPU guest: status $status, $(awk -v a="$started" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s (load $(cut -d' ' -f1 /proc/loadavg))"
[ "$status" -ne 77 ] || skip_all "$(tail -n 1 "$work/boot-err")"
is "$status" 0 "the 32-vCPU guest boots, runs every case and reports back" ||
    diag "$(cat "$work/boot-err")" "$(tail -n 20 "$NUMA_VM_CACHE/console-bignode.log" 2>/dev/null)"

case_output() {  # case_output NAME: its framed output
    awk -v name="$1" '$0 == "@@@ begin " name { on = 1; next } $0 ~ "^@@@ end " name " rc=" { on = 0 } on' "$out"
}
case_status() { sed -n "s/^@@@ end $1 rc=\\([0-9]*\\)\$/\\1/p" "$out"; }
field() { sed -n "s/^$2: //p" <<<"$1"; }

# ---- the oracle: the guest's topology as lscpu reports it ------------------------------------
cpus_csv=$(case_output lscpu | grep -v '^#')
hw=$(grep -c . <<<"$cpus_csv")
cores=$(cut -d, -f2,3 <<<"$cpus_csv" | sort -u | grep -c .)
sockets=$(cut -d, -f3 <<<"$cpus_csv" | sort -u | grep -c .)
nodes=$(cut -d, -f4 <<<"$cpus_csv" | sort -u | grep -c .)
is "$hw $cores $sockets $nodes" "32 16 2 4" "lscpu in the guest: 32 CPUs, 16 cores, 2 sockets, 4 NUMA nodes (the shape asked of QEMU)"

topology=$(case_output topology)
is "$(field "$topology" cores) $(field "$topology" 'hardware threads')" "$cores $hw" \
    "clomp --topology counts lscpu's $cores cores and $hw hardware threads"
is "$(field "$topology" 'threads per core')" "$((hw / cores)) (SMT)" "and names the SMT"
is "$(field "$topology" sockets) $(field "$topology" 'numa nodes')" "$sockets $nodes" "its sockets and NUMA nodes are lscpu's"
like "$(field "$topology" 'nested default')" "^${nodes}x$((cores / nodes)) at $cores threads \(default: one outer thread per NUMA node" \
    "the nested default at $cores threads is one outer thread per NUMA node: ${nodes}x$((cores / nodes))"
siblings=$(case_output siblings)
is "$(field "$siblings" cores) $(field "$siblings" 'hardware threads')" "1 2" \
    "two SMT siblings of one core (numactl --physcpubind) count as 1 core of 2 hardware threads"

# ---- placement: a thread per core ------------------------------------------------------------
text=$(case_output placement)
is "$(case_status placement)" 0 "16 threads bound to cores run and verify"
[[ $text != *"share a core"* && $text != *"larger than the"* && $text != *"not bound to a core"* ]]
ok $? "a thread per core: no placement warning"
verdict=$(case_output placement_json | python3 -c '
import json, sys
cpus = dict((int(r.split(",")[0]), r.split(",")) for r in sys.argv[1].split())
d = json.load(sys.stdin)
team = d["numa"]["thread_placement"]["threads"]
keys = [(int(cpus[t["cpu"]][2]), int(cpus[t["cpu"]][1])) for t in team]
nodes_ok = all(t["node"] == int(cpus[t["cpu"]][3]) for t in team)
loc = d["numa"]["locality"]
print(len(team), len(set(keys)), nodes_ok, d["resolved"]["job_cores"]["cores"], loc["measured"] and loc["local_percent"] >= 98)' "$cpus_csv" 2>&1)
is "$verdict" "16 16 True 16 True" \
    "each of the 16 threads on a core of its own (lscpu's core, socket of its CPU), on its CPU's node, pages local; the record counts 16 cores"

# ---- SMT: a thread per hardware thread -----------------------------------------------------------
text=$(case_output smt)
is "$(case_status smt)" 0 "32 threads on the 32 hardware threads run and verify"
like "$text" "^       SMT shared: 32 threads on 16 cores: SMT" "the set-up lines say SMT shared, not oversubscribed"
like "$text" "WARNING: the team of 32 threads is larger than the 16 cores of this job: with SMT" "the warning names SMT"
like "$text" "WARNING: 32 of 32 threads share a core with another thread of the team" "and every thread shares its core"
[[ $text != *"time-share"* ]]
ok $? "nothing says the threads time-share"

# ---- Nested OMP from the topology --------------------------------------------------------------
text=$(case_output nested)
is "$(case_status nested)" 0 "Nested OMP at 16 threads runs and verifies"
like "$text" "Nested OMP shape: 4x4 \(OUTERxINNER requested; default: one outer thread per NUMA node of this job's CPUs \(4\), 4 inner each\)" \
    "its default shape is 4 x 4, one outer thread per NUMA node"
verdict=$(case_output nested_json | python3 -c '
import json, sys
node = dict((int(r.split(",")[0]), int(r.split(",")[3])) for r in sys.argv[1].split())
m = [m for m in json.load(sys.stdin)["measurements"] if m["key"] == "nested"][0]["nested_teams"]
team_nodes = [sorted({node[c] for c in team}) for team in m["cpus"]]
print(m["outer"], len(m["cpus"]), all(len(n) == 1 for n in team_nodes), len({n[0] for n in team_nodes}))' "$cpus_csv" 2>&1)
is "$verdict" "4 4 True 4" "with spread,close each inner team runs on one NUMA node (lscpu's), the four teams on four nodes"

# ---- the suite ---------------------------------------------------------------------------------
plan=$(case_output plan)
is "$(case_status plan)" 0 "the suite's dry run in the guest (bash, coreutils, no python3)"
like "$plan" "^Cores: $cores \(the $hw CPUs of this process's affinity mask are $cores cores with up to 2 hardware threads each \(SMT\)\)" \
    "it counts the guest's $cores cores"
like "$plan" "^Plan: [0-9]+ runs of /bin/clomp \(max threads $cores, timeScale 1\)" "and plans MAX_THREADS $cores"
bad=$(grep '^\[' <<<"$plan" | sed 's/  ~.*//' | awk '{ t = $(NF - 6); p = $(NF - 4); if (p < t || p % t) print }')
is "$bad" "" "every planned run has a part per thread, a multiple of its threads"
is "$(case_status suite)" 0 "a tiny suite (timeScale 1, MAX_THREADS 2) runs to its end in the guest"
like "$(case_output suite)" "^Suite complete: 4 runs\. " "all 4 runs"
is "$(case_output suite_runs | awk -F, 'NR > 1 && $4 != "OK"' | grep -c .)" 0 "and every run is OK (.runs.csv)"
like "$(case_output suite_env)" "^cores: $cores \(" "its .env records the $cores cores"
is "$(case_output suite_key_json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["resolved"]["job_cores"]["cores"], d["resolved"]["job_cores"]["threads_per_core"], d["inputs"]["numParts"] % d["resolved"]["numThreads"])' 2>&1)" \
    "$cores 2 0" "its key run's record counts $cores cores of 2 hardware threads, its parts a multiple of its threads"

done_testing
