#!/usr/bin/env bash
# The dry run's estimate against a measured suite, run by run: runs
# `run_clomp.sh --dry-run ARGS` for the estimate of every run, then the suite
# itself with the same ARGS into a scratch directory, and prints per run the
# estimate, the measured wall time (the run's own `Wall time` line in .full)
# and their ratio, then the totals: the sum of the runs, the suite's whole wall
# time (the driver's own work - reports, charts, bundle - included) and the
# estimate's error. Figures only: nothing here passes or fails.
#
# Usage: bench/suite_estimate.sh [run_clomp.sh arguments, no --out]
#   e.g. bench/suite_estimate.sh                 # the default suite (about 5 minutes idle)
#        bench/suite_estimate.sh --quick
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
for a in "$@"; do
    case $a in
        --out | --out=* | --dry-run | --resume*)
            echo "bench/suite_estimate.sh: $a is the script's to set; give the suite's other arguments" >&2
            exit 2
            ;;
    esac
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$top/run_clomp.sh" --dry-run "$@" >"$out/plan.txt" 2>&1 || {
    echo "bench/suite_estimate.sh: the dry run failed:" >&2
    cat "$out/plan.txt" >&2
    exit 1
}
start=$(date +%s.%N)
rc=0
"$top/run_clomp.sh" --out "$out/suite" "$@" >"$out/suite.log" 2>&1 || rc=$?
end=$(date +%s.%N)
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg); the suite exited $rc"

# Each run's wall time from its .full section: "=== run K/N: ..." then "Wall time: X s: ...".
cat "$out"/suite/*.full 2>/dev/null | awk '
    /^=== run [0-9]+\/[0-9]+:/ { split($3, a, "/"); run = a[1] + 0 }
    /^Wall time: / && run { print run, $3; run = 0 }' >"$out/measured.txt"

awk -v whole="$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }')" '
    FNR == NR { measured[$1] = $2; next }
    /^\[[0-9]+\/[0-9]+\]/ {
        split(substr($1, 2), a, "/"); k = a[1] + 0; n = a[2] + 0
        est = ""; for (i = 2; i <= NF; i++) if ($i ~ /^~[0-9]+s$/) { est = substr($i, 2, length($i) - 2) + 0; cmd_end = i - 1 }
        cmd = ""; for (i = 3; i <= cmd_end; i++) cmd = cmd (i > 3 ? " " : "") $i
        sub(/^.*clomp(_mpi)? /, "", cmd)
        m = (k in measured) ? measured[k] : ""
        printf "%-6s %-34s %8s %10s %7s\n", k "/" n, substr(cmd, 1, 34), est, (m == "" ? "-" : sprintf("%.1f", m)),
            (m == "" || m == 0 ? "-" : sprintf("%.2f", est / m))
        total_est += est; if (m != "") total_m += m
    }
    BEGIN { printf "%-6s %-34s %8s %10s %7s\n", "run", "arguments", "est. s", "measured s", "est/meas" }
    END {
        printf "sum of the runs: estimated %d s, measured %.1f s (estimate/measured %.2f)\n", total_est, total_m,
            (total_m > 0 ? total_est / total_m : 0)
        printf "the whole suite: %s s of wall time (the runs %.1f s, the driver %.1f s); estimate/measured %.2f\n",
            whole, total_m, whole - total_m, (whole > 0 ? total_est / whole : 0)
    }' "$out/measured.txt" "$out/plan.txt"
grep -m1 '^Estimated total' "$out/plan.txt"
