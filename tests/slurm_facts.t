#!/usr/bin/env bash
# The Slurm job's facts for the .env and the preflight's warning when the node is
# shared (clomp-write slurm, write/slurm_facts.c). The oracle is the shell the
# driver used before (suite/slurm.sh, kept below as it was), asked the same with a
# stand-in squeue and hostname on a grid of Slurm environments and squeue answers
# (exclusive or not, silent, other jobs on the node, the job itself among them,
# blank lines). tests/slurm.t runs the real thing under a private Slurm. The quick
# lane asks each environment with each squeue -o %h answer once (one of the seven
# job lists, all seven in turn: 30 cases), the full lane three times (90).
# shellcheck disable=SC2317  # the oracle's functions run in a bash -c, by declare -f

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

# shellcheck source-path=SCRIPTDIR source=lib/writer.sh
. "$(dirname "$0")/lib/writer.sh"

# The stand-ins: squeue answers -o %h with $FAKE_H and -o %i with $FAKE_I (printf
# escapes), and says what it was asked in $root/asked; hostname -s says node7.
mkdir "$root/bin"
cat >"$root/bin/squeue" <<'SH'
#!/bin/sh
echo "$*" >>"$FAKE_ASKED"
case "$*" in *%h*) printf "$FAKE_H" ;; *%i*) printf "$FAKE_I" ;; esac
echo "squeue: noise on stderr" >&2
SH
printf '#!/bin/sh\necho node7.example.org | cut -d. -f1\n' >"$root/bin/hostname"
chmod +x "$root/bin/squeue" "$root/bin/hostname"

# ---- the oracle: the driver's shell before write/slurm_facts.c ----------------------------
count_cores() { echo 12; }
in_slurm_job() { [ -n "${SLURM_JOB_ID:-}" ]; }
slurm_exclusive() {  # yes, no, or unknown
    local h
    h=$(squeue -h -j "$SLURM_JOB_ID" -o %h 2>/dev/null | head -n 1)
    case $h in NO) echo yes ;; '') echo unknown ;; *) echo "no (OverSubscribe=$h)" ;; esac
}
slurm_other_jobs() {
    local node
    node=${SLURMD_NODENAME:-$(hostname -s)}
    squeue -h -w "$node" -t R -o %i 2>/dev/null | grep -vx "$SLURM_JOB_ID" | tr '\n' ' ' | sed 's/ $//'
}
slurm_env_lines() {
    if ! in_slurm_job; then
        echo "slurm job: none"
        return 0
    fi
    echo "slurm job: $SLURM_JOB_ID${SLURM_JOB_NAME:+ ($SLURM_JOB_NAME)}${SLURM_CLUSTER_NAME:+ on cluster $SLURM_CLUSTER_NAME}"
    echo "slurm nodes: ${SLURM_JOB_NODELIST:-${SLURM_NODELIST:-unknown}} (${SLURM_JOB_NUM_NODES:-?} node(s))"
    echo "slurm cpus: ${SLURM_CPUS_ON_NODE:-?} on this node${SLURM_CPUS_PER_TASK:+, $SLURM_CPUS_PER_TASK per task}${SLURM_NTASKS:+, $SLURM_NTASKS task(s)}; suite cores: $(count_cores)"
    echo "slurm exclusive: $(slurm_exclusive)"
    echo "slurm other jobs on node: $(slurm_other_jobs | grep . || echo none)"
}
slurm_preflight() {
    local others exclusive
    in_slurm_job || return 0
    exclusive=$(slurm_exclusive)
    others=$(slurm_other_jobs)
    if [ -n "$others" ]; then
        echo "Slurm job $SLURM_JOB_ID shares its node with job(s) $others: the node is not dedicated (submit with sbatch --exclusive)"
    elif [[ $exclusive == no* ]]; then
        echo "Slurm job $SLURM_JOB_ID is not exclusive ($exclusive): other jobs may start on its node (submit with sbatch --exclusive)"
    fi
}

# ---- the grid ------------------------------------------------------------------------------
export PATH="$root/bin:$PATH" FAKE_ASKED=$root/asked
environments=(
    ""
    "SLURM_JOB_ID=41"
    "SLURM_JOB_ID=41 SLURM_JOB_NAME=clomp SLURM_CLUSTER_NAME=c1 SLURM_JOB_NODELIST=n[1-2] SLURM_JOB_NUM_NODES=2 SLURM_CPUS_ON_NODE=48 SLURM_CPUS_PER_TASK=12 SLURM_NTASKS=4 SLURMD_NODENAME=n1"
    "SLURM_JOB_ID=41_3 SLURM_NODELIST=n9 SLURM_NTASKS=1"
    "SLURM_JOB_ID=41 SLURM_CPUS_PER_TASK=2 SLURMD_NODENAME="
)
answers_h=("NO\n" "" "YES\n" "FORCE:4\nNO\n" "\nNO\n" "EXCLUSIVE")
answers_i=("" "41\n" "41\n57\n" "57\n58\n41\n" "\n57\n" "57" "41_3\n41\n")
fails=0 cases=0 k=0
for e in "${environments[@]}"; do
    for FAKE_H in "${answers_h[@]}"; do
        for ((j = 0; j < 3; j++)); do   # three of the seven job lists each time, all seven in turn
            k=$((k + 1)) FAKE_I=${answers_i[k % ${#answers_i[@]}]}
            full_lane || [ $((k % 3)) = 0 ] || continue
            export FAKE_H FAKE_I
            : >"$FAKE_ASKED"
            # shellcheck disable=SC2086  # the environment's words
            want=$(env -i PATH="$PATH" FAKE_ASKED="$FAKE_ASKED" FAKE_H="$FAKE_H" FAKE_I="$FAKE_I" $e bash -c \
                "$(declare -f count_cores in_slurm_job slurm_exclusive slurm_other_jobs slurm_env_lines slurm_preflight)
                slurm_env_lines; echo ---; slurm_preflight" 2>&1)
            asked_before=$(cat "$FAKE_ASKED")
            : >"$FAKE_ASKED"
            # shellcheck disable=SC2086,SC2016  # the environment's words; $1 is bash -c's
            got=$(env -i PATH="$PATH" FAKE_ASKED="$FAKE_ASKED" FAKE_H="$FAKE_H" FAKE_I="$FAKE_I" $e bash -c \
                '"$1" slurm lines 12; echo ---; "$1" slurm preflight' _ "$writer" 2>&1)
            cases=$((cases + 1))
            if [ "$want" != "$got" ] || [ "$asked_before" != "$(cat "$FAKE_ASKED")" ]; then
                fails=$((fails + 1))
                [ "$fails" -gt 3 ] || diag "[$e] h=$FAKE_H i=$FAKE_I: expected [$want] asking [$asked_before], got [$got] asking [$(cat "$FAKE_ASKED")]"
            fi
        done
    done
done
is "$fails" 0 "clomp-write slurm gives the .env lines and the warning the driver's shell gave, asking squeue the same, in all $cases cases"
"$writer" slurm frobnicate >/dev/null 2>&1
is "$?" 2 "an unknown question is a usage error, exit 2"
done_testing
