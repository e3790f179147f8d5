"""The report of `run_clomp.sh --compare A,B` (compare_driver.py launches the
processes; this reads them): every process's JSON record by member name,
and the statistics from clomp-stats (the package computes none): the ONE
primary figure by the exact signed-rank test on the pair differences at
alpha 0.05 (with --until, at Pocock's group-sequential level), the other
figures by the same test under Holm's procedure, figures constant by
definition not counted; each with its Hodges-Lehmann shift and interval,
the difference 80% power reaches, and Brunner-Munzel's P(B > A) to name a
side that differs in spread but not in centre (docs/compare.md). Writes the
.txt, .csv and, through clomp-stats comparison-json, the .json.

    compare-report STEM RECORDS HELPER [PRIMARY]
    compare-report --look STEM PAIRS HELPER PRIMARY LOOKS
    compare-report --list-figures RECORD
STEM: the comparison's files' stem (<out>/CLOMP_<host>_<ID>_compare); its
processes' records are STEM_<A|B><r>.json, pair r. RECORDS: the header records
compare_driver wrote (date, host, arguments, replicates (the pairs), order,
sequence, looks, side, setting; the format clomp-stats comparison-json reads).
PRIMARY: the KEY of the figure the overall answer is about [the project's
overhead, the catalogue's primary: static_omp_median_overhead_us]; a key the
tools printed before issue 43 (static_overhead) is read as its figure.
--look: after PAIRS pairs, is the primary question decided at the planned
LOOKS (N1,N2,...)? Exit 0 decided, 1 not yet, 2 PRIMARY is not a figure of
these processes (one line), 3 an error. Without LOOKS ("-") it only checks
PRIMARY. --list-figures: the KEYs a process's record gives, one a line."""
import os
import sys
from collections import Counter

from ..core import catalogue, compare_figures, given, safe_write, stats_helper
from .compare_sides import loaded_libraries, mixing_note, process_pairs, read_header, with_runtime, zip_sides
from .compare_words import dropped_text, interval_text, power_text, serial_text
from ..core.safe_io import for_terminal
from ..core.safe_text import lines_text   # every line: whatever it quotes from records or the command line

ALPHA = "0.05"
CSV_HEADER = ("figure,scale,n_a,n_b,median_a,median_b,estimate,ci95_low,ci95_high,ci_coverage,u,p,test,detected,verdict,"
              "key,role,pairs,shift,shift_ci_low,shift_ci_high,shift_ci_coverage,paired_p,paired_test,holm_adjusted_p,"
              "decided,detectable_80,sd_difference,pairs_needed_5pct,p_b_greater,brunner_munzel_p")


def csv_cell(text, always=False):
    text = str(text)
    if always or any(c in text for c in ',"\n\r'):
        return '"%s"' % text.replace('"', '""')
    return text


def unit_of(fig):
    return fig["unit"]


def constant_reason(fig):
    if fig["constant"]:
        return "constant by definition"
    if len(set(fig["a"] + fig["b"])) <= 1:
        return "the same value in every process"
    return None


def spread_differs(c, alpha):
    """A different spread without a different centre: the paired test flags the figure, but P(B > A) is
    not shown to differ from 1/2 (Brunner-Munzel) and one side's spread is at least twice the other's."""
    if c["bm_p"] is None or c["bm_p"] <= alpha or c["mad_a"] is None or c["mad_b"] is None:
        return False
    lo, hi = sorted((c["mad_a"], c["mad_b"]))
    return hi > 0 and (lo == 0 or hi / lo >= 2.0)


def sentence(fig, c, decided, alpha):
    """The verdict of one figure from its paired answer and whether it was decided (primary: p at its level
    with the interval excluding 0; others: Holm, with the interval at its level excluding 0)."""
    name, unit, n = fig["name"], unit_of(fig), c["n"]
    if decided and spread_differs(c, alpha):
        return ("B's %s differs from A's in spread (median absolute deviation %.3g against %.3g), not shown in "
                "centre (P(B>A) = %.2f, Brunner-Munzel p = %.2g)" % (name, c["mad_b"], c["mad_a"], c["p_b_greater"],
                                                                     c["bm_p"]))
    if decided:
        return "B's %s is %s %s %s A's (shift %s, p = %.2g)" % (
            name, c["estimate_text"].lstrip("-"), unit, "below" if c["estimate"] < 0 else "above",
            interval_text(c), c["p"])
    return "no difference detectable with %d pairs; %s" % (n, power_text(c, unit))


