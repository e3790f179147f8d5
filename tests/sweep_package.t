#!/usr/bin/env bash
# run_clomp.sh --sweep's presets and the team-size cliff in the results package
# (issue 32, items 3 and 4; tests/python/test_sweep.py): each preset picks its
# runtime's knobs or is refused; the cliff is flagged on synthetic records only
# above the stated factor; the oversubscribed run never reaches a submission.
top=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
cd "$top/tests/python" || exit 255
exec python3 tap_runner.py test_sweep.py
