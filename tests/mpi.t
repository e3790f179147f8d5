#!/usr/bin/env bash
# clomp_mpi (make MPI=1), under Open MPI's mpirun at 2 ranks (and 3 in the full lane) on this
# one node (oversubscribed, passive waits): CLOMP 1.2's MPI lines and rank
# choice; every rank's checksums equal the plain-array oracle's; a fault on
# one rank fails every rank (exit 1) naming that rank and its host; a rank
# that stops or dies ends the run in bounded time with the text already
# printed kept; clomp_mpi without mpirun is one rank. Builds clomp_mpi and
# clomp_mpi-faults itself; skips without mpicc and mpirun. The quick lane's
# hybrid suite runs the target input once; the full lane's three times.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source-path=SCRIPTDIR source=lib/rank_checksums.sh
. "$(dirname "$0")/lib/rank_checksums.sh"

export OMP_WAIT_POLICY=passive
# Containers often forbid process_vm_readv, which Open MPI's shared-memory
# transport uses for messages above 4 KB: copy through shared memory instead.
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
ORACLE=$build/tests/clomp_oracle

if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
    skip "clomp_mpi under mpirun" "no mpicc/mpirun (apt-get install openmpi-bin libopenmpi-dev)"
    done_testing
fi
if [ -n "${CLOMP_SANITIZED:-}" ]; then
    skip "clomp_mpi under mpirun" "Open MPI's own allocations are not LeakSanitizer-clean; make check runs this test"
    done_testing
fi
if ! command -v python3 >/dev/null 2>&1; then
    skip "clomp_mpi under mpirun" "python3 not installed (reads the JSON)"
    done_testing
fi
if [ ! -x "$ORACLE" ]; then
    echo "Bail out! no oracle at $ORACLE (run make unit-tests)"
    exit 255
fi

tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT

# mpicc over the compiler this tree was built with (make check CC=clang: clang
# and libomp), as build/compiler-flags records it, unless OMPI_CC is set.
tree_cc=$(sed -n 's/^CC=//p' "$build/compiler-flags" 2>/dev/null)
export OMPI_CC=${OMPI_CC:-${tree_cc:-${CC:-gcc}}}
# Its own build tree, whatever make check was given (MPI=1 compiles with mpicc).
# One build at a time: make check runs test files two at a time, and mpi.t, scale.t and
# slurm.t build the same clomp_mpi.
mkdir -p "$build"
if ! flock "$build/mpi-build.lock" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top" --no-print-directory MPI=1 BUILD="$build/mpi" \
    clomp_mpi clomp-faults >"$tmp/build.log" 2>&1; then
    echo "Bail out! make MPI=1 failed: $(tail -5 "$tmp/build.log")"
    exit 255
fi
MPI_BIN=$top/clomp_mpi
MPI_FAULTS=$top/clomp_mpi-faults
ok 0 "make MPI=1 builds clomp_mpi and clomp_mpi-faults with mpicc"
# The compiler (and so the OpenMP runtime) under MPI is the tree's: clomp_mpi's
# build facts name the same compiler as the tree's clomp.
if [ -n "${CLOMP:-}" ] && [ -x "$CLOMP" ]; then
    is "$("$MPI_BIN" --version | sed -n 's/^compiler: \(.*\) (CC=.*/\1/p')" \
        "$("$CLOMP" --version | sed -n 's/^compiler: \(.*\) (CC=.*/\1/p')" \
        "clomp_mpi is compiled by the tree's compiler (OMPI_CC=$OMPI_CC), as ./clomp is"
else
    skip "clomp_mpi is compiled by the tree's compiler" "no CLOMP binary given"
fi

launcher=(mpirun --oversubscribe)
[ "$(id -u)" -ne 0 ] || launcher+=(--allow-run-as-root)
host=$(uname -n)

# run_mpi RANKS ARGS...: sets rc, out, err; bounded by timeout(1) so that a
# hang fails the test (rc 124) instead of blocking it.
rc='' out='' err=''
run_mpi() {
    local ranks=$1
    shift
    timeout 300 "${launcher[@]}" -np "$ranks" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
    rc=$?
    out=$(cat "$tmp/out") err=$(cat "$tmp/err")
}

# Per-rank environment (Open MPI numbers its ranks in OMPI_COMM_WORLD_RANK).
cat >"$tmp/on_rank.sh" <<'EOF'
#!/bin/sh
# on_rank.sh RANK VAR=VALUE... -- COMMAND...: the assignments apply on that rank only.
rank=$1
shift
while [ "$1" != -- ]; do
    [ "${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-0}}" = "$rank" ] && export "${1?}"
    shift
