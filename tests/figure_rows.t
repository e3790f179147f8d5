#!/usr/bin/env bash
# The catalogue of figures read by its columns' names (clomp-write figures: write/figure_rows.c)
# against the oracle it replaces: suite/catalogue.sh's figure_rows with its awk, kept below word for
# word, on the same listings: clomp's own --list-figures, every set its sets column names and some it
# does not (a prefix of one, an empty one), asking for each column, several, none, one the listing
# lacks; and made-up listings: a short line, a column named twice, no sets column, an empty field,
# no header's "# ", a header alone, nothing. Both must print the same lines.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source-path=SCRIPTDIR source=lib/writer.sh
. "$(dirname "$0")/lib/writer.sh"

# ---- the oracle: suite/catalogue.sh's figure_rows before the move -------------------------------
old_figure_rows() {
    local set=$1 list
    shift
    list=$("${CLOMP:-$here/clomp}" --list-figures 2>/dev/null) || list=$("$exe" --list-figures 2>/dev/null) || return 1
    awk -F'\t' -v set="$set" -v want="$*" 'NR == 1 { for (i = 1; i <= NF; i++) { h = $i; sub(/^# /, "", h); c[h] = i }
                                                      n = split(want, w, " "); next }
        ("," $c["sets"] ",") ~ ("," set ",") { line = ""; for (i = 1; i <= n; i++) line = line (i > 1 ? "|" : "") $c[w[i]]; print line }' \
        <<<"$list"
}
# shellcheck source=../suite/catalogue.sh
. "$top/suite/catalogue.sh"

# A stand-in clomp that lists the table in $root/listing (both functions ask $CLOMP first).
printf '#!/bin/sh\ncat "%s/listing"\n' "$root" >"$root/clomp"
chmod +x "$root/clomp"
here=$top exe=/nonexistent
real=${CLOMP:-$top/clomp}
[ -x "$real" ] || { echo "Bail out! no clomp to list the catalogue ($real)"; exit 255; }
"$real" --list-figures >"$root/listing" || { echo "Bail out! $real --list-figures failed"; exit 255; }

# same_rows NAME SET COLUMN...: both functions print the same on the listing in $root/listing.
same_rows() {
    local name=$1 old new
    shift
    old=$(CLOMP=$root/clomp old_figure_rows "$@"; echo "rc=$?")
    new=$(CLOMP=$root/clomp figure_rows "$@"; echo "rc=$?")
    is "$new" "$old" "$name: figure_rows $* prints the same ($(($(wc -l <<<"$old") - 1)) lines)"
}

columns=$(head -n 1 "$root/listing" | sed 's/^# //' | tr '\t' ' ')
sets=$(tail -n +2 "$root/listing" | awk -F'\t' -v c="$(tr ' ' '\n' <<<"$columns" | grep -nx sets | cut -d: -f1)" '{ print $c }' |
    tr ',' '\n' | sort -u | tr '\n' ' ')
# shellcheck disable=SC2086  # word lists
for set in $sets ke '' 'run key'; do
    same_rows "clomp's catalogue" "$set" measurement_name text_line
    same_rows "clomp's catalogue" "$set" measurement csv label unit
    same_rows "clomp's catalogue" "$set" $columns
done
for column in $columns no_such_column; do
    same_rows "clomp's catalogue, one column" run "$column"
done
same_rows "clomp's catalogue, no column" key
same_rows "clomp's catalogue, columns in one word" replicates "measurement csv"

printf '# key\tsets\tunit\tunit\nA\tkey,run\tus\tms\nB\trun\nC\t\tx\ty\nD\tkey\t\t\n' >"$root/listing"
same_rows "a short line, a column twice, an empty field" key key unit sets
same_rows "a short line, a column twice, an empty field" run key unit sets
same_rows "a short line, a column twice, an empty field" '' key unit
printf 'key\tunit\nA\tus\nkey\n' >"$root/listing"
same_rows "no sets column (the whole line is matched), no \"# \"" key key unit
printf '# key\tsets\n' >"$root/listing"
same_rows "a header alone" key key
: >"$root/listing"
same_rows "nothing" key key
done_testing
