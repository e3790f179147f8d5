"""The report of `run_clomp.sh --grain` (grain_driver runs the processes;
grain_plan chose them): the answer per team size first, then every cell,
then the best team per loop size. Writes STEM.txt, .csv, .json and .html
(grain_page: a section with the chart of speed-up against loop size) with
safe_write, and prints the text (docs/grain.md).

    grain-report STEM HELPER

Every figure's key, label and unit is the catalogue's grain set (clomp
--list-figures), found by the JSON member it is written to."""
from __future__ import annotations

import json
import os
import sys
import time
from collections import OrderedDict
from typing import Dict, List

from ..core import catalogue, safe_write, stats_helper
from .grain_answers import best_doc, best_team, best_text, interval_text, team_figures
from .grain_cells import Cell, Summary, cells_of
from .grain_plan import MIN_INTERVAL, STOP_EFFICIENCY, geometric, load_plan, settings_of
from ..core.safe_io import for_terminal
from ..core.safe_text import lines_text   # every line: whatever it quotes from records or the command line

# The grain document's members, as the catalogue's grain figures name them (their "json").
SPEEDUP, EFFICIENCY = "teams[].sizes[].speedup.value", "teams[].sizes[].efficiency_percent.value"
SERIAL, PARALLEL = "teams[].sizes[].serial_loop_us.value", "teams[].sizes[].parallel_loop_us.value"
SMALLEST, SMALLEST_SERIAL = "teams[].smallest_speedup.zones", "teams[].smallest_speedup.serial_loop_us.value"
HALF, METG = "teams[].half_efficiency.zones", "teams[].half_efficiency.metg_us.value"
BEST = "best_team[].threads"
CSV_HEADER = "schedule,threads,zones,parts,zones_per_part,figure,value,ci95_low,ci95_high,processes,given,why"
STOPPED_SUFFIX = ".stopped"   # written by grain-plan next when the time cap ends a search with processes left


def figures() -> Dict[str, catalogue.Figure]:
    """The grain set by JSON member."""
    return dict((f["json"], f) for f in catalogue.load().in_set("grain"))


def loadavg() -> str:
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return f.read().strip()
    except OSError:
        return "not available"


def csv_cell(text) -> str:
    text = "" if text is None else str(text)
    return '"%s"' % text.replace('"', '""') if any(c in text for c in ',"\n\r') else text


def csv_row(schedule, threads, zones, parts, zpp, key, s: Summary, processes, given_k, why) -> str:
    vals = [schedule, threads, zones, parts, zpp, key] + ["" if v is None else repr(v) for v in s[:3]] + \
        [processes, given_k, why]
    return ",".join(csv_cell(v) for v in vals)


