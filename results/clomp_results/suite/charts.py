"""The suite's charts: chart data files and gnuplot scripts from the run views.

  speedup_<Z>zones   speedup vs threads at Z total zones: every Bestcase and
                     checked measurement the runs record (their roles), and the ideal line
  overhead_<Z>zones  overhead of each checked measurement vs threads, us per loop
                     (left) and CPU cycles (right), 95% intervals as error bars
  efficacy           efficacy vs total zones, key runs (every thread, first touch)
  constructs_sync    each construct of kind sync (loops; task, data: constructs_task,
  constructs_loops   constructs_data) at level 2 vs the inner team size, under the
                     sweep's outer threads, 95% intervals (html_construct_kinds.CHARTS)

Which measurements a chart holds comes from each record's roles, never from a
list of names here; a construct's kind from its row's ``kind`` column (clomp's).
Every value goes into a data file (gnuplot.number); every title through
gnuplot.quote (docs/security.md).  A point without an interval, or whose
interval reaches 0 on the log axis, is circled.
"""
import os
import shutil
import tempfile

from ..core import gnuplot, safe_write

STYLE = """set grid lc rgb "#d0d0d0"; set key outside right top box noenhanced; set border lw 1.2
set style line 1 lc rgb "#1f77b4" lw 2 pt 7 ps 1.2
set style line 2 lc rgb "#d62728" lw 2 pt 5 ps 1.2
set style line 3 lc rgb "#2ca02c" lw 2 pt 9 ps 1.4
set style line 4 lc rgb "#9467bd" lw 2 pt 13 ps 1.4
set style line 5 lc rgb "#ff7f0e" lw 2 pt 11 ps 1.4
set style line 6 lc rgb "#8c564b" lw 2 pt 15 ps 1.4
set style line 7 lc rgb "#e377c2" lw 2 pt 3 ps 1.4
set style line 8 lc rgb "#17becf" lw 2 pt 1 ps 1.4
set style line 9 lc rgb "#7f7f7f" lw 1.5 dt 2
"""
IDEAL = 9
SERIES_STYLES = 8
TERMINALS = (("png", "pngcairo size 900,540 font 'DejaVu Sans,11'"),
             ("svg", "svg size 900,540 dynamic font 'DejaVu Sans,12'"))
POINT_TYPES = (1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15)   # never 6: the circle marks unresolved points
CIRCLE = "with points pt 6 ps 2.2 lc rgb 'black'"


class Chart(object):
    """One chart: its file stem, title, data files (name -> rows) and plot body."""

    def __init__(self, stem, title, setup, clauses, data):
        self.stem, self.title, self.setup, self.clauses, self.data = stem, title, setup, clauses, data

    def script(self, extension, terminal):
        return "\n".join([
            "set terminal %s" % terminal,
            "set output %s" % gnuplot.quote("%s.%s" % (self.stem, extension)),
            "set title %s font ',13' noenhanced" % gnuplot.quote(self.title),
            STYLE, self.setup,
            "plot " + ", ".join(self.clauses), ""])


def zone_label(z):
    return "{:,}".format(z)