done
shift
exec "$@"
EOF
# Rank 1 is stopped (SIG=STOP) or killed (SIG=KILL) once rank 0's report
# shows Serial Ref starting (WATCH: the file rank 0's stdout goes to).
cat >"$tmp/break_rank1.sh" <<'EOF'
#!/bin/sh
if [ "${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-0}}" != 1 ]; then
    exec "$@"
fi
"$@" &
pid=$!
while ! grep -q "Serial Ref  Started" "$WATCH" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
done
kill -"$SIG" "$pid"
wait "$pid"
EOF
chmod +x "$tmp/on_rank.sh" "$tmp/break_rank1.sh"


args=(1 1 64 100 32 1 1)
want=$("$ORACLE" "${args[@]}" | sed -n 's/^Checksum: //p')
# The quick lane runs 2 ranks; the full lane (make check-all) 3 as well.
rank_counts=(2)
full_lane && rank_counts+=(3)
wide=${rank_counts[-1]}
for ranks in "${rank_counts[@]}"; do
    run_mpi "$ranks" "$MPI_BIN" "${args[@]}" --json="$tmp/run$ranks.json" --caliper-json="$tmp/run$ranks.cali.json"
    is "$rc" 0 "mpirun -np $ranks clomp_mpi ${args[*]} passes"
    like "$out" "^       Invoke MPI: YES \(MPI_THREAD_FUNNELED\)$" "$ranks ranks: 1.2's Invoke MPI line names the thread level"
    like "$out" "^        MPI Tasks: $ranks$" "$ranks ranks: 1.2's MPI Tasks line counts the ranks"
    # A Runtime line whose block has no well-formed MPI Dist line just above it is printed whole.
    # (Signed: Parallel For's runtime is its parallel fors' time less its serial delays', which
    # a rank sharing the cores can see below 0: "Min -0.004 (Rank 1)", 2026-11-26.)
    lone=$(awk '/ MPI Dist: Min -?[0-9.]* \(Rank [0-9]*\) Max -?[0-9.]* \(Rank [0-9]*\) Avg -?[0-9.]*$/ { dist = NR; next }
                /  Runtime: / && dist != NR - 1 { print "line " NR ": " $0 " (line above: " prev ")" }
                { prev = $0 }' <<<"$out")
    is "$lone" "" "$ranks ranks: every measurement block has 1.2's MPI Dist line just above its Runtime line"
    # 1.2's choice: the fastest rank for Serial Ref and Bestcase OMP, the slowest for the others.
    bad=$(awk '/ MPI Dist: /   { name = $0; sub(/ MPI Dist:.*/, "", name); sub(/^ */, "", name)
                                 split($0, f, /\(Rank |\)/); min = f[2]; max = f[4] }
               /  Runtime: /   { want = (name == "Serial Ref" || name == "Bestcase OMP") ? "min used, rank " min : "max used, rank " max
                                 if (index($0, want ")") == 0) print name ": " $0 }' <<<"$out")
    is "$bad" "" "$ranks ranks: each Runtime line uses the rank 1.2 uses (fastest for Serial Ref and Bestcase, slowest for the rest)"
    like "$out" "^CORAL RFP, $ranks MPI X ${args[*]}, " "$ranks ranks: the CORAL RFP line has 1.2's '$ranks MPI X' prefix"
    for r in $(seq 0 $((ranks - 1))); do
        like "$out" "^ +MPI rank $r: host $host, CPUs [0-9]" "$ranks ranks: the set-up names rank $r's host and CPU list"
    done
    checksums=$(rank_checksums "$tmp/run$ranks.json")
    # Serial Ref, Static, Dynamic and Manual OMP: Nested OMP is N/A below 2x2 threads.
    is "$(wc -l <<<"$checksums")" "$((ranks * 4))" "$ranks ranks: the JSON has 4 verified checksums from every rank"
    is "$(grep -vc " $want\$" <<<"$checksums")" 0 "$ranks ranks: every rank's checksum of every schedule equals the oracle's ($want)"
    is "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sorted(set(r["host"] for r in d["mpi"]["per_rank"])), len(d["mpi"]["per_rank"]))' "$tmp/run$ranks.json")" \
        "['$host'] $ranks" "$ranks ranks: the JSON lists every rank with its host"
    is "$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print(p["jobsize"], p["numhosts"], p["hostname"])' "$tmp/run$ranks.cali.json" 2>&1)" \
        "$ranks 1 $(uname -n)" "$ranks ranks: rank 0's Caliper profile says jobsize $ranks (Adiak's MPI ranks) on 1 host"
done
# Oversubscribed ranks are often busy by their own noise census: then they are named busy, not judged.
skip_unless_full_lane "3 ranks: the outlier section judges Serial Ref and Static OMP overhead" &&
    like "$out" "^(Rank medians: Serial Ref [0-9.]+ us/Loop, Static OMP overhead -?[0-9.]+ us/Loop \(3 ranks;|Outliers: not judged: [1-3] of 3 ranks busy)" \
        "3 ranks: the outlier section judges Serial Ref and Static OMP overhead against the ranks' medians, or says how many ranks were busy"
full_lane && run_mpi 2 "$MPI_BIN" "${args[@]}"
like "$out" "^Outliers: not judged with 2 ranks" "2 ranks: no rank is called an outlier against a single other"

# A fault on one rank only: every rank fails, and the message names it.
faults=("1 lost-update Static OMP")
full_lane && faults+=("2 skipped-part Dynamic OMP")
for fault in "${faults[@]}"; do
    read -r rank name schedule <<<"$fault"
    run_mpi "$wide" "$tmp/on_rank.sh" "$rank" CLOMP_FAULT="$name" "CLOMP_FAULT_SCHEDULE=$schedule" -- \
        "$MPI_FAULTS" "${args[@]}" --json="$tmp/fault.json"
    is "$rc" 1 "$name in $schedule on rank $rank of $wide: the run fails with exit 1"
    like "$err" "^clomp: rank $rank \($host\): $schedule failed verification" "the failure names rank $rank, its host and $schedule"
    is "$(grep -c '^clomp: ' <<<"$err")" 1 "the failure is said once, by rank 0"
    ok "$(grep -c '^CORAL RFP' <<<"$out")" "no summary is printed for the failed run"
    is "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["status"], d["exit_status"], "rank '"$rank"' " in d["failure"])' "$tmp/fault.json")" \
        "verification failed 1 True" "rank 0's JSON records the verification failure on rank $rank"
done

# A rank that stops (alive but silent): the others give up at their deadline.
WATCH=$tmp/out SIG=STOP run_mpi 2 -x WATCH -x SIG "$tmp/break_rank1.sh" "$MPI_BIN" 1 1 64 100 32 1 20 \
    --mpi-timeout=2 --json="$tmp/stop.json"
is "$rc" 3 "rank 1 stopped: the run ends with exit 3 (not a hang: timeout(1) would give 124)"
like "$err" "^clomp: rank 0 \($host\): waited [0-9]+ s for the other ranks at .*: a rank died or stopped responding" \
    "rank 0 says it waited for the others and why it gave up"
like "$out" "Serial Ref  Started: " "the report printed before the stop is kept"
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["status"])' "$tmp/stop.json" 2>&1)" "failed" \
    "rank 0 writes its JSON document with status failed"

