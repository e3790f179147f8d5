#!/usr/bin/env python3
"""The figures of merit of one clomp run, for the harnesses (issue 49):
the figure catalogue's "harness" set (`clomp --list-figures --json`: each
figure's key, its measurement's row of clomp's --csv, the CSV column it is
read from, its unit and label), each read from the run's --csv by column
name. No figure is listed here: clomp says which. Standard library only.

    clomp_figures.py [--clomp PATH] CSV     one line per figure: KEY=VALUE (JUBE's patterns
                                            read these), or KEY=n/a  # why, when the run gave
                                            it no value
    clomp_figures.py [--clomp PATH] --list  the figures: key, unit and label (tab-separated)
    clomp_figures.py --shape THREADS ZONES  "numParts zonesPerPart" for a team: parts follow the team as in
                                            make run and the suite (64 parts where THREADS divides 64)

The binary is --clomp's, else $CLOMP, else this tree's ./clomp: the one
whose CSV is read, so that its catalogue and its columns agree.
From Python (integrations/reframe/clomp_check.py): figures(clomp), read(csv_path, figures) and
shape(threads, zones).
A figure the run did not give as a result has no value, never a number
made up for it: its cell is empty (not measured, or taken against a Serial
Ref or Bestcase OMP that is not a result), or its row is not a result by
clomp's own rule (valid 0: a time is kept in the CSV, flagged; here it is
no figure), and the rows' invalid_reason says why (docs/statistics.md).
Exit status: 0, 1 when the CSV or the catalogue cannot be read or the CSV
has no measurement rows, 2 on usage.
"""
from __future__ import annotations

import csv
import json
import math
import os
import subprocess
import sys
from typing import Dict, List, NamedTuple, Optional, Tuple

SET = "harness"   # the catalogue's set of the harnesses' figures of merit (report/figure_catalogue.c)
TREE_CLOMP = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "clomp")


class Figure(NamedTuple):
    key: str           # the figure catalogue's key (clomp --list-figures)
    measurement: str   # the key column of its measurement's row in clomp's --csv
    column: str        # the CSV column it is read from
    unit: str
    label: str


def default_clomp() -> str:
    return os.environ.get("CLOMP") or TREE_CLOMP


def figures(clomp: Optional[str] = None) -> List[Figure]:
    """The figures of merit, in the catalogue's order, as CLOMP (default_clomp()) lists them."""
    exe = clomp or default_clomp()
    try:
        done = subprocess.run([exe, "--list-figures", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              check=False)
    except OSError as e:
        raise ValueError("cannot run %s --list-figures --json: %s" % (exe, e.strerror)) from None
    if done.returncode != 0:
        raise ValueError("%s --list-figures --json exited %d: %s" % (
            exe, done.returncode, done.stderr.decode(errors="replace").strip()[-200:]))
    try:
        doc = json.loads(done.stdout.decode("utf-8"))
        chosen = [Figure(f["key"], f["measurement"], f["csv"], f["unit"], f["label"])
                  for f in doc["figures"] if SET in f["sets"]]
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError("%s --list-figures --json: not clomp's catalogue (%s)" % (exe, e)) from None
    if not chosen:
        raise ValueError("%s --list-figures --json has no %s set: a clomp older than the harnesses" % (exe, SET))
    return chosen


def read(csv_path: str, wanted: List[Figure]) -> Dict[str, Tuple[Optional[float], str]]:
    """Each figure's (value, why): why is "" when it has a value, else why it has none."""
    with open(csv_path, newline="", encoding="utf-8", errors="replace") as f:
        rows = list(csv.DictReader(f))
    if not rows or "key" not in rows[0]:
        raise ValueError("%s: not clomp's per-measurement CSV (no key column)" % csv_path)
    by_key = {row["key"]: row for row in rows}
    out = {}
    for fig in wanted:
        row = by_key.get(fig.measurement)
        if row is None:
            out[fig.key] = (None, "the run has no %s measurement" % fig.measurement)
            continue
        if fig.column not in row:
            out[fig.key] = (None, "this clomp's CSV has no %s column" % fig.column)
            continue
        try:
            value = float(row[fig.column]) if row[fig.column] != "" else None
        except ValueError:
            value = None
        out[fig.key] = (value, "") if value is not None and math.isfinite(value) and row.get("valid") != "0" \
            else (None, _why_none(row, rows))
    return out


def _why_none(row: Dict[str, str], rows: List[Dict[str, str]]) -> str:
    if row.get("selected") == "0":
        return "%s did not run (left out by --schedules, or not available here)" % row.get("name")
    if row.get("valid") == "0":
        return "not a result: %s" % row.get("invalid_reason", "")
    against = [r for r in rows if r.get("role") in ("reference", "bestcase") and r.get("valid") == "0"]
    if against:
        return "not a result: taken against %s, %s (%s)" % (
            " and ".join(r.get("name", "") for r in against), "which is not one" if len(against) == 1 else "which are not results",
            against[0].get("invalid_reason", ""))
    return "clomp's CSV has no value for it"


def shape(threads: int, zones: int) -> Tuple[int, int]:
    """(numParts, zonesPerPart) for a team of THREADS and about ZONES zones: the rule make run and the
    suite use (suite/common.sh team_shape), from this tree's results package (grain_plan.shape), so that
    every thread has a part at any team size (64 parts at 128 threads would leave half the team idle)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "results"))
    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, True   # a harness writes nothing into the tree
    try:
        from clomp_results.grain.grain_plan import shape as team_shape
    finally:
        sys.dont_write_bytecode = writes
    return team_shape(threads, zones)


def main(argv: List[str]) -> int:
    if len(argv) == 3 and argv[0] == "--shape" and argv[1].isdigit() and argv[2].isdigit() and int(argv[1]) > 0 \
            and int(argv[2]) > 0:
        print("%d %d" % shape(int(argv[1]), int(argv[2])))
        return 0
    clomp = None
    if len(argv) >= 2 and argv[0] == "--clomp":
        clomp, argv = argv[1], argv[2:]
    elif argv and argv[0].startswith("--clomp="):
        clomp, argv = argv[0][len("--clomp="):], argv[1:]
    if len(argv) != 1 or (argv[0].startswith("-") and argv[0] != "--list"):
        print("usage: clomp_figures.py [--clomp PATH] CSV | --list | --shape THREADS ZONES", file=sys.stderr)
        return 2
    try:
        chosen = figures(clomp)
        if argv[0] == "--list":
            for fig in chosen:
                print("%s\t%s\t%s" % (fig.key, fig.unit, fig.label))
            return 0
        values = read(argv[0], chosen)
    except (OSError, ValueError) as e:
        print("clomp_figures.py: %s" % e, file=sys.stderr)
        return 1
    for key, (value, why) in values.items():
        print("%s=%r" % (key, value) if value is not None else "%s=n/a  # %s" % (key, why.replace("\n", " ")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
