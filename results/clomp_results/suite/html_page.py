"""The suite's HTML report: one self-contained page (charts inlined as SVG,
no script, no network).  Every value that came from a run, the environment
or a file goes through html.escape; a chart is inlined only when this
process drew it (report.py passes the SVG bytes gnuplot just wrote), never
read back from the suite directory."""
import re
import time

from ..core import by_design, cliff, given, machine_facts
from . import html_construct_kinds, html_constructs, html_key, html_offload
from ..grain import node_limits
from ..core.stats_helper import find as stats_helper
from ..bundle.validate import core_count
from ..core.html_frame import HEAD, Charts
from ..core.safe_text import for_html as e, for_html_lines as lines_e   # control characters escaped, then HTML

CAPTIONS = {
    "speedup": ("Speedup vs threads, %s total zones",
                "Serial Ref us/Loop divided by each schedule's (median chunk of each run), one run per thread count "
                "(numParts a multiple of the threads). The dashed line is ideal scaling."),
    "overhead": ("Overhead per schedule, %s total zones",
                 "Each schedule's us/Loop minus Bestcase's (median over rounds of the median-chunk difference), with its "
                 "95% interval within the run as an error bar; right axis in nominal CPU cycles. The schedules are drawn "
                 "slightly apart at each thread count."),
}
FIXED_CHARTS = {
    "efficacy": ("Efficacy vs total zones",
                 "Bestcase time / schedule time for the key runs (every thread, first touch; median chunks): how much of "
                 "the ideal each schedule reaches as loops grow."),
}
ENV_LABELS = ("cpu frequency governor", "numa_balancing", "transparent hugepages", "load average")
CPU_FIELDS = ("Model name", "CPU(s)", "Thread(s) per core", "Core(s) per socket", "Socket(s)", "NUMA node(s)")



def head(suite, views, first_failure):
    env = suite.env
    fact = lambda k: env.facts.get(k, "")
    failed = sum(1 for t in suite.summaries.values() for r in t.rows if r.get("status") == "FAILED")
    out = [HEAD % {"name": e(suite.name)},
           "<p>Host <b>%s</b>, started %s." % (e(fact("host")), e(fact("date"))),
           "Suite <b>%s</b>: %d of %d runs done, %d failed." % ("complete" if env.complete else "incomplete",
                                                              len(suite.done), len(env.plan), failed),
           "Max threads %s, timeScale %s," % (e(fact("max threads")), e(fact("time scale"))),
           "OpenMP preset %s, launcher %s," % (e(fact("env preset")), e(fact("launcher"))),
           "MPI launcher %s.</p>" % e(fact("mpi launcher"))]
    if first_failure:
        out.append('<p class="notmet">%s</p>' % e(first_failure))
    if suite.problems:
        out.append('<p class="notmet">Files not read (the report leaves them out): %s</p>' % e("; ".join(suite.problems)))
    missing = [p.index for p in env.plan if p.index in suite.done and p.index not in suite.records]
    if missing:
        out.append('<p class="undecided">No JSON record for run(s) %s: their warnings, LLNL targets and construct '
                   'shapes are not in this report.</p>' % e(" ".join(str(i) for i in missing)))
    out += busy_banner(suite)
    job = fact("slurm job")
    if job and job != "none":
        later = " ".join(re.sub(r".* in Slurm job ([0-9]+).*", r"\1", s) for s in env.status_lines
                         if s.startswith("resumed") and "Slurm job" in s)
        binding = fact("mpi cpu binding")
        out.append("<p>Slurm job <b>%s</b>%s:" % (e(job), ", resumed in job(s) " + e(later) if later else ""))
        out.append("nodes %s; CPUs %s;" % (e(fact("slurm nodes")), e(fact("slurm cpus"))))
        out.append("exclusive %s; other jobs on the node %s%s.</p>" % (
            e(fact("slurm exclusive")), e(fact("slurm other jobs on node")),
            "; MPI CPU binding " + e(binding) if binding else ""))
    return out


