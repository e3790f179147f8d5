#!/usr/bin/env bash
# first_failure.sh BASE: how many runs of suite BASE failed, and why the first
# one did. Prints nothing when no run failed, else one line:
#   F of N runs FAILED; first: run K (SET, exit status RC): REASON
# REASON is the first line of that run's output (its .full section) that says
# what went wrong: clomp's own one-line message ("clomp: ..."), else the first
# line naming an error, refusal or failure in its words (not in a path or an
# option: a launcher's banner), else its last line. Exit 0, 2 when BASE is not a suite.
set -u
base=${1:?usage: first_failure.sh BASE}
[ -f "$base.env" ] || { echo "first_failure.sh: no suite at $base" >&2; exit 2; }
total=$(sed -n 's/^plan: //p' "$base.env" | head -n 1 | tr ';' '\n' | grep -c '|')
failed=$(for f in "$base"_*.summary; do [ -e "$f" ] && awk -F, 'FNR > 1 && $3 == "FAILED" { print $1 "\t" $2 "\t" $4 }' "$f"; done | sort -n)
[ -n "$failed" ] || exit 0
IFS=$'\t' read -r run set_name rc <<<"$(head -n 1 <<<"$failed")"
reason=$(awk -v k="$run" '
    /^=== run [0-9]+\// { r = $3; sub(/\/.*/, "", r); on = (r == k); next }
    /^=== end of run [0-9]+:/ { on = 0; next }
    on && /[A-Za-z]/ { line = $0; gsub(/^[ \t]+|[ \t]+$/, "", line)
        if (own == "" && line ~ /^clomp(_mpi)?: /) own = line
        words = " " tolower(line) " "; gsub(/ [^ ]*[\/=][^ ]*/, " ", words)  # not in paths or options
        if (named == "" && words ~ /error|refus|fail|cannot|can.t|detected|abort|denied|not found|no such|killed|signal/) named = line
        last = line }
    END { print (own != "" ? own : named != "" ? named : last != "" ? last : "no output") }' "$base"_*.full 2>/dev/null)
printf '%s of %s runs FAILED; first: run %s (%s, exit status %s): %s\n' \
    "$(grep -c . <<<"$failed")" "$total" "$run" "$set_name" "$rc" "${reason:-no output}"