def parse_looks(text):
    return [int(x) for x in text.split(",")] if text and text not in ("-", "NA") else None


def primary_answer(helper, fig, looks):
    return stats_helper.paired(helper, fig["a"], fig["b"], ALPHA, 1, looks)


def sequential_lines(c, looks, n):
    if not looks:
        return []
    done = "decided at look %d" % c["look"] if c["decided"] else (
        "not decided by the last look" if n >= looks[-1] else "stopped before the last look, not decided")
    return ["  Group-sequential (--until): looks after %s pairs, each at Pocock's level p <= %.4g (simulated overall"
            % (",".join(str(x) for x in looks), c["nominal_alpha"]),
            "  rate of a false 'differs' %s against alpha %s); %s after %d pairs." % (
                "%.4f" % c["overall_alpha"] if c["overall_alpha"] is not None else "n/a", ALPHA, done, n)]


def nothing_compared(docs, n, left_out=""):
    """The verdict when no figure was measured by both sides: why, never "no difference" (0 figures compared
    cannot say that). Construct runs: how many levels each status took, over every process; else LEFT_OUT
    (undecided_reason: which processes gave no result, on which side), when they were measured but none was."""
    levels = [lv for side in "AB" for doc in docs[side] for lv in compare_figures.construct_levels_not_compared(doc)]
    statuses = Counter(status for _, status, _ in levels)
    if levels and set(statuses) == {"unresolved"}:
        why = next((problem for _, _, problem in levels if problem), "no reason given")
        return ["Verdict: nothing could be compared: every construct level of all %d processes was unresolved "
                "(%d levels; the first's reason: %s), so neither a difference nor its absence can be said." % (2 * n, len(levels), why)]
    text = "Verdict: nothing could be compared: no figure was measured by both sides"
    if left_out and not levels:
        text = "Verdict: nothing could be compared: no figure was a result in any pair (%s)" % left_out
    if levels:
        text += " (construct levels not measured, over all %d processes: %s)" % (
            2 * n, ", ".join("%d %s" % (k, s) for s, k in sorted(statuses.items())))
    return [text + ", so neither a difference nor its absence can be said."]


def undecided_reason(fig, n):
    """Which reason holds on which side when the primary figure FIG (process_pairs' entry, None: measured by
    neither side) is missing from pairs: 'side B: 6 of 6 processes busy; side A: 1 of 6 processes mean and
    median chunk apart' - each side's processes left out (issue 44's counts, compare_figures.missing_reasons)
    in given.py's one printing of it; '' when none was."""
    if fig is None:
        return ""
    return given.side_reason([("side %s" % side, given.Given(total=n, why=fig["dropped"][side])) for side in "AB"])


