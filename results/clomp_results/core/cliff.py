"""The team-size cliff (issue 32, item 4; issue 47, item 2; docs/suite.md,
"The team-size cliff"): the fork/join (OMP Parallel), OMP Barrier and Parallel
For probes and the Static overhead (Static OMP - Bestcase OMP) of the suite's
runs at the target input's zones at cores - 1, cores and the oversubscribed
cores + 1 (suite/cliff.sh: the same settings, the last measuring only these),
side by side, and a flag when the step from cores - 1 to cores exceeds
CLIFF_FACTOR.

The factor, stated: from T - 1 to T threads a tree or linear barrier costs at
most T / (T - 1) more (1.5x at T = 3, less above), so a step above 2x is not
the team's size but the runtime's waiting falling off a cliff (a thread that
sleeps, a spin that yields) when no core is left idle. Not judged when
cores - 1 is 1 (a team of one synchronises with no one), or when a figure is
missing, not positive, or marked not valid by its run. Each point is one
process's median chunk (one run per thread count): the flag is a pointer to
measure with --sweep or --replicates, not a verdict between processes.

The oversubscribed run is never submission data: the bundle leaves its files
out (never_submitted) and the grade refuses a bundle that carries it.
"""
from __future__ import annotations

from html import escape
from typing import Dict, List, Optional, Tuple

from . import catalogue
from .records import count_of
from .view import num

CLIFF_FACTOR = 2.0
OVERSUBSCRIBED_SET = "oversubscribed"


def figures():
    """The catalogue's cliff set (barrier, fork/join and parallel-for us/Loop and the Static overhead, median chunks): [catalogue.Figure]."""
    return catalogue.load().in_set("cliff")


def never_submitted(rel: str, name: str) -> bool:
    """Whether a suite file (path relative to its directory) is the oversubscribed run's, kept out of bundles."""
    return rel.startswith("%s_%s." % (name, OVERSUBSCRIBED_SET)) or rel == "%s.%s.csv" % (name, OVERSUBSCRIBED_SET)


def figure(doc, fig) -> Optional[float]:
    """Catalogue figure FIG of a record, None when missing, not valid or not positive."""
    for m in doc.get("measurements") or []:
        if isinstance(m, dict) and m.get("key") == fig["measurement"]:
            v = None if m.get("valid") is False else num(catalogue.value(m, fig["json"]))
            return v if v is not None and v > 0 else None
    return None


def points(runs: List[Tuple[str, int, dict]], target_set: str) -> Dict[int, Dict[str, Optional[float]]]:
    """threads -> {figure key: us} from (set, threads, record) of the target zones' sweep and the oversubscribed run."""
    out: Dict[int, Dict[str, Optional[float]]] = {}
    for set_name, threads, doc in runs:
        if set_name in (target_set, OVERSUBSCRIBED_SET) and isinstance(doc, dict):
            out[threads] = {f.key: figure(doc, f) for f in figures()}
    return out


def judge(pts: Dict[int, Dict[str, Optional[float]]], cores: int, factor: float = CLIFF_FACTOR) -> List[dict]:
    """Per figure: the values at cores - 1, cores, cores + 1, the step cores / (cores - 1), and whether it is a cliff."""
    out = []
    for f in figures():
        below, at, over = (pts.get(t, {}).get(f.key) for t in (cores - 1, cores, cores + 1))
        row = {"figure": f.key, "name": f.label, "below": below, "at": at, "over": over, "step": None, "cliff": False}
        if cores - 1 < 2:
            row["why"] = "not judged: cores - 1 = %d (a team of one synchronises with no one)" % (cores - 1)
        elif below is None or at is None:
            row["why"] = "not judged: no valid figure at %s" % ("%d threads" % (cores - 1) if below is None else "%d threads" % cores)
        else:
            row["step"] = at / below
            row["cliff"] = row["step"] > factor
            row["why"] = ("CLIFF: %.3g us at %d threads is %.3gx the %.3g us at %d (above %gx)" if row["cliff"] else
                          "no cliff: %.3g us at %d threads is %.3gx the %.3g us at %d (at most %gx)") % (
                              at, cores, row["step"], below, cores - 1, factor)
        out.append(row)
    return out


def suite_runs(suite) -> Tuple[List[Tuple[str, int, dict]], str, int]:
    """(set, threads, record) of every run with a record, the target zones' set and the cores the cliff is at."""
    runs = [(p.set_name, p.threads, suite.records[p.index].doc) for p in suite.plan if p.index in suite.records]
    zone_sets = [p.set_name for p in suite.plan if p.set_name.endswith("zones") and count_of(p.set_name[:-5]) is not None]
    target = min(zone_sets, key=lambda s: int(s[:-5])) if zone_sets else ""
    over = [p.threads for p in suite.plan if p.is_oversubscribed]
    cores = over[0] - 1 if over else (suite.env.max_threads or 0)
    return runs, target, cores


def html_section(suite) -> List[str]:
    """The report's section: the table, and the flag when there is a cliff; [] when the suite has no such runs."""
    runs, target, cores = suite_runs(suite)
    if not target or cores < 1:
        return []
    rows = judge(points(runs, target), cores)
    if all(r["below"] is None and r["at"] is None for r in rows):
        return []
    e = lambda v: escape(str(v), quote=True)
    g = lambda v: "not measured" if v is None else "%.3g" % v
    out = ['<h2 id="cliff">Team-size cliff</h2>',
           "<p>Fork/join, barrier and parallel-for cost and the Static overhead at %s (the target input's zones) one thread below the cores, at the cores, "
           "and one above (oversubscribed: shown here, never submitted; the bundle leaves that run out). A step "
           "from %d to %d threads above %gx is flagged: a barrier costs at most T/(T-1) more for one more thread. "
           "One process per point: measure a flagged step again with <code>run_clomp.sh --sweep wait</code>.</p>"
           % (e(target), cores - 1, cores, CLIFF_FACTOR),
           "<table><tr><th>figure</th><th>%d threads</th><th>%d threads</th><th>%d threads (oversubscribed)</th>"
           "<th>verdict</th></tr>" % (cores - 1, cores, cores + 1)]
    for r in rows:
        cls = "notmet" if r["cliff"] else "na" if r["step"] is None else "met"
        out.append('<tr><td>%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td>'
                   '<td class="%s">%s</td></tr>' % (e(r["name"]), g(r["below"]), g(r["at"]), g(r["over"]), cls, e(r["why"])))
    out.append("</table>")
    return out
