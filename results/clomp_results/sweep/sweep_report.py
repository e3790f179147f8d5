"""The report of `run_clomp.sh --sweep` (sweep_driver.py runs the processes;
this reads their JSON records by member name): per combination of settings
the fork/join, barrier, parallel-for and Static OMP overhead figures and the
CPU time burned per wall second, each summarised between processes by
clomp-stats (the median, min .. max and the 95% interval of the median:
order statistics, none below 6 processes). Writes STEM.txt, .csv, .json and
.html (one chart per figure, drawn by gnuplot through gnuplot.py) with
safe_write; prints the text (docs/settings.md).

    sweep-report [--charts | --no-charts] STEM RECORDS HELPER
STEM: the sweep's files' stem (<out>/CLOMP_<host>_<ID>_sweep); process r of
combination c wrote STEM_c<c>r<r>.json. RECORDS: the header sweep_driver wrote
(tab-separated: date, host, arguments, replicates, order, sequence,
load_before, load_after, side, setting, runtime, note, combination, failed).
"""
from __future__ import annotations

import json
import os
import sys
from collections import OrderedDict
from typing import Dict, List

from ..core import catalogue, compare_figures, gnuplot, runtime_library, safe_write, stats_helper
from ..core.between import summarise
from ..core.safe_io import for_terminal
from ..core.safe_text import lines_text   # every line: whatever it quotes from records or the command line
from ..core.view import num

CSV_HEADER = "combination,settings,figure,processes,median,min,max,ci95_low,ci95_high,ci_coverage,range_coverage"


def figures():
    """(key, label, unit, what it measures and how) of every figure the sweep reports, in order: the
    catalogue's sweep set (clomp --list-figures)."""
    return catalogue.described("sweep")


def read_header(text: str):
    """(single facts, side cells, side settings, notes, [(index, [VAR=VALUE])], {(c, r): rc})."""
    single, side, settings, notes, combos, failed = {}, [], [], [], [], {}
    for line in text.splitlines():
        cells = line.split("\t")
        tag = cells[0]
        if tag == "side":
            side = cells[1:]
        elif tag == "setting" and len(cells) >= 3:
            settings.append("%s=%s" % (cells[1], "\t".join(cells[2:])))
        elif tag == "note":
            notes.append("\t".join(cells[1:]))
        elif tag == "combination" and len(cells) >= 2 and cells[1].isdigit():
            combos.append((int(cells[1]), cells[2:]))
        elif tag == "failed" and len(cells) >= 4:
            failed[(cells[1], cells[2])] = cells[3]
        elif tag == "runtime":
            single["runtime"] = "%s (%s)" % (cells[1] if len(cells) > 1 else "unknown", cells[2] if len(cells) > 2 else "unknown")
        elif len(cells) >= 2:
            single[tag] = "\t".join(cells[1:])
    if len(side) == 6:   # the side's placement, as --compare records it (runtime_library.placement)
        side.append(runtime_library.placement(settings, os.environ))
    return single, side, settings, notes, combos, failed


def measurement(doc, key: str):
    for m in doc.get("measurements") or []:
        if isinstance(m, dict) and m.get("key") == key:
            return m
    return None


INVALID = "not valid"   # a figure its record marks not a result (valid: false)


def figures_of(doc) -> Dict[str, object]:
    """One process's figures: a number, None (not measured), or INVALID where the record marks the
    measurement not valid (valid: false; docs/statistics.md, "Not a result")."""
    out: Dict[str, object] = {}
    for f in catalogue.load().in_set("sweep"):
        if not f.get("measurement"):   # the process's own (CPU/wall)
            out[f.key] = num(catalogue.value(doc, f["json"]))
            continue
        m = measurement(doc, f["measurement"])
        out[f.key] = None if m is None else INVALID if m.get("valid") is False else num(catalogue.value(m, f["json"]))
    return out


def collect(stem: str, combos, n: int, failed=()):
    """{combination: {figure: [values]}}, {combination: [problems]} and {combination: {figure: processes
    whose record marks it not valid}} over the processes' records; a process that FAILED (FAILED:
    {(combination, process) as text: exit status}) gives nothing."""
    values, problems = OrderedDict(), OrderedDict()
    invalid = OrderedDict()
    figs = figures()
    for c, _ in combos:
        values[c] = OrderedDict((f[0], []) for f in figs)
        invalid[c] = OrderedDict((f[0], 0) for f in figs)
        problems[c] = []
        for r in range(1, n + 1):
            if (str(c), str(r)) in failed:
                continue
            path = "%s_c%dr%d.json" % (stem, c, r)
            try:
                doc = compare_figures.read_record(path)
            except ValueError as e:
                problems[c].append("process %d: %s" % (r, e))
                continue
            for fig, v in figures_of(doc).items():
                if v is INVALID:
                    invalid[c][fig] += 1
                elif v is not None:
                    values[c][fig].append(v)
    return values, problems, invalid


