"""`run_clomp.sh --grain`'s cells: one team size at one loop size, summarised
over its processes by clomp-stats (the package computes no statistic of its
own; docs/grain.md). A process gives a cell its figures when it gave both
Serial Ref's and the schedule's median-chunk us/Loop as results (given.py:
not failed, busy or invalid) on the team asked for. Then, by the catalogue's
grain estimators:

- the speed-up: clomp-stats compare of the schedule's us/Loop (A) with
  Serial Ref's (B) on the ratio scale: the Hodges-Lehmann ratio B/A with
  its Mann-Whitney 95% interval (none below 4 processes each);
- the efficiency: the speed-up and its interval over the team size;
- the serial work per loop and the parallel loop time: clomp-stats summary
  of each one's values (the median; its 95% interval from 6 processes).

Nothing is given from fewer than given.MIN_PROCESSES processes or under half
of those run (given.Given.summarised): the cell then says why."""
from __future__ import annotations

import os
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from ..core import catalogue, compare_figures, given, stats_helper
from .grain_plan import MIN_INTERVAL, shape
from ..core.view import num

OTHER_TEAM = "other team size"   # the runtime gave another team than asked for (omp_set_dynamic(0) should prevent it)
TOO_FEW = "too few processes"


class Summary(NamedTuple):
    value: Optional[float]
    low: Optional[float]
    high: Optional[float]
    n: int


NONE = Summary(None, None, None, 0)


class Cell(NamedTuple):
    threads: int
    zones: int
    parts: int
    zones_per_part: int
    schedule: str
    name: str                  # the schedule's report name, as its records give it
    given: given.Given
    speedup: Summary
    serial_us: Summary
    parallel_us: Summary

    @property
    def speedup_low(self):
        return self.speedup.low

    @property
    def speedup_high(self):
        return self.speedup.high

    def efficiency(self) -> Summary:
        sp = self.speedup
        scale = 100.0 / self.threads
        return Summary(*(None if v is None else v * scale for v in sp[:3]), n=sp.n)

    def why(self) -> str:
        """Why the cell has no speed-up interval, shortly ('' when it has one): '4 of 4 processes gave none:
        4 busy', '3 processes gave the figures: an interval needs 4'."""
        if self.speedup.low is not None:
            return ""
        g = self.given
        if not g.summarised:
            return "%d of %d process%s gave none: %s" % (g.total - g.k, g.total, "" if g.total == 1 else "es",
                                                          g.reasons() or "a median needs %d" % given.MIN_PROCESSES)
        return "%d processes gave the figures: an interval needs %d" % (g.k, MIN_INTERVAL)


def runs_of(stem: str) -> Dict[str, Tuple[int, str]]:
    """{record path: (exit status, seconds)} from STEM.runs (grain_driver's lines: JSON, EXIT, SECONDS)."""
    try:
        with open(stem + ".runs", encoding="utf-8") as f:
            return runs_in(f.read())
    except FileNotFoundError:
        return {}


def runs_in(text: str) -> Dict[str, Tuple[int, str]]:
    """runs_of's answer from the text of a .runs file (a bundle's copy: clomp_validate, grain_check.py)."""
    out = {}
    for line in text.splitlines():
        cells = line.split("\t")
        if len(cells) >= 3 and cells[1].lstrip("-").isdigit():
            out[cells[0]] = (int(cells[1]), cells[2])
    return out


def parse_name(stem: str, path: str) -> Optional[Tuple[int, int, int]]:
    """(threads, zones, replicate) of a record STEM_t<T>z<Z>r<R>.json, or None."""
    base = os.path.basename(stem) + "_t"
    name = os.path.basename(path)
    if not name.startswith(base) or not name.endswith(".json"):
        return None
    rest = name[len(base):-5]
    try:
        t, rest = rest.split("z", 1)
        z, r = rest.split("r", 1)
        return int(t), int(z), int(r)
    except ValueError:
        return None


def process_values(doc, ok: bool, threads: int, schedule: str):
    """(serial us, parallel us, None) when the process gave both figures on the team asked for, else
    (None, None, reason)."""
    cat = catalogue.load()
    serial_fig = cat.figure_of("serial", "median_us_per_loop")
    par_fig = cat.figure_of(schedule, "median_us_per_loop")
    sv, why = given.of_process(doc, serial_fig, ok)
    pv, why2 = given.of_process(doc, par_fig, ok)
    reason = why or why2
    if reason is None:
        m = given.measurement(doc, schedule)
        if num((m or {}).get("threads")) != threads:
            reason = OTHER_TEAM
    return (sv, pv, None) if reason is None else (None, None, reason)


def summary(helper: str, values: List[float]) -> Summary:
    if not values:
        return NONE
    s = stats_helper.summary(helper, values)

    def f(k):
        return None if s.get(k) is None else float(s[k])
    return Summary(f("median"), f("ci_low"), f("ci_high"), len(values))


def speedup(helper: str, serial: List[float], parallel: List[float]) -> Summary:
    if len(serial) < 2:
        return Summary(None, None, None, len(serial))
    c = stats_helper.compare(helper, parallel, serial, "0.95")
    return Summary(c["estimate"], c["ci_low"], c["ci_high"], len(serial))


def cell(helper: str, threads: int, zones: int, schedule: str, records) -> Cell:
    """The cell of RECORDS [(doc or None, run ended OK)]."""
    g = given.Given()
    serial, parallel = [], []
    name = next((str(given.measurement(d, schedule).get("name")) for d, _ in records
                 if isinstance(d, dict) and given.measurement(d, schedule)), schedule)
    for doc, ok in records:
        sv, pv, why = process_values(doc, ok, threads, schedule)
        g.add(None if why else (sv, pv), why)
        if why is None:
            serial.append(sv)
            parallel.append(pv)
    if g.summarised:
        sp = speedup(helper, serial, parallel)
        su, pu = summary(helper, serial), summary(helper, parallel)
    else:
        sp, su, pu = NONE, NONE, NONE
    parts, zpp = shape(threads, zones)
    return Cell(threads, zones, parts, zpp, schedule, name, g, sp, su, pu)


def cells_of(stem: str, helper: str, settings, schedule: str) -> List[Cell]:
    """Every cell measured under STEM for SCHEDULE, by team then size."""
    return cells_from(runs_of(stem), compare_figures.read_record, stem, helper, settings, schedule)


def cells_from(runs: Dict[str, Tuple[int, str]], read: Callable[[str], dict], stem: str, helper: str, settings,
               schedule: str) -> List[Cell]:
    """cells_of's cells from RUNS (runs_in) and READ (a record by its .runs path, or ValueError): the files on
    disk, or a bundle's copies (grain_check.py)."""
    grouped: Dict[Tuple[int, int], list] = {}
    for path, (rc, _) in runs.items():
        key = parse_name(stem, path)
        if key is None or key[0] not in settings.teams:
            continue
        doc = None
        if rc == 0:
            try:
                doc = read(path)
            except ValueError:
                doc = None
        grouped.setdefault(key[:2], []).append((doc, rc == 0 and doc is not None))
    return [cell(helper, t, z, schedule, grouped[(t, z)]) for t, z in sorted(grouped)]
