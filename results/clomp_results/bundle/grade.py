"""The submission grade (issue 35, item 9): a VALID bundle is fit to submit
only when the suite ran as a submission must. Every reason is collected;
none makes a bundle invalid. Thresholds, stated (docs/suite.md):

- SUBMISSION_TIME_SCALE: every mesh run at timeScale 100, the suite's
  default (the construct runs run at 1 by design and are not counted);
- threads bound: no run's team had an unbound thread (the record's
  numa.thread_placement.unbound_threads, else numa.locality.threads_bound,
  else the preflight's "threads not bound" warning);
- not oversubscribed: no run, construct runs' nested teams included
  (constructs.oversubscribed), had more threads than cores; the team-size
  cliff's cores + 1 run (set oversubscribed, cliff.py) is never submission
  data: bundles leave it out, and one that carries it is refused here;
- runs oversubscribed by design (by_design.py: that cliff run, and the
  construct sweep's points beyond the key thread count on a small node) are
  not graded at all: their own census finds the node busy, their rows may be
  unresolved; the validator names them (not_graded);
- a quiet node: every run's noise census probed the team, did not find it
  busy (the record's noise_census.busy: clomp's rule, a thread losing 25% or
  more), and no thread lost more than QUIET_LOST_FRACTION of its time (10%:
  stricter than busy, since a submission's figures should be the node's, not
  merely not the contention's); a census
  that did not run is "not measured", which is not quiet; every measurement
  the record marks invalid (valid: false) and every construct row marked
  unresolved is a reason too.
"""
from __future__ import annotations

from typing import List

from ..core import by_design, cliff, given, manifest
from ..core.records import Suite, count_of

SUBMISSION_TIME_SCALE = 100
QUIET_LOST_FRACTION = 0.10


def busy_reason(record) -> str:
    """Why this run's census says the node was not quiet, or ""."""
    census = record.noise_census
    if not census:
        return "the noise census did not run (not measured)"
    is_busy, why = given.census_busy(record.doc)    # an older record's judged by clomp's rule on its figures
    if is_busy:
        return "the noise census found the node busy: %s" % why
    if not census.get("probed"):
        return "the noise census did not probe the team (not measured%s)" % (
            ": " + str(census["note"]) if census.get("note") else "")
    lost = [t.get("lost_fraction") for t in census.get("threads") or [] if isinstance(t, dict)]
    lost = [x for x in lost if isinstance(x, (int, float))]
    if not lost:
        return "the noise census has no per-thread figures (not measured)"
    worst = max(lost)
    if worst > QUIET_LOST_FRACTION:
        return "the noise census found the node not quiet: a team thread lost %.0f%% of its time (above %.0f%%)" % (
            100 * worst, 100 * QUIET_LOST_FRACTION)
    return ""


def not_graded(suite: Suite, cores: int) -> str:
    """The line naming the runs the grade leaves out (oversubscribed by design) that the suite carries
    (a bundle leaves the cliff's run out altogether: nothing of it is shown), or ""."""
    found = by_design.oversubscribed_by_design(suite, cores)
    return by_design.describe({r: what for r, what in found.items() if suite.record(r) is not None})


def submission_reasons(suite: Suite, cores: int) -> List[str]:
    reasons: List[str] = []
    optional = by_design.oversubscribed_by_design(suite, cores)
    # The offload crossover sweep runs at a tenth of the suite's timeScale by design (suite/offload.sh).
    low = [p for p in suite.plan if not p.is_construct and not p.is_oversubscribed
           and not p.set_name.startswith("offload_zpp") and p.args[6] != str(SUBMISSION_TIME_SCALE)]
    if low:
        reasons.append("timeScale %s, not the submitted %d (runs %s)" % (
            ", ".join(sorted({p.args[6] for p in low})), SUBMISSION_TIME_SCALE, _runs(p.index for p in low)))
    unbound = []
    unknown_binding = False
    for p in suite.plan:
        rec = suite.record(p.index)
        if rec is None:
            continue
        numa = rec.doc.get("numa") or {}
        placement = numa.get("thread_placement") or {}
        locality = numa.get("locality") or {}
        if isinstance(placement.get("unbound_threads"), int):
            if placement["unbound_threads"] > 0:
                unbound.append(p.index)
        elif isinstance(locality.get("threads_bound"), bool):
            if not locality["threads_bound"]:
                unbound.append(p.index)
        else:
            unknown_binding = True
    if unbound:
        reasons.append("threads not bound (OMP_PROC_BIND unset or false) in runs %s" % _runs(unbound))
    elif unknown_binding and any(w.startswith("threads not bound") for w in suite.env.preflight_warnings):
        reasons.append("threads not bound (the preflight warning in %s)" % manifest.source_name(suite))
    over = [p.index for p in suite.plan if cores and p.threads > cores and not p.is_oversubscribed and p.index not in optional]
    files_carried = any(cliff.never_submitted(rel, suite.name) for rel in suite.files)   # once, not once a run
    carried = [p.index for p in suite.plan if p.is_oversubscribed and (p.index in suite.records or files_carried)]
    if carried:
        reasons.append("the team-size cliff's oversubscribed run (cores + 1) is not submission data, and the bundle "
                       "carries it: runs %s (a bundle made by run_clomp.sh leaves it out)" % _runs(carried))
    for p in suite.plan:
        rec = suite.record(p.index)
        c = rec.constructs if rec is not None else None
        if isinstance(c, dict) and c.get("oversubscribed") and p.index not in over and p.index not in optional:
            over.append(p.index)
    if over:
        reasons.append("oversubscribed: more threads than the %s cores in runs %s" % (cores or "?", _runs(sorted(over))))
    busy = {}
    first_detail = {}
    for p in suite.plan:
        rec = suite.record(p.index)
        if rec is None or p.index in optional:
            continue
        why = busy_reason(rec)
        if why:
            # busy (a thread lost 25% or more: no result) and not quiet (above 10%: not submission-grade) apart
            group = why if "not measured" in why else why.partition(":")[0]
            busy.setdefault(group, []).append(p.index)
            first_detail.setdefault(group, "run %d: %s" % (p.index, why))
        invalid = [m.name for m in rec.measurements if m.valid is False]
        if invalid:
            busy.setdefault("measurements the run marks invalid (%s)" % ", ".join(sorted(set(invalid))), []).append(p.index)
    for why, runs in busy.items():
        detail = first_detail.get(why, "")
        reasons.append("%s in runs %s%s" % (why, _runs(runs), " (%s)" % detail if detail and detail != why else ""))
    if suite.constructs is not None:
        unresolved = sorted({int(r["run"]) for r in suite.constructs.rows
                             if r.get("status") == "unresolved" and count_of(r.get("run")) is not None
                             and int(r["run"]) not in optional})
        if unresolved:
            reasons.append("construct rows unresolved (not measured overheads) in runs %s" % _runs(unresolved))
    return reasons


def _runs(indices) -> str:
    return " ".join(str(i) for i in indices)
