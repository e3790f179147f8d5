#!/usr/bin/env bash
# Python hygiene: every Python file of the product (integrations/ too), its tests and bench/ is
# pyflakes-clean (Debian's pyflakes3) and every file parses as Python 3.8 (the oldest
# Python the results package supports: no walrus, no match, no newer syntax).
# The results package's import circles and layers: tests/python_layers.t.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 255
mapfile -t files < <(find results tests/python bench integrations -name '*.py' | LC_ALL=C sort; echo results/clomp-results)

if command -v pyflakes3 >/dev/null 2>&1; then
    msg=$(pyflakes3 "${files[@]}" 2>&1)
    ok $? "pyflakes3 finds nothing in the ${#files[@]} Python files"
    [ -z "$msg" ] || diag "$msg"
else
    skip "pyflakes3 finds nothing in the Python files" "pyflakes3 is not installed (apt-get install pyflakes3)"
fi
# One interpreter parses every file (a start per file cost about 0.09 s of CPU,
# 137 starts): a verdict line per file, "ok" or what parsing it raised.
verdicts=$(python3 - "${files[@]}" 2>&1 <<'PY'
import ast, sys
for f in sys.argv[1:]:
    try:
        with open(f) as source:
            ast.parse(source.read(), f, feature_version=(3, 8))
        print("ok\t" + f)
    except Exception as e:  # anything that stops the parse is the file's failure
        print("%s: %s\t%s" % (type(e).__name__, " ".join(str(e).split()), f))
PY
)
declare -A verdict=()
while IFS=$'\t' read -r said f; do
    [ -n "${f-}" ] && verdict[$f]=$said
done <<<"$verdicts"
for f in "${files[@]}"; do
    [ "${verdict[$f]-}" = ok ]
    ok $? "$f parses as Python 3.8"
    [ "${verdict[$f]-}" = ok ] || diag "${verdict[$f]:-no verdict for it: $verdicts}"
done
# Runtime annotations with builtin generics (list[int]) parse on 3.8 but fail when evaluated.
bad=$(grep -nE '^[^#]*(: |-> )(list|dict|tuple|set)\[' "${files[@]}" | grep -v 'from __future__' || true)
is "$bad" "" "no builtin generic annotations (list[int]) that Python 3.8 cannot evaluate"
done_testing
