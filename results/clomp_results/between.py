"""Between processes (``clomp-results between SUITE``): the key inputs that
ran as several processes (--replicates), each figure summarised over those
processes by clomp-stats (the tested C statistics, asked for JSON and read
by name): the median, min .. max, and the 95% interval of the median
(order statistics; none below 6 processes, when [min, max] and how often it
holds the median are given). Written to <base>_key.processes.csv and .txt
and printed, as suite/between_processes.sh did.

The figures: FIGURES (the key summary's columns users check, read from the
.summary rows tables.py renders from the records), then one per LLNL target
the records judge (their llnl_targets table: no target is named here).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Dict, List, Optional, Tuple

from . import loader, safe_io, tables
from .records import Suite

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
FIGURES = [("omp_barrier_us_per_loop", "OMP Barrier us/Loop"), ("bestcase_omp_speedup", "Bestcase OMP speedup"),
           ("static_omp_speedup", "Static OMP speedup"), ("static_omp_efficacy_percent", "Static OMP efficacy %"),
           ("static_omp_overhead_us", "Static OMP overhead us/Loop"), ("dynamic_omp_overhead_us", "Dynamic OMP overhead us/Loop"),
           ("manual_omp_overhead_us", "Manual OMP overhead us/Loop"), ("nested_omp_overhead_us", "Nested OMP overhead us/Loop"),
           ("omp_parallel_us_per_loop", "OMP Parallel us/Loop"), ("user_cpu_seconds", "user CPU seconds"),
           ("system_cpu_seconds", "system CPU seconds")]
CSV_HEADER = ("input,numa,figure,processes,runs,median,min,max,ci95_low,ci95_high,ci_coverage,range_coverage,"
              "prediction_low,prediction_high,prediction_coverage")
INTRO = """Between processes: the key runs that ran as several processes (--replicates).
Each figure: the median over processes, min .. max, the 95% interval of that median (order
statistics over processes; below 6 processes none exists, and [min, max] with how often it holds
the median is given), and where the NEXT process will land: a prediction interval (order
statistics j and n+1-j hold a new process with probability (n+1-2j)/(n+1): 95% needs 39
processes; with fewer, [min, max] and how often it holds the next one). The interval of the
median says where the typical process lies, not what the next run will give."""


def stats_helper() -> str:
    helper = os.environ.get("CLOMP_STATS") or os.path.join(TOP, "build", "clomp-stats")
    if not os.access(helper, os.X_OK):
        subprocess.run(["make", "-C", TOP, "--no-print-directory", "-s", "clomp-stats"], stdout=sys.stderr, check=False)
        helper = os.path.join(TOP, "build", "clomp-stats")
    return helper


def summarise(helper: str, values: List[str]) -> Optional[Dict[str, Optional[str]]]:
    """clomp-stats summary --json of the values, every member as its text (null: None)."""
    done = subprocess.run([helper, "summary", "--json"] + values, stdout=subprocess.PIPE, check=False)
    if done.returncode != 0:
        return None
    return json.loads(done.stdout.decode(), parse_float=str, parse_int=str)


def key_rows(suite: Suite) -> List[Tuple[str, List[str], Dict[str, str], object]]:
    """(input key, summary columns, summary row by name, record) of every OK key run, in plan order."""
    facts = tables.driver_facts(suite)
    pilot = set(suite.auto_pilot_runs)   # --replicates auto: the interval is stage 2's alone
    out = []
    for p in suite.plan:
        if p.set_name != "key" or facts.get(p.index, [""])[0] != "OK" or p.index in pilot:
            continue
        rec = suite.record(p.index)
        status, rc, seconds = facts[p.index]
        cols = tables.summary_columns(rec)
        row = dict(zip(cols, tables.summary_row(p, rec, status, rc, seconds)))
        out.append(("%s|%s" % (p.args_text, row["numa"]), cols, row, rec))
    return out


def _marked_invalid(rec, key: Optional[str]) -> bool:
    """Whether the run marked measurement KEY not a result (issue 35: its figures are left out)."""
    m = rec.measurement(key) if (rec is not None and key) else None
    return m is not None and m.doc.get("valid") is False


def _measurement_of_column(rec) -> Dict[str, str]:
    """.summary figure column -> the measurement key it comes from."""
    out = {"omp_parallel_us_per_loop": tables.FORK_JOIN}
    for key, prefix in tables.summary_measurements(rec) + tables.appended_measurements(rec):
        for figure, _ in tables.RUNTIME_FIGURES:
            out["%s_%s" % (prefix, figure)] = key
    return out


def figures_of(rows) -> List[Tuple[str, str, List[str]]]:
    """(figure column, label, values) of one input's processes; a process whose run marked the
    measurement not a result gives no value (issue 35), as in the buyer's table."""
    out = []
    of_column = [_measurement_of_column(rec) for _, _, _, rec in rows]   # once per process, not per figure
    for col, label in FIGURES:
        out.append((col, label, [r[col] for (_, _, r, rec), columns in zip(rows, of_column) if r.get(col, "")
                                 and not _marked_invalid(rec, columns.get(col))]))
    targets = []
    for _, _, _, rec in rows:
        for t in (rec.llnl_targets if rec is not None else []):
            if t.not_judged is None and t.measurement not in [m for m, _ in targets]:
                m = rec.measurement(t.measurement)
                targets.append((t.measurement, (m.name if m is not None else t.measurement) + " cycles (LLNL)"))
    for key, label in targets:
        values = []
        for _, _, _, rec in rows:
            for t in (rec.llnl_targets if rec is not None else []):
                if t.measurement == key and t.not_judged is None and t.cycles is not None \
                        and not _marked_invalid(rec, key):
                    values.append(tables.number_text(t.cycles))
        out.append((key + "_llnl_target_cycles", label, values))
    return out


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
        runs = " ".join(r["run"] for _, _, r, _ in rows)
        txt += ["", "  %s (numa %s): %d processes, runs %s" % (inputs, numa, len(rows), runs)]
        if suite.auto_pilot_runs and set(r["run"] for _, _, r, _ in rows) <= set(map(str, suite.env.auto_stage2_runs)):
            txt.append("    (--replicates auto: stage 2's fresh processes alone; the pilot's %d, runs %s, planned how many "
                       "and are left out)" % (len(suite.auto_pilot_runs), " ".join(map(str, suite.auto_pilot_runs))))
        txt.append("    %-30s %10s  %-17s  %-26s  %s" % ("figure", "median", "min .. max", "95% interval of the median",
                                                        "next process (prediction)"))
        for col, label, values in figures_of(rows):
            if not values:
                continue
            s = summarise(helper, values)
            if s is None:
                continue
            cells = [s.get(k) or "" for k in ("median", "min", "max", "ci_low", "ci_high", "ci_coverage", "range_coverage",
                                               "prediction_low", "prediction_high", "prediction_coverage")]
            csv_lines.append(",".join([inputs, numa, col, s["n"], runs] + cells))
            span = "%s .. %s" % (s["min_text"], s["max_text"])
            if s.get("ci_low") is not None:
                median_ci = "%s .. %s" % (s["ci_low_text"], s["ci_high_text"])
            else:
                median_ci = "none from %d (min .. max: %.0f%%)" % (int(s["n"]), float(s["range_coverage"] or "nan") * 100)
            if s.get("prediction_low") is None:
                nxt = "none from 1 process"
            else:
                nxt = "%s .. %s holds it %.0f%%%s" % (
                    s["prediction_low_text"], s["prediction_high_text"], float(s["prediction_coverage"]) * 100,
                    "" if float(s["prediction_coverage"]) >= 0.95 else " (95%% needs %s processes)" % s["processes_for_prediction"])
            txt.append("    %-30s %10s  %-17s  %-26s  %s" % (label, s["median_text"], span, median_ci, nxt))
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
    csv_lines, txt = report(suite, stats_helper())
    if not csv_lines:
        return 0
    if len(argv) == 1:
        base = os.path.join(os.path.dirname(os.path.abspath(argv[0])) if not os.path.isdir(argv[0]) else argv[0], suite.name)
        for suffix, lines in (("_key.processes.csv", csv_lines), ("_key.processes.txt", txt)):
            with open(base + suffix, "w") as f:
                f.write("\n".join(lines) + "\n")
    print("\n".join(txt))
    return 0
