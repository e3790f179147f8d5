#!/usr/bin/env bash
# Rewrites the expected files of tests/golden.t from a clomp binary:
#
#     tests/golden/regenerate.sh [BINARY]      (default: ./clomp of this tree)
#
# Run it ONLY when an output change is intended, from a default build (gcc,
# libgomp, with libnuma: the expected files are that build's; the test drops
# what a NUMA=0 build cannot print), review `git diff tests/golden/`, and list
# every changed line, key or column in the commit message. Regenerating to make
# a failing golden test pass hides exactly the change it exists to catch.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-"$here/../../clomp"}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
[ -x "$bin" ] || { echo "no executable clomp at $bin" >&2; exit 2; }
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
while read -r name args; do
    read -r -a argv <<<"$args"
    if ! golden_run "$bin" "$work" "$name" "${argv[@]}"; then
        echo "clomp ${argv[*]} failed:" >&2
        cat "$work/$name.err" >&2
        exit 1
    fi
    if [ -s "$work/$name.err" ]; then
        echo "clomp ${argv[*]} wrote to stderr:" >&2
        cat "$work/$name.err" >&2
        exit 1
    fi
    if ! python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["build"]["libnuma"] is not True)' \
        "$work/$name.json"; then
        echo "$bin was built without libnuma: regenerate from a default build" >&2
        exit 1
    fi
    for kind in "${GOLDEN_KINDS[@]}"; do
        golden_masked "$kind" "$bin" "$work" "$name" >"$here/$name.$kind"
    done
    echo "wrote $here/$name.{$(IFS=,; echo "${GOLDEN_KINDS[*]}")}"
done < <(golden_cases)
