"""The HTML page and charts of `run_clomp.sh --sweep` (sweep_report.py makes
the figures): one self-contained page, every value from a record, the
environment or the command line through html.escape; one chart per figure,
drawn by gnuplot (charts.draw: values from data files, titles through
gnuplot.quote) and inlined only when this process drew it."""
from __future__ import annotations

import time

from ..core import catalogue
from ..suite import charts
from ..core.html_frame import HEAD, Charts
from ..core.view import num
from ..core.safe_text import for_html as e   # every value: control characters escaped, then HTML



def chart_rows(facts, fig):
    """[combination, median, low, high, 1 when low..high is min..max (no interval)] per combination."""
    rows = []
    for c in facts["labels"]:
        s = facts["stats"][c][fig]
        if s is None:
            rows.append([c, None, None, None, 0])
        elif s.get("ci_low") is not None:
            rows.append([c, num(s["median"]), num(s["ci_low"]), num(s["ci_high"]), 0])
        else:
            rows.append([c, num(s["median"]), num(s["min"]), num(s["max"]), 1])
    return rows


def sweep_charts(facts):
    out = []
    k = len(facts["labels"])
    for fig, name, unit, _ in catalogue.described("sweep"):
        rows = chart_rows(facts, fig)
        if not any(r[1] is not None for r in rows):
            continue
        stem = "sweep_" + fig
        clauses = ["'%s.dat' using 1:2:3:4 with yerrorbars ls 1 title 'median, 95%% interval between processes'" % stem]
        if any(r[4] == 1 and r[1] is not None for r in rows):
            clauses.append("'%s.dat' using 1:($5 == 1 ? $2 : NaN) %s title 'no interval (fewer than 6 processes): min..max'"
                           % (stem, charts.CIRCLE))
        setup = ("set xrange [0.5:%d.5]; set xtics 1; set xlabel 'combination (the table names its settings)'\n"
                 "set ylabel %s; set bars small; set key inside top right" % (k, charts.gnuplot.quote("%s, %s" % (name, unit))))
        # Settings that differ by orders of magnitude (a runtime that sleeps at once): a log axis, where every
        # drawn value is above 0; else a linear one with its zero line.
        drawn = [v for r in rows for v in r[1:4] if v is not None]
        if drawn and min(drawn) > 0 and max(drawn) / min(drawn) > 50:
            setup += "\nset logscale y 10; set format y '10^{%L}'"
        else:
            setup += "\nset xzeroaxis lt -1"
        out.append(charts.Chart(stem, "%s per combination of settings" % name, setup, clauses, {stem + ".dat": rows}))
    return out


def draw(facts, charts_dir):
    """({stem: {ext: bytes}}, [errors]) of the sweep's charts, drawn into charts_dir."""
    return charts.draw(sweep_charts(facts), charts_dir)


def table(facts):
    out = ["<table>", "<tr><th>#</th><th>settings</th>" +
           "".join("<th>%s</th>" % e(name) for _, name, _, _ in catalogue.described("sweep")) + "</tr>"]
    for c, label in facts["labels"].items():
        cells = []
        for fig, _, _, _ in catalogue.described("sweep"):
            s = facts["stats"][c][fig]
            bad = facts["invalid"][c][fig]
            said = ' <span class="notmet">(%d processes not valid: left out)</span>' % bad if bad else ""
            if s is None:
                cells.append('<td class="na">%s</td>' % ("not valid in any process (%d)" % bad if bad else "no figure in any record"))
            elif s.get("ci_low") is not None:
                cells.append('<td class="num">%s [%s .. %s]%s</td>' % (e(s["median_text"]), e(s["ci_low_text"]), e(s["ci_high_text"]),
                                                                      said))
            else:
                cells.append('<td class="num">%s <span class="undecided">(no interval: %s .. %s, %s processes)</span>%s</td>'
                             % (e(s["median_text"]), e(s["min_text"]), e(s["max_text"]), e(s["n"]), said))
        out.append('<tr><td class="num">%d</td><td><code>%s</code></td>%s</tr>' % (c, e(label), "".join(cells)))
    out.append("</table>")
    return out


def page(name, facts, drawn, why):
    single, side = facts["single"], facts["side"] + [""] * 7
    head = HEAD % {"name": e(name)}
    out = [head.replace("CLOMP results:", "CLOMP runtime settings sweep:"),
           "<p>Host <b>%s</b>, %s. Load average %s before, %s after: on a busy machine these figures measure the "
           "contention as much as the runtime.</p>" % (e(single.get("host", "")), e(single.get("date", "")),
                                                        e(single.get("load_before", "not recorded")),
                                                        e(single.get("load_after", "not recorded"))),
           "<p>clomp arguments <code>%s</code>; side <code>%s</code> (%s); runtime %s, library %s (%s); %d processes "
           "per combination, in the order %s.</p>" % (
               e(single.get("arguments", "")), e(side[0]), e(side[1]), e(single.get("runtime", "unknown")), e(side[4]),
               e(side[5]), facts["n"], e(single.get("order", "")))]
    for note in facts["notes"]:
        out.append("<p>%s</p>" % e(note))
    if facts["failed"]:
        out.append('<p class="notmet">Failed processes (left out of the figures): %s.</p>' % e("; ".join(
            "combination %s, process %s: exit status %s" % (c, r, rc) for (c, r), rc in sorted(facts["failed"].items()))))
    out += ["<h2>Figures</h2>",
            "<p>Each cell: the median over processes and the 95% interval of that median between processes (order "
            "statistics, clomp-stats); fewer than 6 processes give no interval, and min .. max is shown. CPU/wall is the "
            "process's user + system CPU seconds over its wall seconds: the cores it kept busy. A process whose record marks "
            "a figure not a result (valid: false: a busy machine, chunks that disagree; docs/statistics.md) is left out of "
            "that figure, and counted.</p>"]
    out += table(facts)
    out.append('<h2>Charts</h2>')
    figures = Charts(drawn, name + "_charts")
    for fig, fname, unit, definition in catalogue.described("sweep"):
        out += figures.figure("sweep_" + fig, "%s (%s)" % (fname, unit),
                              "%s. Median per combination with its 95%% interval between processes; a circled point "
                              "has none (min .. max drawn); a log axis where the values span more than 50x." % definition)
    if figures.count == 0:
        out.append('<p class="na">No charts: %s.</p>' % e(why or "no combination gave figures to draw"))
    out.append("<h2>Files</h2><ul>" + "".join('<li><a href="%s%s">%s%s</a></li>' % (e(name), x, e(name), x)
                                            for x in (".txt", ".csv", ".json", ".full")) + "</ul>")
    out.append('<p class="na">Made by run_clomp.sh --sweep (results/clomp_results) on %s. Self-contained: no scripts, '
               'no network.</p></body></html>' % time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    return "\n".join(out) + "\n"
