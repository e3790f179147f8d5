"""The validator's check of a suite's grain search (issue 48, item 1; docs/grain.md, "In the suite"): what
<name>_grain.json states (per schedule and team: the smallest loop that speeds up, the smallest reaching 50%
efficiency and METG(50%) there, every loop size's figures; the best team per loop size) recomputed from the
bundled process records by the report's own code (grain_cells.cells_from, grain_answers.team_figures and
best_doc over clomp-stats), and every difference a reason. The buyer's table quotes METG(50%) from that file
(node_limits.metg_cell) only as the validator checked it.

A suite without <name>_grain.json has nothing to check. One with it must carry the search's plan
(<name>_grain.plan: its settings) and its list of processes (<name>_grain.runs), and each record that list
names, by its file name beside them (the list's paths are the submitter's). The list must be the processes
the plan runs, in its order: the search replayed stage by stage from the records by the plan's own code
(grain_cli.planned), where a suite resumed restarted it as <name>_grain.full numbers them; a process it
marks failed must have its section in that .full, ending with that exit status, as the driver writes it."""
from __future__ import annotations

import json
import os
import re
from typing import Callable, Dict, List, Optional, Tuple

from . import grain_cells
from ..core import stats_helper
from .grain_answers import best_doc, best_team, team_figures
from .grain_cli import planned
from .grain_plan import outside_ranges, settings_of
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


END_LINE = re.compile(r"=== end of process ([0-9]+): exit status (-?[0-9]+)")   # grain_driver.run_stage's lines
START_LINE = re.compile(r"=== process ([0-9]+): .* --json=(.*)")


def sections_in(full_text: str) -> List[Tuple[int, str, int]]:
    """(process number, its record's file name, exit status) of each complete section of a .full, in order."""
    out: List[Tuple[int, str, int]] = []
    started: Optional[Tuple[int, str]] = None
    for line in full_text.splitlines():
        m = START_LINE.fullmatch(line)
        if m:
            started = (int(m.group(1)), os.path.basename(m.group(2)))
            continue
        m = END_LINE.fullmatch(line)
        if m and started is not None and int(m.group(1)) == started[0]:
            out.append((started[0], started[1], int(m.group(2))))
            started = None
    return out


def runs_listed(stem: str, runs_text: str, full_text: Optional[str], reasons: List[str]):
    """([(record file name, exit status)] of STEM.runs, [the positions where a later driver took over]), as
    STEM.full confirms them: the driver writes a process's section there with its line (grain_driver.run_stage),
    numbering the processes from 1 each time it starts (a suite resumed). None, with a reason, where they
    disagree. Without a .full: no restart, and a process marked failed is refused (its failure is nowhere)."""
    where = for_terminal(stem) + ".runs"
    listed = []
    for i, line in enumerate(runs_text.splitlines(), 1):
        words = line.split("\t")
        if len(words) != 3 or not re.fullmatch(r"-?[0-9]+", words[1]):
            reasons.append("%s: line %d is not the driver's (RECORD<TAB>EXIT<TAB>SECONDS)" % (where, i))
            return None
        listed.append((os.path.basename(words[0]), int(words[1])))
    full = for_terminal(stem + ".full")
    if full_text is None:
        failed = next(((i, n, rc) for i, (n, rc) in enumerate(listed, 1) if rc != 0), None)
        if failed:
            reasons.append("%s marks process %d (%s) failed with exit status %d, but the bundle has no %s, where its "
                           "failure would be" % (where, failed[0], for_terminal(failed[1]), failed[2], full))
            return None
        return listed, []
    sections, restarts, first = sections_in(full_text), [], 0
    for i, (n, rc) in enumerate(listed):
        if 0 < i < len(sections) and sections[i][0] == 1:
            restarts.append(i)
            first = i
        if i >= len(sections) or sections[i] != (i - first + 1, n, rc):
            reasons.append("%s: process %d (%s, exit status %d) is not %s's section %d, %s" % (
                where, i + 1, for_terminal(n), rc, full, i + 1, "which it lacks" if i >= len(sections) else
                "process %d (%s) ending with exit status %d" % (sections[i][0], for_terminal(sections[i][1]),
                                                                sections[i][2])))
            return None
    if len(sections) > len(listed):
        reasons.append("%s has %d complete process sections, %s lists %d" % (full, len(sections), where, len(listed)))
        return None
    return listed, restarts