def busy_runs(suite):
    """[(run, the census's reason)] of every run whose record's noise census found the machine busy, but a run
    oversubscribed by design (by_design.py): its own team made its census find the node busy."""
    optional = by_design.oversubscribed_by_design(suite, core_count(suite))
    out = []
    for run in sorted(set(suite.records) - set(optional)):
        is_busy, why = given.census_busy(suite.records[run].doc)   # an older record's by clomp's rule on its figures
        if is_busy:
            out.append((run, why))
    return out


def busy_banner(suite):
    """One sentence when the noise census found the machine busy, and a link to each run's reason; the runs
    oversubscribed by design are named apart."""
    optional = by_design.oversubscribed_by_design(suite, core_count(suite))
    line = by_design.describe(optional)
    out = ["<p>%s%s.</p>" % (e(line[:1].upper()), e(line[1:]))] if optional else []
    busy = busy_runs(suite)
    if not busy:
        return out
    return ['<p class="notmet">This machine was busy during %d of %d runs (the noise census): their figures measure the '
            'contention, not the node\'s OpenMP overhead, and are not results (<a href="#busy-runs">which runs, and '
            'why</a>).</p>' % (len(busy), len(suite.records) - len(optional))] + out


def busy_section(suite):
    """Each busy run and the census's reason: what the banner links to."""
    busy = busy_runs(suite)
    if not busy:
        return []
    return (['<h2 id="busy-runs">Busy runs</h2>',
             "<p>The noise census (docs/noise.md) timed fixed work on each thread before the timed runs; a run is busy "
             "when a thread lost 25% or more of its time to other work. Run the suite again on an idle node.</p>", "<ul>"]
            + ["<li>run %d: %s</li>" % (run, e(why)) for run, why in busy] + ["</ul>"])


def charts_section(views, charts, no_charts):
    from .charts import sweep_sets
    out = ['<h2 id="charts">Charts</h2>']
    zones = sorted(int(s[:-5]) for s in sweep_sets(views))
    for kind in ("speedup", "overhead"):
        for z in zones:
            heading, caption = CAPTIONS[kind]
            out += charts.figure("%s_%dzones" % (kind, z), heading % z, caption)
    out += charts.figure("efficacy", *FIXED_CHARTS["efficacy"])
    if charts.count == 0:
        out.append('<p class="na">No charts: %s.</p>' % (no_charts or "no run gave figures to draw"))
    return out


def constructs_section(suite, charts):
    rows = suite.constructs.rows if suite.constructs is not None else []
    table = html_constructs.constructs_table(rows)
    if not table:
        return []
    out = ['<h2 id="constructs">OpenMP constructs</h2>',
           "<p>What each OpenMP construct costs by EPCC's method (<code>clomp --constructs</code>, docs/constructs.md): the",
           "overhead per instance, the median over the repetitions with its 95% interval within the run. Level 1 at the key",
           "thread count; level 2: every outer thread runs the construct at once with its own inner team, and L2/L1 is that",
           "overhead over level 1 at the inner team size. A row not measured (or unresolved) says why. The suite runs fewer",
           "repetitions and chunk sizes than EPCC's defaults; <code>clomp --constructs</code> alone runs those.</p>"]
    shapes = html_constructs.level2_shapes(suite.records)
    if shapes:
        out.append("<pre>%s</pre>" % lines_e(shapes))
    # this tree's --list-constructs, for rows without a kind column
    kinds = {} if rows and all(r.get("kind") for r in rows) else html_construct_kinds.construct_kinds()
    out += html_construct_kinds.sections(rows, kinds, charts)   # a table and a chart per construct kind
    return out


