# shellcheck shell=bash
# For the tests of clomp-write's subcommands (write/): writer, the helper (built
# if need be), and root, a temporary directory removed on exit. Source it after
# tests/lib/tap.sh.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
writer=${CLOMP_WRITE:-$top/build/clomp-write}
[ -x "$writer" ] || make -C "$top" -s --no-print-directory clomp-write >&2 || { echo "Bail out! make clomp-write failed"; exit 255; }
[ -x "$writer" ] || writer=$top/build/clomp-write
root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() { rm -rf "$root"; }
trap cleanup EXIT