def check_runs(stem: str, settings, listed: List[Tuple[str, int]], expected: List[str], reasons: List[str]) -> None:
    """STEM.runs (LISTED: runs_listed's) against the processes its plan runs (EXPECTED: grain_cli.planned, in
    order): each once, none else, in that order (a time cap may end it early). One reason, the first process
    found wrong."""
    where = for_terminal(stem) + ".runs"
    names = [n for n, _ in listed]
    for i, n in enumerate(names):
        if i < len(expected) and n == expected[i]:
            continue
        if i < len(expected) and expected[i] not in names:
            reasons.append("%s lacks process %d of its plan, %s" % (where, i + 1, for_terminal(expected[i])))
        elif n not in expected:
            reasons.append("%s lists %s as process %d: its plan runs no such process" % (where, for_terminal(n), i + 1))
        elif names.count(n) > 1:
            reasons.append("%s lists %s twice" % (where, for_terminal(n)))
        else:
            reasons.append("%s lists %s as process %d: its plan runs %s there" % (
                where, for_terminal(n), i + 1, for_terminal(expected[i])))
        return
    if len(names) < len(expected) and settings.minutes is None:   # only a time cap stops a search early
        reasons.append("%s lacks process %d of its plan, %s (%d of its %d processes listed; the plan has no time cap)"
                       % (where, len(names) + 1, for_terminal(expected[len(names)]), len(names), len(expected)))


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
        wrong = outside_ranges(settings)
        if wrong:
            raise ValueError(wrong)
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as e:
        reasons.append("%s.plan: not the grain search's plan (%s)" % (for_terminal(stem), for_terminal(str(e)[:120])))
        return

    unreadable: Dict[str, str] = {}   # record -> why it gives nothing (one reason each, however often it is read)

    def read(path: str) -> dict:   # a record the .runs file names, by its file name beside it
        base = os.path.basename(path)
        data = read_text(base) if base.startswith(stem + "_t") and base.endswith(".json") else None
        if data is None:
            raise ValueError("%s: not in the bundle" % base)
        try:
            doc = json.loads(data)
        except (ValueError, RecursionError) as e:   # RecursionError: nesting deeper than the parser's stack
            unreadable[base] = "not JSON (%s)" % (str(e)[:120] or type(e).__name__)
            raise ValueError(base) from None
        if not isinstance(doc, dict) or doc.get("schema") != "clomp-result":
            unreadable[base] = "not a clomp-result record"
            raise ValueError(base)
        return doc
    runs = grain_cells.runs_in(runs_text)
    helper = helper or stats_helper.find()
    confirmed = runs_listed(stem, runs_text, read_text(stem + ".full"), reasons)
    try:
        if confirmed is not None:
            check_runs(stem, settings, confirmed[0], planned(settings, stem, runs, read, helper, confirmed[1]), reasons)
    except stats_helper.StatsError as e:
        reasons.append("%s.runs: its plan could not be replayed: %s" % (for_terminal(stem), for_terminal(str(e)[:200])))
    missing = sorted(os.path.basename(p) for p, (rc, _) in runs.items()
                     if rc == 0 and grain_cells.parse_name(stem, p) and read_text(os.path.basename(p)) is None)
    if missing:
        reasons.append("%s.runs names %d record(s) of processes that ended OK which the bundle does not carry (%s)" % (
            for_terminal(stem), len(missing), for_terminal(", ".join(missing[:3]))))
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
    finally:
        reasons.extend("%s: %s" % (for_terminal(base), for_terminal(why)) for base, why in sorted(unreadable.items()))
    first = by_schedule.get("static") or {}
    if first_difference(stated.get("teams"), first.get("teams")) or first_difference(stated.get("best_team"), first.get("best_team")):
        reasons.append("%s: its top-level teams and best_team are not its static schedule's" % me)
