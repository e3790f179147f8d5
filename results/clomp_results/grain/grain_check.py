"""The validator's check of a suite's grain search (issue 48, item 1; docs/grain.md, "In the suite"): what
<name>_grain.json states (per schedule and team: the smallest loop that speeds up, the smallest reaching 50%
efficiency and METG(50%) there, every loop size's figures; the best team per loop size) recomputed from the
bundled process records by the report's own code (grain_cells.cells_from, grain_answers.team_figures and
best_doc over clomp-stats), and every difference a reason. The buyer's table quotes METG(50%) from that file
(node_limits.metg_cell) only as the validator checked it.

A suite without <name>_grain.json has nothing to check. One with it must carry the search's plan
(<name>_grain.plan: its settings) and its list of processes (<name>_grain.runs), and each record that list
names, by its file name beside them (the list's paths are the submitter's)."""
from __future__ import annotations

import json
import os
from typing import Callable, List, Optional

from . import grain_cells
from ..core import stats_helper
from .grain_answers import best_doc, best_team, team_figures
from .grain_plan import settings_of
from ..core.safe_io import for_terminal

ANSWERS = ("smallest_speedup", "half_efficiency", "sizes")   # a team's members, in the order they are compared


def first_difference(stated, computed, where: str = "") -> Optional[str]:
    """The first member (a dotted path) where STATED and COMPUTED (both as JSON reads them) differ, or None."""
    if isinstance(stated, dict) and isinstance(computed, dict):
        for k in list(computed) + [k for k in stated if k not in computed]:
            d = first_difference(stated.get(k), computed.get(k), "%s.%s" % (where, k) if where else str(k))
            if d is not None:
                return d
        return None
    if isinstance(stated, list) and isinstance(computed, list) and len(stated) == len(computed):
        for i, (a, b) in enumerate(zip(stated, computed)):
            d = first_difference(a, b, "%s[%d]" % (where, i))
            if d is not None:
                return d
        return None
    same = stated == computed and type(stated) is type(computed) or \
        (isinstance(stated, (int, float)) and isinstance(computed, (int, float)) and not isinstance(stated, bool)
         and not isinstance(computed, bool) and float(stated) == float(computed))
    return None if same else where or "(the whole)"


def shown(value) -> str:
    return for_terminal(json.dumps(value)[:120])


def member(doc, path: str):
    """DOC's member at PATH (first_difference's dotted path with [i]), or None."""
    here = doc
    for part in path.replace("[", ".[").split("."):
        if part.startswith("["):
            i = int(part[1:-1])
            here = here[i] if isinstance(here, list) and i < len(here) else None
        else:
            here = here.get(part) if isinstance(here, dict) else None
    return here


def check(name: str, read_text: Callable[[str], Optional[str]], reasons: List[str], helper: Optional[str] = None) -> None:
    """NAME's grain run as READ_TEXT gives its files (None: not in the bundle) against its records."""
    stem = name + "_grain"
    text = read_text(stem + ".json")
    if text is None:
        return
    me = for_terminal(stem + ".json")
    try:
        stated = json.loads(text)
    except (ValueError, RecursionError) as e:
        reasons.append("%s: not JSON (%s)" % (me, for_terminal(str(e)[:120])))
        return
    if not isinstance(stated, dict) or stated.get("schema") != "clomp-grain":
        reasons.append("%s: not a clomp-grain document (the grain report's JSON)" % me)
        return
    plan_text, runs_text = read_text(stem + ".plan"), read_text(stem + ".runs")
    if plan_text is None or runs_text is None:
        reasons.append("%s states the grain search's answers, but the bundle has no %s: they cannot be recomputed" % (
            me, " and no ".join(for_terminal(stem + s) for s, t in ((".plan", plan_text), (".runs", runs_text)) if t is None)))
        return
    try:
        settings = settings_of(json.loads(plan_text))
        teams, schedules = list(settings.teams), ("static",) + tuple(settings.schedules)
        if not all(isinstance(t, int) for t in teams) or not all(isinstance(k, str) for k in schedules):
            raise ValueError("teams or schedules of the wrong type")
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as e:
        reasons.append("%s.plan: not the grain search's plan (%s)" % (for_terminal(stem), for_terminal(str(e)[:120])))
        return

    def read(path: str) -> dict:   # a record the .runs file names, by its file name beside it
        base = os.path.basename(path)
        data = read_text(base) if base.startswith(stem + "_t") and base.endswith(".json") else None
        if data is None:
            raise ValueError("%s: not in the bundle" % base)
        doc = json.loads(data)
        if not isinstance(doc, dict) or doc.get("schema") != "clomp-result":
            raise ValueError("%s: not a clomp-result record" % base)
        return doc
    runs = grain_cells.runs_in(runs_text)
    missing = sorted(os.path.basename(p) for p, (rc, _) in runs.items()
                     if rc == 0 and grain_cells.parse_name(stem, p) and read_text(os.path.basename(p)) is None)
    if missing:
        reasons.append("%s.runs names %d record(s) of processes that ended OK which the bundle does not carry (%s)" % (
            for_terminal(stem), len(missing), for_terminal(", ".join(missing[:3]))))
    helper = helper or stats_helper.find()
    by_schedule = dict((s.get("schedule"), s) for s in stated.get("schedules") or [] if isinstance(s, dict))
    try:
        for k in schedules:
            cells = grain_cells.cells_from(runs, read, stem, helper, settings, k)
            said = by_schedule.get(k)
            if said is None:
                reasons.append("%s has no schedule '%s', which its plan searched" % (me, for_terminal(k)))
                continue
            stated_teams = dict((t.get("threads"), t) for t in said.get("teams") or [] if isinstance(t, dict))
            for t in teams:
                computed = json.loads(json.dumps(team_figures(t, [c for c in cells if c.threads == t])[0]))
                mine = stated_teams.get(t)
                where = next((first_difference((mine or {}).get(m), computed[m], m) for m in ANSWERS
                              if first_difference((mine or {}).get(m), computed[m], m)), None)
                if mine is None or where is not None:
                    reasons.append("%s: %s at %d threads: %s" % (me, for_terminal(str(said.get("name") or k)[:40]), t,
                                                                 "no answer stated" if mine is None else
                                                                 "%s is %s, its process records give %s" % (
                                                                     for_terminal(where), shown(member(mine, where)),
                                                                     shown(member(computed, where)))))
            best = json.loads(json.dumps([best_doc(b) for b in best_team(settings, cells)]))
            where = first_difference(said.get("best_team"), best, "best_team")
            if where is not None:
                reasons.append("%s: %s: %s is %s, its process records give %s" % (
                    me, for_terminal(str(said.get("name") or k)[:40]), for_terminal(where),
                    shown(member({"best_team": said.get("best_team")}, where)), shown(member({"best_team": best}, where))))
    except stats_helper.StatsError as e:
        reasons.append("%s: its figures could not be recomputed: %s" % (me, for_terminal(str(e)[:200])))
        return
    first = by_schedule.get("static") or {}
    if first_difference(stated.get("teams"), first.get("teams")) or first_difference(stated.get("best_team"), first.get("best_team")):
        reasons.append("%s: its top-level teams and best_team are not its static schedule's" % me)