def thread_axis(max_t):
    if max_t > 16:
        return "set logscale x 2; set xrange [0.8:%d]" % (max_t * 5 // 4)
    return "set xrange [0.5:%d]; set xtics 1" % (max_t + 1)


def has_points(rows, column):
    return any(r[column] is not None for r in rows)


def sweep_sets(runs):
    """The sweeps' zone sizes in the order they ran: sets '<Z>zones'."""
    seen = []
    for r in runs:
        if r.set.endswith("zones") and r.set[:-5].isascii() and r.set[:-5].isdigit() and r.set not in seen:
            seen.append(r.set)
    return seen


def series_keys(runs, roles):
    """(key, name) of every measurement with one of ROLES in RUNS, in table order."""
    out = []
    for r in runs:
        for f in r.with_role(*roles):
            if (f.key, f.name) not in out and f.key not in [k for k, _ in out]:
                out.append((f.key, f.name))
    return out


def speedup_chart(zset, runs):
    ok = [r for r in runs if r.set == zset and r.ok and r.threads is not None]
    keys = series_keys(ok, ("bestcase", "checked"))
    rows = {}
    for r in ok:
        rows[r.threads] = [r.threads] + [getattr(r.figure(k), "speedup", None) for k, _ in keys]
    data = [rows[t] for t in sorted(rows)]
    if not data:
        return None
    z = int(zset[:-5])
    clauses = ["x with lines ls %d title 'ideal'" % IDEAL]
    for i, (key, name) in enumerate(keys):
        if has_points(data, i + 1):
            clauses.append("'speedup.dat' using 1:%d with linespoints ls %d title %s" % (i + 2, i % SERIES_STYLES + 1, gnuplot.quote(name)))
    if len(clauses) == 1:
        return None   # no schedule has a valid point: the ideal line alone is no chart
    setup = thread_axis(data[-1][0]) + "\nset xlabel 'threads'; set ylabel 'speedup over Serial Ref'; set yrange [0:*]"
    return Chart("speedup_%dzones" % z, "Speedup vs threads, %s total zones" % zone_label(z), setup, clauses,
                 {"speedup.dat": data})


def overhead_chart(zset, runs):
    ok = [r for r in runs if r.set == zset and r.ok and r.threads is not None]
    keys = series_keys(ok, ("checked",))
    by_t = {}
    for r in ok:
        row = [r.threads]
        for k, _ in keys:
            f = r.figure(k)
            ci = f.overhead_ci if f is not None else None
            row += [getattr(f, "overhead", None), ci[0] if ci else None, ci[1] if ci else None]
        by_t[r.threads] = row
    data = [by_t[t] for t in sorted(by_t)]
    if not data:
        return None
    max_t = data[-1][0]
    n = len(keys)
    clauses, circled = [], False
    for i, (key, name) in enumerate(keys):
        c = 2 + 3 * i
        if not has_points(data, c - 1):
            continue   # a schedule with no point gets no legend entry
        centre = (n + 1) / 2.0
        x = "($1*(1+0.03*(%d-%.1f)))" % (i + 1, centre) if max_t > 16 else "($1+0.08*(%d-%.1f))" % (i + 1, centre)
        clauses.append("'overhead.dat' using %s:%d:%d:%d with yerrorlines ls %d title %s"
                       % (x, c, c + 1, c + 2, i % SERIES_STYLES + 1, gnuplot.quote(name)))
        # A point without an interval (one chunk, 2-5 rounds) is circled: it cannot be told from 0.
        lacks = any(row[c - 1] is not None and row[c] is None for row in data)
        clauses.append("'overhead.dat' using %s:($%d != $%d ? $%d : NaN) %s %s"
                       % (x, c + 1, c + 1, c, CIRCLE, "title 'no interval (unresolved)'" if lacks and not circled else "notitle"))
        circled = circled or lacks
    if not clauses:
        return None
    ghz = next((r.ghz for r in runs if r.ghz), None)
    setup = thread_axis(max_t) + "\nset xlabel 'threads'; set ylabel 'overhead, us per loop'\n"
    if ghz:
        per_us = ghz * 1000
        setup += ("set link y2 via y*%r inverse y/%r; set y2label 'CPU cycles per loop'; set y2tics; "
                  "set format y2 '%%.1s%%c'; set ytics nomirror\n" % (per_us, per_us))
    setup += "set xzeroaxis lt -1\nset bars small"
    z = int(zset[:-5])
    return Chart("overhead_%dzones" % z, "Overhead vs bestcase, %s total zones (95%% intervals)" % zone_label(z),
                 setup, clauses, {"overhead.dat": data})


def efficacy_chart(runs):
    key_runs = [r for r in runs if r.set == "key" and r.ok and r.alloc == -1 and r.numa == "first-touch"
                and r.total_zones is not None]
    keys = series_keys(key_runs, ("checked",))
    by_z, threads = {}, None
    for r in key_runs:
        by_z[r.total_zones] = [r.total_zones] + [getattr(r.figure(k), "efficacy", None) for k, _ in keys]
        threads = r.threads
    data = [by_z[z] for z in sorted(by_z)]
    if not data:
        return None
    clauses = ["100 with lines ls %d title 'bestcase (100%%)'" % IDEAL]
    for i, (key, name) in enumerate(keys):
        if has_points(data, i + 1):
            clauses.append("'efficacy.dat' using 1:%d with linespoints ls %d title %s" % (i + 2, i % SERIES_STYLES + 1, gnuplot.quote(name)))
    if len(clauses) == 1:
        return None   # no schedule has a valid point: the 100% line alone is no chart
    setup = ("set logscale x 10\nset format x '10^{%L}'; set xrange [*:*]\n"
             "set xlabel 'total zones (numParts x zonesPerPart)'; set ylabel 'efficacy: bestcase time / schedule time (%)'\n"
             "set yrange [0:*]; set offsets graph 0.05, graph 0.05, graph 0.05, 0")
    title = "Efficacy vs total zones, %s threads (key runs)" % (threads if threads is not None else "?")
    return Chart("efficacy", title, setup, clauses, {"efficacy.dat": data})


def construct_chart(stem, kind, title, levels):
    sweep = [c for c in levels if c.set.startswith("constructs_outer") and c.level == 2 and c.kind == kind
             and c.inner is not None]
    names = []
    for c in sweep:
        if c.name not in names:
            names.append(c.name)
    if not names:
        return None
    outer = next((c.outer for c in sweep if c.outer is not None), None)
    cells = {}
    for c in sweep:
        v, lo, hi, un = None, None, None, 0
        if c.measured and c.overhead is not None and c.overhead > 0:
            v = c.overhead
            lo, hi = c.ci if c.ci else (None, None)
            if lo is None or lo <= 0:   # no interval, or one reaching 0: drawn upwards only, circled
                lo, hi, un = v, (hi if hi is not None else v), 1
        cells[(c.inner, c.name)] = [v, lo, hi, un]
    inners = sorted({c.inner for c in sweep})
    data = [[t] + sum((cells.get((t, n), [None, None, None, 0]) for n in names), []) for t in inners]
    clauses, circled = [], False
    for j, name in enumerate(names):
        c = 2 + 4 * j
        if not has_points(data, c - 1):
            continue   # a construct with no point gets no legend entry
        x = "($1*(1+0.012*(%d-%.1f)))" % (j + 1, (len(names) + 1) / 2.0)
        clauses.append("'%s.dat' using %s:%d:%d:%d with yerrorlines lt %d pt %d lw 2 title %s"
                       % (stem, x, c, c + 1, c + 2, j + 1, POINT_TYPES[j % len(POINT_TYPES)], gnuplot.quote(name)))
        lacks = any(row[c + 2] == 1 for row in data)
        clauses.append("'%s.dat' using %s:($%d == 1 ? $%d : NaN) %s %s"
                       % (stem, x, c + 3, c, CIRCLE, "title 'unresolved'" if lacks and not circled else "notitle"))
        circled = circled or lacks
    if not clauses:
        return None
    setup = (thread_axis(inners[-1]) + "\nset xlabel 'inner team size (threads per outer thread)'\n"
             "set ylabel 'overhead per instance, us'; set logscale y 10; set format y '10^{%L}'; set bars small")
    return Chart(stem, "%s, %s outer threads (level 2)" % (title, outer if outer is not None else "?"), setup, clauses,
                 {stem + ".dat": data})


def suite_charts(runs, levels):
    """Every chart the suite's views give, in the report's order."""
    charts = []
    for zset in sweep_sets(runs):
        charts += [speedup_chart(zset, runs), overhead_chart(zset, runs)]
    charts.append(efficacy_chart(runs))
    from .html_construct_kinds import CHARTS   # one per construct kind: sync, loop, task, data
    for stem, kind, title in CHARTS:
        charts.append(construct_chart(stem, kind, title, levels))
    return [c for c in charts if c is not None]


def batch_script(jobs):
    """One gnuplot script drawing every (chart, extension, terminal) of JOBS: each chart's own script, its
    output closed after it and every setting reset before the next (the terminal and output are set anew)."""
    return "".join(chart.script(ext, terminal) + "unset output\nreset\n" for chart, ext, terminal in jobs)


def draw(charts, charts_dir, executable=None):
    """Draw CHARTS into CHARTS_DIR (created; never through a link): {stem: {ext: bytes}} of what was drawn, and
    the errors. gnuplot works in a private directory beside CHARTS_DIR; nothing is written elsewhere.
    Every chart is drawn by one gnuplot process (a start, with the cairo terminal's fonts, costs more than
    a chart); should that one fail, each chart is drawn by its own, so that the failure names its chart."""
    drawn, errors = {}, []
    dir_fd = safe_write.open_dir(charts_dir, create=True)
    # gnuplot's own directory: new (mkdtemp: an exclusive, private name) beside the charts, removed after.
    work = tempfile.mkdtemp(prefix="." + os.path.basename(os.path.normpath(charts_dir)) + ".tmp.",
                            dir=os.path.dirname(os.path.abspath(charts_dir)))
    try:
        try:
            jobs = [(chart, ext, terminal) for chart in charts for ext, terminal in TERMINALS]
            for chart in charts:
                for name, rows in chart.data.items():
                    with open(os.path.join(work, name), "w") as f:
                        f.write(gnuplot.data_file(rows))
            batch_ok = bool(jobs) and gnuplot.run(batch_script(jobs), work, executable, len(jobs))[0]
            for chart, ext, terminal in jobs:
                out = os.path.join(work, "%s.%s" % (chart.stem, ext))
                ok, log = True, ""
                if not batch_ok:
                    if os.path.lexists(out):
                        os.unlink(out)
                    ok, log = gnuplot.run(chart.script(ext, terminal), work, executable)
                if not ok or not os.path.isfile(out):
                    errors.append("gnuplot failed on %s.%s: %s" % (chart.stem, ext, log.strip()))
                    continue
                with open(out, "rb") as f:
                    content = f.read()
                safe_write.replace_file(dir_fd, "%s.%s" % (chart.stem, ext), content,
                                        os.path.join(charts_dir, "%s.%s" % (chart.stem, ext)))
                drawn.setdefault(chart.stem, {})[ext] = content
        finally:
            shutil.rmtree(work, ignore_errors=True)
    finally:
        os.close(dir_fd)
    return drawn, errors
