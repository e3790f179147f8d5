#!/usr/bin/env bash
# Hatchet reads clomp's Caliper profiles (issue 49, item 1), full lane: a
# quick suite (11 runs, its construct runs included) and one run with
# --limits, every profile read with LLNL Hatchet 2024.1.0's
# GraphFrame.from_caliper from ../shared/reference/ecosystem (Debian's
# python3 and packages; skipped, naming what is missing, without them):
# the graph is the record's tree, the dataframe's figures the record's, the
# graph frame's metadata the record's threads, runtime, compiler and host.
# The suite's bundle validates with its profiles in it, and one forged
# profile makes it INVALID naming that file. About 40 s on the 2-core VM
# (the suite, Hatchet's Cython module built once into build/ecosystem).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
skip_all_unless_full_lane "Hatchet reads a quick suite's profiles"

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/ecosystem.sh
. "$top/tests/lib/ecosystem.sh"
skip_all_without hatchet Hatchet
pythonpath=$(hatchet_pythonpath) || { echo "Bail out! could not build Hatchet's Cython module"; exit 255; }
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

"$top/run_clomp.sh" --quick --max-zone-scale 10 --replicates 1 --calibrate=off --out "$tmp/out" "$CLOMP" \
    </dev/null >"$tmp/suite.log" 2>&1
is "$?" 0 "a quick suite runs (11 runs)"
base=$tmp/out/CLOMP_$(uname -n | sed 's/\..*//; s/[^A-Za-z0-9._-]/_/g')_1
"$CLOMP" --schedules=bestcase,static,barrier --limits --limits-reps=3 --limits-time=50 --limits-trips=64 \
    --json="$tmp/limits.json" --caliper-json="$tmp/limits.cali.json" 2 1 4 10 32 1 1 </dev/null >/dev/null 2>&1
is "$?" 0 "a run with --limits"

# Every profile beside its record, read by Hatchet; one TAP line per profile: its problems, or none.
results=$(PYTHONPATH=$pythonpath "$ECOSYSTEM_PYTHON" -W ignore - "$tmp/limits.cali.json" "$base"_*.cali.json <<'PYTHON' 2>&1
import json, math, sys
import hatchet as ht

def same(a, b):
    if b is None or isinstance(b, float) and math.isnan(b):
        return a is None or isinstance(a, float) and math.isnan(a)
    if isinstance(b, bool):
        return a == int(b)
    return a == b

# A profile's figures and the record's members they mean (docs/harnesses.md).
MEASUREMENT = {"median_us_per_loop": "us_per_loop", "us_per_loop": "runtime_us_per_loop", "speedup": "runtime_speedup",
               "median_overhead_us": "overhead_us_per_loop", "overhead_us": "runtime_overhead_us_per_loop",
               "threads": "threads", "valid": "valid", "runtime_seconds": "runtime_seconds"}
for profile in sys.argv[1:]:
    problems = []
    record = json.load(open(profile[:-len(".cali.json")] + ".json"))
    gf = ht.GraphFrame.from_caliper(profile)
    roots = gf.graph.roots
    children = [c.frame["name"] for c in roots[0].children] if len(roots) == 1 else []
    want = [m["name"] for m in record["measurements"]] + [g for g in ("constructs", "limits") if record.get(g)]
    if [r.frame["name"] for r in roots] != ["clomp"] or children != want:
        problems.append("the graph's top is %s, not clomp -> %s" % (children, want))
    df = gf.dataframe.reset_index()
    parent = {}   # Hatchet's Caliper reader links children, not parents: the graph walked from its root
    todo = list(roots)
    while todo:
        node = todo.pop()
        for child in node.children:
            parent[id(child)] = node.frame["name"]
            todo.append(child)
    df["parent"] = [parent.get(id(n)) for n in df["node"]]
    for m in record["measurements"]:
        row = df[(df["name"] == m["name"]) & (df["parent"] == "clomp")]
        for column, member in MEASUREMENT.items():
            got = row[column].iloc[0] if len(row) == 1 else "no row"
            if not same(got, m[member]):
                problems.append("%s %s: %r, the record %r" % (m["name"], column, got, m[member]))
    for r in (record.get("constructs") or {}).get("rows") or []:
        level = r["levels"][0]
        row = df[(df["name"] == r["construct_name"]) & (df["parent"] == "level 1")]
        if len(row) != 1 or not same(row["construct_overhead_us"].iloc[0], level["overhead_us"]):
            problems.append("construct %s at level 1: not its record's overhead" % r["construct_name"])
    for key, figure in ((record.get("limits") or {}).get("figures") or {}).items():
        row = df[(df["name"] == key) & (df["parent"] == "limits")]
        if len(row) != 1 or not same(row["limits_" + figure["unit"]].iloc[0], figure["value"]):
            problems.append("limits figure %s: not its record's value" % key)
    meta = gf.metadata
    for key, value in (("threads", record["resolved"]["numThreads"]), ("openmp_runtime", record["ompt"]["runtime"]),
                       ("compiler", record["build"]["compiler"]), ("hostname", record["host"]), ("jobsize", 1),
                       ("timeScale", record["inputs"]["timeScale"])):
        if meta.get(key) != value:
            problems.append("metadata %s: %r, the record %r" % (key, meta.get(key), value))
    kinds = "%d measurements" % len(record["measurements"]) + (", constructs" if record.get("constructs") else "") + \
            (", limits" if record.get("limits") else "")
    print("%d\t%s: Hatchet reads its tree (%s), figures and metadata as its record has them\t%s" % (
        1 if problems else 0, profile.rsplit("/", 1)[-1], kinds, "; ".join(problems[:5])))
PYTHON
)
count=0
while IFS=$'\t' read -r status description details; do
    case $status in 0 | 1) ;; *) diag "$status $description"; continue ;; esac
    ok "$status" "$description"
    count=$((count + 1))
    [ -z "$details" ] || diag "$details"
