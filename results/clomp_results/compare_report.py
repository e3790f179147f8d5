"""The report of `run_clomp.sh --compare A,B` (compare/compare.sh launches the
processes; this reads them): every process's JSON record by member name,
each figure compared by clomp-stats (Mann-Whitney U, the distribution-free
interval of B/A, Bonferroni over the table), the .txt, .csv and, through
clomp-stats comparison-json, the .json (docs/compare.md).

    compare-report STEM RECORDS HELPER [PRIMARY]
STEM: the comparison's files' stem (<out>/CLOMP_<host>_<ID>_compare); its
processes' records are STEM_<A|B><r>.json. RECORDS: the header records
compare.sh wrote (date, host, arguments, replicates, order, sequence, side,
setting; the format clomp-stats comparison-json reads). PRIMARY: the figure
the overall answer is about [Static OMP overhead us/Loop]."""
import math
import os
import sys
from collections import Counter, OrderedDict

from . import compare_figures, safe_write, stats_helper
from .safe_io import for_terminal

PRIMARY = "Static OMP overhead us/Loop"
CSV_HEADER = "figure,scale,n_a,n_b,median_a,median_b,estimate,ci95_low,ci95_high,ci_coverage,u,p,test,detected,verdict"


def read_header(text):
    """{name: value} of the single records, [side cells], {label: [VAR=VALUE]}."""
    single, sides, settings = {}, [], {"A": [], "B": []}
    for line in text.splitlines():
        cells = line.split("\t")
        if cells[0] == "side":
            sides.append(cells[1:])
        elif cells[0] == "setting" and len(cells) >= 4:
            settings.setdefault(cells[1], []).append("%s=%s" % (cells[2], "\t".join(cells[3:])))
        elif len(cells) >= 2:
            single[cells[0]] = "\t".join(cells[1:])
    return single, sides, settings


def csv_cell(text, always=False):
    text = str(text)
    if always or any(c in text for c in ',"\n\r'):
        return '"%s"' % text.replace('"', '""')
    return text


def process_values(stem, n):
    """OrderedDict figure -> ([A values], [B values]) over the 2n processes, and side -> [records]."""
    values, docs = OrderedDict(), {"A": [], "B": []}
    for r in range(1, n + 1):
        for k, label in enumerate("AB"):
            doc = compare_figures.read_record("%s_%s%d.json" % (stem, label, r))
            docs[label].append(doc)
            for name, value in compare_figures.figures(doc):
                values.setdefault(name, ([], []))[k].append(value)
    return values, docs


def unit_of(figure, scale):
    return "" if scale == "ratio" else " " + figure.split(" ")[-1]


def up(x):
    return int(math.ceil(x))


def sentence(figure, c, n, level_text):
    unit = unit_of(figure, c["scale"])
    if c["detected"]:
        if c["scale"] == "ratio":
            return "B's %s is %sx A's (%s..%s)" % (figure, c["estimate_text"], c["ci_low_text"], c["ci_high_text"])
        return "B's %s is %s%s %s A's (difference %s..%s)" % (
            figure, c["estimate_text"].lstrip("-"), unit, "below" if c["estimate"] < 0 else "above", c["ci_low_text"], c["ci_high_text"])
    if c["ci_coverage"] is None:
        return "no difference detectable with %d runs (too few for an interval at %s: use more --replicates)" % (n, level_text)
    return "no difference detectable with %d runs; smallest detectable: %s" % (n, smallest(c, n, unit))


def smallest(c, n, unit):
    """What these runs could have seen: the interval's half-width (log scale for ratios), and the runs a side a
    5% difference needs if the interval narrows as 1/sqrt(runs)."""
    if c["scale"] == "ratio":
        h = (math.log(c["ci_high"]) - math.log(c["ci_low"])) / 2
        return "%.3gx (+-%.2g%%), about %d runs a side for 5%%" % (math.exp(h), (math.exp(h) - 1) * 100,
                                                                 up(n * (h / math.log(1.05)) ** 2))
    h = (c["ci_high"] - c["ci_low"]) / 2
    text = "+-%.3g%s" % (h, unit)
    a = c["median_a"]
    if a:
        return text + ", about %d runs a side for 5%% of A's median" % up(n * (h / (0.05 * abs(a))) ** 2)
    return text + " (A's median is 0: no 5% figure)"