def report(stem, header_text, helper, primary=None):
    """(text, csv, json bytes) of the comparison."""
    primary = catalogue.load().canonical(primary) if primary else catalogue.load().primary().key
    single, sides, settings = read_header(header_text)
    n = int(single.get("replicates", "0"))
    looks = parse_looks(single.get("looks"))
    figures, docs = process_pairs(stem, n)
    for cells in sides:   # what each side's processes loaded: the side records' last cell
        if len(cells) == 8:
            cells.append(loaded_libraries(docs.get(cells[0], []), cells[5]))
    header_text = "".join("side\t%s\n" % "\t".join(cells) if line.startswith("side\t") and len(cells) == 9 else line + "\n"
                          for line, cells in zip_sides(header_text, sides))
    compared = [k for k, f in figures.items() if len(f["a"]) >= 1]
    constant = [k for k in compared if constant_reason(figures[k])]
    others = [k for k in compared if k not in constant and k != primary]
    m = len(others)
    sequence = single.get("sequence", "")
    pairs_text = " ".join(sequence[i:i + 2] for i in range(0, len(sequence), 2))
    out = ["clomp A/B comparison %s" % stem,
           "       Date: %s" % single.get("date", ""), "       Host: %s" % single.get("host", ""),
           "  Arguments: %s" % single.get("arguments", ""),
           "  Processes: %d pairs, A and B next to each other in random order within each pair: %s" % (n, pairs_text)]
    for cells in sides:
        label = cells[0]
        out += ["     Side %s: %s: %s" % (label, cells[1], cells[2]),
                "             runtime library: %s (%s)" % (cells[5], cells[6]),
                "             loaded by its processes: %s" % (cells[8] if len(cells) > 8 else "not known"),
                "             settings: %s" % (" ".join(settings.get(label, [])) or "none"),
                "             placement: %s" % cells[7]]
    out += mixing_note(docs, sides)
    answers, decided = {}, {}
    p_fig = figures.get(primary)
    out.append("")
    if p_fig is None or primary not in compared:
        why = undecided_reason(p_fig, n)
        overall = ("Overall: no answer on the primary figure, %s: %s." % (primary, (
            "it was not a result in any pair (%s; the processes' output is in .full)" % why) if why else
            "it was not measured here (name another with --primary)"))
        if p_fig is not None and dropped_text(p_fig, n):
            out.append("Primary figure: %s: no pair kept; %s." % (primary, dropped_text(p_fig, n).split("; ", 1)[1]))
    elif primary in constant:
        overall = "Overall: the primary figure, %s, is %s: name another with --primary." % (
            primary, constant_reason(p_fig))
    else:
        c = answers[primary] = primary_answer(helper, p_fig, looks)
        decided[primary] = bool(c["decided"])
        said = sentence(p_fig, c, decided[primary], c["nominal_alpha"])
        out += ["Primary figure: %s (%s), %d pairs. The exact Wilcoxon signed-rank test on the pair differences B - A"
                % (primary, p_fig["name"], c["n"]),
                "(%s) at alpha %s; shift: Hodges-Lehmann, with the interval of the shifts the test keeps (coverage %s)." % (
                    c["test"], ALPHA, "n/a" if c["ci_coverage"] is None else "%.4f" % c["ci_coverage"]),
                "  A median %.4g, B median %.4g; shift B - A %s%s; p = %.3g" % (
                    c["median_a"], c["median_b"], c["estimate_text"],
                    " (no interval: the test keeps every shift at this level)" if interval_text(c) is None
                    else " (%s)" % interval_text(c), c["p"]),
                "  P(B > A) = %s (Brunner-Munzel p = %s); spread (median absolute deviation) A %.3g, B %.3g" % (
                    "%.2f" % c["p_b_greater"] if c["p_b_greater"] is not None else "n/a",
                    "n/a" if c["bm_p"] is None else "%.2g" % c["bm_p"], c["mad_a"], c["mad_b"]),
                "  Power: %s." % power_text(c, unit_of(p_fig), looks)]
        if serial_text(c):
            out.append("  Serial correlation: %s." % serial_text(c))
        if dropped_text(p_fig, n):
            out.append("  Processes left out: %s." % dropped_text(p_fig, n))
        out += sequential_lines(c, looks, n)
        out.append("  Verdict: %s." % said)
        overall = "Overall (%s: %s, the primary figure): %s." % (primary, p_fig["name"], said)
    for k in others:
        answers[k] = stats_helper.paired(helper, figures[k]["a"], figures[k]["b"], ALPHA, m)
    holm = stats_helper.holm(helper, ALPHA, [answers[k]["p"] for k in others])
    holm_p = dict(zip(others, holm["adjusted"]))
    step_alpha = {}
    for k, r, level in zip(others, holm["rejected"], holm["interval_level"]):
        # Each figure's interval at the level clomp-stats holm gives it (its step's when rejected, else
        # Bonferroni's): one Holm, in C; "differs" only where that interval excludes 0 as well.
        step_alpha[k] = 1.0 - level
        if level != 1.0 - answers[k]["nominal_alpha"]:
            answers[k] = stats_helper.paired(helper, figures[k]["a"], figures[k]["b"], ALPHA, m, ci_level=level)
        decided[k] = bool(r) and bool(answers[k]["ci_excludes_0"])
    if m:   # (none when nothing else was compared: no sentence about an empty family)
        out += ["", "Other figures: the same paired test, judged together by Holm's procedure (family-wise %s over "
                "the %d" % (ALPHA, m),
                "figures); shifts with their interval at %s each (Bonferroni), one that differs at the level of the "
                "Holm step that rejected it; power at %s." % ("%.4g%%" % (100 * (1 - 0.05 / m)), "0.05/%d" % m)]
    tested = [what for what, there in (("the primary answer at %s" % ALPHA, primary in answers),
                                       ("the other figures' family under Holm at %s" % ALPHA, m > 0)) if there]
    if tested:
        out.append("Error rate: %s: a false 'differs' anywhere in this report has probability at most %.2g." % (
            " and ".join(tested), float(ALPHA) * len(tested)))
    if constant:
        out.append("Not counted (constant): %s." % ", ".join("%s (%s)" % (k, constant_reason(figures[k])) for k in constant))
    lost = [(k, dropped_text(figures[k], n)) for k in others if dropped_text(figures[k], n)]
    lost += [(k, "no pair kept; %s" % dropped_text(f, n).split("; ", 1)[1]) for k, f in figures.items()
             if k not in compared and not f["constant"] and dropped_text(f, n)]
    if lost:
        out.append("Processes left out (a pair is kept only when both its processes gave the figure):")
        out += ["  %s: %s" % (k, t) for k, t in lost]
    if compared:   # the table's heading only above rows
        out.append("%-28s %10s %10s  %-26s %8s %8s  %s" % ("figure", "A median", "B median", "shift B-A (interval)",
                                                            "p", "Holm p", "verdict"))
    csv_lines, rows = [CSV_HEADER], []
    records = [header_text.rstrip("\n"), "figures_compared\t%d" % (m + (1 if primary in answers else 0)),
               "primary\t%s" % primary]
    level = "%.6f" % (1 - 0.05 / max(1, len(compared)))     # the unpaired columns: Bonferroni, as before
    flagged = 0
    for key in compared:
        fig = figures[key]
        role = "primary" if key == primary and key in answers else "constant" if key in constant else "holm"
        c = answers.get(key)
        if c is not None:
            said = sentence(fig, c, decided[key], c["nominal_alpha"] if role == "primary" else step_alpha[key])
            flagged += decided[key]
        else:
            said = "not counted: %s" % constant_reason(fig)
        if role == "holm":
            shown = "%s%s" % (c["estimate_text"], "" if interval_text(c) is None else " (%s)" % interval_text(c))
            out.append("%-28s %10s %10s  %-26s %8.2g %8.2g  %s" % (key, "%.4g" % c["median_a"], "%.4g" % c["median_b"],
                                                                   shown, c["p"], holm_p[key], said))
        u = stats_helper.compare(helper, fig["a"], fig["b"], level)
        raw, praw = u["raw"].get, (c["raw"].get if c is not None else (lambda k: ""))
        csv_lines.append(",".join([csv_cell(fig["name"]), u["scale"], str(u["n_a"]), str(u["n_b"]), raw("median_a"),
                                   raw("median_b"), raw("estimate"), raw("ci_low"), raw("ci_high"), raw("ci_coverage"),
                                   raw("u"), raw("p"), u["test"], "1" if u["detected"] else "0", csv_cell(said, always=True),
                                   key, role, str(len(fig["a"])), praw("estimate"), praw("ci_low"), praw("ci_high"),
                                   praw("ci_coverage"), praw("p"), praw("test"),
                                   repr(holm_p[key]) if key in holm_p else "", "1" if decided.get(key) else "0",
                                   praw("detectable_80"), praw("sd_difference"), praw("pairs_needed_5pct"), praw("p_b_greater"), praw("bm_p")]))
        ci_level = "" if c is None or c["ci_coverage"] is None else (
            repr(1 - c["nominal_alpha"]) if role == "primary" else repr(1 - step_alpha[key]))
        for side in "AB":
            for why, k in sorted(fig["dropped"][side].items()):
                records.append("dropped\t%s\t%s\t%d\t%s" % (key, side, k, why))
        records.append("figure\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s" % (
            key, role, 1 if decided.get(key) else 0, repr(holm_p[key]) if key in holm_p else "NA", ci_level or "NA",
            fig["name"], ",".join(repr(v) for v in fig["a"]), ",".join(repr(v) for v in fig["b"]), said))
        rows.append((key, c, said))
    for key, fig in figures.items():
        if key not in compared:
            for side in "AB":
                for why, k in sorted(fig["dropped"][side].items()):
                    records.append("dropped\t%s\t%s\t%d\t%s" % (key, side, k, why))
    out.append("")
    if not compared:
        # No figure measured by both sides (every construct level unresolved, say): why, never "no difference".
        out += nothing_compared(docs, n, undecided_reason(p_fig if p_fig is not None else next(
            (f for f in figures.values() if dropped_text(f, n)), None), n))
        if not undecided_reason(p_fig, n) or any(compare_figures.construct_levels_not_compared(d)
                                                  for side in "AB" for d in docs[side]):
            # else (a mesh run's figures left out by given.py's rule) the primary's line above says why, on which side
            overall = "Overall: no answer: nothing could be compared (above)."
    elif not answers:
        # Every figure both sides gave is constant by definition: none was tested, so none can be said equal.
        out.append("Verdict: nothing was tested: every figure both sides gave is constant by definition (%s)."
                   % ", ".join(constant))
        overall = "Overall: no answer: nothing was tested (above)."
    elif flagged == 0:
        out.append("Verdict: no difference detectable with %d pairs in any figure." % n)
    else:
        out.append("Verdict: %d of %d figures differ (the primary at alpha %s, the others under Holm); no difference is "
                   "detectable in the rest." % (flagged, m + (1 if primary in answers else 0), ALPHA))
    if primary in answers and not decided.get(primary):
        why = undecided_reason(p_fig, n)   # which reason holds, on which side (issue 43, item 6)
        if why:
            overall = overall[:-1] + "; not a result in every process: %s." % why
    out.append(overall)
    js = stats_helper.comparison_json(helper, level, "\n".join(records) + "\n")
    return lines_text(out), lines_text(csv_lines), js


