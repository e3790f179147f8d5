#!/usr/bin/env bash
# The shape of the results package (issue 46, item 4; docs/architecture.md): every module lives in a
# subpackage (core/ or a product's), no module imports itself round a circle, no subpackage does either,
# core/ imports no product, and a product imports another product only where the list below says why.
# The graph is computed from the sources (ast: every `from ... import`, relative or absolute, in a
# function or not), never by importing them. The checker is first run on a package made here with one
# fault of each kind, which it must name: a check that cannot fail is no check.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 255
command -v python3 >/dev/null 2>&1 || { skip "the results package's imports follow its layers" "python3 not installed"; done_testing; }

# The checker: PACKAGE_DIR in, one line per fault out ("KIND: what"), nothing when the package is sound.
checker=$(cat <<'PY'
import ast, os, sys

pkg = sys.argv[1]
NAME = os.path.basename(pkg)
TOP_LEVEL = {"__init__", "__main__", "cli"}   # the entry points: may import anything, nothing imports them
# A product may import another product only here, each with its reason; everything else goes through core.
ALLOWED = {
    ("suite", "bundle"): "render --final writes and signs the bundle; the page states validate.core_count",
    ("suite", "grain"): "the suite page's Node limits section is node_limits' (grain's cells)",
    ("sweep", "suite"): "the sweep's charts are drawn by the suite's gnuplot charts (charts.Chart, charts.draw)",
    ("bundle", "grain"): "the validator recomputes a bundled grain search with its report's own code (grain_check)",
    ("compare", "grain"): "the shift's interval is rounded outward by grain_answers.outward, the one outward rounding",
    ("sweep", "compare"): "each setting of a sweep runs as a --compare side (compare_side, compare_driver.run_process)",
    ("bundle", "cluster"): "the validator checks a cluster bundle through cluster_bundle (called back per node)",
    ("buyers", "bundle"): "each submission is validated by the validator (validate, record_checks, crosscheck, grade)",
    ("buyers", "cluster"): "a cluster bundle's node bundles are submissions (cluster_bundle)",
    ("buyers", "grain"): "the buyer's table shows each submission's node limits (node_limits)",
}
faults = []
modules = {}   # dotted name -> file
for root, dirs, files in os.walk(pkg):
    dirs[:] = sorted(d for d in dirs if not d.startswith(("__pycache__", ".")))
    rel = os.path.relpath(root, pkg)
    parts = [NAME] + ([] if rel == "." else rel.split(os.sep))
    if rel != "." and "__init__.py" not in files:
        faults.append("layout: %s/ has no __init__.py" % rel)
    for f in sorted(files):
        if f.endswith(".py"):
            modules[".".join(parts + ([] if f == "__init__.py" else [f[:-3]]))] = os.path.join(root, f)
subs = sorted({m.split(".")[1] for m in modules if m.count(".") >= 2})
if "core" not in subs:
    faults.append("layout: no core/ subpackage")
for m in sorted(modules):
    if m.count(".") == 1 and m.split(".")[1] not in TOP_LEVEL and not modules[m].endswith("__init__.py"):
        faults.append("layout: %s is a flat module (place it in its product's subpackage)" % m)


def package_of(m):
    return m if modules[m].endswith("__init__.py") else m.rsplit(".", 1)[0]


def resolve(m, node):
    """The modules of the package one ImportFrom names (a module, or each name that is a module)."""
    if node.level:
        base = package_of(m).split(".")
        if node.level - 1 > len(base) - 1:
            return []
        base = base[:len(base) - (node.level - 1)]
        path = base + (node.module.split(".") if node.module else [])
    else:
        path = (node.module or "").split(".")
        if path[0] != NAME:
            return []
    found = []
    for a in node.names:
        sub = ".".join(path + [a.name])
        if sub in modules:
            found.append(sub)
        elif ".".join(path) in modules:
            found.append(".".join(path))
        else:
            faults.append("import: %s imports %s, no module of the package" % (m, ".".join(path + [a.name])))
    return found


graph = {}
for m, f in modules.items():
    deps = set()
    for node in ast.walk(ast.parse(open(f).read(), f)):
        if isinstance(node, ast.ImportFrom):
            deps.update(d for d in resolve(m, node) if d != m and not d.endswith(".__init__"))
    graph[m] = sorted(deps)


def circles(g):
    state, found = {}, []

    def visit(n, path):   # depth-first: a node met again on the path closes a circle
        state[n] = "open"
        for d in g.get(n, ()):
            if state.get(d) == "open":
                found.append(" -> ".join(path[path.index(d):] + [d]))
            elif d not in state:
                visit(d, path + [d])
        state[n] = "done"
    for n in sorted(g):
        if n not in state:
            visit(n, [n])
    return found


def layer(m):
    parts = m.split(".")
    return parts[1] if len(parts) >= 3 or (len(parts) == 2 and parts[1] in subs) else "top"


faults += ["module circle: " + c for c in circles(graph)]
pkg_graph, used = {}, set()
for m, deps in graph.items():
    for d in deps:
        a, b = layer(m), layer(d)
        if a == b:
            continue
        if b == "top" and not m.endswith("__main__"):
            faults.append("entry: %s imports %s (the entry points import the package, never the reverse)" % (m, d))
        elif a == "core" and b != "core":
            faults.append("core: %s imports %s (core imports no product)" % (m, d))
        elif a not in ("top", "core") and b != "core" and (a, b) not in ALLOWED:
            faults.append("product: %s imports %s (%s -> %s: through core, or say why in ALLOWED)" % (m, d, a, b))
        if a != "top" and b != "top":
            pkg_graph.setdefault(a, set()).add(b)
            used.add((a, b))
faults += ["package circle: " + c for c in circles({k: sorted(v) for k, v in pkg_graph.items()})]
if os.environ.get("CHECK_ALLOWED_USED", "1") == "1":
    faults += ["allowed: %s -> %s is no longer imported: strike it from ALLOWED" % e for e in sorted(set(ALLOWED) - used)]
print("\n".join(faults))
PY
)

