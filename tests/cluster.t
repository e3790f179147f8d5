#!/usr/bin/env bash
# A cluster, not a node (issue 50), on an emulated 4-node Slurm cluster
# (tests/lib/emu_cluster.sh: one slurmd per node, each in its own UTS
# namespace - host names n1..n4 - pinned to one CPU, ports found free),
# started and stopped here; `make cluster-check` and the full lane run it.
# clomp_mpi across the nodes under `srun -N4 -n4 --mpi=pmix_v4`, under
# `mpirun -H n1,n2,n3,n4` (Open MPI's rsh launcher through
# tests/lib/emu-node-shell, the emulated cluster's ssh) and under mpirun
# inside an allocation: every rank on its own node and CPU, 1.2's MPI Dist
# lines with the Min/Max ranks' hosts on clomp's appended lines, every rank's
# checksums equal to the oracle's and to CLOMP 1.2's MPI build (when its
# source is at ../shared/reference/clomp-1.2 or CLOMP12_SOURCE). Faults: a
# node set DOWN mid-run (the job cancelled for the node failure, the node
# DOWN with its reason, the others idle), a rank's process killed (srun -K
# ends the step at once; without -K --mpi-timeout bounds it), a hung rank
# (SIGSTOP) bounded by --mpi-timeout, a busy loop pinned on a node's CPU
# reported busy by that rank's own noise census and named busy, not an
# outlier, by the cluster report (which reads mpi.per_rank). At the end no
# daemon, step or task of the cluster is left. On a 2-CPU machine two
# emulated nodes share each CPU: mechanics and correctness, never timing.
# Skips with the reason when not root or without slurm-wlm, munge, Open MPI
# or UTS namespaces.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source-path=SCRIPTDIR source=lib/emu_cluster.sh
. "$(dirname "$0")/lib/emu_cluster.sh"
# shellcheck source-path=SCRIPTDIR source=lib/rank_checksums.sh
. "$(dirname "$0")/lib/rank_checksums.sh"

skip_all_unless_full_lane "the emulated 4-node Slurm cluster"
why=$(emu_missing)
[ -z "$why" ] || { printf '1..0 # SKIP the emulated cluster: %s\n' "$why"; exit 0; }
if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
    printf '1..0 # SKIP no mpicc/mpirun (apt-get install openmpi-bin libopenmpi-dev)\n'
    exit 0
fi
[ -z "${CLOMP_SANITIZED:-}" ] ||
    { printf "1..0 # SKIP Open MPI's own allocations are not LeakSanitizer-clean; make check-all runs this test\n"; exit 0; }

export OMP_WAIT_POLICY=passive
# As in tests/mpi.t: containers often forbid process_vm_readv (Open MPI's shared memory).
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
ORACLE=$build/tests/clomp_oracle
STATS=${CLOMP_STATS:-$build/clomp-stats}
if [ ! -x "$ORACLE" ] || [ ! -x "$STATS" ]; then
    echo "Bail out! no oracle or clomp-stats in $build (make unit-tests clomp-stats)"
    exit 255
fi
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
busy_pid=''
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
    [ -z "$busy_pid" ] || kill "$busy_pid" 2>/dev/null
    emu_stop
    rm -rf "$tmp"
}
trap cleanup EXIT

# clomp_mpi in its own build tree with the tree's compiler, one build at a time (as tests/mpi.t).
tree_cc=$(sed -n 's/^CC=//p' "$build/compiler-flags" 2>/dev/null)
export OMPI_CC=${OMPI_CC:-${tree_cc:-${CC:-gcc}}}
mkdir -p "$build"
if ! flock "$build/mpi-build.lock" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top" --no-print-directory MPI=1 \
    BUILD="$build/mpi" clomp_mpi >"$tmp/build.log" 2>&1; then
    echo "Bail out! make MPI=1 failed: $(tail -5 "$tmp/build.log")"
    exit 255
fi
MPI_BIN=$top/clomp_mpi
# CLOMP 1.2's MPI build, the yardstick of the checksums (never copied: built from its source where it is).
clomp12=${CLOMP12_SOURCE:-$top/../shared/reference/clomp-1.2/clomp.c}
C12_BIN=''
if [ -f "$clomp12" ] && mpicc -O3 -fopenmp -DWITH_MPI -o "$tmp/clomp12_mpi" "$clomp12" -lm >"$tmp/c12.log" 2>&1; then
    C12_BIN=$tmp/clomp12_mpi
