"""The charts a suite's records support, read independently of results/clomp_results: one line per chart,
'STEM<TAB>series|series|...', a chart exactly when one of its series has a valid point.

A mesh figure is a point when its run is OK, the cell is not empty, and neither the suite table's `valid`
column nor the run's JSON record (measurements[].valid) says false. A chart has one point per x (threads; total
zones for efficacy), the last run's of that x (replicates redraw it). A construct point is a level-2 row of a
constructs_outer* run, status 'measured', overhead above 0 (an unresolved row has none).
Usage: expected_charts.py BASE CLOMP (BASE: <dir>/CLOMP_<host>_<id>)."""
import csv
import glob
import json
import subprocess
import sys

base, clomp = sys.argv[1], sys.argv[2]
invalid = set()   # (run, key) a record says is not a result
for path in glob.glob(base + "_*.run*.json"):
    if path.endswith(".cali.json"):   # the run's Caliper profile beside its record (issue 49)
        continue
    run = int(path.rsplit(".run", 1)[1][:-5])
    for m in json.load(open(path)).get("measurements", []):
        if m.get("valid") is False:
            invalid.add((run, m.get("key")))
rows = [r for r in csv.DictReader(open(base + ".csv", newline="")) if r["run_status"] == "OK"]


def point(r, column):
    return r[column] != "" and r.get("valid", "true").lower() not in ("false", "0", "no") \
        and (int(r["run"]), r["key"]) not in invalid


charts = {}
zsets = []
for r in rows:
    if r["set"].endswith("zones") and r["set"][:-5].isdigit() and r["set"] not in zsets:
        zsets.append(r["set"])


def last_per_x(chosen, x):
    """The rows of the last run of each x among CHOSEN rows."""
    last = {}
    for r in chosen:
        last[x(r)] = max(last.get(x(r), 0), int(r["run"]))
    return [r for r in chosen if int(r["run"]) == last[x(r)]]


for z in zsets:
    drawn = last_per_x([r for r in rows if r["set"] == z], lambda r: r["numThreads"])
    for stem, roles, column in (("speedup_", ("bestcase", "checked"), "speedup"), ("overhead_", ("checked",), "overhead_us")):
        series = [r["name"] for r in drawn if r["role"] in roles and point(r, column)]
        charts[stem + z] = series + (["ideal"] if stem == "speedup_" and series else [])
drawn = last_per_x([r for r in rows if r["set"] == "key" and r["allocThreads"] == "-1" and r.get("numa", "first-touch") == "first-touch"],
                   lambda r: int(r["numParts"]) * int(r["zonesPerPart"]))
series = [r["name"] for r in drawn if r["role"] == "checked" and point(r, "efficacy_percent")]
charts["efficacy"] = series + (["bestcase (100%)"] if series else [])
kinds = {}
for line in subprocess.run([clomp, "--list-constructs"], stdout=subprocess.PIPE, universal_newlines=True).stdout.splitlines():
    f = line.split("\t")
    if not line.startswith("#") and len(f) > 2:
        kinds[f[0]] = f[2]
try:
    crows = list(csv.DictReader(open(base + ".constructs.csv", newline="")))
except FileNotFoundError:
    crows = []
for stem, kind in (("constructs_sync", "sync"), ("constructs_loops", "loop")):
    charts[stem] = [r["construct_name"] for r in crows if r["set"].startswith("constructs_outer") and r["level"] == "2"
                    and r["run_status"] == "OK" and kinds.get(r["construct"]) == kind and r["status"] == "measured"
                    and r["overhead_us"] != "" and float(r["overhead_us"]) > 0]
for stem in sorted(charts):
    names = list(dict.fromkeys(charts[stem]))
    if names:
        print("%s\t%s" % (stem, "|".join(sorted(names))))
