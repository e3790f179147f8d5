#!/usr/bin/env bash
# Same input, same numbers: runs CLOMP 1.2 and this clomp side by side and
# prints, per figure, both medians, their ratio and a 95% interval of the
# ratio. CLOMP 1.2 is built from a source path (users do not have it: without
# it the script says so and exits 0), with the same compiler and the flags
# that decide its code (-O3, OpenMP, no FMA contraction). The three
# processes - 1.2, clomp --trials=1 (1.2's single shot) and clomp's default
# chunked timing - run in turn, N rounds, so that drift on a shared machine
# falls on all of them alike. Figures only: nothing here passes or fails.
#
# Usage: bench/fidelity.sh [--runs N] [--ref CLOMP12_SOURCE] [--threads T]
#                          [--inputs target,membound,cache] [--clomp PATH] [--before PATH]
#   defaults: 6 runs, ../shared/reference/clomp-1.2/clomp.c, threads = cores,
#   all three inputs (timeScales chosen for about 1 s per measurement).
#   An input may name its timeScale: membound:1,membound:20,target:100 (the
#   mem-bound input at timeScale 1 is what --quick suites and the test lanes
#   run: its first timed pass is the one a cold warm-up would show, issue 35).
#   --before PATH: an older clomp, run the same two ways in the same rounds,
#   so a change shows side by side under the same noise.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
runs=6
ref=$top/../shared/reference/clomp-1.2/clomp.c
clomp=$top/clomp
threads=$(nproc)
inputs=target,membound,cache
before=
usage="usage: $0 [--runs N] [--ref CLOMP12_SOURCE] [--threads T] [--inputs target,membound,cache] [--clomp PATH] [--before PATH]"
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=${2:?$usage}; shift 2 ;;
        --ref) ref=${2:?$usage}; shift 2 ;;
        --threads) threads=${2:?$usage}; shift 2 ;;
        --inputs) inputs=${2:?$usage}; shift 2 ;;
        --clomp) clomp=${2:?$usage}; shift 2 ;;
        --before) before=${2:?$usage}; shift 2 ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
case $runs in '' | *[!0-9]*) echo "$0: --runs needs a whole number" >&2; exit 2 ;; esac
if [ ! -f "$ref" ]; then
    echo "$0: no CLOMP 1.2 source at $ref: skipped (give one with --ref)"
    exit 0
fi
[ -x "$clomp" ] || { echo "$0: no clomp at $clomp (run make)" >&2; exit 2; }
[ -z "$before" ] || [ -x "$before" ] || { echo "$0: no clomp at $before" >&2; exit 2; }
modes=(single default)
[ -n "$before" ] && modes+=(before-single before-default)
command -v python3 >/dev/null || { echo "$0: python3 is needed for the statistics" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc=$(sed -n 's/^CC=//p' "$top/build/compiler-flags" 2>/dev/null || echo gcc)
${cc:-gcc} -O3 -fopenmp -ffp-contract=off -w -o "$work/clomp12" "$ref" -lm
echo "CLOMP 1.2 built from $ref with: ${cc:-gcc} -O3 -fopenmp -ffp-contract=off"
echo "clomp: $clomp ($("$clomp" --version | head -1))"

# input_args NAME[:TIMESCALE]: the arguments of an input, at its default
# timeScale or the one named.
input_args() {
    local name=${1%%:*} scale=
    [ "$name" = "$1" ] || scale=${1#*:}
    case $scale in *[!0-9]*) echo "$0: timeScale '$scale' of input '$1' is not a whole number" >&2; exit 2 ;; esac
    case $name in
        target) echo "$threads 1 64 100 32 1 ${scale:-20}" ;;
        membound) echo "$threads 1 64 10000 512 1 ${scale:-10}" ;;
        cache) echo "$threads 1 64 1 32 100 ${scale:-20}" ;;
        *) echo "$0: unknown input '$1' (target, membound, cache, each optionally :TIMESCALE)" >&2; exit 2 ;;
    esac
}

IFS=, read -r -a input_list <<<"$inputs"
for input in "${input_list[@]}"; do
    input_args "$input" >/dev/null   # an unknown input stops here, before any run
done
for spec in "${input_list[@]}"; do
    read -r -a args <<<"$(input_args "$spec")"
    input=${spec//:/-ts}
    echo
    echo "== $spec: ${args[*]}, $runs runs of each, in turn; load: $(uptime | sed 's/.*load average: //')"
    for ((i = 1; i <= runs; i++)); do
        # 1.2 exits 1 when its own checks fail (zonesPerPart = 1): its figures
        # up to the failure are still read.
        "$work/clomp12" "${args[@]}" >"$work/$input.12.$i" 2>&1 || :
        "$clomp" --trials=1 "${args[@]}" >"$work/$input.single.$i" 2>&1 || :
        "$clomp" "${args[@]}" >"$work/$input.default.$i" 2>&1 || :
        if [ -n "$before" ]; then
            "$before" --trials=1 "${args[@]}" >"$work/$input.before-single.$i" 2>&1 || :
            "$before" "${args[@]}" >"$work/$input.before-default.$i" 2>&1 || :
        fi
        printf '.'
    done
    echo " load after: $(uptime | sed 's/.*load average: //')"
    python3 "$top/bench/fidelity_table.py" "$work" "$input" "$runs" "${modes[@]}"
done
