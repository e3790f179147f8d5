"""The cluster report's writers (cluster.py builds the content): text (the
answer first: the odd nodes by name; then each group and its figures), CSV
(one row per node, spreadsheet-safe) and JSON (the content as it is).
Node names and facts come from outside: escaped for the terminal in the
text, control characters escaped and formula-safe in the CSV, JSON-encoded
in the JSON, escaped for HTML (safe_text.for_html) in the page."""
from __future__ import annotations

import io
import json

from . import cluster_figures
from ..core.safe_io import SAFE_NAME, for_terminal
from ..core.safe_text import SpreadsheetSafeWriter, no_controls

NAMED = 50          # at most this many nodes per verdict are named in the text; the CSV and JSON have all


def good_stem(stem: str) -> bool:
    return bool(SAFE_NAME.match(stem)) and stem not in (".", "..")


def g(v) -> str:
    """A figure to four significant digits (the rule's threshold says what difference matters)."""
    return "NA" if v is None else "%.4g" % v


def _facts(facts) -> str:
    parts = []
    for k, v in facts.items():
        if v in ("", 0):
            continue
        parts.append("%s %s" % (cluster_figures.FACT_LABELS[k], for_terminal(str(v))))
    return ", ".join(parts) or "ranks of one run"


def _label(key: str) -> str:
    return cluster_figures.by_key()[key].label   # the catalogue's, its unit named in it


def text(report) -> str:
    c = report["counts"]
    out = ["Cluster report: %d node%s in %d group%s: %d outlier%s, %d busy, %d failed, %d within their group, "
           "%d not judged" % (c["nodes"], "" if c["nodes"] == 1 else "s", c["groups"], "" if c["groups"] == 1 else "s",
                              c["outlier"], "" if c["outlier"] == 1 else "s", c["busy"], c["failed"], c["within"],
                              c["not judged"])]
    by_node = {}
    for o in report["outliers"]:
        by_node.setdefault((o["node"], o["group"]), []).append(o)
    named = 0
    for (node, group), items in by_node.items():
        named += 1
        if named > NAMED:
            continue
        what = "; ".join("%s %s (median %s, %+.4g = %s scaled MADs; threshold %s)" % (
            _label(o["figure"]), g(o["value"]), g(o["median"]), o["deviation"],
            "%.1f" % o["scaled_mads"] if o["scaled_mads"] is not None else "NA", g(o["threshold"])) for o in items)
        out.append("Outlier: %s (group %d): %s" % (for_terminal(node), group, what))
    if named > NAMED:
        out.append("Outlier: %d more (the CSV and JSON name every one)" % (named - NAMED))
    for kind, label in (("busy", "Busy"), ("failed", "Failed")):
        nodes = [n for n in report["nodes"] if n["verdict"] == kind]
        for n in nodes[:NAMED]:
            why = n["busy_reason"] if kind == "busy" else n["failure"]
            tail = "; left out of its group (its figures measure the contention)" if kind == "busy" else ""
            out.append("%s: %s (group %d): %s%s" % (label, for_terminal(n["node"]), n["group"],
                                                   for_terminal(why or "its own noise census said busy"), tail))
        if len(nodes) > NAMED:
            out.append("%s: %d more (the CSV and JSON name every one)" % (label, len(nodes) - NAMED))
    out.append("Intervals: %s" % report["interval"])
    out.append("Rule: %s" % report["rule"]["text"])
    out.append("False rate: %s" % report["rule"]["false_rate"])
    for grp in report["groups"]:
        out.append("")
        out.append("Group %d: %s: %d node%s (%d busy, %d failed); false rate at this size: %.2g%% per node and "
                   "figure" % (grp["group"], _facts(grp["facts"]), grp["nodes"], "" if grp["nodes"] == 1 else "s",
                               grp["busy"], grp["failed"], grp["false_rate_percent"]))
        out.append("  %-44s %6s %11s %11s %11s %11s" % ("figure", "nodes", "median", "MAD", "3.5 sMAD", "floor"))
        for key, d in grp["figures"].items():
            out.append("  %-44s %6d %11s %11s %11s %11s%s" % (
                _label(key), d["n"], g(d["median"]), g(d["mad"]), g(d["spread_cut"]), g(d["floor"]),
                "" if d["judged"] else "  not judged (fewer than %d nodes)" % report["rule"]["fewest"]))
    return "\n".join(out) + "\n"


def csv_text(report) -> str:
    buf = io.StringIO()
    w = SpreadsheetSafeWriter(buf)
    head = ["node", "group", "verdict", "failure", "busy", "busy_reason"]
    for k in cluster_figures.keys():
        head += [k, k + "_half_width", k + "_stands_out", k + "_deviation", k + "_threshold", k + "_scaled_mads"]
    w.writerow(head)

    def cell(v):
        if v is None:
            return ""
        if isinstance(v, bool):
            return "1" if v else "0"
        return repr(v) if isinstance(v, float) else v

    for n in report["nodes"]:
        row = [n["node"], n["group"], n["verdict"], no_controls(n["failure"] or ""), cell(n["busy"]),
               no_controls(n["busy_reason"] or "")]
        for k in cluster_figures.keys():
            f = n["figures"][k]
            row += [cell(f[m]) for m in ("value", "half_width", "stands_out", "deviation", "threshold", "scaled_mads")]
        w.writerow(row)
    return buf.getvalue()


def json_text(report) -> str:
    return json.dumps(report, indent=1) + "\n"



def html_text(report) -> str:
    """One page: the answer (the text report's lines naming the odd nodes), then every node with its verdict
    and figures (value ± half-width), then each group's distribution. Every name and fact escaped."""
    from ..core.safe_text import for_html as escape, for_html_lines
    lines = text(report).split("\n")
    groups_at = next((i for i, l in enumerate(lines) if l.startswith("Group ")), len(lines))
    answer = [l for l in lines[:groups_at] if l]
    keys = cluster_figures.keys()
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8"><title>clomp cluster report</title>',
           "<style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #999;"
           "padding:2px 6px;text-align:right}td.t{text-align:left}tr.outlier{background:#fdd}tr.busy{background:#ffd}"
           "tr.failed{background:#ddd}</style></head><body>",
           "<h1>%s</h1>" % escape(answer[0] if answer else "Cluster report"), "<ul>"]
    out += ["<li>%s</li>" % escape(l) for l in answer[1:]]
    out += ["</ul>", "<h2>Nodes</h2>", "<table><tr><th>node</th><th>group</th><th>verdict</th>"]
    out += ["<th>%s</th>" % escape(_label(k)) for k in keys]
    out += ["<th>failure or busy reason</th></tr>"]
    for n in report["nodes"]:
        cells = []
        for k in keys:
            f = n["figures"][k]
            half = " &plusmn; %s" % g(f["half_width"]) if f["half_width"] is not None else ""
            mark = " <b>stands out</b>" if f["stands_out"] else ""
            cells.append("<td>%s%s%s</td>" % (g(f["value"]), half, mark))
        why = n["failure"] or n["busy_reason"] or ""
        out.append('<tr class="%s"><td class="t">%s</td><td>%d</td><td class="t">%s</td>%s<td class="t">%s</td></tr>' % (
            escape(n["verdict"].replace(" ", "-")), escape(n["node"]), n["group"], escape(n["verdict"]), "".join(cells),
            escape(why)))
    out += ["</table>", "<h2>Groups</h2>", "<pre>%s</pre>" % for_html_lines(lines[groups_at:]), "</body></html>"]
    return "\n".join(out) + "\n"
