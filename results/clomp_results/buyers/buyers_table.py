"""The buyer's table (issue 33): the submissions' records in, one table
document out (a JSON-able dict) that the HTML, CSV and JSON writers read.

The figures are the catalogue's (clomp --list-figures): the key set, the
sweep set, the project's overhead as the primary figure. Every statistic is
clomp-stats' (stats_helper: the tested C of timing/):
- a cell: the median over the target input's processes that gave the
  figure as a result (given.py), only from 3 or more and at least half of
  them, else "no result (1 of 3 processes gave one: 2 busy)"; with 6 or
  more, the 95% order-statistic interval of that median; with 3 to 5, min
  .. max and how often that range holds the median; a submission of one
  process, its value alone;
- LLNL's targets: the interval (or range) of the target's cycles over the
  processes judged against the bound over the core clock's range by
  clomp's own rule (clomp-stats judge: "unavailable" without the core
  clock); below 6 processes the range's verdict is about those processes
  only and says so ("met (in 3 of 3 processes; 6 needed for a 95%
  statement)"); one process: its own verdict;
- differences, each submission against the baseline (--baseline, else the
  first): where both have two processes or more, clomp-stats compare (the
  Mann-Whitney test and the distribution-free interval of the ratio). The
  primary figure (the project's overhead, as --compare's) of every
  submission is one family under Holm (clomp-stats holm) at 5%; each
  submission's other figures are a family of their own under Holm at 5%;
  each interval is drawn at the level clomp-stats holm gives it (its step's
  when rejected, else Bonferroni's), and a difference is beyond noise when
  Holm rejects it and its interval at that level excludes 1. The families
  and their error rates are stated (table["family"]). The processes each
  side lost for a figure, and why, are said, and the side that lost more
  named. Without two processes a side: "no test possible", with the plain
  ratio of the two medians. Where a side has no result for a figure the
  difference cannot be decided, and says which reason holds on which side
  (given.side_reason).
"""
from __future__ import annotations

from typing import Dict, List, Optional

from ..core import catalogue, given, stats_helper
from ..grain import node_limits
from ..core.records import count_of
from .process_figures import key_figures, sweep_figures

LEVEL = 0.95
ALPHA = 0.05      # 1 - LEVEL: Holm's family-wise level


def primary() -> str:
    """The primary figure: the project's overhead (the catalogue's)."""
    return catalogue.load().primary().key


def label(fid: str) -> str:
    fig = catalogue.load().figure(fid)
    return fig.label if fig is not None else fid


def figure_given(sub, fid) -> given.Given:
    """Who gave FID in submission SUB: its record's counts (one archived before issue 43: its values and the
    processes whose run marked the figure invalid)."""
    values = sub["key"].get(fid, [])
    counts = (sub.get("given") or {}).get(fid)
    if not counts:
        dropped = len(sub["dropped"].get(fid, []))
        return given.Given(values, len(values) + dropped, {given.INVALID: dropped})
    return given.Given(values, int(counts.get("of", len(values))), dict((r, int(counts.get(r, 0))) for r in given.REASONS))


class Summaries(object):
    """clomp-stats summary per list of values, asked once per distinct list."""

    def __init__(self, helper):
        self.helper, self.cache = helper, {}

    def cell(self, values: List[float]) -> Dict[str, object]:
        if not values:
            return {"n": 0, "text": "not measured", "median": None, "low": None, "high": None, "interval": ""}
        key = tuple(values)
        if key not in self.cache:
            if len(values) == 1:
                self.cache[key] = {"n": 1, "median": values[0], "low": None, "high": None, "interval": "one process",
                                   "text": "%.4g" % values[0]}
            else:
                s = stats_helper.summary(self.helper, values)
                n = int(s["n"])
                if s.get("ci_low") is not None:
                    cell = {"low": float(s["ci_low"]), "high": float(s["ci_high"]),
                            "interval": "95%% interval of the median, %d processes" % n,
                            "text": "%s (%s .. %s)" % (s["median_text"], s["ci_low_text"], s["ci_high_text"])}
                else:
                    cov = float(s["range_coverage"]) * 100
                    cell = {"low": float(s["min"]), "high": float(s["max"]),
                            "interval": "min .. max of %d processes (holds the median %.0f%% of the time)" % (n, cov),
                            "text": "%s [%s .. %s]" % (s["median_text"], s["min_text"], s["max_text"])}
                cell.update(n=n, median=float(s["median"]))
                self.cache[key] = cell
        return dict(self.cache[key])


