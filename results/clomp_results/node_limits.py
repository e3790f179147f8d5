"""The node's own limits and the smallest loop worth threading, where a suite carries them (issue 48): the
"Node limits" section of the suite's page, from the one run that asked for clomp --limits (the construct run
at the key thread count: suite/constructs.sh), and the buyer's two per-machine figures, OpenMP's barrier as a
multiple of the best reference barrier (that run's record) and METG(50%) (a grain run the suite's files
carry, SUITE_grain.json: docs/grain.md). Every figure is the catalogue's (its "limits" and "grain" sets);
a figure that is not there says why."""
from __future__ import annotations

import json
import math
from typing import List, Optional, Tuple

from . import catalogue
from .grain_cells import Summary
from .safe_io import for_terminal
from .safe_text import for_html as e

# The two figures by their place in a record (the catalogue's json column), their keys from the catalogue.
BARRIER_MULTIPLE_JSON = "limits.figures.barrier_multiple.value"
METG_JSON = "teams[].half_efficiency.metg_us.value"   # grain_report's METG


def key_of(json_path: str) -> str:
    return next(f.key for f in catalogue.load().figures if f.get("json") == json_path)
GRAIN_SUFFIX = "_grain.json"   # run_clomp.sh --grain's JSON beside the suite's files (grain_report)


def limits_record(suite):
    """(run, record) of the suite's run that measured the node's limits, or (None, None)."""
    for p in suite.plan:
        rec = suite.record(p.index)
        if rec is not None and isinstance(rec.doc.get("limits"), dict):
            return p.index, rec
    return None, None


def figure_cell(doc, fig) -> Tuple[Optional[Summary], str]:
    """(the figure's value and interval, "") from a record's limits block, or (None, why not)."""
    limits = doc.get("limits") or {}
    if limits.get("not_measured"):
        return None, "not measured: %s" % for_terminal(str(limits["not_measured"]))
    if limits.get("busy"):
        return None, "no result: the machine was busy (%s)" % for_terminal(str(limits.get("busy_reason") or "the noise census"))
    entry = catalogue.value(doc, (fig.get("json") or "").rsplit(".", 1)[0])
    if not isinstance(entry, dict) or not isinstance(entry.get("value"), (int, float)):
        return None, "not measured at this team"
    if entry.get("valid") is False:
        return None, "not a result: %s" % for_terminal(str(entry.get("not_a_result") or "marked invalid"))
    ci = entry.get("ci_95") if isinstance(entry.get("ci_95"), list) and len(entry["ci_95"]) == 2 else [None, None]
    return Summary(float(entry["value"]), ci[0], ci[1], 1), ""


def rounded(x: float, up: bool, digits: int = 3) -> float:
    """X at DIGITS significant digits, rounded away from the interval's inside (UP: towards +infinity)."""
    if x == 0 or not math.isfinite(x):
        return x
    step = 10 ** (math.floor(math.log10(abs(x))) - digits + 1)
    q = x / step
    q = math.ceil(q - 1e-9) if up else math.floor(q + 1e-9)
    return float("%.*g" % (digits + 1, q * step))


def interval_text(s: Summary) -> str:
    """The estimate at 3 significant digits, its interval's bounds rounded outward (never inward)."""
    text = "%.3g" % s.value
    if s.low is not None and s.high is not None:
        text += " [%g..%g]" % (rounded(s.low, False), rounded(s.high, True))
    return text


def cell_text(summary: Optional[Summary], why: str) -> str:
    return interval_text(summary) if summary is not None else "n/a: " + why


def html_section(suite) -> List[str]:
    """The page's "Node limits": every figure of the catalogue's limits set, from the --limits run's record."""
    out = ['<h2 id="node-limits">Node limits</h2>']
    run, rec = limits_record(suite)
    if rec is None:
        return out + ["<p>Not measured: no run of this suite asked for <code>clomp --limits</code> (the suite runs it "
                      "with the construct run at the key thread count; none with --no-constructs or --mpi).</p>"]
    threads = (rec.doc.get("limits") or {}).get("threads")
    out += ["<p>What the node allows on the key runs' team (%s threads, run %d: <code>clomp --limits</code>, "
            "docs/limits.md): the round trip of one cache line between the team's CPUs, three hand-written barriers "
            "and a fork/join, beside OpenMP's on the same threads. The median over the repetitions, its 95%% "
            "interval in brackets.</p>" % (e(threads if threads is not None else "?"), run),
            "<table>", "<tr><th>Figure</th><th>Value</th><th>Unit</th></tr>"]
    for fig in catalogue.load().in_set("limits"):
        summary, why = figure_cell(rec.doc, fig)
        if summary is None and why == "not measured at this team":
            continue   # a topology class the team does not span (no SMT siblings, one socket)
        out.append("<tr><td>%s</td><td%s>%s</td><td>%s</td></tr>" % (
            e(fig.label), "" if summary is not None else ' class="undecided"', e(cell_text(summary, why)), e(fig.unit)))
    return out + ["</table>"]


def grain_doc(read_text, name: str):
    """SUITE_grain.json as read by READ_TEXT (None when absent), or None when it is not a grain document."""
    text = read_text(name + GRAIN_SUFFIX)
    if text is None:
        return None
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) and doc.get("schema") == "clomp-grain" else None


def metg_text(doc, threads: Optional[int]) -> str:
    """METG(50%) of Static OMP at the key runs' team (else the largest team measured) from a grain document."""
    if doc is None:
        return "n/a: no grain run in the suite's files (run_clomp.sh --grain; docs/grain.md)"
    static = next((s for s in doc.get("schedules") or [] if isinstance(s, dict) and s.get("schedule") == "static"), None)
    teams = [t for t in (static or {}).get("teams") or [] if isinstance(t, dict) and isinstance(t.get("threads"), int)]
    if not teams:
        return "n/a: the grain run measured no team"
    team = next((t for t in teams if t["threads"] == threads), max(teams, key=lambda t: t["threads"]))
    half = team.get("half_efficiency") or {}
    metg = half.get("metg_us") or {}
    if not half.get("decided") or not isinstance(metg.get("value"), (int, float)):
        return "n/a at %d threads: %s" % (team["threads"], for_terminal(str(half.get("text") or "not decided")))
    ci = metg.get("ci_95") if isinstance(metg.get("ci_95"), list) and len(metg["ci_95"]) == 2 else [None, None]
    return "%s us at %d threads (%s zones)" % (interval_text(Summary(float(metg["value"]), ci[0], ci[1], 1)),
                                              team["threads"], for_terminal(str(half.get("zones"))))


def submission_figures(suite, grain, threads: Optional[int]) -> dict:
    """The buyer's per-machine figures of one suite: {figure key: text} (catalogue keys; "n/a: why" when absent)."""
    run, rec = limits_record(suite)
    if rec is None:
        multiple = "n/a: no --limits run in the suite (a suite from before issue 48, --no-constructs or --mpi)"
    else:
        multiple = cell_text(*figure_cell(rec.doc, catalogue.load().figure(key_of(BARRIER_MULTIPLE_JSON))))
    return {key_of(METG_JSON): metg_text(grain, threads), key_of(BARRIER_MULTIPLE_JSON): multiple}
