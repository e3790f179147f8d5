"""Between processes (``clomp-results between SUITE``): the key inputs that
ran as several processes (--replicates), each figure summarised over those
processes by clomp-stats (the tested C statistics, asked for JSON and read
by name): the median, min .. max, and the 95% interval of the median
(order statistics; none below 6 processes, when [min, max] and how often it
holds the median are given). Written to <base>_key.processes.csv and .txt
and printed: the suite's closing lines.

The figures: the catalogue's key and headline sets (clomp --list-figures:
1.2's Runtime figures users check, the project's overhead, the headline's
median-chunk figures and the LLNL targets' cycles), read from each run's
record by the catalogue's member. A figure comes only from the processes
that gave it as a result (given.py: not failed, not busy, not invalid), and
a median only from 3 or more of them and at least half: else "no result (1
of 3 processes gave one: 2 busy)".
"""
from __future__ import annotations

import json
import os
import sys
from typing import Dict, List, Optional, Tuple

from . import catalogue, given, loader, safe_io, tables
from . import stats_helper as stats_helper_module
from .records import Suite

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))))
CSV_HEADER = ("input,numa,figure,processes,runs,median,min,max,ci95_low,ci95_high,ci_coverage,range_coverage,"
              "prediction_low,prediction_high,prediction_coverage,of,busy,invalid,failed,not_measured,said")
INTRO = """Between processes: the key runs that ran as several processes (--replicates).
Each figure: how many processes gave it as a result (not failed, not on a busy machine, not
marked invalid), the median over them, min .. max, the 95% interval of that median (order
statistics over processes; below 6 processes none exists, and [min, max] with how often it holds
the median is given), and where the NEXT process will land: a prediction interval (order
statistics j and n+1-j hold a new process with probability (n+1-2j)/(n+1): 95% needs 39
processes; with fewer, [min, max] and how often it holds the next one). No median from fewer
than 3 processes, or fewer than half: "no result". The interval of the median says where the
typical process lies, not what the next run will give."""


stats_helper = stats_helper_module.find   # where clomp-stats is found or built: one place (stats_helper.py)


def summarise(helper: str, values: List[str]) -> Optional[Dict[str, Optional[str]]]:
    """clomp-stats summary --json of the values, every member as its text (null: None); None when refused."""
    try:
        answer = stats_helper_module.run(helper, ["summary", "--json"] + values)
    except stats_helper_module.StatsError:
        return None
    return json.loads(answer.decode(), parse_float=str, parse_int=str)


def key_rows(suite: Suite) -> List[Tuple[str, str, object, bool]]:
    """(input key, run, record or None, run ended OK) of every key run done (OK or not), in plan order."""
    facts = tables.driver_facts(suite)
    pilot = set(suite.auto_pilot_runs)   # --replicates auto: the interval is stage 2's alone
    out = []
    for p in suite.plan:
        if p.set_name != "key" or p.index not in facts or p.index in pilot:
            continue
        ok = facts[p.index][0] == "OK"
        rec = suite.record(p.index)
        out.append(("%s|%s" % (p.args_text, p.policy or "first-touch"), str(p.index), rec, ok))
    return out


def figures():
    """The catalogue figures of the table: its key and headline sets, in catalogue order."""
    return [f for f in catalogue.load().figures if {"key", "headline"} & set(f.get("sets") or [])]


def figures_of(rows) -> List[Tuple[object, given.Given]]:
    """(catalogue figure, Given) of one input's processes (given.py's rule)."""
    records = [(rec.doc if rec is not None else None, ok) for _, _, rec, ok in rows]
    return [(f, given.over(records, f)) for f in figures()]


def percent(value) -> str:
    v = None
    try:
        v = float(value)
    except (TypeError, ValueError):
        pass
    return "%.0f%%" % (v * 100) if v is not None and v == v else "no coverage"


