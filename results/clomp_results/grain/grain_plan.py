"""`run_clomp.sh --grain`'s plan and bracket search (issue 48, item 1;
docs/grain.md): which processes to run next, decided here from the records
of those already run; grain_driver only launches them.

    grain-plan options CORES ARGS...        the options checked: out, exe, dry_run, help (NAME<TAB>VALUE lines)
    grain-plan dry-run CORES NAME=VALUE... -- ARGS...   the plan and its estimate (the cost model's constants)
    grain-plan start STEM CORES ARGS...     writes STEM.plan (the settings, as JSON)
    grain-plan next STEM HELPER             the next stage's processes, one a line:
        deadline<TAB>EPOCH                  (first: launch nothing after it; absent without a time cap)
        run<TAB>LIMIT_S<TAB>JSON<TAB>ARG...  a clomp command's arguments (after the binary)
      nothing when the search is over. grain_driver appends JSON<TAB>EXIT<TAB>SECONDS to STEM.runs.

The search, per team size: loop sizes from FIRST (64) zones in geometric
steps of FACTOR, each size a stage of REPLICATES processes per team still
searching (interleaved: the stage's cells forward, then backward, as --sweep
orders its combinations); a team stops at the first size whose efficiency
interval lies above 90% (STOP_EFFICIENCY), or at MAX_ZONES. Then, for each
threshold (speed-up above 1; efficiency at or above 50%), the bracket (the
largest size measured below the smallest size above the threshold, and that
size) is bisected geometrically until it spans at most FACTOR^(1/2^BISECTIONS)
(BISECTIONS halvings of a step on the log scale; 1% slack, as the loop shapes
round), each bisection a stage. A bad option exits 2 with one line."""
from __future__ import annotations

import json
import math
from typing import Dict, List, NamedTuple, Optional, Tuple

from ..core.driver_files import team_shape   # the suite's one rule for a team's parts
from ..core.safe_io import for_terminal

FIRST = 64                  # zones: the smallest loop tried (issue 48)
MAX_ZONES = 1 << 20         # 1 M zones: the largest
TARGET_PARTS = 64           # parts per loop, rounded to a multiple of the team (the suite's --target-parts)
STOP_EFFICIENCY = 0.90      # a team's geometric steps stop once a size's efficiency interval lies above this
SPEEDUP_THRESHOLD = 1.0     # "speeds up": the speed-up interval wholly above 1
HALF_EFFICIENCY = 0.50      # METG(50%): the efficiency interval wholly at or above 50%
EXTRA_SCHEDULES = ("dynamic", "guided", "taskloop")   # --schedules: measured beside Static OMP in each process
MIN_INTERVAL = 4            # processes clomp-stats compare needs for a 95% interval of a ratio


class OptionError(Exception):
    """A --grain option that cannot be used: the one-line reason."""


class Settings(NamedTuple):
    cores: int
    teams: Tuple[int, ...]
    replicates: int
    factor: int
    bisections: int
    time_scale: int
    max_zones: int
    minutes: Optional[float]
    schedules: Tuple[str, ...]   # the extra schedules (Static OMP always)
    quick: bool
    exe: str
    out: str
    dry_run: bool


def default_teams(cores: int) -> List[int]:
    """2, 4, 8, ... below the cores, then cores - 1 and cores (a team of 1 is Serial Ref's)."""
    teams, t = [], 2
    while t < cores - 1:
        teams.append(t)
        t *= 2
    teams += [n for n in (cores - 1, cores) if n >= 2]
    return sorted(set(teams))


# The whole-number settings' ranges (parse's, and a bundled plan's: outside_ranges)
RANGES = {"replicates": (MIN_INTERVAL, 100), "factor": (2, 16), "bisections": (0, 8), "time_scale": (1, 1000),
          "max_zones": (FIRST, MAX_ZONES), "cores": (2, 65536)}


