#!/usr/bin/env bash
# The dry run's estimate against a measured suite, run by run: runs
# `run_clomp.sh --dry-run ARGS` for the estimate of every run, then the suite
# itself with the same ARGS into a scratch directory, and prints per run the
# estimate, the measured wall time (the run's own `Wall time` line in .full)
# and their ratio, then the totals: the sum of the runs, the suite's whole wall
# time (the driver's own work - reports, charts, bundle - included) and the
# estimate's error. Then the two checks of issue 35: the whole suite within
# +-25% of the dry run's estimate, and the ETA the suite printed once the
# first third of its runs were done within +-25% of the time that was then
# left (to the suite's last line before its reports). Both are printed with
# the load; the exit status is 0 either way (a busy node misses them).
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
# Every line of the suite's output with the time it came (the ETA lines among them).
"$top/run_clomp.sh" --out "$out/suite" "$@" 2>&1 </dev/null |
    while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done >"$out/suite.log"
rc=${PIPESTATUS[0]}
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
grep -m1 '^Model: ' "$out/plan.txt"

# ---- the checks ----------------------------------------------------------------------------
total_est=$(sed -n 's/^Estimated total: ~\([0-9]*\):\([0-9]*\) .*/\1 \2/p' "$out/plan.txt" | awk '{ print $1 * 60 + $2 }')
awk -v est="${total_est:-0}" -v s="$start" -v e="$end" 'BEGIN {
    whole = e - s; r = whole > 0 ? est / whole : 0
    printf "check 1: the suite took %.0f s against the estimate of %d s (estimate/measured %.2f): %s\n", whole, est, r,
        (r >= 0.75 && r <= 1.25) ? "within +-25%" : "NOT within +-25%" }'
# The first progress line after a third of the runs: "[K/N] ... eta MM:SS", and when the runs ended.
awk '
    $2 ~ /^\[[0-9]+\/[0-9]+\]$/ && $(NF - 1) == "eta" {
        split(substr($2, 2), a, "/"); k = a[1] + 0; n = a[2] + 0
        if (!found && k - 1 >= n / 3) { found = 1; t = $1; split($NF, m, ":"); eta = m[1] * 60 + m[2]; at = k }
    }
    $2 == "Suite" && ($3 == "complete:" || $3 == "ended.") { ended = $1 }
    END {
        if (!found || !ended) { print "check 2: no ETA line after the first third of the runs, or no end of the runs: not checked"; exit }
        left = ended - t; r = left > 0 ? eta / left : 0
        printf "check 2: at run %d of %d the ETA said %d s; %.0f s were left (ETA/left %.2f): %s\n", at, n, eta, left, r,
            (r >= 0.75 && r <= 1.25) ? "within +-25%" : "NOT within +-25%"
    }' "$out/suite.log"
echo "# load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
