"""The HTML of `run_clomp.sh --grain` (grain_report makes the figures): a
section per schedule with the chart of speed-up against loop size (one line
per team size, log x, drawn in this process as inline SVG: svg_chart) and
the answer per team size, then the whole text report; every value through
html.escape. ``section(facts)`` is the part another page can carry."""
from __future__ import annotations

import time
from typing import List

from ..core.html_frame import HEAD
from ..core import svg_chart
from .grain_answers import half_efficiency, interval_text, speeds_up
from ..core.safe_text import for_html as e   # every value: control characters escaped, then HTML



def chart(cells, name: str) -> str:
    series = []
    for t in sorted(set(c.threads for c in cells)):
        pts = [(float(c.zones), c.speedup.value, c.speedup.low, c.speedup.high) for c in cells
               if c.threads == t and c.speedup.value is not None]
        if pts:
            series.append(("%d threads" % t, pts))
    return svg_chart.chart("%s: speed-up over Serial Ref against loop size" % name, "loop size (zones)",
                           "speed-up (x)", series, x_unit="zones")


def section(facts) -> List[str]:
    s = facts["settings"]
    out = ['<section id="grain">', "<h2>The smallest loop worth threading (--grain)</h2>",
           "<p>Static OMP against Serial Ref at fixed total work, %d processes per loop size, teams of %s threads. "
           "Speed-up: the Hodges-Lehmann ratio of Serial Ref's us/Loop to the schedule's between processes, with its "
           "95%% interval; a loop <em>speeds up</em> when that interval lies wholly above 1. METG(50%%): Task Bench's "
           "minimum effective task granularity, here the wall time of one parallel loop at the smallest loop reaching "
           "50%% efficiency (docs/grain.md).</p>" % (s.replicates, e(", ".join(map(str, s.teams))))]
    if facts["stopped"]:
        out.append('<p class="notmet">The time cap of %s min stopped the search: it is not complete.</p>' % e(s.minutes))
    for sched, cells in facts["cells"].items():
        name = cells[0].name if cells else sched
        out.append("<h3>%s</h3>" % e(name))
        svg = chart(cells, name)
        out.append(svg if svg else '<p class="na">No chart: no loop size gave a speed-up (see the table).</p>')
        out.append("<table><tr><th>team</th><th>smallest loop that speeds up</th><th>serial us/Loop there</th>"
                   "<th>smallest loop at 50% efficiency</th><th>METG(50%) us</th></tr>")
        for t in s.teams:
            mine = [c for c in cells if c.threads == t]
            up, half = speeds_up(mine), half_efficiency(mine)
            cls = lambda a: "num" if a.decided else "undecided"  # noqa: E731
            out.append('<tr><td class="num">%d</td><td class="%s">%s</td><td class="num">%s</td><td class="%s">%s</td>'
                       '<td class="num">%s</td></tr>' % (
                           t, cls(up), e(up.text), e(interval_text(up.cell.serial_us) if up.decided and up.cell else "none"),
                           cls(half), e(half.text),
                           e(interval_text(half.cell.parallel_us) if half.decided and half.cell else "none")))
        out.append("</table>")
    out.append("</section>")
    return out


def page(name: str, text: str, facts) -> str:
    head = HEAD % {"name": e(name)}
    out = [head.replace("CLOMP results:", "CLOMP grain:")]
    out += section(facts)
    out += ["<h2>The whole report</h2>", "<pre>%s</pre>" % e(text),
            "<h2>Files</h2><ul>" + "".join('<li><a href="%s%s">%s%s</a></li>' % (e(name), x, e(name), x)
                                         for x in (".txt", ".csv", ".json", ".full")) + "</ul>",
            '<p class="na">Made by run_clomp.sh --grain (results/clomp_results) on %s. Self-contained: no scripts, '
            'no network.</p></body></html>' % time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())]
    return "\n".join(out) + "\n"
