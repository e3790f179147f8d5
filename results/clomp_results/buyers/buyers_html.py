"""The buyer's table as one HTML page (issue 33), from the submissions'
records and the table document (buyers_table.build). Every text that came
from a submission is escaped (html.escape, quotes included); the charts are
SVG drawn here from numbers (svg_chart). No timestamp: the same records give
the same page, whether read from the files or from the archive."""
from __future__ import annotations

from typing import Dict, List

from ..core import svg_chart
from ..core.records import count_of
from ..core.safe_text import for_html as e   # every value: control characters escaped, then HTML

STYLE = """body{font-family:sans-serif;margin:1.5em;max-width:1400px}table{border-collapse:collapse;margin:.6em 0}
td,th{border:1px solid #bbb;padding:3px 7px;vertical-align:top}th{background:#eef}td.num{text-align:right;font-family:monospace}
.met{background:#d4f4d4}.notmet{background:#f8d0d0}.undecided{background:#fff2c0}.na{color:#777}
.beyond{background:#f8e0b0}.invalid{color:#b00;font-weight:bold}caption{text-align:left;font-weight:bold}
.note{color:#444;font-size:90%}"""
VERDICT_CLASS = {"met": "met", "not met": "notmet", "undecided": "undecided", "beyond noise": "beyond",
                 "cannot decide": "undecided"}



def mark(sub) -> str:
    return ' <span class="invalid">[INVALID submission]</span>' if not sub["valid"] else ""


def heads(subs, first="") -> str:
    return "<tr><th>%s</th>%s</tr>" % (e(first), "".join("<th>%s%s</th>" % (e(s["label"]), mark(s)) for s in subs))


def cell_td(cell, sub, extra_class="") -> str:
    cls = VERDICT_CLASS.get(cell.get("verdict", ""), "") or extra_class or ("na" if not cell.get("n") else "")
    title = cell.get("interval", "")
    return '<td class="num %s" title="%s">%s%s</td>' % (cls, e(title), e(cell.get("text", "")), mark(sub))


def header_section(subs) -> List[str]:
    facts: List[str] = []
    for s in subs:
        for k, _ in s["header"]:
            if k not in facts:
                facts.append(k)
    out = ["<h2>Submissions</h2>", "<table>", heads(subs, "fact")]
    for k in facts + ["kind", "SHA-256"]:
        cells = []
        for s in subs:
            v = dict((a, b) for a, b in s["header"]).get(k, "")
            if k == "kind":
                v = s["kind"]
            elif k == "SHA-256":
                v = s["sha256"][:16] + "..." if s["sha256"] else ""
            cells.append("<td>%s%s</td>" % (e(v) if v != "" else '<span class="na">not recorded</span>', mark(s)))
        out.append("<tr><th>%s</th>%s</tr>" % (e(k), "".join(cells)))
    out.append("</table>")
    for s in subs:
        lines = ["%s: %s" % (e(s["label"]), e(s["validation"]["status"]))]
        lines += ["&nbsp;&nbsp;- %s" % e(r) for r in s["validation"]["reasons"]]
        lines += ["&nbsp;&nbsp;note: %s" % e(n) for n in s["notes"]]
        if s.get("conflict"):
            lines.append('&nbsp;&nbsp;<span class="invalid">%s</span>' % e(s["conflict"]))
        out.append('<p class="note">%s</p>' % "<br>".join(lines))
    return out


def key_section(table, subs) -> List[str]:
    out = ["<h2>The target input: key figures</h2>",
           '<p class="note">Each cell: the median over the target input\'s processes that gave the figure as a result '
           '(not failed, not on a busy machine, not marked invalid by their run: the cell says how many of how many '
           'when not all did); none from fewer than 3 processes or fewer than half of them: <i>no result</i>, and '
           'why. With 6 or more, (the 95% interval of the median); with 3 to 5, [min .. max] (hover a cell: how often '
           'that range holds the median); a submission of one process: its value alone.</p>',
           "<table>", heads(subs, "figure")]
    for row in table["key"]:
        out.append("<tr><th>%s</th>%s</tr>" % (e(row["label"]), "".join(cell_td(c, s) for c, s in zip(row["cells"], subs))))
    out.append("</table>")
    out += ["<h3>LLNL's targets (core cycles)</h3>",
            '<p class="note"><i>met</i> or <i>not met</i> only when the whole interval (or range) of the processes, '
            'counted in the machine\'s own core cycles over its core clock range, is below or above the bound; '
            '<i>undecided</i> when it straddles it; <i>unavailable</i> without a core clock (CLOMP 1.2 text has none).</p>',
            "<table>", heads(subs, "target")]
    for row in table["targets"]:
        bound = "" if row["bound"] is None else " (LLNL: below %g cycles)" % row["bound"]
        out.append("<tr><th>%s%s</th>%s</tr>" % (e(row["label"]), e(bound), "".join(cell_td(c, s) for c, s in zip(row["cells"], subs))))
    out.append("</table>")
    out += ["<h3>Per machine: the smallest loop worth threading and the barrier's headroom</h3>",
            '<p class="note">METG(50%): the parallel loop\'s wall time at the smallest measured loop reaching 50% '
            'efficiency (docs/grain.md), from the grain run the submission carries (its SUITE_grain.json, which the '
            'validator recomputes from the grain run\'s process records; the cell says whether it did): an upper bound, '
            'since the smallest loop reaching 50% lies between that size and the size below, which did not (16 times '
            'smaller on the full suite\'s grid); the 95% interval is the loop time\'s at that size. OpenMP barrier / best reference: one process\'s figure from its '
            '<code>clomp --limits</code> run (docs/limits.md), the median over its repetitions with the 95% interval '
            'over those repetitions, not between processes like the rows above. Or why not.</p>',
            "<table>", heads(subs, "figure")]
    for row in table.get("node", []):
        out.append("<tr><th>%s (%s)</th>%s</tr>" % (e(row["label"]), e(row["unit"]), "".join(
            '<td class="%s">%s%s</td>' % ("na" if c["median"] is None else "num", e(c["text"]), mark(s))
            for c, s in zip(row["cells"], subs))))
    out.append("</table>")
    out += ["<h3>Machine-normalised: overheads in each machine's core cycles</h3>", "<table>", heads(subs, "figure")]
    for row in table["normalised"]:
        out.append("<tr><th>%s</th>%s</tr>" % (e(row["label"]), "".join(
            '<td class="num">%s<br>%s%s</td>' % (e(c["us"]), e(c["cycles"]), mark(s)) for c, s in zip(row["cells"], subs))))
    out.append("</table>")
    return out


