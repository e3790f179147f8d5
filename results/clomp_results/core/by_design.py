"""Runs oversubscribed by design (issue 43, item 5): optional runs whose team
is larger than the node on purpose. They are shown and marked, and never
spoil the grade of the rest (grade.py) or the report's busy verdict
(html_page.py): an oversubscribed team makes its own noise census find the
node busy, whatever else runs there.

- the team-size cliff's cores + 1 run (set ``oversubscribed``, suite/cliff.sh;
  never submission data: the bundle leaves it out, cliff.py);
- a point of the construct sweep (set ``constructs_outerO``, suite/constructs.sh)
  whose OUTER x INNER team is beyond the suite's key thread count and the
  node's cores (when known) and that clomp found oversubscribed (its
  record's constructs.oversubscribed, from the CPUs the process may use):
  on a node of fewer than 2 x 4 cores the sweep keeps its two points, 2x2
  and 2x4, whatever the cores. One whose team fits the cores but that clomp
  found oversubscribed all the same (a narrow CPU mask) is graded.

A run the user oversubscribed (MAX_THREADS above the cores) is none of them:
its team is within the key thread count, and the key runs are oversubscribed
too; the grade says so.
"""
from __future__ import annotations

from typing import Dict

from .cliff import OVERSUBSCRIBED_SET
from .records import Suite

SWEEP_PREFIX = "constructs_outer"


def oversubscribed_by_design(suite: Suite, cores: int = 0) -> Dict[int, str]:
    """Run number -> what it is, for every run of the plan oversubscribed by design (cores: 0 unknown)."""
    found: Dict[int, str] = {}
    key_threads = suite.env.max_threads
    for p in suite.plan:
        if p.set_name == OVERSUBSCRIBED_SET:
            found[p.index] = "the team-size cliff's cores + 1 run (%d threads)" % p.threads
            continue
        outer = p.set_name[len(SWEEP_PREFIX):]
        if not p.set_name.startswith(SWEEP_PREFIX) or not outer.isdigit() or key_threads is None:
            continue
        team = int(outer) * p.threads
        rec = suite.record(p.index)
        c = rec.constructs if rec is not None else None
        if team > key_threads and team > cores and isinstance(c, dict) and c.get("oversubscribed") is True:
            found[p.index] = "the construct sweep's %sx%d (%d threads on %s CPUs)" % (
                outer, p.threads, team, c.get("cpus", "?"))
    return found


def describe(found: Dict[int, str]) -> str:
    """One line naming them: 'runs 22 23 are oversubscribed by design (...): shown, not graded'."""
    if not found:
        return ""
    runs = sorted(found)
    return "run%s %s %s oversubscribed by design (%s): shown, not graded" % (
        "s" if len(runs) > 1 else "", " ".join(str(r) for r in runs), "are" if len(runs) > 1 else "is",
        "; ".join("run %d: %s" % (r, found[r]) for r in runs))