fi

started=$(now)
emu_start 4 || { echo "Bail out! the emulated cluster did not start"; exit 255; }
note "emulated cluster of 4 nodes up in $(awk -v a="$started" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s (SLURM_CONF=$SLURM_CONF)"
is "$(sinfo -h -N -o '%N %T' | sort | tr '\n' ' ')" "n1 idle n2 idle n3 idle n4 idle " "4 emulated nodes, n1 to n4, all idle"
is "$(timeout 60 srun -N4 -n4 hostname | sort | tr '\n' ' ')" "n1 n2 n3 n4 " "srun -N4 -n4 runs one task on each, under its own host name"
mapfile -t cpus < <(python3 -c 'import os; print("\n".join(str(c) for c in sorted(os.sched_getaffinity(0))))')
node_cpu() { taskset -pc "$(emu_node_pid "$1")" | sed 's/.*: //'; }
want_cpus='' got_cpus=''
for i in 1 2 3 4; do
    want_cpus+="${cpus[$(((i - 1) % ${#cpus[@]}))]} "
    got_cpus+="$(node_cpu "n$i") "
done
is "$got_cpus" "$want_cpus" "each node is pinned to one CPU, round robin over this machine's (${#cpus[@]})"

args=(1 1 64 100 32 1 1)
want=$("$ORACLE" "${args[@]}" | sed -n 's/^Checksum: //p')

