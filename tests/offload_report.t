#!/usr/bin/env bash
# The offload figures of the results package (docs/offload.md): the
# crossover from clomp-stats' comparisons of each swept mesh, bracketed by
# the sizes around it, or "no crossover in the range"; the report's offload
# section with the device escaped and a host plugin marked (tests/python/
# test_offload_figures.py, one TAP line per test).
top=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
[ -x "${CLOMP_STATS:-$top/build/clomp-stats}" ] || make -C "$top" --no-print-directory -s clomp-stats >&2
cd "$top/tests/python" || exit 255
exec python3 tap_runner.py test_offload_figures.py
