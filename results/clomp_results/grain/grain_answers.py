"""`run_clomp.sh --grain`'s answers from its cells (docs/grain.md): per team
size the smallest loop that speeds up and the smallest reaching 50%
efficiency (with METG(50%) there), or "not decided" and why; per loop size
the best team.

The rule for a smallest loop: the smallest size measured whose interval
lies wholly above the threshold, decided only when every smaller size
measured has an interval (a size without one, busy or with too few
processes, might have been above it). With no size above: "none up to Z
zones" only when every size's interval lies wholly below; else not
decided, saying which sizes gave no interval and which straddle."""
from __future__ import annotations

import math
from collections import OrderedDict
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Dict, List, NamedTuple, Optional

from .grain_cells import Cell, Summary
from .grain_plan import HALF_EFFICIENCY, SPEEDUP_THRESHOLD, Bounds, above, below, geometric, zones_of

SHOWN = 3   # teams or sizes named in a line at most


class Answer(NamedTuple):
    cell: Optional[Cell]       # the smallest size above the threshold (also when not decided: an upper bound)
    decided: bool
    below: Optional[int]       # the largest size measured below it (the bracket's lower end), or None
    text: str


def bounds(c: Cell) -> Bounds:
    return Bounds(c.speedup.low, c.speedup.high)


def outward(x: float, up: bool, digits: int = 3) -> float:
    """X at DIGITS significant digits, rounded away from an interval's inside (UP: towards +infinity), in
    decimal on X's shortest repr: the printed bound, read back, never lies inside the computed one (rounding
    to nearest would print 11.06's lower bound as 11.1)."""
    if x == 0 or not math.isfinite(x):
        return x
    d = Decimal(repr(x))
    return float(d.quantize(Decimal(1).scaleb(d.adjusted() - digits + 1), rounding=ROUND_CEILING if up else ROUND_FLOOR))


def interval_text(s: Summary, scale: float = 1.0, digits: int = 3) -> str:
    """The estimate at DIGITS significant digits (nearest), its interval's bounds rounded outward."""
    if s.value is None:
        return "none"
    text = "%.*g" % (digits, s.value * scale)
    if s.low is not None:
        text += " [%.*g..%.*g]" % (digits, outward(s.low * scale, False, digits), digits, outward(s.high * scale, True, digits))
    return text


def smallest(cells: List[Cell], threshold: float, per_thread: bool, inclusive: bool, what: str) -> Answer:
    """The smallest loop of one team's CELLS (any order) above THRESHOLD (of the efficiency when PER_THREAD)."""
    cells = sorted(cells, key=lambda c: c.zones)
    if not cells:
        return Answer(None, False, None, "not decided: nothing was measured")
    team = cells[0].threads if per_thread else 1
    up = next((c for c in cells if above(bounds(c), threshold, team, inclusive)), None)
    if up is not None:
        lower = [c for c in cells if c.zones < up.zones]
        missing = [c for c in lower if c.speedup.low is None]
        if missing:
            return Answer(up, False, None, "not decided: at most %d zones, but below it no interval at %s" % (
                up.zones, gaps(missing)))
        return Answer(up, True, lower[-1].zones if lower else None, "%d zones" % up.zones)
    if all(below(bounds(c), threshold, team) for c in cells):
        return Answer(None, True, None, "none up to %d zones: every %s interval lies below %g%s" % (
            cells[-1].zones, what, threshold * (100 if per_thread else 1), "%" if per_thread else ""))
    missing = [c for c in cells if c.speedup.low is None]
    straddle = [c for c in cells if c.speedup.low is not None and not below(bounds(c), threshold, team)]
    said = ["no interval at %s" % gaps(missing)] if missing else []
    if straddle:
        said.append("the %s interval%s at %s zones reach%s %g%s" % (
            what, "" if len(straddle) == 1 else "s", ", ".join(str(c.zones) for c in straddle[-SHOWN:]),
            "es" if len(straddle) == 1 else "", threshold * (100 if per_thread else 1), "%" if per_thread else ""))
    return Answer(None, False, None, "not decided: " + "; ".join(said))


def gaps(cells: List[Cell]) -> str:
    """The sizes without an interval, grouped by why: '64, 256 zones (4 of 4 processes gave none: 4 busy);
    1024 zones (3 processes gave the figures: an interval needs 4)'."""
    by: Dict[str, List[int]] = {}
    for c in cells:
        by.setdefault(c.why(), []).append(c.zones)
    return "; ".join("%s zones (%s)" % (", ".join(map(str, zones)), why) for why, zones in by.items())


def speeds_up(cells: List[Cell]) -> Answer:
    return smallest(cells, SPEEDUP_THRESHOLD, False, False, "speed-up")


def half_efficiency(cells: List[Cell]) -> Answer:
    return smallest(cells, HALF_EFFICIENCY, True, True, "efficiency")


