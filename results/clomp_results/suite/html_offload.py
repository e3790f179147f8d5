"""The HTML report's offload section (docs/offload.md, "In the suite"),
from the JSON records of the suite's offload runs (suite/offload.sh: sets
offload, offload_zpp<Z>, offload_probes) through offload_figures: the
device as the runtime reported it (a host plugin marked: the CPU, no
accelerator), Offload OMP's figures on the target input, the crossover
sweep with each size's clomp-stats comparison and the crossover's bracket,
and the target probe rows. Every value is escaped. A suite without offload
runs gets one line saying why (its .env's "offload device" fact), or
nothing when the .env predates it."""

from . import offload_figures as of
from ..core.safe_text import for_html as e   # every value: control characters escaped, then HTML



def _records(suite, want):
    out = []
    for p in suite.plan:
        rec = suite.records.get(p.index)
        if rec is not None and want(p.set_name):
            out.append((p, rec))
    return out


def offload_section(suite, helper_path):
    """The section's HTML lines; helper_path() gives clomp-stats (called only when there is a sweep)."""
    main = _records(suite, lambda s: s == of.MAIN_SET)
    sweep = _records(suite, lambda s: s.startswith(of.SWEEP_PREFIX))
    probes = _records(suite, lambda s: s == of.PROBE_SET)
    fact = suite.env.facts.get("offload device")
    if not (main or sweep or probes):
        return [] if fact is None else ['<h2 id="offload">Offload (OpenMP target)</h2>',
                                        "<p>No offload runs: %s.</p>" % e(fact)]
    out = ['<h2 id="offload">Offload (OpenMP target)</h2>']
    dev = next((of.device(r.doc) for _, r in main + sweep + probes if of.device(r.doc)["text"]), None)
    if dev is None:
        out.append('<p class="notmet">The offload runs\' records name no device.</p>')
    else:
        out.append("<p>Device, as the runtime reported it: <code>%s</code></p>" % e(dev["text"]))
        if dev["host_plugin"]:
            out.append('<p class="undecided">Host plugin: these target regions ran on the CPU through libomptarget, not on '
                       "an accelerator. The figures below are the runtime's cost on this node; none is a GPU figure.</p>")
    out.append("<p>What each figure is and how it maps to EPCC's target-offload methods: docs/offload.md. Medians of the "
               "chunks with their 95% intervals within each run.</p>")
    for p, rec in main:
        out.append("<h3>Target input (run %d: %s)</h3>" % (p.index, e(p.args_text)))
        out.append("<table><tr><th>measurement and figures</th></tr>")
        out += ["<tr><td>%s</td></tr>" % e(line) for line in of.main_run_lines(rec.doc)]
        out.append("</table>")
    if sweep:
        helper = helper_path()
        points = [of.SweepPoint(rec.doc, helper) for _, rec in sweep]
        out.append("<h3>Crossover: zones per part at which Offload OMP beats Static OMP</h3>")
        out.append("<table><tr><th>zones per part</th><th>Static OMP us/Loop</th><th>Offload OMP us/Loop</th>"
                   "<th>comparison (clomp-stats, 95%)</th><th>Offload OMP faster</th></tr>")
        for pt in sorted(points, key=lambda x: x.zones if isinstance(x.zones, int) else -1):
            out.append('<tr><td class="num zpp">%s</td><td>%s</td><td>%s</td><td>%s</td><td class="%s">%s</td></tr>' % (
                e(pt.zones), e(of.figure_text(pt.static)), e(of.figure_text(pt.offload)), e(pt.comparison_text()),
                "met" if pt.wins else "na", "yes" if pt.wins else "no"))
        out.append("</table>")
        out.append("<p><b>%s</b></p>" % e(of.crossover(points)))
    rows = [row for _, rec in probes for row in of.probe_rows(rec.doc)]
    if rows:
        out.append("<h3>Target probes (EPCC's method, level 1, from the initial thread)</h3>")
        out.append("<table><tr><th>probe</th><th>overhead per instance (median, 95% interval)</th></tr>")
        for row in rows:
            measured = row.get("status") == "measured"
            out.append('<tr><td>%s</td><td class="%s">%s</td></tr>' % (
                e(row.get("construct_name", row.get("construct", ""))), "num" if measured else "undecided",
                e(of.probe_text(row))))
        out.append("</table>")
    return out
