#!/usr/bin/env bash
# The buyer's table's Done-when example (issue 33, docs/compare-submissions.md):
# four quick suites - gcc/libgomp and clang/libomp, each with
# OMP_WAIT_POLICY=active and passive - and one plain CLOMP 1.2 output, compared
# in one ./clomp_compare command, the page opened in headless Chromium
# (screenshot) when it is installed. Figures only: nothing here passes or
# fails; the load is printed before and after (quote it beside any figure).
#
# Usage: bench/buyers_example.sh [--replicates N] [--threads T] [--out DIR]
#                                [--ref CLOMP12_SOURCE] [--suites LIST]
#   defaults: 6 replicates, threads = cores, DIR=out/buyers-example,
#   ../shared/reference/clomp-1.2/clomp.c, LIST=gcc-active,gcc-passive,
#   clang-active,clang-passive (COMPILER-WAITPOLICY; fewer suites are what
#   a busy shared machine can afford).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
replicates=6
threads=$(nproc)
out=$top/out/buyers-example
ref=$top/../shared/reference/clomp-1.2/clomp.c
[ -f "$ref" ] || ref=$top/../../shared/reference/clomp-1.2/clomp.c    # from a git worktree one level down
suites=gcc-active,gcc-passive,clang-active,clang-passive
usage="usage: $0 [--replicates N] [--threads T] [--out DIR] [--ref CLOMP12_SOURCE] [--suites LIST]"
while [ $# -gt 0 ]; do
    case $1 in
        --replicates) replicates=${2:?$usage}; shift 2 ;;
        --threads) threads=${2:?$usage}; shift 2 ;;
        --out) out=${2:?$usage}; shift 2 ;;
        --ref) ref=${2:?$usage}; shift 2 ;;
        --suites) suites=${2:?$usage}; shift 2 ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
echo "load before: $(uptime)"

make -C "$top" -s -j2 clomp clomp-stats
if [[ ,$suites, == *,clang-* ]]; then
    command -v clang >/dev/null 2>&1 || { echo "$0: no clang: leave the clang suites out (--suites)" >&2; exit 2; }
    make -C "$top" -s -j2 CC=clang BUILD=build/clang PROGRAM=build/clang/clomp build/clang/clomp
fi

names=()
IFS=, read -r -a wanted <<<"$suites"
for suite in "${wanted[@]}"; do
    compiler=${suite%%-*}
    wait=${suite#*-}
    case $compiler in
        gcc) exe=$top/clomp ;;
        clang) exe=$top/build/clang/clomp ;;
        *) echo "$0: --suites: '$suite' is not COMPILER-WAITPOLICY (gcc or clang, active or passive)" >&2; exit 2 ;;
    esac
    case $wait in
        active|passive) ;;
        *) echo "$0: --suites: '$suite': the wait policy is active or passive" >&2; exit 2 ;;
    esac
    dir=$out/$suite
    rm -rf "$dir"
    mkdir -p "$dir"
    echo "== $compiler, OMP_WAIT_POLICY=$wait: ./run_clomp.sh --quick --replicates $replicates (load: $(cut -d' ' -f1-3 /proc/loadavg))"
    OMP_WAIT_POLICY=$wait "$top/run_clomp.sh" --quick --replicates "$replicates" --no-plots --out "$dir" \
        "$exe" "$threads" >"$dir/run.log" 2>&1 || echo "$0: the $suite suite exited $? (its log: $dir/run.log)"
    bundle=$(find "$dir" -maxdepth 1 -name 'CLOMP_*.tar.gz' | head -n 1)
    [ -n "$bundle" ] || { echo "$0: the $suite suite made no bundle (its log: $dir/run.log)"; exit 3; }
    names+=(--name "$suite=$bundle")
done

if [ -f "$ref" ]; then
    gcc -O3 -fopenmp -ffp-contract=off -w -o "$out/clomp12" "$ref" -lm
    # The target input at the suites' threads and --quick's timeScale 1.
    "$out/clomp12" "$threads" -1 64 100 32 1 1 >"$out/clomp-1.2.txt"
    names+=(--name "CLOMP-1.2=$out/clomp-1.2.txt")
else
    echo "$0: no CLOMP 1.2 source at $ref: the 1.2 column is left out"
fi

# Quick suites are not submission-grade (exit 3 of clomp_validate): valid, included as such.
"$top/clomp_compare" --out "$out/page" --archive "$out/results.sqlite" "${names[@]}"
echo "load after: $(uptime)"

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chromium" ]; then
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$out/chrome" \
        --window-size=1400,4000 --screenshot="$out/page.png" "file://$out/page/buyers_table.html" >/dev/null 2>&1 \
        && echo "screenshot: $out/page.png" || echo "$0: headless Chromium took no screenshot"
else
    echo "$0: chromium not installed: no screenshot"
fi