done <<<"$results"
records=$(find "$tmp/out" -name '*.run*.json' ! -name '*.cali.json' | wc -l | tr -d ' ')
is "$count" "$((records + 1))" "every record of the suite has its profile, and Hatchet read each ($records + the --limits run)"

# docs/harnesses.md's example, on this suite's files.
example=$(awk '/^## Reading a suite.s profiles with Hatchet/ { on = 1 } on && /^```python/ { code = 1; next } code && /^```/ { exit } code' \
    "$top/docs/harnesses.md")
shown=$(cd "$tmp" && PYTHONPATH=$pythonpath "$ECOSYSTEM_PYTHON" -W ignore -c "${example//out\/CLOMP_\*_1_/out/CLOMP_*_1_}" 2>&1)
ok "$([ -n "$example" ] && [[ $shown == *"Static OMP"* ]] && [[ $shown == *median_overhead_us_ci_high* ]] &&
    [ "$(grep -c '\.cali\.json ' <<<"$shown")" = "$records" ]; echo $?)" \
    "docs/harnesses.md's example reads the suite's profiles with Hatchet as it shows ($(tail -n 1 <<<"$shown"))"

# The bundle carries the profiles; the validator checks them against the records.
"$top/clomp_validate" "$base.tar.gz" >"$tmp/valid.txt" 2>&1
valid=$?
ok "$([ "$valid" = 0 ] || [ "$valid" = 3 ]; echo $?)" "the suite's bundle, profiles in it, is VALID (exit $valid: $(head -c 300 "$tmp/valid.txt"))"
ok "$(tar -tzf "$base.tar.gz" | grep -c '\.cali\.json$' | grep -qx "$records"; echo $?)" "the bundle carries every profile"
mkdir "$tmp/forged" && tar -C "$tmp/forged" -xzf "$base.tar.gz"
name=$(basename "$base")
key=$(find "$tmp/forged/$name" -name '*_key.run1.cali.json')
sed -i 's/"threads": [0-9]*,/"threads": 640,/' "$key"
(cd "$tmp/forged/$name" && find . -type f ! -name MANIFEST | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum >"$tmp/MANIFEST" &&
    mv "$tmp/MANIFEST" MANIFEST)
"$top/clomp_validate" "$tmp/forged/$name" >"$tmp/forged.txt" 2>&1
forged=$?
ok "$([ "$forged" = 1 ] && grep -q "_key.run1.cali.json: its metadata threads is 640" "$tmp/forged.txt"; echo $?)" \
    "a forged profile (its threads) makes the bundle INVALID, naming the file (exit $forged: $(grep -m1 cali "$tmp/forged.txt"))"

done_testing
