"""The node's own limits and the smallest loop worth threading, where a suite carries them (issue 48): the
"Node limits" section of the suite's page, from the one run that asked for clomp --limits (the construct run
at the key thread count: suite/constructs.sh), and the buyer's two per-machine figures, OpenMP's barrier as a
multiple of the best reference barrier (that run's record) and METG(50%) (a grain run the suite's files
carry, SUITE_grain.json: docs/grain.md). Every figure is the catalogue's (its "limits" and "grain" sets);
a figure that is not there says why."""
from __future__ import annotations

import json
from typing import List, Optional, Tuple

from ..core import catalogue
from .grain_answers import outward
from .grain_cells import Summary
from ..core.safe_io import for_terminal
from ..core.safe_text import for_html as e

# The two figures by their place in a record (the catalogue's json column), their keys from the catalogue.
BARRIER_MULTIPLE_JSON = "limits.figures.barrier_multiple.value"
METG_JSON = "teams[].half_efficiency.metg_us.value"   # grain_report's METG


def key_of(json_path: str) -> str:
    return next(f.key for f in catalogue.load().figures if f.get("json") == json_path)
GRAIN_SUFFIX = "_grain.json"   # grain_report's JSON, beside the suite's files (the full suite's grain search)


def limits_record(suite):
    """(run, record) of the suite's run that measured the node's limits, or (None, None)."""
    for p in suite.plan:
        rec = suite.record(p.index)
        if rec is not None and isinstance(rec.doc.get("limits"), dict):
            return p.index, rec
    return None, None


def failure_of(doc) -> Optional[str]:
    """Why the --limits run gave no result at all: its limits block's failure (a reference failed its check),
    else the run's own failure (the record of a run that FAILED); None when it did not fail."""
    limits = doc.get("limits") or {}
    why = limits.get("failure") or doc.get("failure")
    return for_terminal(str(why)) if why else None


def class_of(doc, fig) -> Optional[dict]:
    """The topology class a round-trip figure is of (limits.classes' entry: its pairs), None for any other."""
    name = (fig.get("json") or "").split(".")[-2:-1]
    classes = (doc.get("limits") or {}).get("classes") or {}
    if name and name[0].startswith("round_trip_") and name[0].endswith("_ns"):
        entry = classes.get(name[0][len("round_trip_"):-len("_ns")])
        return entry if isinstance(entry, dict) else None
    return None


def spans(doc, fig) -> bool:
    """False for a class of CPU pairs the team has none of (no SMT siblings, one socket): nothing to say."""
    entry = class_of(doc, fig)
    return entry is None or not isinstance(entry.get("pairs"), int) or entry["pairs"] > 0


def figure_cell(doc, fig) -> Tuple[Optional[Summary], str]:
    """(the figure's value and interval, "") from a record's limits block, or (None, why not)."""
    limits = doc.get("limits") or {}
    failure = failure_of(doc)
    if failure:
        return None, "not a result: %s" % failure
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


def interval_text(s: Summary) -> str:
    """The estimate at 3 significant digits, its interval's bounds rounded outward (never inward)."""
    text = "%.3g" % s.value
    if s.low is not None and s.high is not None:
        text += " [%g..%g]" % (outward(s.low, False), outward(s.high, True))
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
    intro = ("<p>What the node allows on the key runs' team (%s threads, run %d: <code>clomp --limits</code>, "
             "docs/limits.md): the round trip of one cache line between the team's CPUs, three hand-written barriers "
             "and a fork/join, beside OpenMP's on the same threads.</p>" % (e(threads if threads is not None else "?"), run))
    failure = failure_of(rec.doc)
    if failure:
        return out + [intro, "<p>Not a result: %s</p>" % e(failure)]
    out += [intro, "<p>One process's figures. Round trips: each pair's median over its batches, then the least, "
            "the median and the greatest over the valid pairs (of a class: the median over its pairs), no interval; "
            "so are the one-way cycles and the latency bound derived from the median pair. "
            "Barriers and fork/joins: the median over the repetitions, its 95% order-statistic interval over those "
            "repetitions in brackets. A class of CPU pairs the team does not span is left out.</p>",
            "<table>", "<tr><th>Figure</th><th>Value</th><th>Unit</th></tr>"]
    for fig in catalogue.load().in_set("limits"):
        if not spans(rec.doc, fig):
            continue   # a topology class the team does not span (no SMT siblings, one socket), busy or not
        summary, why = figure_cell(rec.doc, fig)
        if summary is None and why == "not measured at this team":
            continue   # a record from before limits.classes: the figure is absent where the class is
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