# A rank that dies: mpirun ends the job; an earlier result file is never
# replaced by a half-written one.
printf '{"earlier": "complete"}\n' >"$tmp/kill.json"
WATCH=$tmp/out SIG=KILL run_mpi "$wide" -x WATCH -x SIG "$tmp/break_rank1.sh" "$MPI_BIN" 1 1 64 100 32 1 20 \
    --mpi-timeout=2 --json="$tmp/kill.json"
ok "$([ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; echo $?)" "rank 1 killed: the run ends with a failure status ($rc), not a hang"
like "$out" "Serial Ref  Started: " "the report printed before the kill is kept"
is "$(cat "$tmp/kill.json")" '{"earlier": "complete"}' "the JSON file of an earlier run is left as it was, not replaced by a partial one"

# The suite, hybrid: every run under the MPI launcher; the files record it.
# 2 ranks x 1 thread: not oversubscribed on 2 cores. The quick lane runs the
# target input once (--replicates 1: 3 runs); the full lane 3 times, its
# between-process summary included (5 runs).
replicates=1
full_lane && replicates=3
suite_out=$tmp/suite
"$top/run_clomp.sh" --quick --max-zone-scale 1 --replicates "$replicates" --no-plots --out "$suite_out" \
    --mpi "${launcher[*]} -np 2" "$MPI_BIN" 1 1 >"$tmp/suite.log" 2>&1
