#!/usr/bin/env bash
# The results package's charts and HTML report (tests/python/test_render_*.py,
# Python unittest): the golden suite's tables re-rendered with the old code's
# values, hostile cells and names that stay data in gnuplot and HTML (a canary
# directory stays empty), planted links, FIFOs and devices refused, and the
# report following the records (LLNL targets, roles, validity, busy census);
# the --compare report's header and overall answer, and its verdict when nothing could be compared
# (tests/python/test_compare_report.py), each side's runtime library found in its own environment,
# and its command line read (test_compare_options.py); every chart drawn by one gnuplot as it is drawn alone
# (tests/python/test_charts_batch.py); a figure only from the processes that gave it as a result, a median
# only from 3 or more of them, in the closing lines, the headline and the buyer's table (test_given.py).
top=$(cd "$(dirname "$0")/.." && pwd)
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 8))' 2>/dev/null; then
    echo "1..0 # SKIP no Python 3.8 or newer"
    exit 0
fi
cd "$top/tests/python" || exit 255
exec python3 tap_runner.py test_render_golden.py test_render_hostile.py test_render_links.py test_render_records.py \
    test_compare_report.py test_compare_options.py test_charts_batch.py test_given.py