def outside_ranges(s: Settings) -> Optional[str]:
    """The first setting of S (a bundled plan's) that parse could not have given, or None: the search's
    expansion (next_sizes, stage) is only bounded within them."""
    for field, (low, high) in RANGES.items():
        v = getattr(s, field)
        if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
            return "%s is not a whole number from %d to %d" % (field, low, high)
    if not s.teams or not all(isinstance(t, int) and not isinstance(t, bool) and 2 <= t <= s.cores for t in s.teams):
        return "teams are not whole numbers from 2 to its cores"
    if not all(k in EXTRA_SCHEDULES for k in s.schedules):
        return "schedules are not some of %s" % ", ".join(EXTRA_SCHEDULES)
    return None


def whole(name: str, text: str, low: int, high: int) -> int:
    if not text.isdigit() or not low <= int(text) <= high:
        raise OptionError("%s: '%s' is not a whole number from %d to %d" % (name, for_terminal(text), low, high))
    return int(text)


def parse(cores: int, args: List[str]) -> Settings:
    """The --grain command line (the driver's words, --grain among them) as Settings."""
    given: Dict[str, str] = {}
    positional: List[str] = []
    valued = ("--replicates", "--out", "--teams", "--cores", "--max-zones", "--factor", "--bisections",
              "--time-scale", "--minutes", "--schedules")
    i, flags = 0, set()
    while i < len(args):
        word = args[i]
        name, eq, value = word.partition("=")
        if name in valued:
            if not eq:
                if i + 1 >= len(args):
                    raise OptionError("%s: needs a value (see --grain --help)" % name)
                i, value = i + 1, args[i + 1]
            given[name] = value
        elif word in ("--grain", "--quick", "--dry-run", "-h", "--help"):
            flags.add(word)
        elif word.startswith("-"):
            raise OptionError("--grain: unknown option '%s' (see --grain --help)" % for_terminal(word))
        else:
            positional.append(word)
        i += 1
    if len(positional) > 1:
        raise OptionError("--grain: one EXE at most (got '%s')" % for_terminal(" ".join(positional)))
    for name, value in (("EXE", positional[0] if positional else ""), ("--out", given.get("--out", "out"))):
        if any(c < " " or c == "\x7f" for c in value):
            raise OptionError("--grain: %s: '%s' holds a control character" % (name, for_terminal(value)))
    quick = "--quick" in flags
    if "--cores" in given:
        if "--dry-run" not in flags:
            raise OptionError("--cores: only with --dry-run (a plan for another node; a run uses this node's cores)")
        cores = whole("--cores", given["--cores"], *RANGES["cores"])
    if "--teams" in given:
        teams = sorted(set(whole("--teams", t, 2, cores) for t in given["--teams"].split(",")))
    else:
        teams = default_teams(cores)
    if not teams:
        raise OptionError("--grain: this node has %d core%s: a team needs 2 (give --cores N with --dry-run to plan "
                          "another node)" % (cores, "" if cores == 1 else "s"))
    schedules: Tuple[str, ...] = ()
    if "--schedules" in given:
        schedules = tuple(s for s in given["--schedules"].split(",") if s != "static")
        bad = [s for s in schedules if s not in EXTRA_SCHEDULES]
        if bad or len(set(schedules)) != len(schedules):
            raise OptionError("--schedules: '%s': give some of %s, each once" % (
                for_terminal(given["--schedules"]), ", ".join(EXTRA_SCHEDULES)))
    minutes = None
    if "--minutes" in given:
        minutes = float(whole("--minutes", given["--minutes"], 1, 100000))
    elif quick:
        minutes = 3.0
    defaults = {"--max-zones": str(MAX_ZONES), "--replicates": "4" if quick else "6", "--factor": "4",
                "--bisections": "1" if quick else "3", "--time-scale": "1" if quick else "10"}
    n = dict((field, whole(option, given.get(option, defaults[option]), *RANGES[field]))
             for field, option in (("max_zones", "--max-zones"), ("replicates", "--replicates"), ("factor", "--factor"),
                                   ("bisections", "--bisections"), ("time_scale", "--time-scale")))
    return Settings(
        cores=cores, teams=tuple(teams), minutes=minutes, schedules=schedules, quick=quick, **n,
        exe=positional[0] if positional else "./clomp", out=given.get("--out", "out"), dry_run="--dry-run" in flags)


