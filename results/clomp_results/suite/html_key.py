"""The HTML report's key results: the target input's headline, LLNL's targets
(one row per member of the record's llnl_targets: label, measurement, bound,
citation — no target named here), the between-process table and the key
runs.  Every figure says which statistic it is (issue 35) and how many
processes gave it (issue 43): the headline's figures are the catalogue's
headline set (clomp --list-figures), each the median over the processes
that gave it as a result with --replicates (given.py: none from fewer than 3
or fewer than half: "no result (1 of 3 processes gave one: 2 busy)"), else
run 1's own; the key-runs table is per run (one process each)."""

from ..core import catalogue, given, stats_helper
from ..core.stats_helper import find as find_stats_helper
from ..core.view import num
from ..core.safe_text import for_html as e   # every value: control characters escaped, then HTML

CLASSES = {"met": "met", "not met": "notmet", "undecided": "undecided"}



def fmt(value, decimals):
    v = num(value)
    return "n/a" if v is None else "%.*f" % (decimals, v)


def g4(value):
    v = num(value)
    return "n/a" if v is None else "%.4g" % v


def with_unit(value, unit):
    """A value and its unit ('n/a' alone: never 'n/a%')."""
    v = g4(value)
    return v if v == "n/a" else v + ("%" if unit == "%" else "")


_ROWS = {}


def processes_rows(suite):
    """The between-process rows (<base>_key.processes.csv's, by name): made from the suite's records as
    between.py makes that file, so the page never shows a figure the records do not give now; from the file
    only where the records give none (each figure then by the catalogue's key: a file written before issue 43
    names them as the tools did then)."""
    if id(suite) not in _ROWS:
        import csv
        from ..core import between
        made = between.report(suite, find_stats_helper())[0]
        rows = list(csv.DictReader(made)) if made else []
        if not rows and suite.processes is not None:
            cat = catalogue.load()
            rows = [dict(r, figure=cat.canonical(r.get("figure", ""))) for r in suite.processes.rows]
        _ROWS[id(suite)] = (suite, rows)
    return _ROWS[id(suite)][1]


def is_target_row(suite, row):
    """Whether a <base>_key.processes.csv row is the target input's: its runs include run 1, or, with
    --replicates auto's two stages, are stage 2's (the pilot, run 1 among it, is left out)."""
    runs = row.get("runs", "").split()
    stage2 = set(map(str, suite.env.auto_stage2_runs))
    return "1" in runs or bool(stage2 and runs and set(runs) <= stage2)


def target_row(suite, figure):
    return next((r for r in processes_rows(suite) if r.get("figure") == figure and is_target_row(suite, r)), None)


def row_given(row):
    """The Given of a processes row (its counts; a row written before issue 43 has only `processes` and `runs`)."""
    runs = len(row.get("runs", "").split())
    total = int(num(row.get("of")) or runs)
    why = dict((r, int(num(row.get(r.replace(" ", "_"))) or 0)) for r in given.REASONS)
    k = int(num(row.get("processes")) or 0)
    g = given.Given([0.0] * k, total, why)
    if not row.get("of") and total > k:   # an older row: the others were not a result
        g.why[given.INVALID] = total - k
    return g


def between(suite, figure):
    """(median, low, high, label, more) of FIGURE over the processes of the target input that gave it as a
    result, or None (no such row, or too few gave it: no median)."""
    row = target_row(suite, figure)
    if row is None or num(row.get("median")) is None or not row_given(row).summarised:
        return None
    if num(row.get("ci95_low")) is not None:
        return (num(row.get("median")), num(row.get("ci95_low")), num(row.get("ci95_high")),
                "95% interval of the median between processes", "")
    cov = num(row.get("range_coverage"))
    more = ", which holds the median %.0f%% of the time" % (cov * 100) if cov is not None else ""
    return num(row.get("median")), num(row.get("min")), num(row.get("max")), "min .. max of the processes", more


def judge(helper, lo, hi, bound, nominal_ghz, core_min, core_max, processes=None):
    """The verdict text of an interval of cycles (or the min .. max of PROCESSES below 6) against BOUND, by
    clomp's one rule (clomp-stats judge): nominal TSC cycles judged over the cores' clock range, "unavailable"
    without it; below 6 processes "met (in 3 of 3 processes; 6 needed for a 95% statement)"."""
    if lo is None or hi is None or bound is None:
        return None
    return stats_helper.judge(helper, bound, nominal_ghz, (core_min, core_max), lo, hi, processes)["text"]


def verdict_class(text):
    """The CSS class of a verdict text: a qualified one (below 6 processes) is no 95% statement: undecided's."""
    if text is None:
        return "na"
    if " processes" in text:
        return "undecided"
    return CLASSES.get(text, "na")


