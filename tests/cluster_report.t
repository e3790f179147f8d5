#!/usr/bin/env bash
# The cluster report (issue 50; tests/python/test_cluster_report.py, Python
# unittest): synthetic clusters with planted outliers (bench/cluster_synth.py)
# judged as a plain re-implementation of the outlier rule judges them; the
# 1,000-node cluster's planted outliers, busy and failed nodes named, nothing
# else beyond the stated false rate; text, CSV and JSON agree; hostile names,
# bad summaries and planted links refused; clomp_mpi's mpi.per_rank read as
# nodes. Then clomp-stats outliers refuses a bad request with one line. And
# run_clomp.sh --nodes's logic (tests/python/test_cluster_suite.py): hostlists,
# which nodes, what each still runs on --resume, cluster bundles checked.
top=$(cd "$(dirname "$0")/.." && pwd)
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 8))' 2>/dev/null; then
    echo "1..0 # SKIP no Python 3.8 or newer"
    exit 0
fi
cd "$top/tests/python" || exit 255
exec python3 tap_runner.py test_cluster_report.py test_cluster_suite.py
