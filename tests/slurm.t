#!/usr/bin/env bash
# The suite where users run it: on a real Slurm. The quick lane checks that
# `--mpi "srun ..."` is refused outside an allocation and without Slurm (exit
# 2, one line, nothing written). The full lane starts a private single-node
# cluster (tests/lib/slurm.sh: munged, slurmctld, slurmd under a temporary
# directory, on free ports) and checks: a quick suite submitted with sbatch
# completes and its bundle validates with the job facts in .env and the
# report; inside a job the suite's cores are the job's and another job on the
# node is warned about; srun -n 2 --mpi=pmix of clomp_mpi gives the oracle's
# checksums on every rank, each rank bound to its own CPU; a rank that dies
# under srun ends the run in bounded time; a suite job cancelled with scancel
# mid-run is resumed by a second job and validates; a hybrid quick suite
# under --mpi "srun -n 2 --mpi=pmix" validates; no daemon is left running.
# Skips with the reason when not root or without slurm-wlm, munge or Open MPI.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source-path=SCRIPTDIR source=lib/slurm.sh
. "$(dirname "$0")/lib/slurm.sh"
# shellcheck source-path=SCRIPTDIR source=lib/rank_checksums.sh
. "$(dirname "$0")/lib/rank_checksums.sh"

export OMP_WAIT_POLICY=passive
# As in tests/mpi.t: containers often forbid process_vm_readv (Open MPI's shared memory).
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
ORACLE=$build/tests/clomp_oracle
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() { slurm_stop; rm -rf "$tmp"; }
trap cleanup EXIT

# ---- outside any allocation (quick lane) -------------------------------------------------
mkdir "$tmp/kept" && echo earlier >"$tmp/kept/earlier.txt"
out=$(env -u SLURM_JOB_ID "$top/run_clomp.sh" --quick --out "$tmp/kept" --mpi "srun -n 2 --mpi=pmix" "$CLOMP" 2>&1)
rc=$?
is "$rc" 2 "--mpi \"srun ...\" outside a Slurm allocation exits 2"
is "$(line_count "$out")" 1 "with one line"
if command -v srun >/dev/null 2>&1; then
    like "$out" "^run_clomp.sh: --mpi: \"srun -n 2 --mpi=pmix\" outside a Slurm allocation: submit the suite with sbatch" \
        "that says why and how to run it instead"
else   # no Slurm here: the missing srun is the first reason, before any allocation
    like "$out" "^run_clomp.sh: --mpi: 'srun' not found: Slurm is not installed here" \
        "that says why: srun is not installed here (no allocation is asked about without it)"
fi
is "$(ls "$tmp/kept")" "earlier.txt" "and writes nothing in --out, leaving what was there"
out=$(SLURM_JOB_ID=7 "$top/run_clomp.sh" --quick --out "$tmp/kept" --mpi "$tmp/no/srun -n 2" "$CLOMP" 2>&1)
rc=$?
is "$rc:$(line_count "$out")" "2:1" "an srun that is not installed: exit 2, one line"
like "$out" "^run_clomp.sh: --mpi: '$tmp/no/srun' not found: Slurm is not installed here" "naming the missing srun"
env -u SLURM_JOB_ID "$top/run_clomp.sh" --dry-run --quick --max-zone-scale 1 --mpi "srun -n 2" "$CLOMP" 1 >/dev/null
is "$?" 0 "a dry run plans an srun suite anywhere (it launches nothing)"

skip_all_tail() { skip "$1" "$2"; done_testing; }
full_lane || skip_all_tail "the suite under a private Slurm cluster" "full lane only (make check-all)"
why=$(slurm_missing)
[ -z "$why" ] || skip_all_tail "the suite under a private Slurm cluster" "$why"
command -v mpicc >/dev/null 2>&1 || skip_all_tail "the suite under a private Slurm cluster" \
    "no mpicc (apt-get install openmpi-bin libopenmpi-dev)"
[ -z "${CLOMP_SANITIZED:-}" ] || skip_all_tail "the suite under a private Slurm cluster" \
    "Open MPI's own allocations are not LeakSanitizer-clean; make check-all runs this test"
[ -x "$ORACLE" ] || { echo "Bail out! no oracle at $ORACLE (run make unit-tests)"; exit 255; }

# clomp_mpi in its own build tree, with the tree's compiler (as tests/mpi.t).
tree_cc=$(sed -n 's/^CC=//p' "$build/compiler-flags" 2>/dev/null)
export OMPI_CC=${OMPI_CC:-${tree_cc:-${CC:-gcc}}}
# One build at a time: make check runs test files two at a time, and mpi.t, scale.t and
# slurm.t build the same clomp_mpi.
mkdir -p "$build"
if ! flock "$build/mpi-build.lock" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top" --no-print-directory MPI=1 BUILD="$build/mpi" \
    clomp_mpi >"$tmp/build.log" 2>&1; then
    echo "Bail out! make MPI=1 failed: $(tail -5 "$tmp/build.log")"
    exit 255