def headline_cell(suite, fig, record1, run1_ok):
    """(statistic, value text) of one headline figure: the median over the processes that gave it, with its
    interval between them; no result when too few gave it; without --replicates, run 1's own."""
    row = target_row(suite, fig.key)
    if row is not None:
        g = row_given(row)
        if not g.summarised:
            return "median over processes", g.no_result_text()
        b = between(suite, fig.key)
        stage2 = " (stage 2 of --replicates auto: the pilot's left out)" if suite.auto_pilot_runs else ""
        value, low, high, label, more = b
        return ("median over %s%s" % (g.count_text(), stage2),
                "%s (%s %s .. %s%s)" % (with_unit(value, fig.unit), label, g4(low), g4(high), more))
    value, why = given.of_process(record1.doc if record1 is not None else None, fig, run1_ok)
    if value is None:
        return "run 1 (one process)", "no result (run 1: %s)" % why
    m = given.measurement(record1.doc, fig.get("measurement"))
    ci = catalogue.value(m, fig.get("interval")) if m is not None else None
    text = with_unit(value, fig.unit)
    if isinstance(ci, list) and len(ci) == 2 and num(ci[0]) is not None and num(ci[1]) is not None:
        text += " (95%% interval within this process %s .. %s)" % (g4(ci[0]), g4(ci[1]))
    return "run 1 (one process)", text


def invalid_note(fig):
    if fig is None or fig.valid:
        return ""
    return ' <span class="notmet">(invalid, not a result: %s)</span>' % e(fig.invalid_reason or "flagged by the run")


def key_results(suite, views, record1):
    """The section's HTML lines."""
    out = ['<h2 id="key-results">Key results: the target input</h2>']
    run1 = next((r for r in views if r.number == 1), None)
    runs_text = next((r.get("runs", "") for r in processes_rows(suite) if is_target_row(suite, r)), "")
    if not runs_text and (run1 is None or not run1.ok):
        out.append('<p class="notmet">The target input (run 1) has no results: it did not run, or it failed (see its .full file).</p>')
    else:
        out += headline_section(suite, run1, record1, runs_text)
        out += between_section(suite)
    out += key_runs_section(suite, views)
    return out


def headline_section(suite, run1, record1, runs_text):
    if runs_text:
        basis = ("the median over the processes of runs %s (--replicates) that gave the figure as a result (each row "
                 "says how many: none from fewer than %d, or fewer than half), with the interval between those processes"
                 % (runs_text, given.MIN_PROCESSES))
        if suite.auto_pilot_runs:
            basis += (" (--replicates auto: stage 2's fresh processes; the pilot's %d, runs %s, planned how many and are "
                      "left out)" % (len(suite.auto_pilot_runs), " ".join(map(str, suite.auto_pilot_runs))))
    else:
        basis = "one process (run 1): each figure from its median chunks, with intervals within that process"
    args = " ".join(run1.args) if run1 is not None else ""
    out = ['<p>The target input, <code>clomp %s</code>: about 6400 zones on every core, a typical small' % e(args),
           'loop of a multiphysics code. If Static OMP does not speed it up, threading costs more than it saves.',
           'Figures: <b>%s</b>.</p>' % e(basis),
           '<table>', '<tr><th>figure</th><th>statistic</th><th>value</th></tr>']
    for fig in catalogue.load().in_set("headline"):
        if fig.get("kind") == "llnl_target_cycles":
            continue   # the targets' table below
        statistic, text = headline_cell(suite, fig, record1, run1 is not None and run1.ok)
        cls = ' class="na"' if text.startswith("no result") else ' class="num"'
        out.append('<tr><td>%s</td><td>%s</td><td%s>%s</td></tr>' % (e(fig.label), e(statistic), cls, e(text)))
    out.append('</table>')
    out += llnl_section(suite, run1, record1, runs_text)
    return out


def counted_figure(target):
    """The catalogue figure a target counts in cycles: its own (a judged target's) or the us figure it is
    taken from (the median chunk, or the median-chunk overhead)."""
    cat = catalogue.load()
    own = cat.figure_of(target.measurement, "llnl_target_cycles")
    if own is not None:
        return own, False
    kind = "median_overhead_us" if target.figure.startswith("overhead") else "median_us_per_loop"
    return cat.figure_of(target.measurement, kind), True


