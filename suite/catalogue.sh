# shellcheck shell=bash
# The catalogue of figures for the suite's shell (issue 43; docs/output.md,
# "Figures"): clomp --list-figures read by its columns' names, so that no
# figure list is written in the suite. The tree's clomp answers ($CLOMP, else
# ./clomp: the one the results package asks), the suite's EXE only where that
# one is missing; a listing costs a few milliseconds and starts no thread.
# Sourced by run_clomp.sh; reads, assigned there before any function below runs:
#   reads: exe, here (run_clomp.sh)
declare -g exe here

# figure_rows SET COLUMN...: one line per figure of the catalogue's SET ("key", "replicates", "run", ...),
# the named COLUMNs of each joined by '|'; exit 1 when no clomp lists the catalogue.
figure_rows() {
    local set=$1 list
    shift
    list=$("${CLOMP:-$here/clomp}" --list-figures 2>/dev/null) || list=$("$exe" --list-figures 2>/dev/null) || return 1
    awk -F'\t' -v set="$set" -v want="$*" 'NR == 1 { for (i = 1; i <= NF; i++) { h = $i; sub(/^# /, "", h); c[h] = i }
                                                      n = split(want, w, " "); next }
        ("," $c["sets"] ",") ~ ("," set ",") { line = ""; for (i = 1; i <= n; i++) line = line (i > 1 ? "|" : "") $c[w[i]]; print line }' \
        <<<"$list"
}
