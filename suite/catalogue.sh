# shellcheck shell=bash
# The catalogue of figures for the suite's shell (issue 43; docs/output.md,
# "Figures"): clomp --list-figures read by its columns' names, so that no
# figure list is written in the suite. The tree's clomp answers ($CLOMP, else
# ./clomp: the one the results package asks), the suite's EXE only where that
# one is missing; a listing costs a few milliseconds and starts no thread.
# Sourced by run_clomp.sh; reads, assigned there before any function below runs:
#   reads: exe, here, writer (run_clomp.sh)
declare -g exe here writer

# figure_rows SET COLUMN...: one line per figure of the catalogue's SET ("key", "replicates", "run", ...),
# the named COLUMNs of each joined by '|'; exit 1 when no clomp lists the catalogue.
figure_rows() {
    local set=$1 list
    shift
    list=$("${CLOMP:-$here/clomp}" --list-figures 2>/dev/null) || list=$("$exe" --list-figures 2>/dev/null) || return 1
    "$writer" figures "$set" "$@" <<<"$list"   # write/figure_rows.c
}

# What the 2007 summary tells users to check after each key run: the text lines of the catalogue's run
# set, each as the block prints it ("%13s %8s:"). key_report FILE: those lines of FILE.
key_lines=''
key_report() {
    local f=$1 name tag
    if [ -z "$key_lines" ]; then
        key_lines=$(figure_rows run measurement_name text_line | while IFS='|' read -r name tag; do
            [ "$tag" = - ] || printf '%13s %8s:\n' "$name" "$tag"
        done)
    fi
    echo "Key measurements from above run (if off, check environment):"
    { [ -n "$key_lines" ] && grep -F -- "$key_lines" "$f"; } || echo "  (not available: the run failed)"
}
