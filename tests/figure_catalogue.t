#!/usr/bin/env bash
# The catalogue of figures (issue 43, item 1): clomp --list-figures prints
# every figure a tool prints by key, from one C table, as a tab-separated
# table and as JSON (the same figures in the same order); each key is one
# estimator and appears once; a key the tools printed before names exactly
# one figure and none of today's. Every tool's printed keys are in it: the
# .summary's valued columns, the between-process table, --compare's figures,
# --sweep's, the team-size cliff's, the buyer's key and sweep tables, the
# HTML headline's labels and --replicates auto's figures (each from the
# golden suite's records or the tool's own list), clomp --limits' figures
# (its JSON's limits.figures and CSV limits_* columns, from a short --limits
# run) and the cluster report's (from a synthetic cluster of
# bench/cluster_synth.py), and the harnesses' (integrations/: clomp_figures.py,
# the JUBE benchmark's patterns, the ReFrame test's references). And no figure list is
# written outside the C table: no Python string constant (docstrings apart)
# and no shell line outside comments in results/, suite/, compare/ or
# run_clomp.sh holds a catalogue key or a former one.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { printf '1..0 # SKIP python3 not installed\n'; exit 0; }

run_clomp --list-figures
is "$rc" 0 "clomp --list-figures exits 0"
like "$(printf '%s\n' "$out" | head -n 1)" $'^# key\tlabel\tunit\tmeasures\testimator\tbetter\tllnl_target\tsets\t' \
    "its '#' header names the columns: key, label, unit, what it measures, the estimator, better, the LLNL target, the sets"
text=$out
run_clomp --list-figures --json
is "$rc" 0 "clomp --list-figures --json exits 0"
printf '%s\n' "$text" >"${TMPDIR:-/tmp}/catalogue.$$.txt"
printf '%s\n' "$out" >"${TMPDIR:-/tmp}/catalogue.$$.json"
trap 'rm -f "${TMPDIR:-/tmp}/catalogue.$$.txt" "${TMPDIR:-/tmp}/catalogue.$$.json"' EXIT