def environment_section(suite):
    env = suite.env
    out = ['<h2 id="environment">Environment</h2>', "<table>"]
    for label in ENV_LABELS:
        value = next((h[len(label) + 2:] for h in env.sections if h.startswith(label + ": ")), "") or "not recorded"
        out.append("<tr><th>%s</th><td>%s</td></tr>" % (e(label), e(value)))
    cpu = []
    for line in env.section("CPU"):
        k, sep, v = line.partition(":")
        if sep and k in CPU_FIELDS:
            cpu.append("%s: %s" % (k, " ".join(v.split())))
    out.append("<tr><th>CPU</th><td>%s</td></tr>" % e("; ".join(cpu)))
    runtime = machine_facts.runtime_version([r.doc for _, r in sorted(suite.records.items())],
                                            suite.machine.get("openmp_runtime.txt", ""))
    out.append("<tr><th>OpenMP runtime and version</th><td>%s</td></tr>" % e(runtime))
    out.append("</table>")
    for heading, prefix in (("OpenMP and launcher environment", "OpenMP and launcher environment"),
                            ("Preflight warnings", "preflight warnings"), ("NUMA layout", "NUMA layout")):
        out += ["<h3>%s</h3>" % heading, "<pre>%s</pre>" % lines_e(env.section(prefix))]
    out += ['<h2 id="build">Build</h2>', "<pre>%s</pre>" % lines_e(env.section("build facts"))]
    return out


def warnings_section(suite):
    lines = ["run %d: %s" % (run, w) for run in sorted(suite.records) for w in suite.records[run].warnings]
    out = ['<h2 id="warnings">Warnings</h2>']
    if not lines:
        return out + ["<p>No run printed a warning.</p>"]
    counts = {}
    for line in lines:
        kind = re.sub(r"[0-9][0-9.]*%", "N%", line.split(": ", 1)[1])
        counts[kind] = counts.get(kind, 0) + 1
    out.append("<p>%d warnings in the runs' records; by kind:</p>" % len(lines))
    out.append("<table><tr><th>count</th><th>warning</th></tr>")
    for kind, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        out.append('<tr><td class="num">%d</td><td>%s</td></tr>' % (n, e(kind)))
    out.append("</table>")
    out.append("<details><summary>every warning</summary><pre>%s</pre></details>" % lines_e(lines))
    return out


def files_section(suite):
    out = ['<h2 id="files">Raw files</h2>', "<ul>"]
    for rel in sorted(suite.files):
        if rel.endswith(".html") or rel.endswith(".tar.gz") or ".tmp." in rel:
            continue
        if "/" in rel:
            out.append('<li><a href="%s">%s</a></li>' % (e(rel), e(rel)))
        else:
            out.append('<li><a href="%s">%s</a> (%d bytes)</li>' % (e(rel), e(rel), suite.files[rel]))
    out.append("</ul>")
    return out


def sweeps_section(sweeps):
    """Links to the runtime settings sweeps (run_clomp.sh --sweep) beside the suite, newest last."""
    if not sweeps:
        return []
    return ['<h2 id="sweeps">Runtime settings sweeps</h2>',
            "<p>Pages of <code>run_clomp.sh --sweep</code> in this directory (docs/settings.md):</p><ul>"] + [
        '<li><a href="%s">%s</a></li>' % (e(s), e(s)) for s in sweeps] + ["</ul>"]


def page(suite, views, drawn, charts_dir_name, no_charts="", first_failure="", sweeps=()):
    """The whole page as text; SWEEPS: the --sweep pages beside the suite (file names)."""
    charts = Charts(drawn, charts_dir_name)
    record1 = suite.records.get(1)
    parts = head(suite, views, first_failure)
    parts += html_key.key_results(suite, views, record1)
    parts += charts_section(views, charts, no_charts)
    parts += cliff.html_section(suite)
    parts += constructs_section(suite, charts)
    parts += node_limits.html_section(suite)
    parts += html_offload.offload_section(suite, stats_helper)
    parts += sweeps_section(sweeps)
    parts += environment_section(suite)
    parts += warnings_section(suite)
    parts += busy_section(suite)
    parts += files_section(suite)
    parts.append('<p class="na">Made by run_clomp.sh (results/clomp_results) on %s. Self-contained: no scripts, no network.</p>'
                 % time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