def look(stem, pairs, helper, primary, looks_text):
    """--look: 0 decided, 1 not yet, 2 PRIMARY is no (counted) figure of these processes."""
    primary = catalogue.load().canonical(primary)
    figures, docs = process_pairs(stem, pairs)
    possible = set()
    for doc in docs["A"] + docs["B"]:
        possible |= compare_figures.possible_keys(doc)
    if primary not in possible:
        sys.stderr.write("run_clomp.sh: --primary: '%s' is not a figure of these processes (have: %s)\n"
                         % (for_terminal(primary), for_terminal(" ".join(sorted(possible)))))
        return 2
    fig = figures.get(primary)
    if fig is None or not fig["a"]:
        if parse_looks(looks_text):
            sys.stderr.write("run_clomp.sh: --until: look after %d pairs: %s was not a result in any pair yet: not yet\n"
                             % (pairs, primary))
            return 1
        return 0
    if fig["constant"]:
        sys.stderr.write("run_clomp.sh: --primary: '%s' is constant by definition (never counted): name another\n"
                         % for_terminal(primary))
        return 2
    looks = parse_looks(looks_text)
    if not looks:
        return 0
    c = primary_answer(helper, fig, looks)
    sys.stderr.write("run_clomp.sh: --until: look %d after %d pairs: %s p = %.3g against %.4g: %s\n" % (
        c["look"], pairs, primary, c["p"], c["nominal_alpha"], "decided" if c["decided"] else "not yet"))
    return 0 if c["decided"] else 1