checks=$(cd "$top/tests/python" && python3 - "${TMPDIR:-/tmp}/catalogue.$$.txt" "${TMPDIR:-/tmp}/catalogue.$$.json" <<'PY'
import ast
import csv
import glob
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from render_fixture import GOLDEN, TOP, Scratch, Tables
from clomp_results.core import between, catalogue, cliff, compare_figures, loader, tables
from clomp_results.buyers import submissions
from clomp_results.sweep import sweep_report

rows = [line.split("\t") for line in open(sys.argv[1]).read().splitlines()]
head = [h.lstrip("# ") for h in rows[0]]
text = [dict(zip(head, r)) for r in rows[1:]]
doc = json.load(open(sys.argv[2]))
figs = doc["figures"]
keys = [f["key"] for f in figs]
cat = catalogue.load()
out = []


def check(bad, desc):
    out.append(("ok" if not bad else "not ok") + "\t" + desc + "\t" + "; ".join(map(str, bad))[:800])


check([] if [r["key"] for r in text] == keys else ["text %d keys, JSON %d" % (len(text), len(keys))],
      "the text table and the JSON list the same figures in the same order")
check(sorted(set(k for k in keys if keys.count(k) > 1)), "each key appears once: one key, one figure")
blank = [f["key"] for f in figs if not all(f.get(m) for m in ("label", "unit", "measures", "estimator", "better"))]
check(blank, "every figure has a label, a unit, what it measures, an estimator and a better direction")
check(sorted(set(f["label"] for f in figs if [g["label"] for g in figs].count(f["label"]) > 1)),
      "each label names one figure")
former = [x for f in figs for x in f["former"]]
check(sorted(set(x for x in former if former.count(x) > 1 or x in keys)),
      "a key printed before issue 43 names one figure, and none of today's")
kinds = set(f["kind"] for f in figs if f["kind"])
check([k for k in ("overhead_us", "median_overhead_us", "paired_overhead_us") if k not in kinds],
      "the three overhead estimators each have their own kind (1.2's Runtime, median chunks, paired)")
primary = [f for f in figs if "primary" in f["sets"]]
check([] if len(primary) == 1 and primary[0]["kind"] == doc["project_overhead"] else [primary],
      "one figure is the project's overhead (the primary), of the kind the catalogue names")
judged = [f["key"] for f in figs if f["llnl_target"] and not f["llnl_target"]["below_cycles"] > 0]
check(judged, "the LLNL target a figure carries is one it is judged against")

# Every tool's keys are the catalogue's.
suite = loader.load_suite(GOLDEN)
printed = {}
for p in suite.plan:
    rec = suite.record(p.index)
    if rec is None or p.is_construct:
        continue
    row = dict(zip(tables.summary_columns(rec), tables.summary_row(p, rec, "OK", "0", "1")))
    printed.setdefault(".summary", set()).update(
        c for c, v in row.items() if v and c not in tables.DRIVER_COLUMNS + list(tables.INPUT_NAMES) + ["numa"])
    for f in compare_figures.figures(rec.doc):
        printed.setdefault("--compare", set()).add(f.key)
csv_lines, _ = between.report(suite, between.stats_helper())
printed["between processes"] = set(r["figure"] for r in csv.DictReader(csv_lines))
printed["--sweep"] = set(k for k, _, _, _ in sweep_report.figures())
printed["cliff"] = set(f.key for f in cliff.figures())
sub = submissions.from_suite(GOLDEN, "golden")
printed["buyer's table"] = set(sub["key"]) | set(sub["sweep"]) | set(sub["given"])
for tool, got in sorted(printed.items()):
    check(sorted(k for k in got if k not in keys) or ([] if got else ["no key"]), "every key %s prints is the catalogue's (%d)"
          % (tool, len(got)))
# clomp --limits: its JSON's figures and their CSV columns (limits_<member>) are the catalogue's limits set.
scratch = tempfile.mkdtemp(prefix="clomp-catalogue.")
try:
    done = subprocess.run([os.environ.get("CLOMP") or os.path.join(TOP, "clomp"), "--limits", "--schedules=serial",
                           "--limits-reps=3", "--limits-time=50", "--limits-trips=64", "--quiet",
                           "--json=" + os.path.join(scratch, "l.json"), "--csv=" + os.path.join(scratch, "l.csv"),
                           "2", "1", "4", "10", "32", "1", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    members = list((json.load(open(os.path.join(scratch, "l.json")))["limits"] or {}).get("figures") or {})
    columns = next(csv.reader(open(os.path.join(scratch, "l.csv"))))
    printed["--limits"] = set(c for c in columns if c in ["limits_" + m for m in members])
    limits_set = set(f["key"] for f in figs if "limits" in f["sets"])
    check([] if members and printed["--limits"] == limits_set and len(members) == len(limits_set) else
          ["exit %d %s" % (done.returncode, done.stderr.decode()[-200:]), sorted(set(members) ^ set(k[7:] for k in limits_set))],
          "clomp --limits: each figure of its JSON has its CSV column limits_<member>, and those are the catalogue's "
          "limits set (%d)" % len(members))
    # The cluster report: the figures of its JSON and its CSV's columns.
    spec = importlib.util.spec_from_file_location("cluster_synth", os.path.join(TOP, "bench", "cluster_synth.py"))
    synth = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(synth)
    synth.main(["--out", os.path.join(scratch, "nodes"), "--nodes", "30", "--seed", "1", "--plant", "1", "--busy", "1",
                "--failed", "1"])
    results = [sys.executable, os.path.join(TOP, "results", "clomp-results"), "cluster"]
    rep = json.loads(subprocess.run(results + ["--format", "json", os.path.join(scratch, "nodes")], check=True,
                                    stdout=subprocess.PIPE).stdout)
    printed["cluster report"] = set(f["key"] for f in rep["figures"]) | set(o["figure"] for o in rep["outliers"])
    head_csv = next(csv.reader(subprocess.run(results + ["--format", "csv", os.path.join(scratch, "nodes")], check=True,
                                              stdout=subprocess.PIPE, universal_newlines=True).stdout.splitlines()))
    check(sorted(k for k in printed["cluster report"] if k not in head_csv) or
          sorted(set(f["key"] for f in figs if "cluster" in f["sets"]) ^ printed["cluster report"]),
          "the cluster report judges the catalogue's cluster set, each figure a column of its CSV")
finally:
    shutil.rmtree(scratch, ignore_errors=True)
for tool in ("--limits", "cluster report"):
    check(sorted(k for k in printed[tool] if k not in keys) or ([] if printed[tool] else ["no key"]),
          "every key %s prints is the catalogue's (%d)" % (tool, len(printed[tool])))
# The harnesses (integrations/): clomp_figures.py's figures, the JUBE benchmark's patterns and result columns
# and the ReFrame test's references are the catalogue's harness set, which holds the project's overhead.
harness = [f for f in figs if "harness" in f["sets"]]
spec = importlib.util.spec_from_file_location("clomp_figures", os.path.join(TOP, "integrations", "clomp_figures.py"))
clomp_figures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(clomp_figures)
told = [tuple(f) for f in clomp_figures.figures(os.environ.get("CLOMP") or os.path.join(TOP, "clomp"))]
check([] if told == [(f["key"], f["measurement"], f["csv"], f["unit"], f["label"]) for f in harness] and
      any("primary" in f["sets"] for f in harness) else [told],
      "the harnesses' figures (clomp_figures.py) are the catalogue's harness set (%d: key, measurement, CSV column, "
      "unit, label), the project's overhead among them" % len(harness))
xml = open(os.path.join(TOP, "integrations", "jube", "clomp.xml")).read()
patterns = re.findall(r'<pattern name="([a-z0-9_]+)"', xml)
columns = [c for c in re.findall(r"<column[^>]*>([a-z0-9_]+)</column>", xml) if c not in ("jube_wp_id", "threads", "wait_policy")]
check([] if sorted(patterns) == sorted(columns) == sorted(f["key"] for f in harness) else [patterns, columns],
      "the JUBE benchmark's patterns and result columns are the harness set's keys")
reframe_code = ast.parse(open(os.path.join(TOP, "integrations", "reframe", "clomp_check.py")).read())
named = [n.value for n in ast.walk(reframe_code) if isinstance(n, ast.Constant) and n.value in set(keys) | set(former)]
check(sorted(set(named) - set(f["key"] for f in harness)) or ([] if named else ["no reference"]),
      "the ReFrame test's references name figures of the harness set (%d)" % len(named))
labels = set(f["label"] for f in figs)
s = Scratch()
try:
    rc, err, page = s.render("no")
    head_rows = [t for t in Tables(page).tables if t and t[0][:3] == ["figure", "statistic", "value"]][0][1:]
    check([r[0] for r in head_rows if r[0] not in labels] or ([] if head_rows else ["no rows"]),
          "every figure the HTML headline shows is named by its catalogue label (%d)" % len(head_rows))
finally:
    s.close()

# No figure list outside the C table: no key in product code (docstrings and comments are prose).
words = set(keys) | set(former)
found = []
for path in sorted(glob.glob(os.path.join(TOP, "results", "clomp_results", "**", "*.py"), recursive=True) +
                  [os.path.join(TOP, "integrations", "clomp_figures.py")]):
    tree = ast.parse(open(path).read())
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and node.body and \
                isinstance(node.body[0], ast.Expr) and isinstance(getattr(node.body[0], "value", None), ast.Constant):
            docstrings.add(id(node.body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            hit = words & set(re.findall(r"[a-z0-9_]+", node.value))
            if hit:
                found.append("%s:%d %s" % (os.path.relpath(path, TOP), node.lineno, ",".join(sorted(hit))))
shells = glob.glob(os.path.join(TOP, "suite", "*.sh")) + glob.glob(os.path.join(TOP, "compare", "*.sh")) + \
    [os.path.join(TOP, "run_clomp.sh"), os.path.join(TOP, "results", "csv_columns.awk")]
for path in sorted(shells):
    for n, line in enumerate(open(path), 1):
        code = line.split("#", 1)[0] if not line.lstrip().startswith("#") else ""
        hit = words & set(re.findall(r"[a-z0-9_]+", code))
        if hit:
            found.append("%s:%d %s" % (os.path.relpath(path, TOP), n, ",".join(sorted(hit))))
check(found, "no figure key is written in the results package's code, the harnesses' clomp_figures.py or the suite's "
      "shell: they take them from the catalogue")
print("\n".join(out))
PY
)
while IFS=$'\t' read -r status desc detail; do
    [ -n "$status" ] || continue
    [ "$status" = ok ]
    ok $? "$desc"
    [ "$status" = ok ] || diag "$detail"
done <<<"$checks"
done_testing
