"""The HTML report's key results: the target input's headline, LLNL's targets
(one row per member of the record's llnl_targets: label, measurement, bound,
citation — no target named here), the between-process table and the key
runs.  Every figure says which statistic it is (issue 35): the headline is
the median over processes with --replicates, else run 1's median chunk; the
key-runs table is per run (one process each)."""
from html import escape

from . import stats_helper
from .between import stats_helper as find_stats_helper
from .view import num

CLASSES = {"met": "met", "not met": "notmet", "undecided": "undecided"}


def e(value):
    return escape(str(value), quote=True)


def fmt(value, decimals):
    v = num(value)
    return "n/a" if v is None else "%.*f" % (decimals, v)


def g4(value):
    v = num(value)
    return "n/a" if v is None else "%.4g" % v


def processes_rows(suite):
    return suite.processes.rows if suite.processes is not None else []


def is_target_row(suite, row):
    """Whether a <base>_key.processes.csv row is the target input's: its runs include run 1, or, with
    --replicates auto's two stages, are stage 2's (the pilot, run 1 among it, is left out)."""
    runs = row.get("runs", "").split()
    stage2 = set(map(str, suite.env.auto_stage2_runs))
    return "1" in runs or bool(stage2 and runs and set(runs) <= stage2)


def between(suite, figure):
    """(median, low, high, label, more) of FIGURE over the processes of the target input, or None."""
    for row in processes_rows(suite):
        if row.get("figure") == figure and is_target_row(suite, row):
            if num(row.get("ci95_low")) is not None:
                return (num(row.get("median")), num(row.get("ci95_low")), num(row.get("ci95_high")),
                        "95% interval of the median between processes", "")
            cov = num(row.get("range_coverage"))
            more = ", which holds the median %.0f%% of the time" % (cov * 100) if cov is not None else ""
            return num(row.get("median")), num(row.get("min")), num(row.get("max")), "min .. max of the processes", more
    return None


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


def processes_used(suite, figure):
    """(processes the figure's median used, processes of the target input) from <base>_key.processes.csv, or None:
    a process whose figure was not a result (issue 35) gives none, so the two can differ."""
    for row in processes_rows(suite):
        if row.get("figure") == figure and is_target_row(suite, row):
            used = num(row.get("processes"))
            return (int(used) if used is not None else 0), len(row.get("runs", "").split())
    return None


def statistic_text(suite, figure, runs_text):
    """What the headline's figure is: the median over the processes that gave it (k of N when not all did)."""
    used = processes_used(suite, figure)
    if used is None:
        return ("run 1, median chunk (no process gave a figure between processes)" if runs_text
                else "run 1, median chunk")
    k, total = used
    stage2 = " (stage 2 of --replicates auto: the pilot's left out)" if suite.auto_pilot_runs else ""
    if k == total:
        return "median over %d processes%s" % (k, stage2)
    return "median over %d of %d processes (not a result in the others)%s" % (k, total, stage2)


def headline(suite, figure, value, low, high, decimals):
    """(value, interval text) from the between-process figure when there is one, else run 1's."""
    b = between(suite, figure)
    if b is not None:
        value, low, high, label, more = b
    else:
        label, more = "95% interval within this process", ""
    text = "" if low is None or high is None else " (%s %s .. %s%s)" % (label, fmt(low, decimals), fmt(high, decimals), more)
    return value, text


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
    out += key_runs_section(views)
    return out


