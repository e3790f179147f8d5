#!/usr/bin/env bash
# Does verifying between chunks bias the overheads? Runs one input with many
# small chunks (one per iteration, the most verification there can be) and
# with one chunk (CLOMP 1.2's single shot, verified once at the end), in
# turn, N times each, and prints per figure both medians, their difference
# with a 95% bootstrap interval, and whether the interval contains 0. A
# second binary (--before PATH, e.g. an older clomp) is run the same way in
# the same rounds, so a change shows side by side under the same noise.
# Figures only: nothing here passes or fails.
#
# Usage: bench/chunk_bias.sh [--runs N] [--clomp PATH] [--before PATH] [-- CLOMP ARGUMENTS]
#   defaults: 6 runs, ./clomp, arguments 2 1 64 100 32 1 10 (157 iterations: 157 chunks)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
runs=6
clomp=$top/clomp
before=
args=(2 1 64 100 32 1 10)
usage="usage: $0 [--runs N] [--clomp PATH] [--before PATH] [-- CLOMP ARGUMENTS]"
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=${2:?$usage}; shift 2 ;;
        --clomp) clomp=${2:?$usage}; shift 2 ;;
        --before) before=${2:?$usage}; shift 2 ;;
        --) shift; args=("$@"); break ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
case $runs in '' | *[!0-9]*) echo "$0: --runs needs a whole number" >&2; exit 2 ;; esac
for exe in "$clomp" ${before:+"$before"}; do
    [ -x "$exe" ] || { echo "$0: no clomp at $exe" >&2; exit 2; }
done
command -v python3 >/dev/null || { echo "$0: python3 is needed for the statistics" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# As many chunks as iterations: the --dry-run plan names the iteration count.
iterations=$("$clomp" --dry-run "${args[@]}" | awk -F': *' '$1 ~ /Scaled Iterations/ { print $2 }')
echo "input: ${args[*]} ($iterations iterations); many = --trials=$iterations, one = --trials=1; $runs runs each, in turn"

binaries=(now)
[ -n "$before" ] && binaries+=(before)
for ((i = 1; i <= runs; i++)); do
    for b in "${binaries[@]}"; do
        exe=$clomp
        [ "$b" = before ] && exe=$before
        "$exe" --trials="$iterations" "${args[@]}" >"$work/$b.many.$i" 2>&1 || :
        "$exe" --trials=1 "${args[@]}" >"$work/$b.one.$i" 2>&1 || :
    done
    printf '.'
done
echo

PYTHONPATH="$top/bench" python3 - "$work" "$runs" "${binaries[@]}" <<'PY'
import random
import statistics
import sys

from benchstats import difference_interval, read_report

folder, runs, binaries = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
figures = [("Bestcase us/Loop", "Bestcase OMP", "us"), ("Static overhead", "Static OMP", "overhead"),
           ("Dynamic overhead", "Dynamic OMP", "overhead"), ("Manual overhead", "Manual OMP", "overhead"),
           ("Nested overhead", "Nested OMP", "overhead")]
rng = random.Random(1563)
print(f"{'binary':7} {'figure':17} {'many chunks':>11} {'one chunk':>10} {'many - one (95% CI)':>26}  agree?")
for b in binaries:
    reports = {m: [read_report(f"{folder}/{b}.{m}.{i}") for i in range(1, runs + 1)] for m in ("many", "one")}
    for label, schedule, field in figures:
        v = {m: [r[schedule][field] for r in rs if field in r.get(schedule, {})] for m, rs in reports.items()}
        if not v["many"] or not v["one"]:
            print(f"{b:7} {label:17} (no figure in some run: N/A there, or the run failed)")
            continue
        ci = difference_interval(v["many"], v["one"], rng)
        d = statistics.median(v["many"]) - statistics.median(v["one"])
        agree = "yes" if ci and ci[0] <= 0 <= ci[1] else "no"
        ci_text = f"{d:+.3f} ({ci[0]:+.3f}..{ci[1]:+.3f})" if ci else f"{d:+.3f}"
        print(f"{b:7} {label:17} {statistics.median(v['many']):11.3f} {statistics.median(v['one']):10.3f} "
              f"{ci_text:>26}  {agree}")
print("(us/Loop; 'agree': the 95% interval of the difference contains 0)")
PY
