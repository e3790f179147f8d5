#!/usr/bin/env bash
# first_failure.sh BASE: how many runs of suite BASE failed, and why the first
# one did. Prints nothing when no run failed, else one line:
#   F of N runs FAILED; first: run K (SET, exit status RC): REASON
# REASON is the one the driver recorded in <base>.env when the run ended
# ("---- run K FAILED (SET, exit status RC): REASON": its --run-timeout, or
# the run's last line on stderr, i.e. clomp's one-line error, or its signal;
# suite/run_guard.sh). No run's output is read. Exit 0, 2 when BASE is not a suite.
set -u
base=${1:?usage: first_failure.sh BASE}
[ -f "$base.env" ] || { echo "first_failure.sh: no suite at $base" >&2; exit 2; }
total=$(sed -n 's/^plan: //p' "$base.env" | head -n 1 | tr ';' '\n' | grep -c '|')
failed=$(for f in "$base"_*.summary; do [ -e "$f" ] && awk -F, 'FNR > 1 && $3 == "FAILED" { print $1 "\t" $2 "\t" $4 }' "$f"; done | sort -n)
[ -n "$failed" ] || exit 0
IFS=$'\t' read -r run set_name rc <<<"$(head -n 1 <<<"$failed")"
# The last reason recorded for the run: a run that ran again on --resume has its latest.
reason=$(grep -- "^---- run $run FAILED (" "$base.env" | tail -n 1 | sed 's/^---- run [0-9]* FAILED ([^)]*): //')
printf '%s of %s runs FAILED; first: run %s (%s, exit status %s): %s\n' \
    "$(grep -c . <<<"$failed")" "$total" "$run" "$set_name" "$rc" "${reason:-no reason recorded (a suite from a driver that did not record reasons)}"
