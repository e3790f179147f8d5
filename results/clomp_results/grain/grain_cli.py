"""run_clomp.sh --grain's command (clomp-results grain-plan): its options, the dry run, the plan's
start and each next stage, from grain_plan's search and the records measured so far (grain_cells).
Apart from grain_plan so that the search, the cells and the report import one another in one direction."""
from __future__ import annotations

import json
import os
import sys
import time
from typing import Callable, Dict, List, Sequence, Tuple

from ..core import safe_write
from .grain_cells import Cell, cells_from, cells_of
from .grain_plan import (Bounds, OptionError, Settings, dry_run, load_plan, next_sizes, parse, record_name,
                         settings_of, stage, stage_order)
from .grain_report import STOPPED_SUFFIX, loadavg
from ..core.safe_io import for_terminal


def stage_cells(s: Settings, static_cells: List[Cell]) -> List[Tuple[int, int]]:
    """The next stage's cells [(threads, zones)] from the static schedule's cells measured so far; [] when
    the search is over."""
    bounds: Dict[int, Dict[int, Bounds]] = dict((t, {}) for t in s.teams)
    for c in static_cells:
        bounds[c.threads][c.zones] = Bounds(c.speedup_low, c.speedup_high)
    return [(t, z) for t in s.teams for z in next_sizes(s, t, bounds[t])]


def planned(s: Settings, stem: str, runs: Dict[str, Tuple[int, str]], read: Callable[[str], dict], helper: str,
            restarts: Sequence[int] = ()) -> List[str]:
    """The records (file names) the search's processes write, in the order it runs them, replayed stage by
    stage as next_stage decides each from the outcomes in RUNS (runs_in: a bundle's .runs, keyed by the
    submitter's paths) and READ's records (the validator's check, grain_check.py). RESTARTS: the positions
    (0-based) where a later driver took over (a suite resumed: its stage decided from every record before
    it, the stage it cut short left so). It stops after a stage some of whose processes RUNS lacks: nothing
    after it can be decided."""
    by_name = dict((os.path.basename(p), p) for p in runs)
    names: List[str] = []
    while True:
        so_far = dict((by_name[n], runs[by_name[n]]) for n in names)
        order = stage_order(s, stage_cells(s, cells_from(so_far, read, stem, helper, s, "static")))
        if not order:
            return names
        cut = min([r - len(names) for r in restarts if r > len(names)] or [len(order)])
        names += [record_name(os.path.basename(stem), t, z, r) for t, z, r in order[:cut]]
        if len(names) > len(by_name) or any(n not in by_name for n in names):
            return names


def start(stem: str, s: Settings, binding: str, constants: Dict[str, float]) -> None:
    """STEM.plan: the search's settings, its start (time, load) and the binding and model it runs under."""
    directory, name = os.path.split(stem)
    doc = {"schema": "clomp-grain-plan", "settings": s._asdict(), "start_epoch": time.time(),
           "load_before": loadavg(), "binding": binding, "constants": constants}
    safe_write.write_text(directory or ".", name + ".plan", json.dumps(doc, indent=1) + "\n")


def next_stage(stem: str, helper: str) -> List[str]:
    """The next stage's lines from STEM.plan and the records so far: "deadline<TAB>EPOCH" first when a time
    cap is set, then one "run<TAB>LIMIT<TAB>RECORD<TAB>ARGS..." a process; none when the search is over (or
    the cap ran out with cells left: STEM.stopped says so for the report)."""
    plan = load_plan(stem)
    s = settings_of(plan)
    cells = stage_cells(s, cells_of(stem, helper, s, "static"))
    if s.minutes is not None and time.time() - plan["start_epoch"] >= s.minutes * 60:
        if cells:   # the cap, not the search, ends it: the report says so (grain_report.stopped_by_cap)
            directory, name = os.path.split(stem)
            safe_write.write_text(directory or ".", name + STOPPED_SUFFIX, "%d cells left\n" % len(cells))
        return []
    lines = ["deadline\t%d" % int(plan["start_epoch"] + s.minutes * 60)] if cells and s.minutes is not None else []
    return lines + stage(s, stem, cells, plan.get("constants") or {})


def main(argv: List[str]) -> int:
    if not argv or argv[0] not in ("options", "dry-run", "start", "next"):
        sys.stderr.write("usage: grain-plan options|dry-run|start|next ... (see the module's docstring)\n")
        return 2
    command, argv = argv[0], argv[1:]
    try:
        if command == "options":
            s = parse(int(argv[0]), argv[1:])
            sys.stdout.write("out\t%s\nexe\t%s\ndry_run\t%d\n" % (s.out, s.exe, s.dry_run))
            return 0
        if command == "dry-run":
            split = argv.index("--")
            constants = dict((k, float(v)) for k, v in (w.split("=", 1) for w in argv[1:split]))
            sys.stdout.write(dry_run(parse(int(argv[0]), argv[split + 1:]), constants))
            return 0
        if command == "start":
            start(argv[0], parse(int(argv[1]), argv[2:]), os.environ.get("CLOMP_GRAIN_BINDING", "not recorded"),
                  dict((k, float(v)) for k, v in (w.split("=", 1) for w in os.environ.get(
                      "CLOMP_GRAIN_MODEL", "").split() if "=" in w)))
            return 0
        sys.stdout.write("".join(line + "\n" for line in next_stage(argv[0], argv[1])))
        return 0
    except OptionError as e:
        sys.stderr.write("run_clomp.sh: %s\n" % e)
        return 2
    except (IndexError, ValueError) as e:
        sys.stderr.write("run_clomp.sh: --grain: %s\n" % for_terminal(str(e)))
        return 2
