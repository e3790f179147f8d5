"""The HTML report's construct section, from <base>.constructs.csv's rows by
name: per construct the level-1 overhead at the key thread count with its 95%
interval and cycles (the run of set constructs), level 2 at clomp's default
nested shape, and for each run of the inner-team sweep (sets
constructs_outerO) the level-2 overhead with its ratio to level 1.  A row not
measured — failed, serialized, unresolved (issue 35: too few inner
repetitions or a disturbed team) — shows its status and why, never a figure."""
from collections import OrderedDict

from ..core.view import integer, num
from ..core.safe_text import for_html as e   # every value: control characters escaped, then HTML



def f3(v):
    return "" if v is None else ("%.0f" % v if abs(v) >= 100 else "%.3g" % v)


def figure(row):
    if row is None:
        return '<td class="na"></td>'
    status = row.get("status", "")
    problem = row.get("problem", "")
    if status != "measured":
        cls = "notmet" if status == "failed" else "undecided" if status == "unresolved" else "na"
        return '<td class="%s">%s%s</td>' % (cls, e(status), (": " + e(problem)) if problem else "")
    ov, lo, hi = num(row.get("overhead_us")), num(row.get("overhead_ci95_low_us")), num(row.get("overhead_ci95_high_us"))
    if lo is None or hi is None:
        text = f3(ov) + ' <span class="undecided">(no interval: unresolved)</span>'
    else:
        text = "%s (%s .. %s)" % (f3(ov), f3(lo), f3(hi))
        if lo <= 0 <= hi:
            text += ' <span class="undecided">(interval contains 0)</span>'
    ratio = num(row.get("level2_over_level1"))
    if ratio is not None:
        text += ", L2/L1 %.2f" % ratio
    return '<td class="num">%s</td>' % text


# The inner-team sweep's runs in one table: beside level 1 and the key run's
# level 2, four keep a row within a screen; a big node's sweep (2x2 .. 2x128:
# seven runs at 256 cores) wraps into further tables of four.
SWEEP_COLUMNS = 4


def sweep_headers(runs, sweeps):
    return "".join('<th>level 2, %s (run %s), us</th>' % (e(sweeps[run]), e(run)) for run in runs)


def sweep_cells(runs, name, cells):
    return "".join(figure(cells.get((name, "s" + run))) for run in runs)


def constructs_table(rows):
    """The table's HTML lines, or [] without construct rows."""
    if not rows:
        return []
    names, cells, sweeps = [], {}, OrderedDict()
    key_run = team1 = shape = None
    any_l2 = False
    for r in rows:
        name, run, set_name, level = r.get("construct_name", ""), r.get("run", ""), r.get("set", ""), r.get("level", "")
        if name not in names:
            names.append(name)
        if set_name == "constructs":
            if key_run is None:
                key_run = run
            if level == "1" and (name, "l1") not in cells:
                slot = (name, "l1")
                team1 = r.get("inner_threads", "")
            elif level == "2":
                slot = (name, "l2")
                if r.get("outer_threads", ""):
                    shape = "%sx%s" % (r.get("outer_threads", ""), r.get("inner_threads", ""))
                if r.get("status", "") != "not run":
                    any_l2 = True
            else:
                continue
        elif set_name.startswith("constructs_outer") and level == "2":
            if run not in sweeps:
                s = "%sx%s" % (r.get("outer_threads", ""), r.get("inner_threads", ""))
                sweeps[run] = "run %s" % run if s == "x" else s
            slot = (name, "s" + run)
        else:
            continue
        cells[slot] = r
    runs = list(sweeps)
    first, rest = runs[:SWEEP_COLUMNS], runs[SWEEP_COLUMNS:]
    out = ['<table>', '<tr><th>construct</th><th>level 1, %s threads (run %s): overhead, us, median over repetitions '
           '(95%% interval)</th><th>cycles</th>' % (e(team1 or "?"), e(key_run or ""))]
    if any_l2:
        out[-1] += '<th>level 2, %s (run %s), us</th>' % (e(shape or ""), e(key_run or ""))
    out[-1] += sweep_headers(first, sweeps) + '</tr>'
    for name in names:
        l1 = cells.get((name, "l1"))
        cyc = num(l1.get("overhead_cycles")) if l1 is not None and l1.get("status") == "measured" else None
        line = '<tr><td>%s</td>%s<td class="num">%s</td>' % (e(name), figure(l1), "" if cyc is None else "%.0f" % cyc)
        if any_l2:
            line += figure(cells.get((name, "l2")))
        out.append(line + sweep_cells(first, name, cells) + '</tr>')
    out.append('</table>')
    # The rest of a long sweep wraps into tables of its own, SWEEP_COLUMNS runs each, a row per construct again.
    for at in range(0, len(rest), SWEEP_COLUMNS):
        part = rest[at:at + SWEEP_COLUMNS]
        out += ['<table>', '<tr><th>construct (the sweep, continued)</th>%s</tr>' % sweep_headers(part, sweeps)]
        out += ['<tr><td>%s</td>%s</tr>' % (e(name), sweep_cells(part, name, cells)) for name in names]
        out.append('</table>')
    if not any_l2 and key_run is not None:
        first = cells.get((names[0], "l2")) if names else None
        out.append('<p class="na">Level 2 at the key thread count: not run (%s); the sweep\'s columns give level 2.</p>'
                   % e(first.get("problem", "") if first is not None else ""))
    return out


def level2_shapes(records):
    """'run N: Level 2: ...' lines from the construct runs' records (their constructs member)."""
    lines = []
    for run in sorted(records):
        c = records[run].constructs
        if not isinstance(c, dict):
            continue
        why = c.get("level2_unavailable")
        if why:
            lines.append("run %d: Level 2: N/A (%s)" % (run, why))
            continue
        outer, inner = integer(c.get("outer_threads")), integer(c.get("inner_threads"))
        text = "run %d: Level 2: %sx%s (OUTER x INNER)" % (run, outer, inner)
        if c.get("oversubscribed"):
            text += "; oversubscribed: %s threads on %s CPUs" % (
                (outer or 0) * (inner or 0) if outer is not None and inner is not None else "?", c.get("cpus", "?"))
        lines.append(text)
    return lines
