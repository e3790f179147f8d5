#!/usr/bin/env bash
# What the per-node arenas of the libnuma policies save: builds clomp as it
# was before them (every part structure and zone block its own page-aligned
# mapping) next to the current one, and runs both, alternately, on a mesh of
# many tiny parts under each libnuma policy, printing the mesh build time
# (the header's "Mesh build time") and the peak resident memory of the whole
# process (getrusage ru_maxrss). Figures only: nothing passes or fails.
#
# Usage: bench/numa_arena.sh [--before REV] [--runs N] [-- CLOMP ARGUMENTS]
#   defaults: REV = the commit before numa/arena.c was added; 3 runs each;
#             arguments 2 -1 100000 1 32 1 1 (100,000 one-zone parts)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
runs=3
before=''
args=(2 -1 100000 1 32 1 1)
while [ $# -gt 0 ]; do
    case $1 in
        --before) before=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --) shift; args=("$@"); break ;;
        *) echo "usage: $0 [--before REV] [--runs N] [-- CLOMP ARGUMENTS]" >&2; exit 2 ;;
    esac
done
cd "$top"
if [ -z "$before" ]; then
    added=$(git log --format=%H --diff-filter=A -1 -- numa/arena.c)
    [ -n "$added" ] || { echo "$0: numa/arena.c is not committed yet; give --before REV" >&2; exit 2; }
    before=$added^
fi
[ -x ./clomp ] || make -s clomp >/dev/null

old=$(mktemp -d)
trap 'rm -rf "$old"' EXIT
git archive "$before" | tar -x -C "$old"
echo "building clomp at $(git rev-parse --short "$before") (before the arenas) in $old" >&2
make -s -C "$old" clomp >/dev/null

# One run: "build-seconds max-rss-MiB wall-seconds".
measure() {
    python3 - "$@" <<'EOF'
import re, resource, subprocess, sys, time
start = time.time()
run = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.time() - start
if run.returncode != 0:
    sys.exit("clomp failed: " + run.stderr.strip())
build = re.search(r"Mesh build time: ([0-9.]+) s", run.stdout).group(1)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
print(f"{build} {rss:.0f} {wall:.2f}")
EOF
}

export OMP_WAIT_POLICY=passive
echo "clomp ${args[*]} --schedules=static; $runs runs each, alternating; median of the runs"
printf '%-12s %-8s %14s %12s %10s\n' policy clomp "build time s" "peak RSS MiB" "wall s"
for policy in interleave local node:0 first-touch; do
    for which in before after; do
        : >"$old/$which.txt"
    done
    for ((r = 0; r < runs; r++)); do
        measure "$old/clomp" --numa="$policy" --schedules=static "${args[@]}" >>"$old/before.txt"
        measure ./clomp --numa="$policy" --schedules=static "${args[@]}" >>"$old/after.txt"
    done
    for which in before after; do
        python3 - "$policy" "$which" "$old/$which.txt" <<'EOF'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[3])]
build, rss, wall = (statistics.median(col) for col in zip(*rows))
print(f"{sys.argv[1]:<12} {sys.argv[2]:<8} {build:14.3f} {rss:12.0f} {wall:10.2f}")
EOF
    done
done