def mixing_note(docs, sides):
    """Lines saying when A and B differ in compiler and OpenMP runtime at once (issue 35 item 10)."""
    def first(label, path):
        doc = docs[label][0] if docs[label] else {}
        for key in path:
            doc = doc.get(key) if isinstance(doc, dict) else None
        return doc
    compilers = [first(l, ("build", "compiler")) for l in "AB"]
    runtimes = [first(l, ("ompt", "runtime")) or (s[5] if len(s) > 5 else None) for l, s in zip("AB", sides + [[], []])]
    if compilers[0] == compilers[1] or runtimes[0] == runtimes[1] or None in compilers or None in runtimes:
        return []
    return ["  Note: A and B differ in the compiler (%s; %s) and the OpenMP runtime (%s; %s) at once: a difference"
            % (compilers[0], compilers[1], runtimes[0], runtimes[1]),
            "        in a figure can come from either (calc_deposit is serial code: it differs by the compiler alone).",
            "        For the runtime alone compare one build on both runtimes: --compare gnu,libomp."]


def table_verdict(detected, m, n):
    if detected == 0:
        return "Verdict: no difference detectable with %d runs in any figure." % n
    return ("Verdict: %d of %d figures differ (95%% for the table, between processes); no difference is "
            "detectable in the rest." % (detected, m))


def nothing_compared(docs, n):
    """The verdict when no figure was measured by both sides: why, never "no difference" (0 figures compared
    cannot say that). Construct runs: how many levels each status took, over every process."""
    levels = [lv for side in "AB" for doc in docs[side] for lv in compare_figures.construct_levels_not_compared(doc)]
    statuses = Counter(status for _, status, _ in levels)
    if levels and set(statuses) == {"unresolved"}:
        why = next((problem for _, _, problem in levels if problem), "no reason given")
        return ["Verdict: nothing could be compared: every construct level of all %d processes was unresolved "
                "(%d levels; the first's reason: %s), so neither a difference nor its absence can be said." % (2 * n, len(levels), why)]
    text = "Verdict: nothing could be compared: no figure was measured by both sides"
    if levels:
        text += " (construct levels not measured, over all %d processes: %s)" % (
            2 * n, ", ".join("%d %s" % (k, s) for s, k in sorted(statuses.items())))
    return [text + ", so neither a difference nor its absence can be said."]


def overall(primary, rows, n):
    """The comparison's one answer, for the primary figure."""
    row = next((r for r in rows if r[0] == primary), None)
    if not rows:
        return "Overall: no answer: nothing could be compared (above)."
    if row is None:
        return "Overall: the primary figure, %s, was not measured here (name another with --primary)." % primary
    return "Overall (%s, the primary figure): %s." % (primary, row[2])