def scaled(b, run1, target, cycles):
    """A between-process figure in us at run 1's cycles per us (a target without its own cycles between
    processes), or None."""
    fig = run1.figure(target.measurement) if run1 is not None else None
    if fig is None or cycles is None or b is None:
        return None
    value = fig.overhead if target.figure.startswith("overhead") else fig.us_per_loop
    if not value:
        return None
    per = cycles / value
    scale = lambda v: None if v is None else v * per
    return scale(b[0]), scale(b[1]), scale(b[2]), b[3] + " at run 1's cycles per us", b[4]


def llnl_section(suite, run1, record1, runs_text):
    targets = record1.llnl_targets if record1 is not None else []
    # nominal TSC cycles are judged over the cores' clock range; core cycles (--ghz) as they are
    clock_ghz = run1.ghz if run1 is not None and run1.clock == "nominal TSC cycles" else None
    core_min, core_max = run1.core_ghz if run1 is not None else (None, None)
    helper = find_stats_helper()
    out = ['<h3>LLNL\'s targets (CPU cycles)</h3>',
           '<p>Each measured figure in cycles is the same statistic as above (%s) at the run\'s cycle rate.</p>'
           % e("the median over processes" if runs_text else "run 1's median chunk"),
           '<table>', '<tr><th>target</th><th>measured, cycles</th><th>LLNL needs</th><th>verdict</th><th>source</th></tr>']
    clocks = []
    if not targets:
        out.append('<tr><td colspan="5" class="na">run 1 has no JSON record: no targets to judge</td></tr>')
    for t in targets:
        cycles, lo, hi = num(t.cycles), None, None
        if t.cycles_ci_95 and len(t.cycles_ci_95) == 2:
            lo, hi = num(t.cycles_ci_95[0]), num(t.cycles_ci_95[1])
        verdict, no_result = t.verdict, None
        text = "" if lo is None else " (95%% interval within this process %s .. %s)" % (fmt(lo, 0), fmt(hi, 0))
        fig = run1.figure(t.measurement) if run1 is not None else None
        note = invalid_note(fig)
        counted, in_us = counted_figure(t)
        row = target_row(suite, counted.key) if counted is not None else None
        b = between(suite, counted.key) if counted is not None else None
        if b is not None and in_us:
            b = scaled(b, run1, t, cycles)
        if row is not None and b is None:   # too few processes gave it: no median, no verdict
            cycles, verdict, note, no_result = None, None, "", row_given(row).no_result_text()
        elif b is None and runs_text:
            text += " (run 1's median chunk: no figure between processes)"
        if b is not None:
            cycles, lo, hi, label, more = b
            note = ""
            text = "" if lo is None else " (%s %s .. %s%s)" % (label, fmt(lo, 0), fmt(hi, 0), more)
            g = row_given(row)
            text += " (median over %s)" % g.count_text()
            if lo is not None and t.target_below is not None:
                # min .. max below 6 processes: a verdict about those processes, said so
                few = g.k if label.startswith("min .. max") else None
                verdict = judge(helper, lo, hi, num(t.target_below), clock_ghz, core_min, core_max, few)
        bound = num(t.target_below)
        if t.not_judged or bound is None:
            need, vtext, vclass = "no target", "informational" + (" (%s)" % e(t.not_judged) if t.not_judged else ""), "na"
        else:
            need = "&lt; %s" % fmt(bound, 0)
            vtext = (e(verdict) if verdict else "no verdict (no result)" if no_result
                     else "unavailable (no cycle rate)")
            vclass = verdict_class(verdict)
        measured = e(no_result) if no_result else fmt(cycles, 0) + e(text)
        out.append('<tr><td>%s</td><td class="num">%s%s</td><td>%s</td><td class="%s">%s</td><td>%s</td></tr>'
                   % (e(t.label), measured, note, need, vclass, vtext, e(t.citation or "")))
        if t.clock and t.clock not in clocks:
            clocks.append(t.clock)
    out.append('</table>')
    out.append('<p>A target is <i>met</i> or <i>not met</i> only when the whole interval shown says so, <i>undecided</i>')
    out.append('when the interval straddles it (with one process: run 1\'s 95%% interval within its process). %s</p>'
               % clock_note(run1, clocks))
    return out


def clock_note(run1, clocks):
    clock = run1.clock if run1 is not None else ""
    if clock == "nominal TSC cycles" or "nominal TSC cycles" in clocks:
        lo, hi = run1.core_ghz if run1 is not None else (None, None)
        return ("Cycles are nominal TSC cycles at %s GHz; LLNL's targets are core cycles, so each verdict is judged over "
                "the cores' clock range, %s to %s GHz (a figure within that range of its bound is undecided; clomp --ghz "
                "gives the real core clock)." % (fmt(run1.ghz, 3), fmt(lo, 2), fmt(hi, 2)))
    return "Cycles are %s (the verdicts count them as core cycles)." % e(clock or (clocks[0] if clocks else "unavailable"))