class Best(NamedTuple):
    nominal: int
    threads: Optional[int]        # 1: Serial Ref (threading does not pay); None: not decided
    fastest: Optional[Cell]       # None with a best team: Serial Ref is the fastest
    within: List[int]             # the teams within noise of the fastest (1: Serial Ref)
    not_judged: List[Cell]        # the teams measured here without an interval


def best_team(settings, cells: List[Cell]) -> List[Best]:
    """Per geometric loop size that any team measured: the smallest team within noise of the fastest (its
    speed-up interval reaching the fastest's lower end); Serial Ref is a team of 1 at speed-up 1 exactly."""
    by: Dict[tuple, Cell] = dict(((c.threads, c.zones), c) for c in cells)
    out = []
    for nominal in geometric(settings):
        here = [by[(t, zones_of(t, nominal))] for t in settings.teams if (t, zones_of(t, nominal)) in by]
        if not here:
            continue
        judged = [c for c in here if c.speedup.low is not None]
        unjudged = [c for c in here if c.speedup.low is None]
        if not judged:
            out.append(Best(nominal, None, None, [], unjudged))
            continue
        fastest = max(judged, key=lambda c: c.speedup.value)
        if fastest.speedup.value < 1.0:   # Serial Ref (exactly 1) is the fastest: a team within noise reaches 1
            within = [1] + sorted(c.threads for c in judged if c.speedup.high >= 1.0)
            out.append(Best(nominal, 1, None, within, unjudged))
            continue
        floor = fastest.speedup.low
        within = ([1] if floor <= 1.0 else []) + sorted(c.threads for c in judged if c.speedup.high >= floor)
        out.append(Best(nominal, within[0], fastest, within, unjudged))
    return out


def best_text(b: Best) -> str:
    if b.threads is None:
        return "not decided: no team has an interval here (%s)" % "; ".join(
            "team %d: %s" % (c.threads, c.why()) for c in b.not_judged[:SHOWN])
    head = "1 (Serial Ref: threading does not pay)" if b.threads == 1 else "%d threads" % b.threads
    if b.fastest is None:
        text = "%s; fastest: Serial Ref (every team's speed-up estimate is below 1)" % head
    else:
        text = "%s; fastest: %d threads at %s" % (head, b.fastest.threads, interval_text(b.fastest.speedup))
    if len(b.within) > 1:
        text += "; within noise: %s" % ", ".join(map(str, b.within))
    if b.not_judged:
        text += "; not judged: %s" % ", ".join("%d (%s)" % (c.threads, c.why()) for c in b.not_judged[:SHOWN])
    return text


# ---- the JSON's members: the report's (grain_report) and the validator's check of a bundled run (grain_check) ----
def summary_doc(s: Summary, scale: float = 1.0):
    if s.value is None:
        return None
    return OrderedDict([("value", s.value * scale),
                        ("ci_95", None if s.low is None else [s.low * scale, s.high * scale]), ("n", s.n)])


def cell_doc(c: Cell):
    return OrderedDict([
        ("zones", c.zones), ("parts", c.parts), ("zones_per_part", c.zones_per_part), ("processes", c.given.total),
        ("given", c.given.k), ("not_given", OrderedDict(sorted(c.given.why.items()))), ("why", c.why() or None),
        ("speedup", summary_doc(c.speedup)), ("efficiency_percent", summary_doc(c.efficiency())),
        ("serial_loop_us", summary_doc(c.serial_us)), ("parallel_loop_us", summary_doc(c.parallel_us))])


def team_figures(t: int, mine: List[Cell]):
    """(the JSON's team member, speed-up answer, 50% answer, serial work, METG(50%)) of team T's cells MINE:
    the one computation of the report and of the validator's check of a bundled grain run (grain_check.py)."""
    up, half = speeds_up(mine), half_efficiency(mine)
    up_serial = up.cell.serial_us if up.decided and up.cell else Summary(None, None, None, 0)
    metg = half.cell.parallel_us if half.decided and half.cell else Summary(None, None, None, 0)
    doc = OrderedDict([
        ("threads", t),
        ("smallest_speedup", OrderedDict([("zones", up.cell.zones if up.decided and up.cell else None),
                                          ("decided", up.decided), ("below", up.below), ("text", up.text),
                                          ("serial_loop_us", summary_doc(up_serial))])),
        ("half_efficiency", OrderedDict([("zones", half.cell.zones if half.decided and half.cell else None),
                                         ("decided", half.decided), ("below", half.below), ("text", half.text),
                                         ("metg_us", summary_doc(metg))])),
        ("sizes", [cell_doc(c) for c in mine])])
    return doc, up, half, up_serial, metg


def best_doc(b):
    return OrderedDict([("zones", b.nominal), ("threads", b.threads), ("within_noise", b.within), ("text", best_text(b))])