# mpi_checks NAME OUT JSON: what every run across the 4 nodes must show.
mpi_checks() {
    local name=$1 out=$2 json=$3 r bad
    like "$(cat "$out")" "^        MPI Tasks: 4$" "$name: 4 MPI tasks"
    bad=''
    for r in 0 1 2 3; do
        grep -Eq "^ +MPI rank $r: host n$((r + 1)), CPUs $(node_cpu "n$((r + 1))") \(1\)$" "$out" || bad+=" $r"
    done
    is "$bad" "" "$name: rank r runs on node n(r+1), on that node's CPU alone (the set-up's rank lines)"
    is "$(python3 -c 'import json,sys; print(" ".join(r["host"] for r in json.load(open(sys.argv[1]))["mpi"]["per_rank"]))' "$json")" \
        "n1 n2 n3 n4" "$name: the JSON's mpi.per_rank names each rank's host"
    # 1.2's MPI Dist line just above Runtime in every block; clomp's Hosts line naming those ranks' hosts.
    bad=$(awk '/ MPI Dist: Min -?[0-9.]+ \(Rank [0-9]+\) Max -?[0-9.]+ \(Rank [0-9]+\) Avg -?[0-9.]+$/ {
                   d = $0; sub(/ MPI Dist:.*/, "", d); dist[d] = NR; min[d] = $0; sub(/.*Min [^(]*\(Rank /, "", min[d]); sub(/\).*/, "", min[d])
                   max[d] = $0; sub(/.*Max [^(]*\(Rank /, "", max[d]); sub(/\).*/, "", max[d]); n++; next }
               / Runtime: / { r = $0; sub(/  Runtime:.*/, "", r); if (dist[r] != NR - 1) print "no Dist line above " r; next }
               / MPI Hosts: / { h = $0; sub(/ MPI Hosts:.*/, "", h)
                   want = " MPI Hosts: Min n" (min[h] + 1) " \\(Rank " min[h] "\\) Max n" (max[h] + 1) " \\(Rank " max[h] "\\)$"
                   if ($0 !~ want) print "bad hosts line: " $0; hosts++ }
               END { if (n < 8 || hosts != n) print n " Dist lines, " hosts " Hosts lines" }' "$out")
    is "$bad" "" "$name: every block has 1.2's MPI Dist line above its Runtime and a Hosts line naming the Min and Max ranks' nodes"
    bad=$(rank_checksums "$json" | awk -v w="$want" '{ line = $3 " " $4 " " $5 } line != w')
    is "$bad" "" "$name: every rank's checksum of every verified measurement equals the oracle's ($want)"
}

# ---- srun across the nodes -------------------------------------------------------------
timeout 300 srun -N4 -n4 --mpi=pmix_v4 "$MPI_BIN" "${args[@]}" --json="$tmp/srun.json" >"$tmp/srun.out" 2>"$tmp/srun.err"
is "$?" 0 "srun -N4 -n4 --mpi=pmix_v4 clomp_mpi ${args[*]} passes"
mpi_checks "srun" "$tmp/srun.out" "$tmp/srun.json"
if [ -n "$C12_BIN" ]; then
    for input in "${args[*]}" "1 -1 16 400 32 1 2"; do
        # shellcheck disable=SC2086  # the input's words
        timeout 300 srun -N4 -n4 --mpi=pmix_v4 "$C12_BIN" $input >"$tmp/c12.out" 2>&1
        # shellcheck disable=SC2086
        [ "$input" = "${args[*]}" ] || timeout 300 srun -N4 -n4 --mpi=pmix_v4 "$MPI_BIN" $input >"$tmp/srun.out" 2>&1
        theirs=$(grep ' Checksum: ' "$tmp/c12.out")
        ours=$(grep ' Checksum: ' "$tmp/srun.out")
        ok "$([ "$(wc -l <<<"$theirs")" -ge 4 ] && [ "$theirs" = "$ours" ]; echo $?)" \
            "$input across 4 nodes: CLOMP 1.2's MPI build's Checksum lines equal clomp_mpi's ($(wc -l <<<"$theirs") lines)"
    done
else
    skip "CLOMP 1.2's MPI build's checksums across the nodes" "no CLOMP 1.2 source at $clomp12 (CLOMP12_SOURCE)"
fi

# ---- mpirun with a host list, and inside an allocation -----------------------------------
# --bind-to none: each rank keeps its node's CPU (Open MPI would bind within the whole machine it sees).
timeout 300 mpirun --allow-run-as-root --bind-to none --mca plm_rsh_agent "$top/tests/lib/emu-node-shell" \
    -H n1,n2,n3,n4 -np 4 "$MPI_BIN" "${args[@]}" --json="$tmp/mpirun.json" >"$tmp/mpirun.out" 2>"$tmp/mpirun.err"
is "$?" 0 "mpirun -H n1,n2,n3,n4 (the emulated cluster's remote shell) runs clomp_mpi across the nodes"
mpi_checks "mpirun -H" "$tmp/mpirun.out" "$tmp/mpirun.json"
timeout 300 salloc -N4 -n4 mpirun --allow-run-as-root --bind-to none "$MPI_BIN" "${args[@]}" --json="$tmp/salloc.json" \
    >"$tmp/salloc.out" 2>"$tmp/salloc.err"
is "$?" 0 "mpirun inside a 4-node allocation (salloc -N4: Open MPI starts its daemons with srun) passes"
mpi_checks "salloc mpirun" "$tmp/salloc.out" "$tmp/salloc.json"

# ---- the cluster report reads mpi.per_rank --------------------------------------------
CLOMP_STATS=$STATS python3 "$top/results/clomp-results" cluster --format json --mpi "$tmp/srun.json" >"$tmp/ranks.json"
is "$?" 0 "clomp-results cluster --mpi reads the srun run's record"
is "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["counts"]["nodes"], " ".join(n["node"] for n in d["nodes"]))' "$tmp/ranks.json")" \
    "4 n1 (rank 0) n2 (rank 1) n3 (rank 2) n4 (rank 3)" "its report names every node by host and rank"
verdicts=$(python3 - "$tmp/ranks.json" "$tmp/srun.json" <<'PY'
import json, sys
rep, rec = (json.load(open(p)) for p in sys.argv[1:3])
busy = {"%s (rank %d)" % (r["host"], r["rank"]): r["noise_busy"] for r in rec["mpi"]["per_rank"]}
bad = [n["node"] for n in rep["nodes"] if (n["verdict"] == "busy") != (busy[n["node"]] is True)]
print("; ".join(bad) or "ok %d busy" % sum(1 for v in busy.values() if v))
PY
)
like "$verdicts" "^ok [0-4] busy$" "a rank is named busy exactly when its own noise census said so ($verdicts)"

# ---- faults ------------------------------------------------------------------------------
# rank_pid NODE: the pid of clomp_mpi on NODE (found by the node's namespace).
rank_pid() {
    local p
    for p in $(emu_node_processes "$1"); do
        [ "$(cat "/proc/$p/comm" 2>/dev/null)" = clomp_mpi ] && echo "$p"
    done
}
wait_rank() {  # wait_rank NODE: waits (up to 60 s) until clomp_mpi runs there; prints its pid
    local p=''
    for _ in $(seq 300); do
        p=$(rank_pid "$1" | head -n 1)
        [ -n "$p" ] && break
        sleep 0.2
    done
    sleep 1   # past its start-up: measuring
    echo "$p"
}
wait_suite_run() {  # wait_suite_run NODE [PID]: waits (up to 120 s) until a key run of a suite (not PID) runs there; prints its pid
    local p
    for _ in $(seq 1200); do
        # A run of the plan writes its record (--json=..._key.runN.json); the calibration and the driver's
        # checks run clomp too. pgrep --ns: fast enough to catch a run of under a second on a loaded machine.
        p=$(pgrep --ns "$(emu_node_pid "$1")" --nslist uts -f -- '^[^ ]*/clomp .*--json=[^ ]*_key\.run[0-9]+\.json' |
            grep -vx -- "${2:-none}" | head -n 1)
        [ -n "$p" ] && { echo "$p"; return 0; }
        sleep 0.1
    done
    return 1
}
stop_suite_run() {  # stop_suite_run NODE: stops a key run of the suite on NODE (SIGSTOP: a hung run); prints its pid
    local p='' _
    for _ in $(seq 20); do
        p=$(wait_suite_run "$1" "$p") || return 1
        kill -STOP "$p" 2>/dev/null
        sleep 0.2
        # Stopped, or it ended before the signal came (a run of the quick suite lasts under a second): the next.
        [ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" = T ] && { echo "$p"; return 0; }
    done
    return 1
}
long=(1 1 64 100 32 1 40)
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# A node set DOWN mid-run: slurmctld cancels the job for the node failure.
timeout 200 srun -N4 -n4 --mpi=pmix_v4 "$MPI_BIN" "${long[@]}" >"$tmp/down.out" 2>"$tmp/down.err" &
job_pid=$!
[ -n "$(wait_rank n3)" ]
ok $? "a 4-node run is measuring on n3"
t0=$(now)
scontrol update NodeName=n3 State=DOWN Reason="lost in test"
wait "$job_pid"
rc=$?
took=$(seconds_since "$t0")
ok "$([ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; echo $?)" "the node set DOWN with scontrol ends the run with a failure ($rc) in $took s"
like "$(cat "$tmp/down.err")" "CANCELLED AT .* DUE TO NODE FAILURE" "srun says the step was cancelled for the node's failure"
is "$(sinfo -h -N -n n3 -o '%T|%E')" "down|lost in test" "n3 is DOWN with the reason given"
emu_wait_idle 30 3 || true
is "$(sinfo -h -N -o '%N %T' | sort | tr '\n' ' ')" "n1 idle n2 idle n3 down n4 idle " "the other nodes are intact: idle"
is "$(for n in n1 n2 n3 n4; do rank_pid "$n"; done)" "" "no rank of the cancelled run is left on any node"
scontrol update NodeName=n3 State=RESUME
emu_wait_idle 30
ok $? "n3 returns to service after scontrol update State=RESUME"

# fault NAME NODE SIGNAL SRUN_OPTIONS... -- CLOMP_OPTIONS...: a 4-node run of the long input, its rank on NODE
# sent SIGNAL once measuring; sets rc (srun's exit status), took (seconds from the signal to the end)
# and victim (the rank's pid); srun's stderr in $tmp/NAME.err.
fault() {
    local name=$1 node=$2 signal=$3 opts=() job_pid t0
    shift 3
    while [ "$1" != -- ]; do opts+=("$1"); shift; done
    shift
    timeout 200 srun "${opts[@]}" -N4 -n4 --mpi=pmix_v4 "$MPI_BIN" "${long[@]}" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
    job_pid=$!
    victim=$(wait_rank "$node")
    t0=$(now)
    kill "-$signal" "$victim" 2>/dev/null
    wait "$job_pid"
    rc=$?
    took=$(seconds_since "$t0")
}
within() { awk -v t="$took" -v limit="$1" 'BEGIN { exit !(t < limit) }'; }

# A rank's process killed (the node's step lost): srun -K ends the step at once ...
fault kill n3 KILL -K --
ok "$([ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && within 30; echo $?)" \
    "rank 2's process killed on n3 under srun -K (--kill-on-bad-exit): the run fails ($rc) in $took s"
like "$(cat "$tmp/kill.err")" "srun: error: n3: task 2: Killed" "srun names the node and task that was lost"
# ... and without -K, the other ranks give up after --mpi-timeout.
fault kill2 n3 KILL -- --mpi-timeout=3
ok "$([ "$rc" = 3 ] && within 60; echo $?)" "without -K the other ranks end the run after --mpi-timeout=3: exit 3 in $took s"
like "$(cat "$tmp/kill2.err")" "waited [0-9]+ s for the other ranks at .*: a rank died or stopped responding" "one of them says why"

# A hung node: its rank stopped (SIGSTOP); --mpi-timeout bounds the wait.
fault hang n2 STOP -- --mpi-timeout=3
ok "$([ "$rc" = 3 ] && within 60; echo $?)" \
    "rank 1 stopped on n2 (a hung node): the others give up after --mpi-timeout=3, exit 3 in $took s"
kill -0 "$victim" 2>/dev/null
ok $((!$?)) "and the stopped rank is gone with its step"
emu_wait_idle 30
ok $? "every node is idle again after the faults"

# A busy loop pinned on n2's CPU: n2's rank's own noise census says busy, and the report names it busy.
taskset -c "$(node_cpu n2)" sh -c 'while :; do :; done' &
busy_pid=$!
timeout 300 srun -N2 -n2 -w n1,n2 --mpi=pmix_v4 "$MPI_BIN" "${args[@]}" --json="$tmp/busy.json" >"$tmp/busy.out" 2>&1
rc=$?
kill "$busy_pid"
wait "$busy_pid" 2>/dev/null
busy_pid=''
is "$rc" 0 "a 2-node run (n1, n2) with a busy loop pinned on n2's CPU passes"
census=$(python3 - "$tmp/busy.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["noise_census"]["busy_threshold"]
r = next(r for r in d["mpi"]["per_rank"] if r["host"] == "n2")
lost = r["noise_lost_fraction"]
ok = r["noise_busy"] is True and isinstance(lost, float) and lost >= t and "lost" in (r["noise_busy_reason"] or "")
print("ok" if ok else "n2: busy %r, lost %r, threshold %r, reason %r" % (r["noise_busy"], lost, t, r["noise_busy_reason"]))
PY
)
is "$census" ok "n2's rank: its own census lost at least busy_threshold of its probe, busy true with the reason"
like "$(cat "$tmp/busy.out")" "^   MPI ranks busy: [12] of 2 \(each rank's own noise census\): .*rank 1 on n2 \(lost [0-9]+%\)" \
    "the set-up's MPI ranks busy line names rank 1 on n2"
CLOMP_STATS=$STATS python3 "$top/results/clomp-results" cluster --mpi "$tmp/busy.json" >"$tmp/busy.txt"
like "$(cat "$tmp/busy.txt")" "^Busy: n2 \(rank 1\) \(group 1\): the noise census's probe: .*left out of its group" \
    "the cluster report names n2 busy, with its census's reason"
ok "$(grep -q '^Outlier: n2 ' "$tmp/busy.txt"; echo $((!$?)))" "and not as an outlier"

# ---- the suite on every node of an allocation (run_clomp.sh --nodes) ---------------------
suite_args=(--quick --no-constructs --no-offload "$CLOMP")
cluster=$tmp/nodes/CLOMP-cluster_1
# node_records NODE: the checksums of the records of every run NODE's suite has recorded (what --resume
# must leave alone).
node_records() {
    local r
    (cd "$cluster/nodes/$1" && while read -r r; do sha256sum "CLOMP_$1_1_"*".run$r.json"; done <"CLOMP_$1_1.done")
}
# done_runs NODE: how many runs NODE's suite has recorded.
done_runs() { local n; n=$(grep -c . "$cluster/nodes/$1/CLOMP_$1_1.done" 2>/dev/null); echo "${n:-0}"; }
# report_nodes JSON: "node verdict" of every node of a cluster report, in order.
report_nodes() { python3 -c 'import json,sys; print(" ".join("%s %s" % (n["node"], n["verdict"]) for n in json.load(open(sys.argv[1]))["nodes"]))' "$1"; }
# busy_oracle NODE: "busy" when a process of the node's target input (the first key run's inputs)
# had its own noise census say busy, else "not busy": read from the node's records, not the report.
busy_oracle() {
    python3 - "$cluster/nodes/$1" "$1" <<'PY'
import glob, json, os, re, sys
d, node = sys.argv[1:3]
# The records only: a run's Caliper profile (.run<N>.cali.json) lies beside each.
runs = [p for p in glob.glob(os.path.join(d, "CLOMP_%s_1_key.run*.json" % node)) if re.search(r"\.run[0-9]+\.json$", p)]
runs.sort(key=lambda p: int(re.search(r"\.run([0-9]+)\.json$", p).group(1)))
docs = [json.load(open(p)) for p in runs]
target = [x for x in docs if x["inputs"] == docs[0]["inputs"]]
print("busy" if any((x.get("noise_census") or {}).get("busy") is True for x in target) else "not busy")
PY
}

# A node lost mid-run: its step's processes killed once it has recorded 2 runs.
timeout 400 salloc -N4 "$top/run_clomp.sh" --nodes all --out "$tmp/nodes" "${suite_args[@]}" >"$tmp/nodes.out" 2>&1 &
job_pid=$!
for _ in $(seq 600); do [ "$(done_runs n3)" -ge 2 ] && break; sleep 0.2; done
lost_after=$(done_runs n3)
for p in $(emu_node_processes n3); do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = slurmstepd ] || kill -KILL "$p" 2>/dev/null
done
wait "$job_pid"
rc=$?
is "$rc" 1 "salloc -N4 run_clomp.sh --nodes all --quick with n3's step killed after $lost_after runs: exit 1 (a node failed)"
like "$(cat "$tmp/nodes.out")" "Cluster FAILED on 1 of 4 nodes \(n3\): run_clomp.sh --nodes all --out .* --resume 1" \
    "its last line names n3 and the command that resumes the cluster"
is "$(report_nodes "$cluster/cluster.json" | sed 's/ \(busy\|within\|not judged\)/ ok/g')" "n1 ok n2 ok n3 failed n4 ok" \
    "the cluster report names every node: n3 failed, n1, n2 and n4 judged or busy"
like "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["failure"])' "$cluster/summaries/n3.json")" \
    "^node lost mid-run: its step ended with exit status [0-9]+: srun: error: n3: task 0: .*incomplete after [0-9]+ of 10 runs$" \
    "n3's summary is FAILED with the reason: srun's line for its lost task, and how far its suite got"
bad=''
for n in n1 n2 n4; do grep -q '^---- complete ' "$cluster/nodes/$n/CLOMP_${n}_1.env" || bad+=" $n"; done
is "$bad" "" "the other nodes' suites are intact and complete, each in its own folder"
before=$(for n in n1 n2 n4; do node_records "$n"; done)
n3_before=$(node_records n3)
# --resume: only n3 runs, and only what it misses.
timeout 400 salloc -N4 "$top/run_clomp.sh" --nodes all --out "$tmp/nodes" --resume 1 >"$tmp/resume.out" 2>&1
is "$?" 0 "run_clomp.sh --nodes all --resume 1 completes the cluster: exit 0"
like "$(cat "$tmp/resume.out")" "n1: complete, not run again" "the complete nodes are not run again"
is "$(for n in n1 n2 n4; do node_records "$n"; done)" "$before" "n1, n2 and n4's records are untouched"
is "$(node_records n3 | head -n "$(grep -c . <<<"$n3_before")")" "$n3_before" \
    "n3's $(grep -c . <<<"$n3_before") runs recorded before it was lost are kept, not run again"
is "$(done_runs n3) $(grep -c '^---- complete ' "$cluster/nodes/n3/CLOMP_n3_1.env")" "10 1" "and n3's suite is complete: 10 runs"
is "$(report_nodes "$cluster/cluster.json" | sed 's/ \(busy\|within\|not judged\)/ ok/g')" "n1 ok n2 ok n3 ok n4 ok" \
    "the cluster report names every node, none failed"
bad=''
for n in n1 n2 n3 n4; do
    want=$(busy_oracle "$n")
    [ "$(grep -c "^Busy: $n " "$cluster/cluster.txt")" = "$([ "$want" = busy ] && echo 1 || echo 0)" ] || bad+=" $n ($want)"
done
is "$bad" "" "a node is named busy exactly when its own target-input records' noise census said so"
"$top/clomp_validate" "$tmp/nodes/CLOMP-cluster_1.tar.gz" >"$tmp/validate.out" 2>&1
rc=$?
ok "$([ "$rc" = 0 ] || [ "$rc" = 3 ]; echo $?)" "clomp_validate accepts the cluster bundle (exit $rc: valid; quick runs are not submission-grade)"
is "$(grep -c '^  n[1-4]: nodes/n[1-4]/CLOMP_n[1-4]_1.tar.gz: VALID' "$tmp/validate.out") $(head -n 1 "$tmp/validate.out" | grep -o 'cluster bundle of 4 nodes (0 failed)')" \
    "4 cluster bundle of 4 nodes (0 failed)" "and checks every node's own bundle in it, one line each"
(cd "$tmp" && "$top/clomp_compare" --out "$tmp/buyers" "$tmp/nodes/CLOMP-cluster_1.tar.gz" >"$tmp/buyers.out" 2>&1)
is "$?" 0 "the buyer's table reads the cluster bundle"
is "$(python3 -c 'import json,sys; print(" ".join(sorted(s["label"] for s in json.load(open(sys.argv[1]))["submissions"])))' "$tmp/buyers/buyers_table.json" 2>&1)" \
    "CLOMP-cluster_1:n1 CLOMP-cluster_1:n2 CLOMP-cluster_1:n3 CLOMP-cluster_1:n4" "as one submission per node, labelled with the node"

# A 2-node screening through slurm/clomp-nodes.sbatch with two faults: n1 hangs (a run stopped), bounded by
# --run-timeout; n2 has a busy loop pinned on its CPU.
taskset -c "$(node_cpu n2)" sh -c 'while :; do :; done' &
busy_pid=$!
cluster=$tmp/nodes2/CLOMP-cluster_1
t0=$(now)
(cd "$tmp" && timeout 400 sbatch -W -N2 -w n1,n2 -o "$tmp/sbatch.out" "$top/slurm/clomp-nodes.sbatch" \
    --out "$tmp/nodes2" --run-timeout 10 "${suite_args[@]}" >/dev/null 2>&1) &
job_pid=$!
victim=$(stop_suite_run n1)
note "stopped run $(sed 's/.*_key\.run\([0-9]*\)\.json.*/\1/' "/proc/$victim/cmdline" 2>/dev/null | tr -d '\0') of n1 (pid ${victim:-none found})"
wait "$job_pid"
rc=$?
took=$(seconds_since "$t0")
kill "$busy_pid"
wait "$busy_pid" 2>/dev/null
busy_pid=''
is "$rc" 1 "sbatch -N2 slurm/clomp-nodes.sbatch with a run stopped on n1: the job fails (exit 1) in $took s, not hung"
like "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["failure"])' "$cluster/summaries/n1.json")" \
    "^1 of 10 runs FAILED; first: run [0-9]+ \(key, exit status [0-9]+\): no result after 10 s: ended by --run-timeout 10$" \
    "n1 is FAILED: its stopped run ended by --run-timeout 10" ||
    diag "n1's suite: $(grep '^----' "$cluster/nodes/n1/CLOMP_n1_1.env"; cat "$cluster/nodes/n1/CLOMP_n1_1.runs.csv" "$cluster/steps/n1.log")"
ok "$(kill -0 "$victim" 2>/dev/null; echo $((!$?)))" "and the stopped process is gone"
is "$(busy_oracle n2)" busy "n2's own noise census said busy (its target input's records)"
like "$(cat "$cluster/cluster.txt")" "(^|
)Busy: n2 \(group [0-9]+\): [0-9] of 3 processes of the target input: the noise census's probe: .*left out of its group" \
    "the cluster report names n2 busy, with its census's reason"
ok "$(grep -q '^Outlier: n2 ' "$cluster/cluster.txt"; echo $((!$?)))" "and not as an outlier"
like "$(cat "$tmp/sbatch.out")" "CLOMP cluster .*: Slurm job [0-9]+, nodes n1,n2" "the batch job ran run_clomp.sh --nodes all on its 2 nodes"

# ---- nothing left behind ---------------------------------------------------------------
conf_dir=$emu_dir
emu_stop
is "$(emu_daemons_left)" "" "after the test no munged, slurmctld or slurmd it started is running"
is "$(emu_processes_in | tr '\n' ' ')" "" "no process is left in any emulated node (no slurmstepd, no task)"
is "$(pgrep -f -- "$conf_dir" | tr '\n' ' ')" "" "no process refers to the cluster's directory"
ok "$([ ! -e "$conf_dir" ]; echo $?)" "which is removed"
done_testing
