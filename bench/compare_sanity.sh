#!/usr/bin/env bash
# The two sanity checks of run_clomp.sh --compare on this machine: a binary
# against itself (must flag nothing) and OMP_WAIT_POLICY=active against
# passive on the OMP Barrier probe (a large, known difference that must be
# flagged), each with N pairs of processes, 2 threads, the OMP Barrier probe
# as the primary figure. Prints each comparison's primary answer and verdict.
# Figures only: nothing here passes or fails (tests/compare.t checks the logic
# deterministically); the self-comparison flags the primary figure at most 5%
# of the time by design (the exact test's size: 2/64 at 6 pairs).
#
# Usage: bench/compare_sanity.sh [--replicates N] [-- CLOMP ARGUMENTS]
#   defaults: 6 pairs, arguments 2 1 64 100 32 1 1 --schedules=barrier
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
n=6
args=(2 1 64 100 32 1 1 --schedules=barrier)
while [ $# -gt 0 ]; do
    case $1 in
        --replicates) n=$2; shift 2 ;;
        --) shift; args=("$@"); break ;;
        *) echo "usage: $0 [--replicates N] [-- CLOMP ARGUMENTS]" >&2; exit 2 ;;
    esac
done
[ -x "$top/clomp" ] || make -C "$top" clomp >&2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for pair in "self:$top/clomp,$top/clomp" \
    "wait policy:$top/clomp+OMP_WAIT_POLICY=active,$top/clomp+OMP_WAIT_POLICY=passive"; do
    echo "== ${pair%%:*}: --compare ${pair#*:} --replicates $n ${args[*]}"
    start=$(date +%s)
    "$top/run_clomp.sh" --compare "${pair#*:}" --replicates "$n" --primary barrier_us_per_loop --out "$out" "${args[@]}" 2>/dev/null |
        grep -E '^(  A median|Verdict|Overall)'
    echo "   ($(($(date +%s) - start)) s)"
done