is "$?" 0 "run_clomp.sh --mpi \"mpirun -np 2\" runs a quick suite of clomp_mpi"
env_file=$(find "$suite_out" -maxdepth 1 -name "CLOMP_*.env" | head -n 1)
like "$(cat "$env_file")" "^mpi launcher: ${launcher[*]} -np 2$" "the suite's .env records the MPI launcher"
like "$(cat "$env_file")" "^run 1 \(key\): 2 rank\(s\) x 1 threads: " "and the rank layout of every run"
like "$(cat "${env_file%.env}.html")" "MPI launcher ${launcher[*]} -np 2" "the HTML report names the MPI launcher (not just 'launcher none')"
runs=$(grep -c '^=== run ' "$suite_out"/CLOMP_*.full | awk -F: '{ n += $2 } END { print n }')
tasks=$(cat "$suite_out"/CLOMP_*.full | grep -c '^        MPI Tasks: 2$')
is "$tasks" "$runs" "every one of the $runs runs ran as 2 MPI tasks"
"$top/clomp_validate" "${env_file%.env}.tar.gz" >"$tmp/validate.log" 2>&1
is "$?" 3 "its bundle validates (every rank-0 record present and verified; a quick suite: not submission-grade)"
# 2 ranks x CORES threads on this node: more threads than cores, though each
# rank alone fits. The preflight warns, and the validator counts ranks x threads
# per host from the runs' records (mpi.per_rank; even without the warning).
cores=$(lscpu -p=CORE,SOCKET 2>/dev/null | grep -v '^#' | sort -u | wc -l)
[ "$cores" -ge 1 ] || cores=$(nproc)
over=$tmp/over
"$top/run_clomp.sh" --quick --max-zone-scale 1 --replicates 1 --no-plots --out "$over" --mpi "${launcher[*]} -np 2" \
    "$MPI_BIN" "$cores" 1 >"$tmp/over.log" 2>&1
over_base=$(find "$over" -maxdepth 1 -name "CLOMP_*.env" | head -n 1)
over_base=${over_base%.env}
like "$(cat "$over_base.env")" "^WARNING: 2 MPI ranks x $cores threads per node on $cores cores: oversubscribed" \
    "2 ranks x $cores threads on $cores cores: the preflight warns that ranks x threads oversubscribe the node"
out=$("$top/clomp_validate" "$over_base.tar.gz" 2>&1)
is "$?" 1 "and the validator rejects the bundle"
name=$(basename "$over_base")
mkdir "$tmp/over-unpacked" && tar -xzf "$over_base.tar.gz" -C "$tmp/over-unpacked"
(cd "$tmp/over-unpacked/$name" && sed -i '/^WARNING: .*oversubscribed/d' "$name.env" &&
    find . -type f ! -name MANIFEST | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum >../MANIFEST && mv ../MANIFEST MANIFEST)
out=$("$top/clomp_validate" "$tmp/over-unpacked/$name" 2>&1)
like "$out" "oversubscribed: run 1 placed 2 MPI ranks x $cores threads on host $host" \
    "without the preflight warning too: it counts the ranks on each host times their threads"
plan=$("$top/run_clomp.sh" --dry-run --quick --max-zone-scale 1 --mpi "srun -n 4 --cpu-bind=cores" "$MPI_BIN" 32)
# 32 cores: 4 ranks of the key runs become 4 x 32/4 = 32 ranks of 4 threads, 4 x 32/16 = 8 of 16.
like "$plan" "packed4 +srun -n 32 --cpu-bind=cores $MPI_BIN 4 1 64 100 32 1 1 " "32 cores: 1.2's packed layout of 4-thread ranks, 8 per key rank"
like "$plan" "packed16 +srun -n 8 --cpu-bind=cores $MPI_BIN 16 1 64 100 32 1 1 " "and of 16-thread ranks, 2 per key rank"
plan=$("$top/run_clomp.sh" --dry-run --quick --max-zone-scale 1 --mpi "srun -n 4" "$MPI_BIN" 16)
ok "$(grep -c packed16 <<<"$plan")" "16 cores: no packed 16-thread layout (a node needs two such groups)"

# Bad input and no launcher.
run_mpi 2 "$MPI_BIN" 1 1 64 100 32 1 soon
is "$rc" 2 "a bad argument under mpirun exits 2 on every rank"
is "$(grep -c "^clomp: timeScale: 'soon'" <<<"$err")" 1 "and is said once, naming the argument"
"$MPI_BIN" "${args[@]}" >"$tmp/single" 2>&1
is "$?" 0 "clomp_mpi without mpirun runs as one rank"
like "$(cat "$tmp/single")" "^        MPI Tasks: 1$" "and says so"
like "$(cat "$tmp/single")" "^CORAL RFP, ${args[*]}, " "a single rank's CORAL RFP line has no MPI prefix, as in 1.2"
run_clomp --mpi-timeout=5 "${args[@]}"
is "$rc" 2 "the plain clomp refuses --mpi-timeout (exit 2)"

done_testing
