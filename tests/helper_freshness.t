#!/usr/bin/env bash
# The driver's C helpers are rebuilt when a tree update left them older than their sources
# (built_helper, suite/common.sh): an old build/clomp-write lacks the subcommands the new driver
# calls. Run against a scratch tree whose Makefile stands in for the real one and counts its runs,
# so what is asserted is when make is asked, not how the helper is built.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
here=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() { rm -rf "$here"; }
trap cleanup EXIT
mkdir "$here/build" "$here/write"
printf 'clomp-write:\n\techo made >>runs; printf "#!/bin/sh\\n" >build/clomp-write; chmod +x build/clomp-write\n' >"$here/Makefile"
# shellcheck source=../suite/common.sh
. "$top/suite/common.sh"
made() { [ -e "$here/runs" ] && wc -l <"$here/runs" || echo 0; }
old() { touch -d '2001-01-01' "$@"; }

echo 'int x;' >"$here/write/clomp_write.c"
path=$(built_helper clomp-write "$here"/write/*.[ch])
is "$path" "$here/build/clomp-write" "a missing helper's path is build/NAME"
is "$(made)" 1 "a missing helper is made"
old "$here/write/clomp_write.c"
built_helper clomp-write "$here"/write/*.[ch] >/dev/null
is "$(made)" 1 "a helper newer than every source is used as it is: make is not run"
touch "$here/write/clomp_write.c"
old "$here/build/clomp-write"
built_helper clomp-write "$here"/write/*.[ch] >/dev/null
is "$(made)" 2 "a helper older than one of its sources is made again"
old "$here/build/clomp-write"
# shellcheck disable=SC2123  # the point: a PATH without make
(PATH=/nonexistent; built_helper clomp-write "$here"/write/*.[ch] >/dev/null)
is "$(made)" 2 "without make on the PATH an older helper is kept, not refused"
printf 'clomp-write:\n\tfalse\n' >"$here/Makefile"
if built_helper clomp-write "$here"/write/*.[ch] >/dev/null 2>&1; then st=0; else st=1; fi
is "$st" 1 "a make that fails is said (status 1), not hidden behind the old helper"
done_testing
