#!/usr/bin/env bash
# The Python results package (results/clomp_results, issue 29 and 30): its
# unittest files, one TAP line per test: the golden re-render of today's
# tables and between-process summary from the JSON records, clomp-stats' JSON
# answers, hostile names through every table, and the
# hostile bundles and suite directories (links, devices, FIFOs, bombs,
# members past the bound, escapes) each refused in seconds with nothing written
# outside, and the suite's cost model against hand-worked figures (tests/python/).
# The quick lane packs 2,001 members past the bound of 2,000 (the full lane,
# make check-all, 20,000) and a 24 MiB bomb against a 16 MiB bound.
top=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
cd "$top/tests/python" || exit 255
exec python3 tap_runner.py test_tables.py test_between.py test_grade.py test_hostile_bundles.py test_estimate.py test_stats_table.py test_driver_guard.py