def list_figures(path):
    doc = compare_figures.read_record(path)
    for f in compare_figures.figures(doc, results_only=False):   # what it holds, a result on this machine or not
        sys.stdout.write("%-36s %s%s\n" % (f.key, f.name, "  (constant by definition: not counted)" if f.constant else ""))
    return 0


def main(argv):
    try:
        if argv[:1] == ["--list-figures"] and len(argv) == 2:
            return list_figures(argv[1])
        if argv[:1] == ["--look"] and len(argv) == 6:
            return look(argv[1], int(argv[2]), argv[3], argv[4], argv[5])
    except (ValueError, stats_helper.StatsError, catalogue.CatalogueError) as e:
        sys.stderr.write("run_clomp.sh: --compare: %s\n" % for_terminal(str(e)))
        return 3
    if len(argv) not in (3, 4):
        sys.stderr.write("usage: compare-report STEM RECORDS HELPER [PRIMARY]\n")
        return 2
    stem, records_path, helper = argv[:3]
    primary = argv[3] if len(argv) == 4 and argv[3] else None
    try:
        with open(records_path, encoding="utf-8") as f:
            header = with_runtime(f.read())
        text, csv_text, js = report(stem, header, helper, primary)
        directory, name = stem.rsplit("/", 1) if "/" in stem else (".", stem)
        fd = safe_write.open_dir(directory)
        try:   # the three together: an interrupt leaves all three new or all three as they were
            safe_write.replace_files(fd, [(name + suffix, data, os.path.join(directory, name + suffix)) for suffix, data in
                                          ((".txt", text.encode("utf-8")), (".csv", csv_text.encode("utf-8")), (".json", js))])
        finally:
            os.close(fd)
    except (ValueError, stats_helper.StatsError, catalogue.CatalogueError, safe_write.UnsafeTarget, OSError) as e:
        sys.stderr.write("run_clomp.sh: --compare: %s\n" % for_terminal(str(e)))
        return 3
    sys.stdout.write(text)
    print("Files: %s.txt %s.csv %s.json %s.full %s.env" % (stem, stem, stem, stem, stem[:-len("_compare")]))
    return 0