def settings_text(pairs: List[str]) -> str:
    return " ".join(compare_figures.plain(p) for p in pairs) or "(none)"


def summaries(helper: str, values):
    """{combination: {figure: clomp-stats summary (texts by name) or None}}."""
    out = OrderedDict()
    for c, figs in values.items():
        out[c] = OrderedDict()
        for fig, vs in figs.items():
            out[c][fig] = summarise(helper, [repr(v) for v in vs]) if vs else None
            if vs and out[c][fig] is None:
                raise stats_helper.StatsError("clomp-stats summary refused combination %d's %s values" % (c, fig))
    return out


def cell_text(s, invalid=0) -> str:
    """A figure's cell; INVALID processes (their records mark it not a result) are counted in it."""
    if s is None:
        return "not valid in %d" % invalid if invalid else "no figure"
    if s.get("ci_low") is not None:
        text = "%s [%s..%s]" % (s["median_text"], s["ci_low_text"], s["ci_high_text"])
    else:
        text = "%s (%s..%s)" % (s["median_text"], s["min_text"], s["max_text"])
    return text + ("; %d not valid" % invalid if invalid else "")


def csv_cell(text: str) -> str:
    text = str(text)
    return '"%s"' % text.replace('"', '""') if any(c in text for c in ',"\n\r') else text


