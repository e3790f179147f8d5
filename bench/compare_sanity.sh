#!/usr/bin/env bash
# The two sanity checks of run_clomp.sh --compare on this machine: a binary
# against itself (must flag nothing) and OMP_WAIT_POLICY=active against
# passive on the OMP Barrier probe (a large, known difference that must be
# flagged), each with N processes per side, 2 threads. Prints each table's
# OMP Barrier line and verdict. Figures only: nothing here passes or fails
# (tests/compare.t checks the logic deterministically); on a loaded machine
# the self-comparison flags nothing by design at least 95% of the time.
#
# Usage: bench/compare_sanity.sh [--replicates N] [-- CLOMP ARGUMENTS]
#   defaults: 6 processes per side, arguments 2 1 64 100 32 1 1 --schedules=barrier
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
    "$top/run_clomp.sh" --compare "${pair#*:}" --replicates "$n" --out "$out" "${args[@]}" 2>/dev/null |
        grep -E '^(OMP Barrier us/Loop|Verdict)'
    echo "   ($(($(date +%s) - start)) s)"
done
