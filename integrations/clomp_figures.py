#!/usr/bin/env python3
"""The figures of merit of one clomp run, for the harnesses (issue 49):
each figure of figures.tsv (beside this file: the one list) read from the
run's --csv by column name, from its measurement's row (the CSV's key
column). Standard library only.

    clomp_figures.py CSV            one line per figure: KEY=VALUE (JUBE's patterns read
                                    these), or KEY=n/a  # why, when the run gave it no value
    clomp_figures.py --list         the figures: key, unit and what each measures (tab-separated)

From Python (integrations/reframe/clomp_check.py): figures() and read(csv_path).
A figure the run did not give as a result has no value, never a number
made up for it: its cell is empty (not measured, or taken against a Serial
Ref or Bestcase OMP that is not a result), or its row is not a result by
clomp's own rule (valid 0: a time is kept in the CSV, flagged; here it is
no figure), and the rows' invalid_reason says why (docs/statistics.md).
Exit status: 0, 1 when the CSV cannot be read or has no measurement rows, 2 on usage.
"""
from __future__ import annotations

import csv
import math
import os
import sys
from typing import Dict, List, NamedTuple, Optional, Tuple

LIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "figures.tsv")


class Figure(NamedTuple):
    key: str           # the figure catalogue's key (clomp --list-figures)
    measurement: str   # the key column of its measurement's row in clomp's --csv
    column: str        # the CSV column it is read from
    unit: str
    what: str


def figures(path: str = LIST) -> List[Figure]:
    """The figures of merit, in the list's order."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if len(cells) != 5:
                raise ValueError("%s: a line of %d cells, not 5: %r" % (path, len(cells), line[:80]))
            out.append(Figure(*cells))
    return out


def read(csv_path: str, wanted: Optional[List[Figure]] = None) -> Dict[str, Tuple[Optional[float], str]]:
    """Each figure's (value, why): why is "" when it has a value, else why it has none."""
    with open(csv_path, newline="", encoding="utf-8", errors="replace") as f:
        rows = list(csv.DictReader(f))
    if not rows or "key" not in rows[0]:
        raise ValueError("%s: not clomp's per-measurement CSV (no key column)" % csv_path)
    by_key = {row["key"]: row for row in rows}
    out = {}
    for fig in wanted if wanted is not None else figures():
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


def main(argv: List[str]) -> int:
    if argv == ["--list"]:
        for fig in figures():
            print("%s\t%s\t%s" % (fig.key, fig.unit, fig.what))
        return 0
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: clomp_figures.py CSV | --list", file=sys.stderr)
        return 2
    try:
        values = read(argv[0])
    except (OSError, ValueError) as e:
        print("clomp_figures.py: %s" % e, file=sys.stderr)
        return 1
    for key, (value, why) in values.items():
        print("%s=%r" % (key, value) if value is not None else "%s=n/a  # %s" % (key, why.replace("\n", " ")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
