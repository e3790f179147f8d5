#!/usr/bin/env bash
# run_clomp.sh --nodes all|N [--out DIR] [--resume ID] [run_clomp.sh options and arguments]
# (issue 50, docs/cluster.md): the suite on every node (or the first N) of the
# Slurm allocation this runs in, one srun step per node, all at once, each
# node's suite in DIR/CLOMP-cluster_ID/nodes/NODE with its own records, report
# and bundle; then each node's summary, the cluster report and the cluster
# bundle. run_clomp.sh execs this file when --nodes is among its arguments.
# This file only launches: the options, the cluster folder, which nodes, what
# each still has to run and the gathering are the results package's
# (results/clomp_results/cluster/cluster_open.py, cluster_suite.py).
# --resume ID: the cluster's nodes again, each running only what it misses
# (a node whose suite is complete is left alone, one cut short resumes its
# own suite, one that never started starts), with the arguments it started with.
# Exit: 0 every node complete, 1 a node failed (named, with the reason), 2 usage.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$here/suite/common.sh"

for arg in "$@"; do
    case $arg in -h | --help) cat "$here/suite/usage.txt"; exit 0 ;; esac
done
command -v python3 >/dev/null 2>&1 || die_usage "--nodes: needs python3 (the nodes' summaries and the cluster report)"
results() { python3 "$here/results/clomp-results" "$@"; }
# The options, the allocation, and the cluster folder (new, or the one --resume names): the results package's.
mapfile -d '' -t opened < <(results nodes open "$@")
wait $! || exit 2
cluster=${opened[0]} resume_id=${opened[1]} want=${opened[2]} node_args=("${opened[@]:3}")
nodelist=${SLURM_JOB_NODELIST:-$SLURM_NODELIST}
exec 9>>"$cluster/.lock"
flock -n 9 || die_usage "another run_clomp.sh --nodes is running cluster $resume_id ($cluster)"
mkdir -p -- "$cluster/nodes" "$cluster/steps" || die_usage "--out: cannot write in $cluster"

# One line per node: NODE fresh | NODE resume SUITE_ID | NODE done.
fresh=0
[ -f "$cluster/nodes.txt" ] || fresh=1
if ! plan=$(results nodes plan "$cluster" "$nodelist" "$want"); then
    # A new cluster refused (more nodes than the allocation has): its empty folder goes, nothing else.
    [ "$fresh" = 0 ] || { rm -f -- "$cluster/arguments" "$cluster/.lock"; rmdir -- "$cluster/nodes" "$cluster/steps" "$cluster"; }
    exit 2
fi
echo "CLOMP cluster $cluster: Slurm job $SLURM_JOB_ID, nodes $(awk '{ printf "%s%s", sep, $1; sep = "," }' <<<"$plan")"

declare -A step_of=()
stop_steps() {
    local pid
    for pid in "${step_of[@]}"; do kill -TERM "$pid" 2>/dev/null; done
}
trap 'stop_steps' INT TERM HUP
while read -r node action suite_id; do
    again=()
    case $action in
        done) echo "$node: complete, not run again"; continue ;;
        resume) again=(--resume "$suite_id") ;;
    esac
    mkdir -p -- "$cluster/nodes/$node"
    echo "---- step on $node, $(date)${again[*]:+, resuming suite $suite_id}" >>"$cluster/steps/$node.log"
    # One task on the node with every CPU the job has there (a step's default in Slurm 22.05 and later
    # without --exact): the node's suite sees the node as run_clomp.sh on it would.
    srun --nodes=1 --ntasks=1 --nodelist="$node" --job-name="clomp-$node" --kill-on-bad-exit=1 \
        "$here/run_clomp.sh" --out "$cluster/nodes/$node" ${again[@]+"${again[@]}"} ${node_args[@]+"${node_args[@]}"} \
        >>"$cluster/steps/$node.log" 2>&1 </dev/null &
    step_of[$node]=$!
    echo "$node: started ($action${suite_id:+ $suite_id}), log $cluster/steps/$node.log"
done <<<"$plan"
for node in "${!step_of[@]}"; do
    # A trapped signal ends `wait` early: wait again while the step lives; then its status.
    while kill -0 "${step_of[$node]}" 2>/dev/null; do wait "${step_of[$node]}"; done
    wait "${step_of[$node]}"
    echo $? >>"$cluster/steps/$node.rc"
done
trap - INT TERM HUP
results nodes gather "$cluster"