def report(suite: Suite, helper: str) -> Tuple[List[str], List[str]]:
    """(.processes.csv lines, .processes.txt lines); both empty when no input ran twice."""
    groups: Dict[str, list] = {}
    order: List[str] = []
    for item in key_rows(suite):
        groups.setdefault(item[0], []).append(item)
        if len(groups[item[0]]) == 2:
            order.append(item[0])
    if not order:
        return [], []
    csv_lines = [CSV_HEADER]
    txt = INTRO.splitlines()
    for key in order:
        rows = groups[key]
        inputs, numa = key.split("|", 1)
        runs = " ".join(r for _, r, _, _ in rows)
        txt += ["", "  %s (numa %s): %d processes, runs %s" % (inputs, numa, len(rows), runs)]
        if suite.auto_pilot_runs and set(r for _, r, _, _ in rows) <= set(map(str, suite.env.auto_stage2_runs)):
            txt.append("    (--replicates auto: stage 2's fresh processes alone; the pilot's %d, runs %s, planned how many "
                       "and are left out)" % (len(suite.auto_pilot_runs), " ".join(map(str, suite.auto_pilot_runs))))
        txt.append("    %-44s %-22s %10s  %-17s  %-26s  %s" % ("figure", "processes", "median", "min .. max",
                                                              "95% interval of the median", "next process (prediction)"))
        for fig, g in figures_of(rows):
            if g.k == 0 and not g.why.get(given.BUSY) and not g.why.get(given.INVALID) and not g.why.get(given.FAILED):
                continue   # measured by none of them: not this input's figure
            counts = [str(g.total)] + [str(g.why.get(r, 0)) for r in given.REASONS]
            if not g.summarised:
                said = g.no_result_text()
                csv_lines.append(",".join([inputs, numa, fig.key, str(g.k), runs] + [""] * 10 + counts
                                          + [tables.text_cell(said)]))
                txt.append("    %-44s %s" % (fig.label, said))
                continue
            s = summarise(helper, [tables.number_text(v) for v in g.values])
            if s is None:
                continue
            said = "median over %s" % g.count_text()
            cells = [s.get(k) or "" for k in ("median", "min", "max", "ci_low", "ci_high", "ci_coverage", "range_coverage",
                                               "prediction_low", "prediction_high", "prediction_coverage")]
            csv_lines.append(",".join([inputs, numa, fig.key, s["n"], runs] + cells + counts + [tables.text_cell(said)]))
            span = "%s .. %s" % (s["min_text"], s["max_text"])
            if s.get("ci_low") is not None:
                median_ci = "%s .. %s" % (s["ci_low_text"], s["ci_high_text"])
            else:
                median_ci = "none from %d (min .. max: %s)" % (int(s["n"]), percent(s.get("range_coverage")))
            if s.get("prediction_low") is None:
                nxt = "none from %s processes" % s["n"]
            else:
                nxt = "%s .. %s holds it %s%s" % (
                    s["prediction_low_text"], s["prediction_high_text"], percent(s["prediction_coverage"]),
                    "" if float(s["prediction_coverage"]) >= 0.95 else " (95%% needs %s processes)" % s["processes_for_prediction"])
            txt.append("    %-44s %-22s %10s  %-17s  %-26s  %s" % (fig.label, g.count_text(), s["median_text"], span,
                                                                  median_ci, nxt))
    return csv_lines, txt


def main(argv: List[str]) -> int:
    if len(argv) not in (1, 2) or (len(argv) == 2 and argv[1] != "--print"):
        print("usage: clomp-results between BASE|DIR [--print]  (writes <base>_key.processes.csv and .txt)", file=sys.stderr)
        return 2
    try:
        suite = loader.load_suite(argv[0])
    except (loader.SuiteError, safe_io.NotABundle, safe_io.Refused) as e:
        print("clomp-results between: %s" % e, file=sys.stderr)
        return 2
    try:
        csv_lines, txt = report(suite, stats_helper())
    except catalogue.CatalogueError as e:
        print("clomp-results between: %s" % e, file=sys.stderr)
        return 2
    if not csv_lines:
        return 0
    if len(argv) == 1:
        base = os.path.join(os.path.dirname(os.path.abspath(argv[0])) if not os.path.isdir(argv[0]) else argv[0], suite.name)
        for suffix, lines in (("_key.processes.csv", csv_lines), ("_key.processes.txt", txt)):
            with open(base + suffix, "w") as f:
                f.write("\n".join(lines) + "\n")
    print("\n".join(txt))
    return 0