# ---- loop sizes and shapes --------------------------------------------------------------------------------
def shape(threads: int, zones: int, target_parts: int = TARGET_PARTS) -> Tuple[int, int]:
    """(numParts, zonesPerPart): the suite's rule (core.driver_files.team_shape): parts a multiple of the
    team near TARGET_PARTS, zones per part so that the loop is within 5% of ZONES where any such shape
    exists, one part per thread at least."""
    parts, zpp = team_shape(threads, zones, target_parts, warn=False)
    return parts, max(1, zpp)


def zones_of(threads: int, nominal: int) -> int:
    parts, zpp = shape(threads, nominal)
    return parts * zpp


def geometric(s: Settings) -> List[int]:
    """The nominal sizes of the geometric steps: FIRST x FACTOR^k up to the largest, which is always tried."""
    sizes, z = [], FIRST
    while z < s.max_zones:
        sizes.append(z)
        z *= s.factor
    return sizes + [s.max_zones]


class Bounds(NamedTuple):
    """What the search needs of one (team, size) cell: its speed-up estimate and 95% interval (None: none)."""
    low: Optional[float]
    high: Optional[float]


def above(b: Bounds, threshold: float, threads: int, inclusive: bool = False) -> bool:
    """The interval lies wholly above THRESHOLD (efficiency: speed-up / THREADS; at or above when INCLUSIVE)."""
    if b.low is None:
        return False
    low = b.low / threads
    return low >= threshold if inclusive else low > threshold


def below(b: Bounds, threshold: float, threads: int) -> bool:
    return b.high is not None and b.high / threads < threshold


THRESHOLDS = ((SPEEDUP_THRESHOLD, False, False), (HALF_EFFICIENCY, True, True))   # (value, per thread, inclusive)


def crosses(cells: Dict[int, Bounds], threads: int, threshold: float, per_thread: bool, inclusive: bool):
    """(L, A): A the smallest size measured whose interval lies above the threshold, L the largest measured
    below A (None: none); (None, None) when no size is above."""
    team = threads if per_thread else 1
    up = [z for z in sorted(cells) if above(cells[z], threshold, team, inclusive)]
    if not up:
        return None, None
    lower = [z for z in cells if z < up[0]]
    return (max(lower) if lower else None), up[0]


def refine_ratio(s: Settings) -> float:
    """The widest bracket left: BISECTIONS geometric bisections of a FACTOR step (1% slack for the shapes)."""
    return s.factor ** (1.0 / 2 ** s.bisections) * 1.01


def next_sizes(s: Settings, threads: int, cells: Dict[int, Bounds]) -> List[int]:
    """The loop sizes (zones, as the team's shape gives them) to measure next for team THREADS, from its cells
    measured so far (by zones); [] when its search is over."""
    measured = sorted(cells)
    done = any(above(cells[z], STOP_EFFICIENCY, threads) for z in measured)
    if not done:
        for nominal in geometric(s):
            z = zones_of(threads, nominal)
            if not measured or z > measured[-1]:
                return [z]
    out = set()
    for threshold, per_thread, inclusive in THRESHOLDS:
        low, high = crosses(cells, threads, threshold, per_thread, inclusive)
        if low is None or cells[low].low is None or high / low <= refine_ratio(s):
            continue   # no bracket, or below it a size with no interval (refining cannot decide), or narrow enough
        z = zones_of(threads, int(round(math.sqrt(low * high))))
        if low < z < high and z not in cells:
            out.add(z)
    return sorted(out)


# ---- the cost: each process's estimate (the suite's model), and the plan's at most -------------------------
def process_seconds(s: Settings, constants: Dict[str, float], threads: int, zones: int) -> float:
    from ..core.estimate import Model
    rows = [{"runs": "default", "role": "reference", "threads": "one"}] + \
        [{"runs": "default", "role": "checked", "threads": "team"}] * (1 + len(s.schedules))
    parts, zpp = shape(threads, zones)
    return Model(constants, s.cores, rows, []).mesh_exact([threads, 1, parts, zpp, 32, 1, s.time_scale])