def differences_section(table, subs) -> List[str]:
    by_label = dict((s["label"], s) for s in subs)
    others = [by_label[d["label"]] for d in table["differences"]]
    out = ["<h2>Differences from the baseline, %s</h2>" % e(table["baseline"]),
           '<p class="note">B: the submission, A: the baseline. B/A: the median of all process ratios with its '
           'distribution-free interval (B - A where a value is not positive); p: Mann-Whitney. %s Each interval is '
           'drawn at the level its Holm step gives it. <i>beyond noise</i>: Holm rejects and the interval excludes no '
           'change. <i>no test possible</i>: a side has fewer than two processes; the plain ratio of the medians is '
           'shown, with no verdict. <i>cannot decide</i>: a side has no result for the figure, and the cell says why on '
           'which side (busy, invalid, failed). A cell says how many processes each side lost for the figure and why.</p>'
           % e(table.get("family", ""))]
    if not others:
        return out + ['<p class="na">one submission: nothing to compare</p>']
    out += ["<table>", heads(others, "figure")]
    for i, (fid, label) in enumerate((f["figure"], f["label"]) for f in table["differences"][0]["figures"]):
        cells = []
        for d, s in zip(table["differences"], others):
            f = d["figures"][i]
            title = f.get("rule", "")
            cells.append('<td class="%s" title="%s">%s%s</td>' % (VERDICT_CLASS.get(f["verdict"], "na" if not f["test"] else ""),
                                                                e(title), e(f["text"]), mark(s)))
        out.append("<tr><th>%s</th>%s</tr>" % (e(label), "".join(cells)))
    out.append("</table>")
    return out


def sweep_section(table, subs) -> List[str]:
    out = ["<h2>Thread sweep (the target input's other inputs, threads as the runtime gave them)</h2>"]
    for fig in table["sweep"]:
        out += ["<h3>%s</h3>" % e(fig["label"]), "<table>", heads(subs, "threads")]
        series = dict((s["label"], []) for s in subs)
        for row in fig["rows"]:
            out.append("<tr><th>%s</th>%s</tr>" % (e(row["threads"]), "".join(cell_td(c, s) for c, s in zip(row["cells"], subs))))
            for c, s in zip(row["cells"], subs):
                if c.get("median") is not None and count_of(row["threads"]) is not None:
                    series[s["label"]].append((float(row["threads"]), c["median"], c.get("low"), c.get("high")))
        out.append("</table>")
        if not fig["rows"]:
            out.append('<p class="na">no submission has a thread sweep of this figure</p>')
        svg = svg_chart.chart(fig["label"] + " vs threads", "threads", fig.get("unit", ""),
                              [(label + (" [INVALID]" if not s["valid"] else ""), series[label])
                               for label, s in ((s["label"], s) for s in subs) if series[label]])
        if svg:
            out += ["<figure>", svg, "<figcaption>A line per submission; points at the median, bars its interval or "
                    "range.</figcaption></figure>"]
    return out


def constructs_section(table, subs) -> List[str]:
    out = ["<h2>Constructs (EPCC's method), overhead us per construct</h2>"]
    if not table["constructs"]:
        return out + ['<p class="na">no submission ran the construct table</p>']
    groups: Dict[tuple, list] = {}
    for row in table["constructs"]:
        groups.setdefault((row["level"], row["inner"] if row["level"] != "1" else ""), []).append(row)
    for (level, inner), rows in groups.items():
        out.append("<h3>Level %s%s</h3>" % (e(level), ", inner teams of %s" % e(inner) if inner else ""))
        out += ["<table>", heads(subs, "construct (outer x inner)")]
        for row in rows:
            out.append("<tr><th>%s (%sx%s)</th>%s</tr>" % (e(row["construct"]), e(row["outer"]), e(row["inner"]),
                                                          "".join(cell_td(c, s) for c, s in zip(row["cells"], subs))))
        out.append("</table>")
    return out


def page(subs, table) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">',
           "<title>clomp: the buyer's table</title><style>%s</style></head><body>" % STYLE,
           "<h1>clomp: the buyer's table</h1>",
           '<p class="note">%d submissions; baseline %s. Every statistic is clomp-stats\' (the tested C of timing/). '
           'A submission marked INVALID was included with --include-invalid: its figures are not results. '
           'docs/compare-submissions.md says what every column means.</p>' % (len(subs), e(table["baseline"]))]
    out += header_section(subs)
    out += key_section(table, subs)
    out += differences_section(table, subs)
    out += sweep_section(table, subs)
    out += constructs_section(table, subs)
    out.append("</body></html>")
    return "\n".join(out) + "\n"
