#!/usr/bin/env bash
# run_clomp.sh --grain's bracket search, its "not decided" rule, its cells' statistics
# and the best team in the results package (issue 48, item 1; tests/python/test_grain.py), and the
# suite page's "Node limits" section (tests/python/test_node_limits.py):
# synthetic speed-up curves against a plain re-implementation and brute force; the validator's
# recomputation of a bundled grain run and its comparison of a --limits run's Node limits text with
# its record, forged bundles refused (tests/python/test_grain_check.py, test_limits_check.py).
top=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
cd "$top/tests/python" || exit 255
exec python3 tap_runner.py test_grain.py test_node_limits.py test_grain_check.py test_limits_check.py
