#!/usr/bin/env bash
# The buyer's table, ./clomp_compare (issue 33): submissions (suite
# directories, bundles, CLOMP 1.2 text) become records with the runs' own
# figures; cells, LLNL verdicts and differences (the primary figure alone,
# Holm for the rest) come from clomp-stats; invalid bundles are refused with
# their reasons unless --include-invalid, then marked on every line; the
# archive keeps one row per submission and builds the same page; hostile
# bundles (traversal, absolute paths, links, FIFOs, bounds, hostile names)
# are each refused with one line and write nothing; each machine's OpenMP
# runtime and version named, or "version unknown" and why (tests/python/).
top=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
make -C "$top" -s --no-print-directory clomp-stats >&2 || { echo "Bail out! make clomp-stats failed"; exit 255; }
cd "$top/tests/python" || exit 255
exec python3 tap_runner.py test_buyers_table.py test_buyers_hostile.py test_runtime_version.py