def worst_case(s: Settings, constants: Dict[str, float]) -> Tuple[int, float, List[str]]:
    """(processes, seconds, lines) of the plan's likely most: every geometric size for every team, then
    BISECTIONS bisections of both brackets at the cost of the dearest size (a shape that rounds may add one)."""
    processes, seconds, lines = 0, 0.0, []
    for t in s.teams:
        sizes = sorted(set(zones_of(t, z) for z in geometric(s)))
        each = [process_seconds(s, constants, t, z) for z in sizes]
        refine = len(THRESHOLDS) * s.bisections * s.replicates
        team_s = s.replicates * sum(each) + refine * max(each)
        processes += s.replicates * len(sizes) + refine
        seconds += team_s
        lines.append("  team %3d: %d sizes (%d .. %d zones) x %d processes, then at most %d refining processes: ~%s"
                     % (t, len(sizes), sizes[0], sizes[-1], s.replicates, refine, mmss(team_s)))
    return processes, seconds, lines


def mmss(seconds: float) -> str:
    return "%02d:%02d" % (int(seconds) // 60, int(seconds) % 60)


def dry_run(s: Settings, constants: Dict[str, float]) -> str:
    n, secs, lines = worst_case(s, constants)
    out = ["Grain plan: %d team sizes (%s) on %d cores; Static OMP%s against Serial Ref; %d processes per loop size; "
           "timeScale %d (fixed total work)" % (len(s.teams), ",".join(map(str, s.teams)), s.cores,
                                                "".join(" and " + x for x in s.schedules), s.replicates, s.time_scale),
           "Loop sizes: %s zones (x%d), each team stopping at its first size whose efficiency interval lies above "
           "%d%%; then %d geometric bisection%s of each bracket" % (
               ", ".join(str(z) for z in geometric(s)), s.factor, round(STOP_EFFICIENCY * 100), s.bisections,
               "" if s.bisections == 1 else "s")]
    out += lines
    out.append("Model: the suite's (results/clomp_results/core/estimate.py), constants not calibrated: the 2-core VM's; "
               "regions %g us per loop at any team; %g s of set-up per process (%s)" % (
                   constants.get("REGION_US", 0.0), constants.get("PROCESS_SECONDS", 0.0), SETUP_SOURCE))
    out.append("Estimated total: at most %d processes, ~%s (mm:ss)%s; nothing was run." % (n, mmss(secs), cap_words(s, secs)))
    return "\n".join(out) + "\n"


SETUP_SOURCE = "clomp's own set-up, start and exit, measured on the 2-core VM at load 9-12, not idle: docs/suite.md"


def cap_words(s: Settings, seconds: float) -> str:
    """What the time cap does to a plan of SECONDS: it stops the search only when the plan would outlast it."""
    if s.minutes is None:
        return ""
    if seconds > s.minutes * 60:
        return "; the time cap of %g min stops it first (nothing launched after it; the report says so)" % s.minutes
    return "; within the time cap of %g min" % s.minutes


# ---- the stages ------------------------------------------------------------------------------------------
def record_name(stem: str, threads: int, zones: int, replicate: int) -> str:
    return "%s_t%dz%dr%d.json" % (stem, threads, zones, replicate)


def stage_order(s: Settings, cells: List[Tuple[int, int]]) -> List[Tuple[int, int, int]]:
    """One stage's processes (threads, zones, replicate) in the order run: REPLICATES rounds over CELLS
    [(threads, zones)], forward then backward."""
    return [(t, z, r) for r in range(1, s.replicates + 1) for t, z in (cells if r % 2 else list(reversed(cells)))]


def stage(s: Settings, stem: str, cells: List[Tuple[int, int]], constants: Dict[str, float]) -> List[str]:
    """The run lines of one stage (stage_order's processes)."""
    lines = []
    for t, z, r in stage_order(s, cells):
        parts, zpp = shape(t, z)
        limit = max(120, int(10 * process_seconds(s, constants, t, z)))
        args = ["--schedules=" + ",".join(("serial", "static") + s.schedules), str(t), "1", str(parts), str(zpp),
                "32", "1", str(s.time_scale)]
        lines.append("\t".join(["run", str(limit), record_name(stem, t, z, r)] + args))
    return lines


def load_plan(stem: str) -> dict:
    with open(stem + ".plan", encoding="utf-8") as f:
        return json.load(f)


def settings_of(plan: dict) -> Settings:
    return Settings(**dict((k, tuple(v) if isinstance(v, list) else v) for k, v in plan["settings"].items()))