# 1. A package with one fault of each kind: the checker names each.
scratch=$(mktemp -d) || exit 255
trap 'rm -rf "$scratch"' EXIT
p=$scratch/clomp_results
mkdir -p "$p/core" "$p/suite" "$p/grain" "$p/sweep" "$p/nosuch"
printf '' >"$p/__init__.py"
for d in core suite grain sweep; do printf '"""%s"""\n' "$d" >"$p/$d/__init__.py"; done
printf 'from .core import records\n' >"$p/cli.py"
printf 'from ..suite import report\n' >"$p/core/records.py"                       # core -> product
printf 'from . import html_page\n' >"$p/suite/report.py"
printf 'def f():\n    from .report import page\n' >"$p/suite/html_page.py"       # a module circle (deferred import)
printf 'from ..grain import cells\n' >>"$p/suite/html_page.py"                   # allowed: suite -> grain
printf 'from ..suite.report import x\n' >"$p/grain/cells.py"                     # grain -> suite: not allowed, and a package circle
printf 'from clomp_results.grain import cells\n' >"$p/sweep/page.py"              # sweep -> grain: not allowed (absolute)
printf 'x = 1\n' >"$p/flat.py"                                                   # a flat module
printf 'x = 1\n' >"$p/nosuch/thing.py"                                           # a subpackage without __init__.py
got=$(CHECK_ALLOWED_USED=0 python3 -c "$checker" "$p" 2>&1 | LC_ALL=C sort)
want=$(LC_ALL=C sort <<'EOF'
core: clomp_results.core.records imports clomp_results.suite.report (core imports no product)
layout: clomp_results.flat is a flat module (place it in its product's subpackage)
layout: nosuch/ has no __init__.py
module circle: clomp_results.suite.report -> clomp_results.suite.html_page -> clomp_results.grain.cells -> clomp_results.suite.report
module circle: clomp_results.suite.report -> clomp_results.suite.html_page -> clomp_results.suite.report
package circle: suite -> grain -> suite
product: clomp_results.grain.cells imports clomp_results.suite.report (grain -> suite: through core, or say why in ALLOWED)
product: clomp_results.sweep.page imports clomp_results.grain.cells (sweep -> grain: through core, or say why in ALLOWED)
EOF
)
is "$got" "$want" "the checker names each planted fault: a flat module, a folder without __init__.py, core importing a product, a product importing another unlisted, a module circle through a deferred import, a package circle"

# 2. The results package itself.
pkg=results/clomp_results
n=$(find "$pkg" -name '*.py' -not -path '*/__pycache__/*' | wc -l)
subs=$(find "$pkg" -mindepth 2 -maxdepth 2 -name __init__.py | wc -l)
ok "$([ "$n" -ge 70 ] && [ "$subs" -ge 8 ]; echo $?)" "the graph covers the package ($n modules in $subs subpackages)"
faults=$(python3 -c "$checker" "$pkg" 2>&1)
is "$faults" "" "results/clomp_results: no flat module, no module or package circle, core imports no product, every product-to-product import listed with its reason"
done_testing
