#!/usr/bin/env bash
# Every measurement of the table (clomp --list-schedules) in one run of the
# target input: each schedule's us/Loop and its overhead against Bestcase
# OMP, in us and in cycles, and the three per-construct figures LLNL's
# 500-cycle target could be judged on - Parallel For (EPCC's method, what
# clomp judges), OMP Parallel (an empty fork/join) and Static OMP - Bestcase
# OMP (CLOMP's overhead). Figures only: nothing here passes or fails.
#
# Usage: bench/schedules.sh [--clomp PATH] [-- CLOMP ARGUMENTS]
#   defaults: ./clomp, arguments 2 1 64 100 32 1 10
set -euo pipefail

clomp=$(cd "$(dirname "$0")/.." && pwd)/clomp
args=(2 1 64 100 32 1 10)
while [ $# -gt 0 ]; do
    case $1 in
        --clomp) clomp=$2; shift 2 ;;
        --) shift; args=("$@"); break ;;
        *) echo "usage: $0 [--clomp PATH] [-- CLOMP ARGUMENTS]" >&2; exit 2 ;;
    esac
done
[ -x "$clomp" ] || { echo "$0: no clomp at $clomp (run make)" >&2; exit 2; }

every=$("$clomp" --list-schedules | awk -F'\t' '!/^#/ { printf "%s%s", sep, $1; sep = "," }')
csv=$(mktemp)
trap 'rm -f "$csv"' EXIT
echo "clomp --schedules=<all> ${args[*]}  ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-unset})"
"$clomp" --quiet --schedules="$every" --csv="$csv" "${args[@]}" >/dev/null
python3 - "$csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
fmt = "%-22s %-14s %-9s %9s %12s %12s  %s"
def num(text, decimals):
    return "-" if text == "" else "%.*f" % (decimals, float(text))
print(fmt % ("key", "name", "role", "us/Loop", "overhead us", "ovh. cycles", "LLNL verdict"))
for r in rows:
    print(fmt % (r["key"], r["name"], r["role"], num(r["us_per_loop"], 3), num(r["overhead_us"], 3),
                 num(r["overhead_cycles"], 0), r["llnl_verdict"] or ""))
by = {r["key"]: r for r in rows}
print()
for key, what in (("parallel_for", "Parallel For (EPCC's method, judged)"), ("parallel", "OMP Parallel (empty fork/join)")):
    print("%-40s %s cycles" % (what, num(by[key]["us_per_loop_cycles"], 0)))
print("%-40s %s cycles" % ("Static OMP - Bestcase OMP (CLOMP's)", num(by["static"]["overhead_cycles"], 0)))
PY