def dropped_why(sub, fid) -> str:
    """Why a submission's processes were left out of a figure: "mean and median chunk apart 2, ..."."""
    return ", ".join("%s %d" % kv for kv in sorted(sub.get("dropped_why", {}).get(fid, {}).items()))


def key_cell(summaries, sub, fid) -> Dict[str, object]:
    """A key figure's cell: the median over the processes that gave it as a result, saying how many of how many
    when not all did, and why a run marked it invalid; no result from too few (given.py)."""
    g = figure_given(sub, fid)
    if g.k == 0 and g.total == g.why.get(given.NOT_MEASURED, 0):
        return summaries.cell([])
    if not (g.summarised or g.single):
        return {"n": 0, "text": g.no_result_text(), "median": None, "low": None, "high": None, "interval": "",
                "given": g.count_text()}
    cell = summaries.cell(g.values)
    if g.k != g.total:
        why = dropped_why(sub, fid)
        cell["text"] += " (%s%s)" % (g.count_text(), "; invalid: " + why if why else "")
        cell["dropped"] = g.total - g.k
        if why:
            cell["dropped_why"] = dict(sub.get("dropped_why", {}).get(fid, {}))
    return cell


def target_cell(summaries, sub, key) -> Dict[str, object]:
    t = sub["targets"].get(key)
    if t is None:
        why = "no clock in CLOMP 1.2 output" if sub["kind"] == "CLOMP 1.2 text" else "not measured"
        return {"verdict": "unavailable", "text": "unavailable (%s)" % why, "n": 0}
    cell = summaries.cell(t["cycles"])
    unit = " " + (t.get("clock") or "cycles")      # which cycles the record counts (nominal TSC, or core)
    bound = t["bound"]
    if cell["n"] == 0:
        cell["verdict"] = "unavailable"
        cell["text"] = "unavailable (no valid process)"
        return cell
    if t["not_judged"] or bound is None:
        cell["verdict"] = "informational"
        cell["text"] += unit + " (no LLNL target)"
        return cell
    clock = sub["clock"]
    core = clock.get("core_ghz")
    if cell["n"] == 1 and t.get("verdict"):
        cell["verdict"] = t["verdict"]
        cc = t.get("core_cycles")
        cell["text"] += "%s%s: %s (one process: its own interval within the process)" % (
            unit, ", %.0f .. %.0f core cycles" % (cc[0], cc[1]) if cc and None not in cc else "", t["verdict"])
        return cell
    # clomp's one judge (clomp-stats judge): nominal TSC cycles over the cores' clock range, "unavailable"
    # without it; below 6 processes min .. max, a verdict about those processes only, said so
    nominal = clock.get("ghz") if clock.get("clock") == "nominal TSC cycles" else None
    j = stats_helper.judge(summaries.helper, bound, nominal, core, cell["low"], cell["high"],
                           cell["n"] if cell["n"] < 6 else None)
    cell["verdict"] = j["verdict"]
    cell["qualified"] = j["qualified"]
    if core is None and nominal:
        cell["text"] += unit + ": unavailable (no core clock: no core-cycle verdict)"
    elif nominal:
        cell["text"] += "%s: %s (judged in core cycles over the %s core clock, %.2f .. %.2f GHz)" % (
            unit, j["text"], clock.get("source", ""), core[0], core[1])
    else:
        cell["text"] += "%s: %s (core cycles)" % (unit, j["text"])
    return cell


