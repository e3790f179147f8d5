"""The report's construct tables and charts, one per construct kind (issue 32,
item 5): synchronisation (EPCC syncbench: 3.1's rows and 4.0's late arriver,
lock hints, ORDERED, ATOMIC_SEQCST), loop schedules (schedbench, with 4.0's
monotonic variants and TASKLOOP), tasks (4.0's taskbench) and data clauses
(4.0's arraybench, one row per array size), then offload. Each kind's table
is html_constructs.constructs_table over its rows (level 1 at the key
thread count, level 2 at clomp's nested shape and over the inner-team
sweep); its chart is charts.construct_chart's level 2 against the inner team
size. A row's kind is its own column where the table has one, else this
tree's --list-constructs."""
import os
import subprocess
from html import escape

from . import html_constructs

KINDS = [
    ("sync", "Synchronisation", "constructs_sync", "Construct overhead vs inner team size",
     "Each synchronisation construct's level-2 overhead (median over repetitions) under the sweep's outer threads "
     "against the inner team size, 95% intervals as error bars (log axis); a circled point has no interval or one "
     "reaching 0, its bar drawn upwards only; an overhead at or below 0, or a row not measured or unresolved, is not "
     "drawn."),
    ("loop", "Loop schedules", "constructs_loops", "Loop schedule overhead vs inner team size",
     "The same for the loop schedules (STATIC, and STATIC, DYNAMIC, GUIDED with chunks 1, 8, 64; with --constructs=epcc4 "
     "their monotonic variants and TASKLOOP), per loop of 128 iterations per thread."),
    ("task", "Tasks (EPCC 4.0 taskbench)", "constructs_task", "Task overhead vs inner team size",
     "The same for the tasking constructs (EPCC 4.0's taskbench, --constructs=epcc4): the overhead per task "
     "instance."),
    ("data", "Data clauses (EPCC 4.0 arraybench)", "constructs_data", "Data clause overhead vs inner team size",
     "The same for PRIVATE, FIRSTPRIVATE, COPYPRIVATE and COPYIN (EPCC 4.0's arraybench, --constructs=epcc4), one "
     "series per array size."),
    ("target", "Offload (target)", "constructs_target", "", ""),
]
# The chart of each kind (stem, title) for charts.suite_charts.
CHARTS = [(stem, kind, title) for kind, _, stem, title, _ in KINDS if title]


def kind_of(row, kinds):
    return str(row.get("kind") or kinds.get(str(row.get("construct") or ""), "") or "other")


def sections(rows, kinds, charts):
    """HTML lines: per kind present, its heading, table and chart."""
    out = []
    known = [k for k, _, _, _, _ in KINDS]
    present = []
    for r in rows:
        k = kind_of(r, kinds)
        if k not in present:
            present.append(k)
    for k in [k for k in known if k in present] + [k for k in present if k not in known]:
        mine = [r for r in rows if kind_of(r, kinds) == k]
        unknown = "Constructs (their kind is not known here: no kind column, and no built clomp to list them)"
        entry = next((x for x in KINDS if x[0] == k), (k, unknown if k == "other" else "Other constructs (kind %s)" % k,
                                                        "", "", ""))
        out.append("<h3>%s</h3>" % escape(entry[1]))
        out += html_constructs.constructs_table(mine)
        if entry[3]:
            out += charts.figure(entry[2], entry[3], entry[4])
    return out


def construct_kinds():
    """construct key -> kind for construct tables written before their ``kind`` column (schema minor 9):
    this tree's clomp --list-constructs (never the suite's own executable: a suite may come from someone
    else). A table with the column charts from it alone."""
    exe = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))), "clomp")
    if not os.access(exe, os.X_OK):
        return {}
    try:
        text = subprocess.run([exe, "--list-constructs"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              timeout=30).stdout.decode("utf-8", "replace")
    except (OSError, subprocess.TimeoutExpired):
        return {}
    lines = text.splitlines()
    names = lines[0].lstrip("# ").split("\t") if lines else []
    if "key" not in names or "kind" not in names:
        return {}
    kinds = {}
    for line in lines[1:]:
        cells = line.split("\t")
        if len(cells) == len(names):
            kinds[cells[names.index("key")]] = cells[names.index("kind")]
    return kinds