def headline_section(suite, run1, record1, runs_text):
    fig = run1.figure if run1 is not None else (lambda k: None)
    static, bestcase, barrier, parallel = fig("static"), fig("bestcase"), fig("barrier"), fig("parallel")
    at = lambda f, name: getattr(f, name, None) if f is not None else None
    if runs_text:
        basis = ("the median over the processes of runs %s (--replicates) that gave the figure (each row says how "
                 "many), with the interval between those processes" % runs_text)
        if suite.auto_pilot_runs:
            basis += (" (--replicates auto: stage 2's fresh processes; the pilot's %d, runs %s, planned how many and are "
                      "left out)" % (len(suite.auto_pilot_runs), " ".join(map(str, suite.auto_pilot_runs))))
    else:
        basis = "one process (run 1): each figure from its median chunk, with intervals within that process"
    ov_ci = at(static, "overhead_ci") or (None, None)
    bar_ci = at(barrier, "us_ci") or (None, None)
    rows = [("Static OMP speedup over Serial Ref", "static_omp_speedup", at(static, "speedup"), None, None, 2, "", static),
            ("Bestcase OMP speedup (the most these threads can give)", "bestcase_omp_speedup", at(bestcase, "speedup"), None, None, 2, "", bestcase),
            ("Static OMP efficacy (bestcase time / Static time)", "static_omp_efficacy_percent", at(static, "efficacy"), None, None, 1, "%", static),
            ("Static OMP overhead, us per loop", "static_omp_overhead_us", at(static, "overhead"), ov_ci[0], ov_ci[1], 2, "", static),
            ("OMP Barrier, us per barrier", "omp_barrier_us_per_loop", at(barrier, "us_per_loop"), bar_ci[0], bar_ci[1], 3, "", barrier),
            ("OMP Parallel (fork/join), us", "omp_parallel_us_per_loop", at(parallel, "us_per_loop"), None, None, 3, "", parallel)]
    args = " ".join(run1.args) if run1 is not None else ""
    out = ['<p>The target input, <code>clomp %s</code>: about 6400 zones on every core, a typical small' % e(args),
           'loop of a multiphysics code. If Static OMP does not speed it up, threading costs more than it saves.',
           'Figures: <b>%s</b>.</p>' % e(basis),
           '<table>', '<tr><th>figure</th><th>statistic</th><th>value</th></tr>']
    for label, figure, value, low, high, decimals, unit, f in rows:
        value, ci = headline(suite, figure, value, low, high, decimals)
        out.append('<tr><td>%s</td><td>%s</td><td class="num">%s%s%s%s</td></tr>'
                   % (e(label), e(statistic_text(suite, figure, runs_text)), fmt(value, decimals), unit, e(ci), invalid_note(f)))
    out.append('</table>')
    out += llnl_section(suite, run1, record1, runs_text)
    return out


def slug(name):
    return "".join(c if c.isalnum() else "_" for c in name.lower())


def scaled_figure(run1, target):
    """(the between-process figure a target without its own counts, run 1's value of it), or None."""
    fig = run1.figure(target.measurement) if run1 is not None else None
    if fig is None:
        return None
    member, value = ("overhead_us", fig.overhead) if target.figure.startswith("overhead") else ("us_per_loop", fig.us_per_loop)
    return "%s_%s" % (slug(fig.name), member), value