def _testable(a: List[float], b: List[float]) -> bool:
    return len(a) >= 2 and len(b) >= 2


def lost_text(base, other, fid) -> str:
    """The processes each side lost for a figure, and why; the side that lost more named (its processes kept
    are then the better ones, which biases the difference toward it). "" when none lost any."""
    lost = [len(base["dropped"].get(fid, [])), len(other["dropped"].get(fid, []))]
    if not any(lost):
        return ""
    parts = ["%s lost %d%s" % (who, k, " (%s)" % dropped_why(sub, fid) if k else "")
             for who, k, sub in (("baseline", lost[0], base), ("this submission", lost[1], other))]
    text = "; ".join(parts)
    if lost[0] != lost[1]:
        more = "the baseline" if lost[0] > lost[1] else "this submission"
        text += "; %s lost more: the processes kept may favour it" % more
    return text


def no_result(base, other, fid) -> str:
    """Why a difference of FID cannot be decided because a side has no result for it, or ''."""
    sides = [("the baseline", figure_given(base, fid)), ("this submission", figure_given(other, fid))]
    short = [(name, g) for name, g in sides if not (g.summarised or g.single) and g.reasons()]
    if not short:
        return ""   # every side has a result, or too few processes in all (the test below says so)
    return given.side_reason(short)


def primary_family(helper, base, others) -> Dict[str, Dict[str, object]]:
    """The primary figure of every submission against the baseline, one family under Holm (clomp-stats holm)
    at ALPHA: label -> {"rejected", "level" (the level its interval is drawn at), "p", "m"}."""
    fid = primary()
    tested = [s for s in others if not no_result(base, s, fid) and _testable(base["key"].get(fid, []), s["key"].get(fid, []))]
    first = [stats_helper.compare(helper, base["key"][fid], s["key"][fid], repr(LEVEL)) for s in tested]
    holm = stats_helper.holm(helper, ALPHA, [c["p"] for c in first])
    return dict((s["label"], {"rejected": r, "level": level, "p": c["p"], "m": len(tested)})
                for s, c, r, level in zip(tested, first, holm["rejected"], holm["interval_level"]))


