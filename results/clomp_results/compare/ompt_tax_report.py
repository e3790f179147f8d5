"""The report of `run_clomp.sh --ompt-tax` (ompt_tax_driver.py runs the two
comparisons): both comparisons' JSON documents joined by figure — the median
without a tool, with the trivial and the sampling tool, each ratio tool/none
with its interval — and the sampling tool's samples per measurement, summed
over the sampling comparison's B processes' JSON records (docs/ompt.md).

    ompt-tax-report BASE SIDE N WORK [ARGUMENTS]
writes BASE_ompt_tax.txt and .csv; WORK holds trivial/ and sampling/, one
comparison each."""
import json
import os
import sys
import time
from collections import OrderedDict

from ..core import compare_figures, safe_io, safe_write
from ..core.view import num

CSV_HEADER = ("figure,none_median,trivial_median,trivial_scale,trivial_ratio,trivial_ci95_low,trivial_ci95_high,"
              "sampling_median,sampling_scale,sampling_ratio,sampling_ci95_low,sampling_ci95_high")


def comparison(directory):
    """(stem, its JSON document) of the one comparison in DIRECTORY."""
    names = sorted(n for n in os.listdir(directory) if n.endswith("_compare.json"))
    if len(names) != 1:
        raise ValueError("%s: %d comparisons, not 1" % (directory, len(names)))
    path = os.path.join(directory, names[0])
    doc = json.loads(safe_io.read_bounded(path, 64 << 20, what=path).decode("utf-8", "replace"))
    return path[:-len(".json")], doc


def by_figure(doc):
    out = OrderedDict()
    for f in doc.get("figures") or []:
        ci = f.get("ci_95") or [None, None]
        out[str(f.get("figure", ""))] = (num(f.get("median_a")), num(f.get("median_b")), str(f.get("scale", "")),
                                         num(f.get("estimate")), num(ci[0]), num(ci[1]))
    return out


def left_out(doc):
    """'KEY (A: 2 busy; B: 2 busy), ...' of the figures the comparison DOC kept no pair of: every pair had a
    process that gave it no result (busy, invalid: given.py's rule, its dropped records); '' when none."""
    compared = set(str(f.get("key", "")) for f in doc.get("figures") or [])
    why = OrderedDict()
    for d in doc.get("dropped") or []:
        key = str(d.get("key", ""))
        if key not in compared:
            why.setdefault(key, OrderedDict()).setdefault(str(d.get("side", "")), []).append(
                "%s %s" % (d.get("processes", "?"), d.get("reason", "")))
    return ", ".join("%s (%s)" % (key, "; ".join("%s: %s" % (side, ", ".join(r)) for side, r in sides.items()))
                     for key, sides in why.items())


def g(v, spec):
    return "n/a" if v is None else spec % v   # NaN never reaches an output (issue 43)


def interval(lo, hi):
    return "no interval" if lo is None else "%.3g..%.3g" % (lo, hi)


def cell(v):
    return "" if v is None else repr(v)


def samples(stem, n):
    totals = OrderedDict()
    for r in range(1, n + 1):
        path = "%s_B%d.json" % (stem, r)
        for name, *counts in compare_figures.sampling_counts(compare_figures.read_record(path)):
            old = totals.get(name, [0, 0, 0, 0])
            totals[name] = [a + b for a, b in zip(old, counts)]
    return totals


def report(base, side, n, work, arguments):
    t_stem, trivial = comparison(os.path.join(work, "trivial"))
    s_stem, sampling = comparison(os.path.join(work, "sampling"))
    tr, sa = by_figure(trivial), by_figure(sampling)
    try:
        with open("/proc/loadavg") as f:
            load = " ".join(f.read().split()[:3])
    except OSError:
        load = "unknown"
    text = ["clomp OMPT tool tax %s" % os.path.basename(base),
            "       Date: %s" % time.strftime("%a %b %d %H:%M:%S %Z %Y"),
            "       Host: %s   load average: %s" % (os.uname()[1], load),
            "       Side: %s; no tool (A) against clomp's trivial tool, then against its sampling tool (200 Hz), B" % side,
            "  Processes: %d pairs in each comparison (random order within a pair); arguments: %s" % (n, arguments or "the target input"),
            "", "Medians over processes; ratio: tool/none, the median of all process ratios, with its 95% interval",
            "between processes (Bonferroni over each comparison's figures); 'diff' where a value is not positive.",
            "Each ratio is against the no-tool processes interleaved with it (the 'none' column is the first's).",
            "%-32s %10s %10s %-29s %10s %s" % ("figure", "none", "trivial", "  trivial/none  95% interval", "sampling",
                                             "  sampling/none 95% interval")]
    csv_lines = [CSV_HEADER]
    for figure, (none, t_med, t_scale, t_est, t_lo, t_hi) in tr.items():
        if figure not in sa:
            continue
        _, s_med, s_scale, s_est, s_lo, s_hi = sa[figure]
        text.append("%-32s %10s %10s %7s%-5s %-16s %10s %7s%-5s %s" % (
            figure, g(none, "%.4g"), g(t_med, "%.4g"), g(t_est, "%.3g"), "x" if t_scale == "ratio" else " diff",
            interval(t_lo, t_hi), g(s_med, "%.4g"), g(s_est, "%.3g"), "x" if s_scale == "ratio" else " diff",
            interval(s_lo, s_hi)))
        quoted = '"%s"' % figure.replace('"', '""') if any(c in figure for c in ',"\n') else figure
        csv_lines.append(",".join([quoted, cell(none), cell(t_med), t_scale, cell(t_est), cell(t_lo), cell(t_hi),
                                   cell(s_med), s_scale, cell(s_est), cell(s_lo), cell(s_hi)]))
    for name, doc in (("trivial", trivial), ("sampling", sampling)):
        if left_out(doc):
            text.append(safe_io.for_terminal("Not in the table: no pair of the %s comparison gave as a result (busy or "
                                             "invalid processes, docs/compare.md): %s." % (name, left_out(doc))))
    text += ["", "Sampling tool's samples, summed over its %d processes (docs/ompt.md: what each class means):" % n,
             "%-14s %10s %11s %12s %8s" % ("measurement", "consistent", "unavailable", "inconsistent", "idle")]
    for name, (c, u, x, idle) in samples(s_stem, n).items():
        text.append("%-14s %10d %11d %12d %8d" % (name, c, u, x, idle))
    text += ["", "Comparisons: %s.txt %s.txt" % (t_stem, s_stem)]
    return "\n".join(text) + "\n", "\n".join(csv_lines) + "\n"


def main(argv):
    if len(argv) not in (4, 5):
        sys.stderr.write("usage: ompt-tax-report BASE SIDE N WORK [ARGUMENTS]\n")
        return 2
    base, side, n, work = argv[:4]
    try:
        text, csv_text = report(base, side, int(n), work, argv[4] if len(argv) == 5 else "")
        directory, name = os.path.split(base)
        safe_write.write_text(directory or ".", name + "_ompt_tax.txt", text)
        safe_write.write_text(directory or ".", name + "_ompt_tax.csv", csv_text)
    except (ValueError, OSError, safe_io.Refused, safe_write.UnsafeTarget) as e:
        sys.stderr.write("run_clomp.sh: --ompt-tax: %s\n" % safe_io.for_terminal(str(e)))
        return 1
    sys.stdout.write(text)
    print("Files: %s_ompt_tax.txt %s_ompt_tax.csv %s/" % (base, base, work))
    return 0