fi
MPI_BIN=$top/clomp_mpi

started=$(now)
slurm_start || { echo "Bail out! the private Slurm cluster did not start"; exit 255; }
note "private Slurm cluster up in $(awk -v a="$started" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s (SLURM_CONF=$SLURM_CONF)"
node=$(hostname -s)
cpus=$(nproc --all)

# submit DIR ARGS...: sbatch from DIR, prints the job id.
submit() {
    local dir=$1
    shift
    (cd "$dir" && sbatch --parsable "$@") | cut -d';' -f1
}
suite_base() { find "$1" -maxdepth 1 -name 'CLOMP_*.env' | head -n 1 | sed 's/\.env$//'; }
# A quick suite is valid but never submission-grade (timeScale 1): exit 3.
validates() { "$top/clomp_validate" "$1.tar.gz" >"$tmp/validate.log" 2>&1; [ $? = 3 ]; }
quick=(--quick --max-zone-scale 1 --replicates 1 --no-plots)

# ---- the batch one-liner ---------------------------------------------------------------
mkdir "$tmp/submit"
job=$(CLOMP_HOME=$top submit "$tmp/submit" --exclusive "$top/slurm/clomp-suite.sbatch" "${quick[@]}" \
    --out "$tmp/batch" "$CLOMP" 1)
slurm_wait_job "$job" 300
ok $? "sbatch --exclusive slurm/clomp-suite.sbatch runs a quick suite to its end (job $job)"
like "$(cat "$tmp/submit/clomp-suite-$job.out" 2>/dev/null)" "^Suite complete: " \
    "its log goes to the submit directory as clomp-suite-JOBID.out and says the suite completed"
base=$(suite_base "$tmp/batch")
validates "$base"
ok $? "its bundle validates"
env_text=$(tar -xzOf "$base.tar.gz" "$(basename "$base")/$(basename "$base").env" 2>/dev/null)
like "$env_text" "^slurm job: $job " "the bundle's .env names the job"
like "$env_text" "^slurm nodes: $node \(1 node\(s\)\)$" "its node list"
like "$env_text" "^slurm cpus: $cpus on this node" "the job's CPUs on the node"
like "$env_text" "^slurm exclusive: yes$" "that the node was the job's alone (--exclusive)"
like "$env_text" "^slurm other jobs on node: none$" "and that no other job ran on it"
like "$(cat "$base.html")" "Slurm job <b>$job " "the HTML report names the job"

# ---- the job's cores, and a neighbour --------------------------------------------------
# Two one-CPU jobs on this node: the suite in the second runs on its one core
# (SLURM_CPUS_ON_NODE is 1), not the node's, and warns of the first.
if [ "$cpus" -ge 2 ]; then
    neighbour=$(submit "$tmp" -c 1 -o /dev/null --wrap 'sleep 120')
    for _ in $(seq 100); do [ "$(squeue -h -j "$neighbour" -o %T)" = RUNNING ] && break; sleep 0.2; done
    job=$(submit "$tmp/submit" -c 1 -o "$tmp/shared.log" --wrap \
        "$top/run_clomp.sh ${quick[*]} --out $tmp/shared $CLOMP")
    slurm_wait_job "$job" 300
    scancel "$neighbour"
    base=$(suite_base "$tmp/shared")
    like "$(cat "$base.env")" "^max threads: 1$" "a suite in a 1-CPU job on a $cpus-CPU node runs at most 1 thread"
    like "$(cat "$base.env")" "^WARNING: Slurm job $job shares its node with job\(s\) $neighbour: the node is not dedicated" \
        "and warns that job $neighbour shares the node"
    like "$(cat "$base.env")" "^slurm exclusive: no \(OverSubscribe=" "it records the job as not exclusive"
    like "$(cat "$tmp/shared.log")" "^WARNING: Slurm job $job shares its node" "and the warning is printed as the suite starts"
else
    skip "a suite in a 1-CPU job uses the job's core and warns of a neighbour" "needs 2 CPUs"
fi

# ---- srun of clomp_mpi -----------------------------------------------------------------
args=(1 1 64 100 32 1 1)
want=$("$ORACLE" "${args[@]}" | sed -n 's/^Checksum: //p')
timeout 300 srun -n 2 --mpi=pmix --cpu-bind=cores "$MPI_BIN" "${args[@]}" --json="$tmp/srun.json" \
    >"$tmp/srun.out" 2>"$tmp/srun.err"