def cell(text: str, summary: Optional[Summary] = None, threads: Optional[int] = None, interval: str = "") -> dict:
    """One per-machine cell of the buyer's table: its text, and its numbers for the CSV's and JSON's columns."""
    return {"text": text, "median": summary.value if summary else None, "low": summary.low if summary else None,
            "high": summary.high if summary else None, "threads": threads, "interval": interval}


def metg_cell(doc, threads: Optional[int], name: str, checked: bool = False) -> dict:
    """METG(50%) of Static OMP at the key runs' team (else the largest team measured) from a grain document:
    an upper bound, the loop time at the smallest measured size that reached 50% (the true one lies between
    it and the size below, which did not: up to 16x apart on the full suite's grid). CHECKED: the validator
    found the submission valid, so the document's answers are its process records' (grain_check.py)."""
    source = "from %s%s, %s" % (for_terminal(name), GRAIN_SUFFIX, "recomputed by the validator from its process records"
                                if checked else "as bundled: the validator refused the submission")
    if doc is None:
        return cell("n/a: no grain run in the suite's files (a full suite runs one unless --no-grain; docs/grain.md)")
    static = next((s for s in doc.get("schedules") or [] if isinstance(s, dict) and s.get("schedule") == "static"), None)
    teams = [t for t in (static or {}).get("teams") or [] if isinstance(t, dict) and isinstance(t.get("threads"), int)]
    if not teams:
        return cell("n/a: the grain run measured no team (%s)" % source)
    team = next((t for t in teams if t["threads"] == threads), max(teams, key=lambda t: t["threads"]))
    # A bundle's file: any field may be of any type; only dicts and numbers are read as such.
    half = team.get("half_efficiency") if isinstance(team.get("half_efficiency"), dict) else {}
    metg = half.get("metg_us") if isinstance(half.get("metg_us"), dict) else {}
    if not half.get("decided") or not isinstance(metg.get("value"), (int, float)):
        return cell("n/a at %d threads: %s (%s)" % (team["threads"], for_terminal(str(half.get("text") or "not decided")),
                                                     source), threads=team["threads"])
    ci = metg.get("ci_95")
    ci = ci if isinstance(ci, list) and len(ci) == 2 and all(isinstance(b, (int, float)) for b in ci) else [None, None]
    summary = Summary(float(metg["value"]), ci[0], ci[1], 1)
    zones, below = for_terminal(str(half.get("zones"))), half.get("below")
    bracket = ("%s zones reached 50%%; %s zones, the size below, did not" % (zones, for_terminal(str(below)))
               if below else "%s zones reached 50%%: the smallest size measured" % zones)
    return cell("<= %s us at %d threads (%s; %s)" % (interval_text(summary), team["threads"], bracket, source),
                summary, team["threads"], "upper bound: " + bracket)


def submission_figures(suite, grain, threads: Optional[int], checked: bool = False) -> dict:
    """The buyer's per-machine figures of one suite: {figure key: cell} (catalogue keys; "n/a: why" when absent).
    CHECKED: the validator found the suite valid (its grain run's answers recomputed: metg_cell)."""
    run, rec = limits_record(suite)
    if rec is None:
        multiple = cell("n/a: no --limits run in the suite (a suite from before issue 48, --no-constructs or --mpi)")
    else:
        summary, why = figure_cell(rec.doc, catalogue.load().figure(key_of(BARRIER_MULTIPLE_JSON)))
        where = "one process, run %d: interval over its repetitions" % run
        multiple = cell("%s (%s)" % (interval_text(summary), where) if summary is not None else "n/a: " + why,
                        summary, (rec.doc.get("limits") or {}).get("threads"), where if summary is not None else "")
    return {key_of(METG_JSON): metg_cell(grain, threads, suite.name, checked), key_of(BARRIER_MULTIPLE_JSON): multiple}
