#!/usr/bin/env bash
# Is chunk 0 slower than the chunks after it? Before issue 23 (item 9) the
# warm-up ran a separate, observing copy of each schedule's iteration, so the
# timed copy ran for the first time in chunk 0. Runs one input N times with
# --trials=K and --json, and prints per schedule the median over processes of
# chunk 0's us/Loop relative to the median of chunks 1..K-1 of the same
# process (1.000: no bias), with min .. max over processes. A second binary
# (--before PATH, e.g. /tmp/baseline/clomp built from the previous main) runs
# alternately in the same loop, so both columns see the same noise.
# Figures only: nothing here passes or fails.
#
# Usage: bench/warmup.sh [--runs N] [--trials K] [--clomp PATH] [--before PATH] [-- CLOMP ARGUMENTS]
#   defaults: 8 runs, 20 trials, ./clomp, arguments 2 1 64 100 32 1 10
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
runs=8
trials=20
clomp=$top/clomp
before=
args=(2 1 64 100 32 1 10)
usage="usage: $0 [--runs N] [--trials K] [--clomp PATH] [--before PATH] [-- CLOMP ARGUMENTS]"
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=${2:?$usage}; shift 2 ;;
        --trials) trials=${2:?$usage}; shift 2 ;;
        --clomp) clomp=${2:?$usage}; shift 2 ;;
        --before) before=${2:?$usage}; shift 2 ;;
        --) shift; args=("$@"); break ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
for n in "$runs" "$trials"; do
    case $n in '' | *[!0-9]*) echo "$0: --runs and --trials need whole numbers" >&2; exit 2 ;; esac
done
for exe in "$clomp" ${before:+"$before"}; do
    [ -x "$exe" ] || { echo "$0: no clomp at $exe" >&2; exit 2; }
done
command -v python3 >/dev/null || { echo "$0: python3 is needed for the statistics" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "input: ${args[*]} --trials=$trials; $runs processes per binary, alternating"
binaries=(now)
[ -n "$before" ] && binaries=(before now)
for ((i = 1; i <= runs; i++)); do
    for b in "${binaries[@]}"; do
        exe=$clomp
        [ "$b" = before ] && exe=$before
        "$exe" --trials="$trials" --json="$work/$b.$i.json" "${args[@]}" >/dev/null 2>&1 || :
    done
    printf '.'
done
echo

python3 - "$work" "$runs" "${binaries[@]}" <<'PY'
import json
import os
import statistics
import sys

folder, runs, binaries = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
ratios = {}   # (binary, schedule) -> [chunk 0 / median of the others, per process]
order = []
for b in binaries:
    for i in range(1, runs + 1):
        path = f"{folder}/{b}.{i}.json"
        if not os.path.exists(path):
            continue
        with open(path) as f:
            doc = json.load(f)
        for m in doc["measurements"]:
            rounds = m.get("rounds") or []
            if not rounds or len(rounds[0]["chunks"]) < 3:
                continue
            us = [c["us_per_loop"] for c in rounds[0]["chunks"]]
            rest = statistics.median(us[1:])
            if rest > 0:
                ratios.setdefault((b, m["name"]), []).append(us[0] / rest)
                if m["name"] not in order:
                    order.append(m["name"])

def cell(v):
    if not v:
        return f"{'-':>26}"
    return f"{statistics.median(v):7.3f} ({min(v):6.3f} .. {max(v):6.3f})"

header = "".join(f"  {b + ': chunk 0 / rest (min .. max)':>26}" for b in binaries)
print(f"{'schedule':13}{header}  processes")
for name in order:
    row = "".join("  " + cell(ratios.get((b, name), [])) for b in binaries)
    n = "/".join(str(len(ratios.get((b, name), []))) for b in binaries)
    print(f"{name:13}{row}  {n}")
PY