def differences(helper, summaries, base, other, judged_primary=None) -> Dict[str, Dict[str, object]]:
    """figure id -> the comparison of OTHER with BASE (see the module's docstring); JUDGED_PRIMARY: this
    submission's primary figure as judged in the family over all submissions (primary_family)."""
    out: Dict[str, Dict[str, object]] = {}
    fids = [f.key for f in key_figures()]
    for fid in fids:
        why = no_result(base, other, fid)
        if why and (base["key"].get(fid) or other["key"].get(fid)):
            out[fid] = {"test": False, "verdict": "cannot decide", "text": "cannot decide: %s" % why}
    primary_fid = primary()
    testable = [fid for fid in fids if fid not in out and _testable(base["key"].get(fid, []), other["key"].get(fid, []))]
    family = [fid for fid in testable if fid != primary_fid]
    first = {}
    for fid in family:
        first[fid] = stats_helper.compare(helper, base["key"][fid], other["key"][fid], repr(LEVEL))
    holm = stats_helper.holm(helper, ALPHA, [first[fid]["p"] for fid in family])
    for fid in testable:
        if fid == primary_fid:
            judged = judged_primary or {"rejected": True, "level": LEVEL, "m": 1}
            level = judged["level"]
            c = stats_helper.compare(helper, base["key"][fid], other["key"][fid], "%.6f" % level)
            rejected = judged["rejected"] and c["detected"]
            rule = "primary figure: Holm over the %d submissions' primary figures, interval at %.2f%%" % (
                judged["m"], level * 100)
        else:
            i = family.index(fid)
            level = holm["interval_level"][i]
            c = stats_helper.compare(helper, base["key"][fid], other["key"][fid], "%.6f" % level)
            rejected = holm["rejected"][i] and c["detected"]
            rule = "Holm over this submission's %d other figures, interval at %.2f%%" % (len(family), level * 100)
        verdict = "beyond noise" if rejected else "within noise" if c["ci_low"] is not None else "too few processes"
        scale = "B/A" if c["scale"] == "ratio" else "B - A"
        interval = "no interval" if c["ci_low"] is None else "%s .. %s" % (c["ci_low_text"], c["ci_high_text"])
        said = verdict if verdict != "too few processes" else (
            "no difference detectable with %d and %d processes: too few for an interval at %.2f%% (use more --replicates)"
            % (len(base["key"][fid]), len(other["key"][fid]), level * 100))
        lost = lost_text(base, other, fid)
        out[fid] = {"test": True, "scale": c["scale"], "estimate": c["estimate"], "low": c["ci_low"], "high": c["ci_high"],
                    "p": c["p"], "level": level, "rule": rule, "verdict": verdict, "lost": lost,
                    "text": "%s %s (%s), p %.2g: %s%s" % (scale, c["estimate_text"], interval, c["p"], said,
                                                         "; " + lost if lost else "")}
    for fid in fids:
        if fid in out:
            continue
        a, b = base["key"].get(fid, []), other["key"].get(fid, [])
        lost = lost_text(base, other, fid)
        if not a or not b:
            why = "no valid value (their runs marked it invalid)" if (base["dropped"].get(fid) and not a) or (
                other["dropped"].get(fid) and not b) else "not measured"
            out[fid] = {"test": False, "verdict": "not measured", "lost": lost, "text": "%s in %s%s" % (
                why, "either" if not a and not b else "the baseline" if not a else "this submission",
                "; " + lost if lost else "")}
            continue
        ma, mb = summaries.cell(a)["median"], summaries.cell(b)["median"]
        ratio = "ratio of medians %.3g" % (mb / ma) if ma and ma > 0 and mb > 0 else "no ratio (a median is not positive)"
        out[fid] = {"test": False, "verdict": "no test possible", "lost": lost,
                    "text": "%s; no test possible (%d and %d processes: a test needs two or more a side)%s" % (
                        ratio, len(a), len(b), "; " + lost if lost else "")}
    return out


def family_statement(k_others: int, m_figures: int) -> str:
    """The buyer's table's families and the error rate each procedure holds them to."""
    if k_others == 0:
        return "One submission: no differences tested."
    return ("Families: the primary figure (%s) of the %d submission%s against the baseline, one family under Holm at "
            "%.2g (a false 'beyond noise' among them has probability at most %.2g); each submission's other figures "
            "(up to %d), a family of their own under Holm at %.2g: at most %.2g per submission, %.2g over the table's %d "
            "submission%s." % (label(primary()), k_others, "" if k_others == 1 else "s", ALPHA, ALPHA, m_figures, ALPHA,
                              ALPHA, ALPHA * k_others, k_others, "" if k_others == 1 else "s"))


def cycles_text(median: Optional[float], clock: Dict[str, object]) -> str:
    """A us/Loop median in the machine's own core cycles (its core clock range, GHz x 1000 per us)."""
    core = clock.get("core_ghz")
    if median is None:
        return "not measured"
    if not core:
        return "no core clock"
    lo, hi = sorted((median * core[0] * 1000, median * core[1] * 1000))
    if abs(hi - lo) <= 0.005 * max(abs(hi), 1e-9):
        return "%.0f cycles (%s core clock %.2f GHz)" % (lo, clock.get("source", ""), core[0])
    return "%.0f .. %.0f cycles (%s core clock %.2f .. %.2f GHz)" % (lo, hi, clock.get("source", ""), core[0], core[1])


def _thread_key(t: str):
    return (0, int(t)) if count_of(t) is not None else (1, t)