def scaled_between(suite, run1, target, cycles):
    """A target without its own between-process figure: the between-process figure it counts (by the
    measurement's name and the target's figure) at run 1's cycles per us, or None."""
    scaled = scaled_figure(run1, target)
    if scaled is None or cycles is None:
        return None
    figure, value = scaled
    b = between(suite, figure)
    if b is None or not value:
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
        verdict = t.verdict
        text = "" if lo is None else " (95%% interval within this process %s .. %s)" % (fmt(lo, 0), fmt(hi, 0))
        b = between(suite, "%s_llnl_target_cycles" % t.measurement)
        if b is None and runs_text:
            b = scaled_between(suite, run1, t, cycles)
        if b is None and runs_text:
            text += " (run 1's median chunk: no figure between processes)"
        if b is not None:
            cycles, lo, hi, label, more = b
            text = "" if lo is None else " (%s %s .. %s%s)" % (label, fmt(lo, 0), fmt(hi, 0), more)
            used = processes_used(suite, "%s_llnl_target_cycles" % t.measurement)
            if used is None and scaled_figure(run1, t) is not None:
                used = processes_used(suite, scaled_figure(run1, t)[0])
            if used is not None and used[0] != used[1]:
                text += " (median over %d of %d processes: not a result in the others)" % used
            if lo is not None and t.target_below is not None:
                # min .. max below 6 processes: a verdict about those processes, said so
                few = used[0] if used is not None and label.startswith("min .. max") else None
                verdict = judge(helper, lo, hi, num(t.target_below), clock_ghz, core_min, core_max, few)
        bound = num(t.target_below)
        if t.not_judged or bound is None:
            need, vtext, vclass = "no target", "informational" + (" (%s)" % e(t.not_judged) if t.not_judged else ""), "na"
        else:
            need = "&lt; %s" % fmt(bound, 0)
            vtext = e(verdict) if verdict else "unavailable (no cycle rate)"
            vclass = verdict_class(verdict)
        fig = run1.figure(t.measurement) if run1 is not None else None
        out.append('<tr><td>%s</td><td class="num">%s%s%s</td><td>%s</td><td class="%s">%s</td><td>%s</td></tr>'
                   % (e(t.label), fmt(cycles, 0), e(text), invalid_note(fig), need, vclass, vtext, e(t.citation or "")))
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
    out = ['<h3>Between processes (--replicates)</h3>',
           '<p>Every figure over the processes each key input ran as (the headline above is the target\'s):',
           'the median, the range, and the 95% interval',
           'of the median between processes (order statistics; 6 processes or more, else the range and how often it holds',
           'the median).</p>', '<table>',
           '<tr><th>input</th><th>figure</th><th>processes</th><th>median</th><th>min .. max</th><th>95% interval of the median</th></tr>']
    for r in rows:
        if num(r.get("ci95_low")) is not None:
            ci = "%s .. %s" % (g4(r.get("ci95_low")), g4(r.get("ci95_high")))
        else:
            cov = num(r.get("range_coverage"))
            ci = "none (the range holds it %s%% of the time)" % ("n/a" if cov is None else "%.0f" % (cov * 100))
        out.append('<tr><td><code>%s</code></td><td>%s</td><td class="num">%s</td><td class="num">%s</td>'
                   '<td class="num">%s .. %s</td><td class="num">%s</td></tr>'
                   % (e(r.get("input", "")), e(r.get("figure", "")), e(r.get("processes", "")), g4(r.get("median")),
                      g4(r.get("min")), g4(r.get("max")), e(ci)))
    out.append('</table>')
    return out


def resolution_mark(fig):
    res = fig.resolution if fig is not None else ""
    if res in ("", "resolved"):
        return ""
    return ' <span class="notmet">(%s)</span>' % ("no interval: unresolved" if res == "no interval" else "interval contains 0")


def key_runs_section(views):
    out = ['<h3>Key runs</h3>',
           '<p>Per run: each run is one process, its figures from that process\'s median chunk (not the median over '
           'processes of the headline).</p>',
           '<table><tr><th>run</th><th>arguments</th><th>numa</th><th>status</th><th>Static speedup</th><th>Static efficacy</th>'
           '<th>Static overhead (us)</th><th>Static overhead, % of loop (95% CI)</th><th>Barrier (us)</th></tr>']
    for run in views:
        if run.set != "key":
            continue
        s, b = run.figure("static"), run.figure("barrier")
        pct = "n/a"
        if s is not None and s.percent is not None:
            pct = "%.2f%%" % s.percent + ("" if s.percent_ci is None else " (%.2f .. %.2f)" % s.percent_ci)
        out.append('<tr><td class="num">%d</td><td><code>%s</code></td><td>%s</td><td class="%s">%s</td>'
                   '<td class="num">%s</td><td class="num">%s%%</td><td class="num">%s%s</td><td class="num">%s</td>'
                   '<td class="num">%s%s</td></tr>'
                   % (run.number, e(" ".join(run.args)), e(run.numa), "met" if run.ok else "notmet", e(run.status),
                      fmt(getattr(s, "speedup", None), 2), fmt(getattr(s, "efficacy", None), 1),
                      fmt(getattr(s, "overhead", None), 2), resolution_mark(s) + invalid_note(s), e(pct),
                      fmt(getattr(b, "us_per_loop", None), 3), invalid_note(b)))
    out.append('</table>')
    return out
