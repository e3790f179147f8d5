#!/usr/bin/env bash
# Which overhead does the project quote? (issue 43, item 2.) The three
# estimators of Static OMP's overhead that clomp keeps (clomp --list-figures):
#   static_omp_overhead_us          CLOMP 1.2's, from the whole Runtimes (the mean over the chunks)
#   static_omp_median_overhead_us   median chunk minus Bestcase's median chunk
#   static_omp_paired_overhead_us   Hodges-Lehmann shift of the paired chunk differences
# measured side by side in the same processes on the target input (threads
# bound), at two chunk counts (--trials, default 20 and 1000), with the tree's
# clomp ("after") and, with --before COMMIT, the tree at COMMIT built apart
# ("before": e.g. the commit before issue 44's Bestcase fix, which moved
# Bestcase's join into its last chunk), in turn, N processes each. Per binary,
# chunk count and estimator it prints: the processes that gave the figure (not
# invalid, not on a busy machine), their median and spread (1.4826 x MAD, and
# relative to the median), the share of processes whose own 95% interval holds
# the median of the other processes (leave-one-out: how far to trust the
# interval a single run prints; none for 1.2's, which the record carries no
# interval of), and how far the median moves from the first chunk count to
# the second (a figure that depends on how the run is cut is biased). The load
# average is printed before and after. --keep-busy keeps the processes the
# noise census found busy (counted, not dropped): how each estimator bears a
# loaded machine, where an idle one cannot be had. Figures only: nothing passes or fails;
# docs/statistics.md ("The overhead the project quotes") records a run and the
# choice it supports.
#
# Usage: bench/overhead_estimator.sh [--processes N] [--trials K1,K2] [--before COMMIT] [--clomp PATH]
#                                    [--keep-busy] [-- CLOMP ARGUMENTS]
#   defaults: 6 processes, --trials 20,1000, ./clomp, the target input -1 1 64 100 32 1 100
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
processes=6
trials=20,1000
clomp=$top/clomp
before=
keep_busy=0
args=(-1 1 64 100 32 1 100)
usage="usage: $0 [--processes N] [--trials K1,K2] [--before COMMIT] [--clomp PATH] [--keep-busy] [-- CLOMP ARGUMENTS]"
while [ $# -gt 0 ]; do
    case $1 in
        --processes) processes=${2:?$usage}; shift 2 ;;
        --trials) trials=${2:?$usage}; shift 2 ;;
        --before) before=${2:?$usage}; shift 2 ;;
        --clomp) clomp=${2:?$usage}; shift 2 ;;
        --keep-busy) keep_busy=1; shift ;;
        --) shift; args=("$@"); break ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
case $processes in '' | *[!0-9]* | 0 | 1) echo "$0: --processes needs a whole number of at least 2" >&2; exit 2 ;; esac
case $trials in '' | *[!0-9,]* | ,* | *, | *,,*) echo "$0: --trials needs whole numbers, comma-separated" >&2; exit 2 ;; esac
IFS=, read -r -a trial_list <<<"$trials"
[ -x "$clomp" ] || { echo "$0: no clomp at $clomp (make)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "$0: python3 is needed for the statistics" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
binaries=(after)
if [ -n "$before" ]; then
    git -C "$top" rev-parse --verify -q "$before^{commit}" >/dev/null || { echo "$0: --before: no commit $before" >&2; exit 2; }
    mkdir "$work/before-tree"
    git -C "$top" archive "$before" | tar -x -C "$work/before-tree"
    make -s -C "$work/before-tree" clomp >"$work/before-build.log" 2>&1 ||
        { echo "$0: the tree at $before did not build:" >&2; tail -n 5 "$work/before-build.log" >&2; exit 1; }
    binaries+=(before)
fi
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}
echo "input: ${args[*]} --schedules=serial,bestcase,static; --trials ${trials//,/, }; $processes processes each," \
    "binaries in turn; OMP_PROC_BIND=$OMP_PROC_BIND OMP_PLACES=$OMP_PLACES"