def build(subs: List[Dict[str, object]], helper: str, baseline: Optional[str] = None) -> Dict[str, object]:
    summaries = Summaries(helper)
    labels = [s["label"] for s in subs]
    base_i = labels.index(baseline) if baseline in labels else 0
    table: Dict[str, object] = {"schema": "clomp-buyers-table", "schema_version": 1, "baseline": labels[base_i] if labels else "",
                                "level": LEVEL, "primary": label(primary()),
                                "submissions": [{"label": s["label"], "valid": s["valid"]} for s in subs]}
    table["key"] = [{"figure": f.key, "label": f.label, "unit": f.unit, "cells": [key_cell(summaries, s, f.key) for s in subs]}
                    for f in key_figures()]
    target_keys: List[str] = []
    for s in subs:
        for k in s["targets"]:
            if k not in target_keys:
                target_keys.append(k)
    rows = []
    for k in target_keys:
        info = next(s["targets"][k] for s in subs if k in s["targets"])
        rows.append({"target": k, "label": info["label"], "bound": info["bound"], "citation": info["citation"],
                     "cells": [target_cell(summaries, s, k) for s in subs]})
    table["targets"] = rows
    sweep = []
    for fid in [f.key for f in sweep_figures()]:
        threads = sorted({t for s in subs for t in s["sweep"].get(fid, {})}, key=_thread_key)
        if not threads:
            continue
        sweep.append({"figure": fid, "label": label(fid), "unit": catalogue.load().figure(fid).unit, "rows": [
            {"threads": t, "cells": [summaries.cell(s["sweep"].get(fid, {}).get(t, [])) for s in subs]} for t in threads]})
    table["sweep"] = sweep
    names = []
    for s in subs:
        for k in s["constructs"]:
            if k not in names:
                names.append(k)

    def construct_order(k):
        name, level, outer, inner = (k.split("|") + ["", "", ""])[:4]
        return (_thread_key(level), _thread_key(inner), _thread_key(outer), name)
    table["constructs"] = [{"row": k, "construct": k.split("|")[0], "level": k.split("|")[1], "outer": k.split("|")[2],
                            "inner": k.split("|")[3], "cells": [summaries.cell(s["constructs"].get(k, [])) for s in subs]}
                           for k in sorted(names, key=construct_order)]
    # Per machine (issue 48): METG(50%) from a grain run the suite carries, OpenMP's barrier over the best reference.
    table["node"] = [{"figure": k, "label": label(k), "unit": catalogue.load().figure(k).unit, "cells": [
        s.get("node", {}).get(k) or node_limits.cell("n/a: a %s carries no --limits or grain run" % s["kind"])
        for s in subs]}
        for k in (node_limits.key_of(node_limits.METG_JSON), node_limits.key_of(node_limits.BARRIER_MULTIPLE_JSON))]
    table["normalised"] = [{"figure": row["figure"], "label": row["label"], "cells": [
        {"us": cell["text"], "cycles": cycles_text(cell["median"], s["clock"])} for cell, s in zip(row["cells"], subs)]}
        for row in table["key"] if row["unit"] == "us"]
    table["differences"] = []
    others = [s for i, s in enumerate(subs) if i != base_i]
    judged = primary_family(helper, subs[base_i], others) if subs else {}
    table["family"] = family_statement(len(others), len(key_figures()) - 1)
    for i, s in enumerate(subs):
        if i == base_i:
            continue
        d = differences(helper, summaries, subs[base_i], s, judged.get(s["label"]))
        table["differences"].append({"label": s["label"], "figures": [dict(d[f.key], figure=f.key, label=f.label)
                                                                      for f in key_figures()]})
    return table



def primary_lines(table) -> List[str]:
    """The closing lines: each submission against the baseline on the primary figure, with the reason and
    its side when it cannot decide."""
    out = []
    for d in table["differences"]:
        f = next((f for f in d["figures"] if f["label"] == table["primary"]), None)
        if f is not None:
            out.append("%s against %s, %s: %s" % (d["label"], table["baseline"], f["label"], f["text"]))
    return out