is "$?" 0 "srun -n 2 --mpi=pmix --cpu-bind=cores clomp_mpi ${args[*]} passes"
like "$(cat "$tmp/srun.out")" "^        MPI Tasks: 2$" "it runs as 2 MPI tasks"
sums=$(rank_checksums "$tmp/srun.json")
is "$(awk '{ print $1 }' <<<"$sums" | sort -u | tr '\n' ' ')" "0 1 " "both ranks' checksums are in the JSON"
bad=$(awk -v w="$want" '{ line = $3 " " $4 " " $5 } line != w' <<<"$sums")
is "$bad" "" "every rank's checksum of every measurement equals the oracle's ($want)"
if [ "$cpus" -ge 2 ]; then
    bound=$(sed -n 's/^ *MPI rank [0-9]*: host [^,]*, CPUs \([0-9]*\) (1)$/\1/p' "$tmp/srun.out" | sort -u | wc -l)
    is "$bound" 2 "--cpu-bind=cores binds each rank to a CPU of its own (the set-up's rank lines)"
fi

# A rank that dies: the run ends (srun or rank 0's --mpi-timeout), no hang.
cat >"$tmp/kill_rank1.sh" <<'EOF'
#!/bin/sh
[ "${SLURM_PROCID:-0}" = 1 ] || exec "$@"
"$@" & pid=$!
sleep 1
kill -KILL "$pid"
wait "$pid"
EOF
chmod +x "$tmp/kill_rank1.sh"
started=$(now)
timeout 120 srun -n 2 --mpi=pmix "$tmp/kill_rank1.sh" "$MPI_BIN" 1 1 64 100 32 1 20 --mpi-timeout=2 \
    >"$tmp/die.out" 2>&1
rc=$?
ok "$([ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; echo $?)" "a rank killed under srun ends the run with a failure status ($rc), not a hang"
note "it ended $(awk -v a="$started" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s after the start"

# ---- scancel mid-run, resumed by a second job -------------------------------------------
mkdir "$tmp/resume"
job=$(submit "$tmp/resume" --exclusive "$top/slurm/clomp-suite.sbatch" --quick --max-zone-scale 1 --no-plots \
    --replicates 3 --out "$tmp/resume/out" "$CLOMP" 2 5)
done_file=''
for _ in $(seq 600); do
    done_file=$(find "$tmp/resume/out" -maxdepth 1 -name 'CLOMP_*.done' 2>/dev/null | head -n 1)
    [ -n "$done_file" ] && [ -s "$done_file" ] && break
    sleep 0.2
done
scancel "$job"
slurm_wait_job "$job" 60
ok $? "scancel ends the suite's job $job"
base=${done_file%.done}
id=${base##*_}
finished=$(wc -l <"$done_file")
like "$(cat "$base.env")" "^---- interrupted .* in Slurm job $job: incomplete; resume with: " \
    "the suite records that job $job was interrupted and how to resume"
ok "$([ "$finished" -ge 1 ] && ! grep -q '^---- complete' "$base.env"; echo $?)" \
    "with $finished run(s) saved and the suite not complete"
job2=$(submit "$tmp/resume" --exclusive "$top/slurm/clomp-suite.sbatch" --quick --max-zone-scale 1 --no-plots \
    --replicates 3 --out "$tmp/resume/out" --resume "$id" "$CLOMP" 2 5)
slurm_wait_job "$job2" 300
like "$(cat "$tmp/resume/clomp-suite-$job2.out")" "^Suite complete: " "a second job ($job2) with --resume $id completes it"
validates "$base"
ok $? "and the resumed suite's bundle validates (every run once, all verified)"
like "$(cat "$base.env")" "^---- resumed .* in Slurm job $job2$" "its .env records the job that resumed it"

# ---- a hybrid suite with srun as the launcher -------------------------------------------
mkdir "$tmp/hybrid"
job=$(submit "$tmp/hybrid" --exclusive "$top/slurm/clomp-suite.sbatch" "${quick[@]}" --out "$tmp/hybrid/out" \
    --mpi "srun -n 2 --mpi=pmix" "$MPI_BIN" 1 1)
slurm_wait_job "$job" 300
base=$(suite_base "$tmp/hybrid/out")
validates "$base"
ok $? "a quick hybrid suite under --mpi \"srun -n 2 --mpi=pmix\" in job $job validates"
runs=$(cat "$base"_*.full | grep -c '^=== run ')
tasks=$(cat "$base"_*.full | grep -c '^        MPI Tasks: 2$')
is "$tasks" "$runs" "every one of its $runs runs ran as 2 MPI tasks"
like "$(cat "$base.env")" "^mpi launcher: srun -n 2 --mpi=pmix$" "the .env records the launcher"
like "$(cat "$base.env")" "^run 1 \(key\): 2 rank\(s\) x 1 threads: srun -n 2 --mpi=pmix$" "the rank layout of every run"
like "$(cat "$base.env")" "^mpi cpu binding: " "and the CPU binding"

# ---- nothing left behind ---------------------------------------------------------------
conf_dir=$slurm_dir
slurm_stop
is "$(slurm_daemons_left)" "" "after the test no daemon it started is running"
is "$(pgrep -f -- "$conf_dir" | tr '\n' ' ')" "" "and no process refers to its directory"
ok "$([ ! -e "$conf_dir" ]; echo $?)" "which is removed"
done_testing