echo "after: $clomp ($(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo 'no git'))${before:+; before: $before}"
echo "load before: $(uptime)"
for ((i = 1; i <= processes; i++)); do
    for k in "${trial_list[@]}"; do
        for b in "${binaries[@]}"; do
            exe=$clomp
            [ "$b" = before ] && exe=$work/before-tree/clomp
            "$exe" --schedules=serial,bestcase,static --trials="$k" --json="$work/$b.$k.$i.json" "${args[@]}" \
                >/dev/null 2>&1 || :
        done
    done
done
echo "load after:  $(uptime)"

python3 - "$work" "$processes" "${trials}" "$keep_busy" "${binaries[@]}" <<'PY'
import json
import os
import statistics
import sys

work, n, trials, keep_busy, binaries = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4] == "1", sys.argv[5:]
# (label, the Static OMP measurement's member, its interval's member; None: the record carries none)
ESTIMATORS = [("1.2 Runtime", "runtime_overhead_us_per_loop", None),
              ("median chunks", "overhead_us_per_loop", "overhead_ci_95"),
              ("paired (HL)", "paired_overhead.us_per_loop", "paired_overhead.ci_95")]


def member(doc, path):
    for part in path.split("."):
        doc = doc.get(part) if isinstance(doc, dict) else None
    return doc


def processes(b, k):
    """(value, interval or None) per estimator, and how many processes were busy or lost, for one cell."""
    out, busy, lost = {label: [] for label, _, _ in ESTIMATORS}, 0, 0
    for i in range(1, n + 1):
        try:
            with open(os.path.join(work, "%s.%s.%d.json" % (b, k, i))) as f:
                d = json.load(f)
        except (OSError, ValueError):
            lost += 1
            continue
        if (d.get("noise_census") or {}).get("busy") is True:
            busy += 1
            if not keep_busy:
                continue
        m = next((x for x in d.get("measurements") or [] if x.get("key") == "static"), None)
        if m is None or m.get("valid") is False:
            lost += 1
            continue
        for label, path, ci in ESTIMATORS:
            v = member(m, path)
            if v is not None:
                out[label].append((v, member(m, ci) if ci else None))
    return out, busy, lost


def mad(xs):
    med = statistics.median(xs)
    return 1.4826 * statistics.median([abs(x - med) for x in xs])


def coverage(pairs):
    """Share of processes whose own interval holds the median of the other processes (leave-one-out)."""
    judged = held = 0
    for i, (_, ci) in enumerate(pairs):
        others = [v for j, (v, _) in enumerate(pairs) if j != i]
        if ci is None or len(others) < 2:
            continue
        judged += 1
        held += ci[0] <= statistics.median(others) <= ci[1]
    return "%d/%d" % (held, judged) if judged else "no interval"


medians = {}
print("\n%-7s %6s %-14s %9s %9s %10s %10s %12s  %s" % ("binary", "chunks", "estimator", "processes", "median", "spread",
                                                        "spread/|m|", "own CI holds", "busy (kept)" if keep_busy else ""))
for b in binaries:
    for k in trials:
        cells, busy, lost = processes(b, k)
        for label, _, _ in ESTIMATORS:
            pairs = cells[label]
            xs = [v for v, _ in pairs]
            if len(xs) < 2:
                print("%-7s %6s %-14s %4d of %d  too few (%d busy, %d invalid or failed)" % (b, k, label, len(xs), n, busy, lost))
                continue
            med, spread = statistics.median(xs), mad(xs)
            medians[(b, k, label)] = (med, spread)
            print("%-7s %6s %-14s %4d of %d %9.3f %10.3f %10s %12s  %s" % (
                b, k, label, len(xs), n, med, spread, "%.2f" % (spread / abs(med)) if med else "-", coverage(pairs),
                busy if keep_busy else ""))
print("\nThe median's move from %s to %s chunks, in us/Loop and in spreads (the larger of the two cells'):" % tuple(trials[:2]))
for b in binaries:
    for label, _, _ in ESTIMATORS:
        first, second = medians.get((b, trials[0], label)), medians.get((b, trials[-1], label))
        if first is None or second is None:
            print("  %-7s %-14s no figure in one of the two" % (b, label))
            continue
        spread = max(first[1], second[1])
        print("  %-7s %-14s %+8.3f us/Loop (%s spreads)" % (b, label, second[0] - first[0],
                                                          "%+.1f" % ((second[0] - first[0]) / spread) if spread else "-"))
PY
