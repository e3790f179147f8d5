#!/usr/bin/env bash
# Rewrites the expected files of tests/golden.t from a clomp binary, for an
# intended output change only:
#
#     make golden REASON='what changed in the output, and why'
#     tests/golden/regenerate.sh --reason 'TEXT' [BINARY]   (default: ./clomp of this tree)
#
# It refuses to run without a reason. It prints the diff of every expected
# file it changes (read it line by line), writes the files, and appends the
# reason, the changed files and the new files' fingerprint to
# tests/golden/REASONS, which the commit carries: tests/golden.t fails while
# the expected files differ from the fingerprint REASONS last recorded, so a
# golden file edited or regenerated any other way fails the test. Commit with
# the message it prints ("golden: REASON"), in a commit of its own.
#
# Run it from a default build (gcc, libgomp, with libnuma: the expected files
# are that build's; the test drops what a NUMA=0 build cannot print).
# Regenerating to make a failing golden test pass hides exactly the change it
# exists to catch.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

usage() {
    cat >&2 <<'EOF'
usage: tests/golden/regenerate.sh --reason 'TEXT' [BINARY]
       make golden REASON='TEXT'
TEXT says which output lines, keys or columns change and why (at least 10 characters);
it is recorded in tests/golden/REASONS and goes into the commit message.
EOF
    exit 2
}

reason='' bin=''
while [ $# -gt 0 ]; do
    case $1 in
        --reason) [ $# -ge 2 ] || usage; reason=$2; shift 2 ;;
        --reason=*) reason=${1#--reason=}; shift ;;
        -h | --help) usage ;;
        -*) echo "regenerate.sh: unknown option $1" >&2; usage ;;
        *) [ -z "$bin" ] || usage; bin=$1; shift ;;
    esac
done
reason=$(printf '%s' "$reason" | tr '\n\t' '  ' | sed -e 's/^ *//' -e 's/ *$//')
if [ "${#reason}" -lt 10 ]; then
    echo "regenerate.sh: refusing to regenerate the golden files without a reason (--reason 'TEXT', 10 characters or more)" >&2
    usage
fi
bin=${bin:-"$here/../../clomp"}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
[ -x "$bin" ] || { echo "regenerate.sh: no executable clomp at $bin" >&2; exit 2; }
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/new"
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
        golden_masked "$kind" "$bin" "$work" "$name" >"$work/new/$name.$kind"
    done
done < <(golden_cases)

# The diff, file by file, before anything is written.
changed=() summary=''
for file in $(golden_files); do
    old=$GOLDEN_DIR/$file
    [ -e "$old" ] || old=/dev/null
    if ! cmp -s "$old" "$work/new/$file"; then
        changed+=("$file")
        diff -u --label "a/tests/golden/$file" --label "b/tests/golden/$file" "$old" "$work/new/$file" |
            tee "$work/diff" || true
        summary+=" $file (+$(grep -c '^+[^+]' "$work/diff" || true) -$(grep -c '^-[^-]' "$work/diff" || true))"
    fi
done
recorded=$(golden_recorded_fingerprint)
if [ "${#changed[@]}" -eq 0 ] && [ "$recorded" = "$(golden_fingerprint)" ]; then
    echo "the golden files already match $bin and tests/golden/REASONS records them: nothing written"
    exit 0
fi

for file in "${changed[@]}"; do
    cp "$work/new/$file" "$GOLDEN_DIR/$file"
done
[ -n "$summary" ] || summary=' none (the files as they were, recorded)'
{
    echo
    echo "## $(date -u '+%Y-%m-%dT%H:%MZ') from $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo 'no git')"
    echo "reason: $reason"
    echo "binary: $bin"
    echo "changed:$summary"
    echo "fingerprint: $(golden_fingerprint)"
} >>"$GOLDEN_DIR/REASONS"

echo
echo "wrote ${#changed[@]} file(s) and recorded the reason in tests/golden/REASONS. Read the diff above, then:"
quoted=${reason//\'/\'\\\'\'}
echo "    git add tests/golden && git commit -m 'golden: $quoted'"