def report(stem: str, header: str, helper: str):
    """(text, csv, json text, the report's facts for the HTML page)."""
    single, side, side_settings, notes, combos, failed = read_header(header)
    n = int(single.get("replicates", "0") or 0)
    values, problems, invalid = collect(stem, combos, n, failed)
    stats = summaries(helper, values)
    figs = figures()
    labels = OrderedDict((c, settings_text(pairs)) for c, pairs in combos)
    width = max([len("settings")] + [len(t) for t in labels.values()])
    out = ["clomp runtime settings sweep %s" % os.path.basename(stem),
           "       Date: %s" % single.get("date", ""),
           "       Host: %s" % single.get("host", ""),
           "       Load: %s before, %s after (1, 5, 15 min; run queue; last pid)" % (
               single.get("load_before", "not recorded"), single.get("load_after", "not recorded")),
           "  Arguments: %s" % single.get("arguments", ""),
           "       Side: %s: %s" % tuple((side + ["", ""])[:2]),
           "    Runtime: %s; library %s (%s)" % (single.get("runtime", "unknown"), (side + [""] * 6)[4], (side + [""] * 6)[5]),
           "   Settings: the side's own: %s; then each combination's" % (" ".join(side_settings) or "none"),
           "  Placement: %s" % ((side + [""] * 7)[6] or "not recorded"),
           "  Processes: %d per combination, %d combinations, in the order %s" % (
               n, len(combos), single.get("order", "")), ]
    out += ["       Note: %s" % t for t in notes]
    out += ["", "Each figure: the median over processes and, in [ ], the 95% interval of that median between processes",
            "(order statistics, clomp-stats); fewer than 6 processes give none, and ( ) holds min..max instead.",
            "'N not valid': N processes whose record marks the figure not a result (a busy machine, a run whose",
            "chunks disagree: docs/statistics.md) are left out of it.",
            "CPU/wall: the process's user + system CPU seconds over its wall seconds (getrusage): the cores it kept",
            "busy; a runtime whose idle threads spin burns up to its team's cores between loops.", ""]
    cells = OrderedDict((c, [cell_text(stats[c][f[0]], invalid[c][f[0]]) for f in figs]) for c in labels)
    heads = [f[1] for f in figs]
    widths = [max([len(heads[i])] + [len(row[i]) for row in cells.values()]) for i in range(len(figs))]
    out.append("%3s  %-*s  %s" % ("#", width, "settings", "  ".join("%-*s" % (w, h) for w, h in zip(widths, heads))))
    csv_lines = [CSV_HEADER]
    doc_combos = []
    for c, label in labels.items():
        out.append(("%3d  %-*s  %s" % (c, width, label, "  ".join("%-*s" % (w, t) for w, t in zip(widths, cells[c])))).rstrip())
        entry = OrderedDict([("combination", c), ("settings", OrderedDict(p.split("=", 1) for p in dict(combos)[c])),
                             ("processes", n), ("failed", sorted(int(r) for (fc, r) in failed if fc == str(c))),
                             ("problems", problems[c]), ("figures", OrderedDict()),
                             ("not_valid", OrderedDict((f[0], invalid[c][f[0]]) for f in figs))])
        for fig, name, unit, _ in figs:
            s = stats[c][fig]
            vs = values[c][fig]
            if s is not None:
                csv_lines.append(",".join([str(c), csv_cell(label), fig] + [s.get(k) or "" for k in (
                    "n", "median", "min", "max", "ci_low", "ci_high", "ci_coverage", "range_coverage")]))
            entry["figures"][fig] = None if s is None else OrderedDict([
                ("n", int(s["n"])), ("median", float(s["median"])), ("min", float(s["min"])), ("max", float(s["max"])),
                ("ci95", None if s.get("ci_low") is None else [float(s["ci_low"]), float(s["ci_high"])]),
                ("ci_coverage", None if s.get("ci_coverage") is None else float(s["ci_coverage"])),
                ("range_coverage", None if s.get("range_coverage") is None else float(s["range_coverage"])),
                ("values", vs)])
        doc_combos.append(entry)
    for (c, r), rc in sorted(failed.items()):
        out.append("Process %s of combination %s FAILED (exit status %s): its figures are left out (.full)." % (r, c, rc))
    for c, said in problems.items():
        for p in said:
            out.append("Combination %d: %s" % (c, for_terminal(p)))
    doc = OrderedDict([
        ("schema", "clomp-sweep"), ("schema_version", 1), ("date", single.get("date", "")), ("host", single.get("host", "")),
        ("load_before", single.get("load_before", "")), ("load_after", single.get("load_after", "")),
        ("arguments", single.get("arguments", "")), ("replicates", n), ("order", single.get("order", "")),
        ("sequence", [int(x) for x in single.get("sequence", "").split() if x.isdigit()]),
        ("side", OrderedDict(zip(("spec", "what", "binary", "ld_library_path_first", "runtime_library", "runtime_version",
                                  "placement"), side))),
        ("side_settings", OrderedDict(p.split("=", 1) for p in side_settings)), ("runtime", single.get("runtime", "")),
        ("notes", notes), ("interval", "95% order-statistic interval of the median between processes (clomp-stats summary)"),
        ("figures", [OrderedDict([("key", f[0]), ("name", f[1]), ("unit", f[2]), ("definition", f[3])]) for f in figs]),
        ("combinations", doc_combos)])
    facts = {"single": single, "side": side, "notes": notes, "labels": labels, "stats": stats, "n": n, "failed": failed,
             "invalid": invalid}
    return lines_text(out), lines_text(csv_lines), json.dumps(doc, indent=1) + "\n", facts


def main(argv: List[str]) -> int:
    want = "auto"
    if argv and argv[0] in ("--charts", "--no-charts"):
        want, argv = ("yes" if argv[0] == "--charts" else "no"), argv[1:]
    if len(argv) != 3:
        sys.stderr.write("usage: sweep-report [--charts | --no-charts] STEM RECORDS HELPER\n")
        return 2
    stem, records_path, helper = argv
    from . import sweep_page
    try:
        with open(records_path, encoding="utf-8") as f:
            header = f.read()
        text, csv_text, js, facts = report(stem, header, helper)
        directory, name = os.path.split(stem)
        directory = directory or "."
        safe_write.write_text(directory, name + ".txt", text)
        safe_write.write_text(directory, name + ".csv", csv_text)
        safe_write.write_text(directory, name + ".json", js)
        drawn, why = {}, "charts were not asked for (--no-plots)"
        if want != "no" and gnuplot.available() is None:
            why = "gnuplot is not installed (apt-get install gnuplot-nox)"
        elif want != "no":
            drawn, errors = sweep_page.draw(facts, os.path.join(directory, name + "_charts"))
            why = "; ".join(errors)
            for message in errors:
                sys.stderr.write("run_clomp.sh: --sweep: %s\n" % for_terminal(message))
        safe_write.write_text(directory, name + ".html", sweep_page.page(name, facts, drawn, why))
    except (ValueError, stats_helper.StatsError, safe_write.UnsafeTarget, OSError) as e:
        sys.stderr.write("run_clomp.sh: --sweep: %s\n" % for_terminal(str(e)))
        return 3
    sys.stdout.write(text)
    return 0
