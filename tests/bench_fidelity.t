#!/usr/bin/env bash
# bench/fidelity.sh's table (bench/fidelity_table.py) keeps CLOMP 1.2's
# Overhead line and clomp's median-chunk overhead (Med. Ovh) apart (issue 35,
# item 3): the 'Static overhead' row compares the two programs' Overhead lines
# (the whole Runtime), and the 'Static med. chunk ovh' row clomp's Med. Ovh
# against 1.2's Overhead line, each with the medians over processes.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

command -v python3 >/dev/null 2>&1 || { printf '1..0 # SKIP the table is python3\n'; exit 0; }
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT

# Three processes of each: 1.2's Overhead 0.9, 1.0, 1.1; clomp's Overhead 0.8, 0.9, 1.0
# and Med. Ovh 0.4, 0.5, 0.6.
for i in 1 2 3; do
    printf '   Static OMP Overhead: %s (versus bestcase, in us/Loop)\n' "$(awk -v i="$i" 'BEGIN { print 0.8 + i / 10 }')" >"$tmp/target.12.$i"
    {
        printf '   Static OMP Overhead: %s (versus bestcase, in us/Loop)\n' "$(awk -v i="$i" 'BEGIN { print 0.7 + i / 10 }')"
        printf '   Static OMP Med. Ovh: %s us/Loop (median chunk minus Bestcase'"'"'s median chunk; robust to an outlying chunk)\n' \
            "$(awk -v i="$i" 'BEGIN { print 0.3 + i / 10 }')"
    } >"$tmp/target.default.$i"
done
table=$(cd "$top/bench" && python3 fidelity_table.py "$tmp" target 3 default 2>&1)
is "$?" 0 "fidelity_table.py reads the reports"
row() { grep "^$1 " <<<"$table" | tr -s ' '; }
like "$(row 'Static overhead')" "^Static overhead 1 0.9..1.1 \| 0.9 0.9 " \
    "the Static overhead row: 1.2's median 1 (0.9..1.1) against clomp's Overhead line, 0.9"
like "$(row 'Static med. chunk ovh')" "^Static med. chunk ovh 1 0.9..1.1 \| 0.5 0.5 " \
    "the Static med. chunk ovh row: clomp's Med. Ovh (0.5) against 1.2's Overhead line (1), ratio 0.5"

done_testing