def report(stem, header_text, helper, primary=PRIMARY):
    """(text, csv, json bytes) of the comparison."""
    single, sides, settings = read_header(header_text)
    n = int(single.get("replicates", "0"))
    values, docs = process_values(stem, n)
    compared = [f for f, (a, b) in values.items() if a and b]
    m = len(compared)
    level = "%.6f" % (1 - 0.05 / (m if m > 0 else 1))     # Bonferroni over the m figures
    level_text = "%.2f%%" % (float(level) * 100)
    sequence = single.get("sequence", "")
    out = ["clomp A/B comparison %s" % stem,
           "       Date: %s" % single.get("date", ""), "       Host: %s" % single.get("host", ""),
           "  Arguments: %s" % single.get("arguments", ""),
           "  Processes: %d per side, in the order %s (ABBA)" % (n, " ".join(sequence))]
    for cells in sides:
        label = cells[0]
        out += ["     Side %s: %s: %s" % (label, cells[1], cells[2]),
                "             runtime library: %s (%s)" % (cells[5], cells[6]),
                "             settings: %s" % (" ".join(settings.get(label, [])) or "none"),
                "             placement: %s" % cells[7]]
    out += mixing_note(docs, sides)
    out += ["", "Medians over processes. B/A: the median of all A x B process ratios (B - A where a value is",
            "not positive), to 3 significant digits, with its distribution-free interval between processes.",
            "p: Mann-Whitney U test (exact up to 25 processes per side, ties at their mid-ranks; else normal).",
            "95%% for the whole table: each of the %d figures is judged at p < 0.05/%d and its interval covers" % (m, m),
            "%s (Bonferroni), so comparing a set-up with itself flags no figure 95%% of the time." % level_text,
            "%-32s %10s %10s  %-24s %7s  %s" % ("figure", "A median", "B median", "B/A (interval)", "p", "verdict")]
    csv_lines, records, rows = [CSV_HEADER], [header_text.rstrip("\n"), "figures_compared\t%d" % m], []
    exact = normal = detected = 0
    for figure in compared:
        a, b = values[figure]
        c = stats_helper.compare(helper, a, b, level)
        exact, normal = exact + (c["test"] == "exact"), normal + (c["test"] != "exact")
        detected += c["detected"]
        said = sentence(figure, c, n, level_text)
        shown = c["estimate_text"] if c["scale"] == "ratio" else "%s%s diff" % (c["estimate_text"], unit_of(figure, c["scale"]))
        shown += " (no interval)" if c["ci_low"] is None else " (%s..%s)" % (c["ci_low_text"], c["ci_high_text"])
        out.append("%-32s %10s %10s  %-24s %7s  %s" % (figure, "%.4g" % c["median_a"], "%.4g" % c["median_b"], shown,
                                                       "%.2g" % c["p"], said))
        raw = c["raw"].get
        csv_lines.append(",".join([csv_cell(figure), c["scale"], str(c["n_a"]), str(c["n_b"]), raw("median_a"),
                                   raw("median_b"), raw("estimate"), raw("ci_low"), raw("ci_high"), raw("ci_coverage"), raw("u"),
                                   raw("p"), c["test"], "1" if c["detected"] else "0", csv_cell(said, always=True)]))
        records.append("figure\t%s\t%s\t%s\t%s" % (figure, ",".join(repr(v) for v in a), ",".join(repr(v) for v in b), said))
        rows.append((figure, c, said))
    out.append("")
    if m == 0:
        out += nothing_compared(docs, n)
    else:
        if normal == 0:
            out.append("p-values: exact (the permutation distribution of U) for all %d figures." % exact)
        else:
            out.append("p-values: exact for %d figures, normal approximation (tie-corrected) for %d." % (exact, normal))
        out.append(table_verdict(detected, m, n))
    out.append(overall(primary, rows, n))
    js = stats_helper.comparison_json(helper, level, "\n".join(records) + "\n")
    return "\n".join(out) + "\n", "\n".join(csv_lines) + "\n", js


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write("usage: compare-report STEM RECORDS HELPER [PRIMARY]\n")
        return 2
    stem, records_path, helper = argv[:3]
    primary = argv[3] if len(argv) == 4 and argv[3] else PRIMARY
    try:
        with open(records_path, encoding="utf-8") as f:
            header = f.read()
        text, csv_text, js = report(stem, header, helper, primary)
        directory, name = stem.rsplit("/", 1) if "/" in stem else (".", stem)
        safe_write.write_text(directory, name + ".txt", text)
        safe_write.write_text(directory, name + ".csv", csv_text)
        fd = safe_write.open_dir(directory)
        try:
            safe_write.replace_file(fd, name + ".json", js)
        finally:
            os.close(fd)
    except (ValueError, stats_helper.StatsError, safe_write.UnsafeTarget, OSError) as e:
        sys.stderr.write("run_clomp.sh: --compare: %s\n" % for_terminal(str(e)))
        return 3
    sys.stdout.write(text)
    return 0
