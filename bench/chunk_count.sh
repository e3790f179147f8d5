#!/usr/bin/env bash
# Does a schedule's time depend on how many chunks it is cut into? Runs one
# input at several --trials counts (default 1, 20 and 1000; "all": one chunk
# per iteration, the most verification and census reading there can be), in
# turn, N runs each, and prints per figure the median over runs at each count and its
# difference from the first count with a 95% bootstrap interval. CLOMP 1.2's
# figures (us/Loop and Overhead from the whole Runtime) are the ones a
# mis-billed chunk boundary moves; clomp's median-chunk overhead (Med. Ovh)
# is printed beside them. A second binary (--before PATH, e.g. clomp before
# issue 44) is run the same way in the same rounds. The load average is
# printed before and after. Figures only: nothing here passes or fails.
#
# Usage: bench/chunk_count.sh [--runs N] [--counts 1,20,1000|1,all] [--clomp PATH] [--before PATH]
#                              [-- CLOMP ARGUMENTS]
#   defaults: 6 runs, ./clomp, arguments 2 1 64 100 32 1 10 (1563 iterations)
# (Formerly bench/chunk_bias.sh, many chunks against one: --counts 1,all.)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
runs=6
counts=1,20,1000
clomp=$top/clomp
before=
args=(2 1 64 100 32 1 10)
usage="usage: $0 [--runs N] [--counts K,K,... (all: one per iteration)] [--clomp PATH] [--before PATH] [-- CLOMP ARGUMENTS]"
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=${2:?$usage}; shift 2 ;;
        --counts) counts=${2:?$usage}; shift 2 ;;
        --clomp) clomp=${2:?$usage}; shift 2 ;;
        --before) before=${2:?$usage}; shift 2 ;;
        --) shift; args=("$@"); break ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
case $runs in '' | *[!0-9]* | 0) echo "$0: --runs needs a whole number above 0" >&2; exit 2 ;; esac
for exe in "$clomp" ${before:+"$before"}; do
    [ -x "$exe" ] || { echo "$0: no clomp at $exe" >&2; exit 2; }
done
# "all": as many chunks as iterations (the --dry-run plan names the count).
iterations=$("$clomp" --dry-run "${args[@]}" | awk -F': *' '$1 ~ /Scaled Iterations/ { print $2 }')
counts=${counts//all/$iterations}
case $counts in '' | *[!0-9,]* | ,* | *, | *,,*) echo "$0: --counts needs whole numbers or all, comma-separated" >&2; exit 2 ;; esac
IFS=, read -r -a count_list <<<"$counts"
command -v python3 >/dev/null || { echo "$0: python3 is needed for the statistics" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "input: ${args[*]} ($iterations iterations); --trials ${counts//,/, }; $runs runs each, in turn; OMP_PROC_BIND=${OMP_PROC_BIND-unset} OMP_PLACES=${OMP_PLACES-unset}"
echo "load before: $(uptime)"
binaries=(now)
[ -n "$before" ] && binaries+=(before)
for ((i = 1; i <= runs; i++)); do
    for k in "${count_list[@]}"; do
        for b in "${binaries[@]}"; do
            exe=$clomp
            [ "$b" = before ] && exe=$before
            "$exe" --trials="$k" "${args[@]}" >"$work/$b.$k.$i" 2>&1 || :
        done
    done
    printf '.'
done
echo
echo "load after: $(uptime)"

PYTHONPATH="$top/bench" python3 - "$work" "$runs" "$counts" "${binaries[@]}" <<'PY'
import random
import statistics
import sys

from benchstats import difference_interval, read_report

folder, runs, counts, binaries = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4:]
figures = [("Serial Ref us/Loop", "Serial Ref", "us"), ("Bestcase us/Loop", "Bestcase OMP", "us"),
           ("Static us/Loop", "Static OMP", "us"), ("Static overhead", "Static OMP", "overhead"),
           ("Static Med. Ovh", "Static OMP", "median_overhead"), ("Dynamic overhead", "Dynamic OMP", "overhead"),
           ("Manual overhead", "Manual OMP", "overhead"), ("Manual Med. Ovh", "Manual OMP", "median_overhead")]
rng = random.Random(44)
print("medians over runs (us/Loop); after the first count with the figure, each count's difference from"
      " it with a 95% bootstrap interval, * where the interval holds 0")
print(f"{'binary':7} {'figure':19}" + "".join(f" {'K=' + k:>9} {'':>24}" for k in counts))
for b in binaries:
    reports = {k: [read_report(f"{folder}/{b}.{k}.{i}") for i in range(1, runs + 1)] for k in counts}
    for label, schedule, field in figures:
        v = {k: [r[schedule][field] for r in rs if field in r.get(schedule, {})] for k, rs in reports.items()}
        present = [k for k in counts if v[k]]
        if not present:
            print(f"{b:7} {label:19} (no figure in any run)")
            continue
        base = present[0]
        line = f"{b:7} {label:19}"
        for k in counts:
            if not v[k]:
                line += f" {'-':>9} {'':>24}"
                continue
            text = ""
            if k != base:
                d = statistics.median(v[k]) - statistics.median(v[base])
                ci = difference_interval(v[k], v[base], rng)
                text = f"{d:+.3f} ({ci[0]:+.2f}..{ci[1]:+.2f})" + ("*" if ci[0] <= 0 <= ci[1] else " ") if ci else f"{d:+.3f}"
            note = "" if len(v[k]) == runs else f"[{len(v[k])} runs]"
            line += f" {statistics.median(v[k]):9.3f} {text + note:>24}"
        print(line)
print("(-: no such figure at that count, e.g. Med. Ovh at --trials=1; [n runs]: the others printed N/A)")
PY
