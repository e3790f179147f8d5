#!/usr/bin/env bash
# Python hygiene: every Python file of the product (integrations/ too), its tests and bench/ is
# pyflakes-clean (Debian's pyflakes3), the results package has no import
# circle, and every file parses as Python 3.8 (the oldest
# Python the results package supports: no walrus, no match, no newer syntax).

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
for f in "${files[@]}"; do
    msg=$(python3 -c 'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1], feature_version=(3, 8))' "$f" 2>&1)
    ok $? "$f parses as Python 3.8"
    [ -z "$msg" ] || diag "$msg"
done
# No import circles in the results package (issue 46, item 4): every "from . import" and "from .X import",
# in a function or not, an edge; a module that reaches itself is named with its circle.
circles=$(python3 - results/clomp_results <<'PY'
import ast, os, sys
pkg = sys.argv[1]
mods = {f[:-3] for f in os.listdir(pkg) if f.endswith(".py")}
graph = {}
for m in mods:
    deps = set()
    for node in ast.walk(ast.parse(open(os.path.join(pkg, m + ".py")).read())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            deps.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
    graph[m] = sorted(d for d in deps if d in mods and d != m)
state, found = {}, []
def visit(m, path):   # depth-first: a module met again on the path closes a circle
    state[m] = "open"
    for d in graph[m]:
        if state.get(d) == "open":
            found.append(" -> ".join(path[path.index(d):] + [d]))
        elif d not in state:
            visit(d, path + [d])
    state[m] = "done"
for m in sorted(mods):
    if m not in state:
        visit(m, [m])
print("\n".join(found))
PY
)
is "$circles" "" "no import circles in results/clomp_results (each module's imports, deferred ones too)"
# Runtime annotations with builtin generics (list[int]) parse on 3.8 but fail when evaluated.
bad=$(grep -nE '^[^#]*(: |-> )(list|dict|tuple|set)\[' "${files[@]}" | grep -v 'from __future__' || true)
is "$bad" "" "no builtin generic annotations (list[int]) that Python 3.8 cannot evaluate"
done_testing