def between_section(suite):
    rows = processes_rows(suite)
    if not rows:
        return []
    cat = catalogue.load()
    out = ['<h3>Between processes (--replicates)</h3>',
           '<p>Every figure over the processes each key input ran as (the headline above is the target\'s), from the',
           'processes that gave it as a result: the median, the range, and the 95% interval',
           'of the median between processes (order statistics; 6 processes or more, else the range and how often it holds',
           'the median); no median from fewer than %d processes or fewer than half of them.</p>' % given.MIN_PROCESSES, '<table>',
           '<tr><th>input</th><th>figure</th><th>processes</th><th>median</th><th>min .. max</th><th>95% interval of the median</th></tr>']
    for r in rows:
        fig = cat.figure(r.get("figure", ""))
        label = fig.label if fig is not None else r.get("figure", "")
        g = row_given(r)
        if num(r.get("median")) is None or not g.summarised:
            out.append('<tr><td><code>%s</code></td><td>%s</td><td class="na">%s</td><td class="na"></td>'
                       '<td class="na"></td><td class="na"></td></tr>' % (e(r.get("input", "")), e(label), e(g.no_result_text())))
            continue
        if num(r.get("ci95_low")) is not None:
            ci = "%s .. %s" % (g4(r.get("ci95_low")), g4(r.get("ci95_high")))
        else:
            cov = num(r.get("range_coverage"))
            ci = "none (the range holds it %s)" % ("an unknown share of the time" if cov is None else "%.0f%% of the time" % (cov * 100))
        out.append('<tr><td><code>%s</code></td><td>%s</td><td class="num">%s</td><td class="num">%s</td>'
                   '<td class="num">%s .. %s</td><td class="num">%s</td></tr>'
                   % (e(r.get("input", "")), e(label), e(g.count_text()), g4(r.get("median")),
                      g4(r.get("min")), g4(r.get("max")), e(ci)))
    out.append('</table>')
    return out


def resolution_mark(fig):
    res = fig.resolution if fig is not None else ""
    if res in ("", "resolved"):
        return ""
    return ' <span class="notmet">(%s)</span>' % ("no interval: unresolved" if res == "no interval" else "interval contains 0")


def run_status(suite, run):
    """(class, text) of a key run's status: green OK only when it ran to the end, the machine was not busy and
    no figure it gives is marked invalid."""
    if not run.ok:
        return "notmet", run.status
    record = suite.record(run.number)
    if record is not None and given.busy(record.doc):
        return "undecided", "%s, busy machine: not a result" % run.status
    invalid = [f.name for f in run.figures.values() if not f.valid]
    if invalid:
        return "undecided", "%s, not a result: %s invalid" % (run.status, ", ".join(invalid))
    return "met", run.status


def key_runs_section(suite, views):
    out = ['<h3 id="key-runs">Key runs</h3>',
           '<p>Per run: each run is one process, its figures from that process\'s median chunk (not the median over '
           'processes of the headline). A run is a green OK only when its figures are results (the machine was not busy, '
           'no measurement marked invalid).</p>',
           '<table><tr><th>run</th><th>arguments</th><th>numa</th><th>status</th><th>Static speedup</th><th>Static efficacy</th>'
           '<th>Static overhead (us)</th><th>Static overhead, % of loop (95% CI)</th><th>Barrier (us)</th></tr>']
    for run in views:
        if run.set != "key":
            continue
        s, b = run.figure("static"), run.figure("barrier")
        pct = "n/a"
        if s is not None and s.percent is not None:
            pct = "%.2f%%" % s.percent + ("" if s.percent_ci is None else " (%.2f .. %.2f)" % s.percent_ci)
        cls, status = run_status(suite, run)
        efficacy = getattr(s, "efficacy", None)
        out.append('<tr><td class="num">%d</td><td><code>%s</code></td><td>%s</td><td class="%s">%s</td>'
                   '<td class="num">%s</td><td class="num">%s</td><td class="num">%s%s</td><td class="num">%s</td>'
                   '<td class="num">%s%s</td></tr>'
                   % (run.number, e(" ".join(run.args)), e(run.numa), cls, e(status),
                      fmt(getattr(s, "speedup", None), 2), fmt(efficacy, 1) + ("%" if efficacy is not None else ""),
                      fmt(getattr(s, "overhead", None), 2), resolution_mark(s) + invalid_note(s), e(pct),
                      fmt(getattr(b, "us_per_loop", None), 3), invalid_note(b)))
    out.append('</table>')
    return out