def report(stem: str, helper: str):
    """(text, csv, json text, facts for the page)."""
    plan = load_plan(stem)
    s = settings_of(plan)
    fig = figures()
    schedules = ("static",) + tuple(s.schedules)
    all_cells = dict((k, cells_of(stem, helper, s, k)) for k in schedules)
    stopped = os.path.exists(stem + STOPPED_SUFFIX)
    out = ["clomp grain %s: the smallest loop worth threading (docs/grain.md)" % os.path.basename(stem),
           "       Date: %s" % time.strftime("%a %b %d %H:%M:%S %Y", time.localtime(plan["start_epoch"])),
           "       Load: %s before, %s after (1, 5, 15 min; run queue; last pid)" % (
               plan.get("load_before", "not recorded"), loadavg()),
           " Executable: %s" % for_terminal(s.exe),
           "    Binding: %s" % for_terminal(str(plan.get("binding", "not recorded"))),
           "      Teams: %s of %d cores; %d processes per loop size; timeScale %d (fixed total work: about 1e7 x "
           "timeScale zone updates per measurement)" % (", ".join(map(str, s.teams)), s.cores, s.replicates, s.time_scale),
           "     Search: %s zones, each team stopping at its first size whose efficiency interval lies above %d%%; "
           "then %d bisection%s of each bracket" % (", ".join(map(str, geometric(s))), round(STOP_EFFICIENCY * 100),
                                                     s.bisections, "" if s.bisections == 1 else "s")]
    busy, total = busy_count(all_cells["static"])
    if busy and 2 * busy >= total:
        out.append("       Busy: %d of %d processes found the machine busy (the noise census): their figures measure the "
                   "contention, not OpenMP; run again on an idle node, threads bound" % (busy, total))
    if stopped:
        out.append("   Stopped: the time cap of %g min was reached: the search is not complete" % s.minutes)
    out += ["",
            "Speed-up: Serial Ref's over the schedule's us/Loop (median chunks), the Hodges-Lehmann ratio between",
            "processes with its 95% interval [ ] (clomp-stats compare; none below 4 processes). Efficiency: speed-up /",
            "threads. METG(50%) (Task Bench): the parallel loop's wall time at the smallest loop reaching 50%.", ""]
    csv_lines = [CSV_HEADER]
    doc_schedules = []
    facts = {"settings": s, "cells": all_cells, "stopped": stopped}
    for sched in schedules:
        cells = all_cells[sched]
        name = sched if not cells else (cells[0].name or sched)
        out.append("%s against Serial Ref: the answer per team size" % name)
        teams_doc = []
        for t in s.teams:
            team_doc, up, half, up_serial, metg = team_figures(t, [c for c in cells if c.threads == t])
            out.append("  Team %d:" % t)
            out.append("    %-33s %s" % (fig[SMALLEST]["label"] + ":", up.text + (
                " (the next size below, %d, does not)" % up.below if up.decided and up.below else "")))
            if up.decided and up.cell:
                out.append("    %-33s %s us per loop (%s)" % (fig[SMALLEST_SERIAL]["label"].split(", ")[-1] + ":",
                                                            interval_text(up_serial), up.cell.given.count_text()))
            out.append("    %-33s %s" % (fig[HALF]["label"] + ":", half.text + (
                " (the next size below, %d, does not)" % half.below if half.decided and half.below else "")))
            if half.decided and half.cell:
                out.append("    %-33s %s us (%s)" % (fig[METG]["label"] + ":", interval_text(metg),
                                                     half.cell.given.count_text()))
            for key, s_, a in ((SMALLEST, Summary(up.cell.zones if up.decided and up.cell else None, None, None, 0), up),
                               (SMALLEST_SERIAL, up_serial, up), (HALF, Summary(
                                   half.cell.zones if half.decided and half.cell else None, None, None, 0), half),
                               (METG, metg, half)):
                csv_lines.append(csv_row(sched, t, "", "", "", fig[key].key, s_, "", "", "" if a.decided else a.text))
            teams_doc.append(team_doc)
        out += ["", "%s: every loop size measured" % name,
                "%6s %8s %10s  %-22s  %-22s  %-18s  %-18s  %s" % (
                    "Team", "Zones", "Parts", fig[SPEEDUP]["label"], fig[EFFICIENCY]["label"] + " %",
                    "serial us/Loop", "parallel us/Loop", "processes")]
        for c in cells:
            out.append(("%6d %8d %10s  %-22s  %-22s  %-18s  %-18s  %s" % (
                c.threads, c.zones, "%dx%d" % (c.parts, c.zones_per_part), interval_text(c.speedup),
                interval_text(c.efficiency()), interval_text(c.serial_us), interval_text(c.parallel_us),
                c.given.count_text() + ("; no interval: %d needed" % MIN_INTERVAL if c.given.summarised
                                        and c.speedup.low is None else ""))).rstrip())
            for key, summ in ((SPEEDUP, c.speedup), (EFFICIENCY, c.efficiency()), (SERIAL, c.serial_us),
                              (PARALLEL, c.parallel_us)):
                csv_lines.append(csv_row(sched, c.threads, c.zones, c.parts, c.zones_per_part, fig[key].key, summ,
                                         c.given.total, c.given.k, c.why()))
        best = best_team(s, cells)
        out += ["", "%s: %s per loop size (the smallest team within noise of the fastest)" % (name, fig[BEST]["label"])]
        for b in best:
            out.append("%8d zones: %s" % (b.nominal, best_text(b)))
            csv_lines.append(csv_row(sched, "", b.nominal, "", "", fig[BEST].key, Summary(b.threads, None, None, 0), "",
                                     "", "" if b.threads is not None else best_text(b)))
        out.append("")
        doc_schedules.append(OrderedDict([
            ("schedule", sched), ("name", name), ("teams", teams_doc),
            ("best_team", [best_doc(b) for b in best])]))
    doc = OrderedDict([
        ("schema", "clomp-grain"), ("schema_version", 1), ("stem", os.path.basename(stem)),
        ("start_epoch", plan["start_epoch"]), ("load_before", plan.get("load_before")), ("load_after", loadavg()),
        ("binding", plan.get("binding")), ("settings", OrderedDict(s._asdict())), ("stopped_by_time_cap", stopped),
        ("busy_processes", busy), ("processes", total),
        ("figures", [OrderedDict([("key", f.key), ("label", f.label), ("unit", f.unit), ("json", f["json"]),
                                  ("estimator", f["estimator"])]) for f in fig.values()]),
        ("schedules", doc_schedules)])
    # The static schedule's teams and best team at the top level, where the catalogue's paths name them.
    doc["teams"], doc["best_team"] = doc_schedules[0]["teams"], doc_schedules[0]["best_team"]
    return lines_text(out), lines_text(csv_lines), json.dumps(doc, indent=1) + "\n", facts


def busy_count(cells: List[Cell]):
    """(processes busy, processes run) over the cells."""
    return sum(c.given.why.get("busy", 0) for c in cells), sum(c.given.total for c in cells)


def main(argv: List[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: grain-report STEM HELPER\n")
        return 2
    stem, helper = argv
    from . import grain_page
    try:
        text, csv_text, js, facts = report(stem, helper)
        directory, name = os.path.split(stem)
        directory = directory or "."
        safe_write.write_text(directory, name + ".txt", text)
        safe_write.write_text(directory, name + ".csv", csv_text)
        safe_write.write_text(directory, name + ".json", js)
        safe_write.write_text(directory, name + ".html", grain_page.page(name, text, facts))
    except (ValueError, OSError, KeyError, stats_helper.StatsError, safe_write.UnsafeTarget) as e:
        sys.stderr.write("run_clomp.sh: --grain: %s\n" % for_terminal(str(e)))
        return 3
    sys.stdout.write(text)
    return 0
