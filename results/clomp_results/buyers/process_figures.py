"""The figures of a submission's processes (submissions.py's records, the buyer's table): the
catalogue's key and sweep figures, one process's figures, and a record's key, dropped, given,
targets and clock filled from its processes' records; an archived record's figures by the keys
the catalogue names them now.
"""
from __future__ import annotations

from typing import Dict, List, Optional

from ..core import catalogue, compare_figures, given, machine_facts
from ..core.view import num


def key_figures() -> List[catalogue.Figure]:
    """The target input's figures (the key table's rows): the catalogue's key set."""
    return catalogue.load().in_set("key")


def sweep_figures() -> List[catalogue.Figure]:
    """The thread sweep's figures: the catalogue's sweep set."""
    return catalogue.load().in_set("sweep")


def with_current_keys(r: Dict[str, object]) -> Dict[str, object]:
    """A record archived before issue 43, its figures by the keys the catalogue names them now (the buyer's
    Parallel For us/Loop, a median chunk, was parallel_for_us_per_loop)."""
    cat = catalogue.load()
    for section in ("key", "dropped", "dropped_why", "given", "sweep"):
        if isinstance(r.get(section), dict):
            r[section] = dict((cat.canonical(k), v) for k, v in r[section].items())
    return r


def record_figures(rec, figures=None) -> Dict[str, Optional[float]]:
    """The key figures (or FIGURES) of one process's record: None where it did not give the figure as a result
    (not measured, busy, marked invalid: given.py)."""
    return dict((f.key, given.of_process(rec.doc, f)[0]) for f in (figures or key_figures()))


def fill_figures(r, records, runs, failed=0):
    """Fill key, dropped, given, targets, clock from the processes' records (one input); FAILED: the input's
    processes that ended without a record of figures."""
    for fig in key_figures():
        g = given.over([(rec.doc, True) for rec in records] + [(None, False)] * failed, fig)
        if g.values:
            r["key"][fig.key] = list(g.values)
        r["given"][fig.key] = dict([("of", g.total)] + [(why, g.why.get(why, 0)) for why in given.REASONS])
        invalid = [rec for rec in records if given.of_process(rec.doc, fig)[1] == given.INVALID]
        if invalid:
            r["dropped"][fig.key] = [rec.run for rec in invalid]
            why = r.setdefault("dropped_why", {}).setdefault(fig.key, {})
            for rec in invalid:
                m = given.measurement(rec.doc, fig.get("measurement"))
                # the run's reason, or (for an overhead) its Bestcase's
                kind = (compare_figures.invalid_kind(m) if m is not None and m.get("valid") is False
                        else "its Bestcase: " + compare_figures.invalid_kind(given.invalid_bestcase(rec.doc)))
                why[kind] = why.get(kind, 0) + 1
    for rec in records:
        for t in rec.llnl_targets:
            entry = r["targets"].setdefault(t.key, {"label": t.label, "measurement": t.measurement, "bound": num(t.target_below),
                                                    "citation": t.citation or "", "not_judged": t.not_judged or "",
                                                    "cycles": [], "ci": None, "core_cycles": None, "verdict": None,
                                                    "clock": t.clock or ""})
            if num(t.cycles) is not None and t.verdict != "invalid":
                entry["cycles"].append(num(t.cycles))
                if len(entry["cycles"]) == 1:    # the first valid process's own verdict, for a cell of one value
                    entry["ci"] = list(t.cycles_ci_95) if t.cycles_ci_95 else None
                    entry["core_cycles"] = list(t.core_cycles) if t.core_cycles else None
                    entry["verdict"] = t.verdict
    r["clock"] = machine_facts.clock(records)
    r["runs"] = runs
    labels = dict((f.key, f.label) for f in key_figures())
    for fid, runs_out in r["dropped"].items():
        r["notes"].append("%s: left out of process%s %s, whose run marked it invalid (not a result: %s)" % (
            labels[fid], "" if len(runs_out) == 1 else "es", " ".join(str(x) for x in runs_out),
            ", ".join("%s %d" % kv for kv in sorted(r.get("dropped_why", {}).get(fid, {}).items()))))
