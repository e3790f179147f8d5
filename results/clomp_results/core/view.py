"""What the charts and the HTML report read: each run's figures by name.

The renderers never read a file: they read these views, which are built from
the suite's records (one row per measurement of a run, one per construct
level: clomp's own CSV/JSON members by name).  A figure that is missing,
not a number, or flagged invalid by its run is None here, never guessed.
"""
import math
from collections import OrderedDict

ARG_NAMES = ("numThreads", "allocThreads", "numParts", "zonesPerPart", "zoneSize", "flopScale", "timeScale")


def num(value):
    """A finite float, or None (empty, text, NaN, inf, bool)."""
    if value is None or isinstance(value, bool):
        return None
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def integer(value):
    """An int written as decimal digits (an optional sign), or None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    s = str(value if value is not None else "").strip()
    if s[:1] in "+-":
        body = s[1:]
    else:
        body = s
    if not body.isdigit() or not body.isascii():
        return None
    return int(s)


def flag_false(value):
    """True when a record's `valid` member says the figure is not a result."""
    return value is False or str(value).strip().lower() in ("0", "false", "no")


class Figure(object):
    """One measurement of one run."""
    __slots__ = ("key", "name", "role", "us_per_loop", "us_ci", "speedup", "efficacy", "overhead", "overhead_ci",
                 "resolution", "percent", "percent_ci", "cycles", "valid", "invalid_reason")

    def __init__(self, row):
        self.key = str(row.get("key") or "")
        self.name = str(row.get("name") or self.key)
        self.role = str(row.get("role") or "")
        self.valid = not flag_false(row.get("valid", True))
        self.invalid_reason = str(row.get("invalid_reason") or "") or None
        keep = (lambda v: v) if self.valid else (lambda v: None)
        self.us_per_loop = keep(num(row.get("us_per_loop")))
        self.us_ci = keep(pair(row.get("us_per_loop_ci_low"), row.get("us_per_loop_ci_high")))
        self.speedup = keep(num(row.get("speedup")))
        self.efficacy = keep(num(row.get("efficacy_percent")))
        self.overhead = keep(num(row.get("overhead_us")))
        self.overhead_ci = keep(pair(row.get("overhead_ci_low"), row.get("overhead_ci_high")))
        self.resolution = str(row.get("overhead_resolution") or "")
        self.percent = keep(num(row.get("overhead_percent_of_loop")))
        self.percent_ci = keep(pair(row.get("overhead_percent_ci_low"), row.get("overhead_percent_ci_high")))
        self.cycles = keep(num(row.get("us_per_loop_cycles")))


def pair(low, high):
    lo, hi = num(low), num(high)
    return (lo, hi) if lo is not None and hi is not None else None


class MeshRun(object):
    """One run of the mesh (a process of clomp): its inputs, status and figures in table order."""

    def __init__(self, number, set_name, rows):
        first = rows[0]
        self.number = number
        self.set = set_name
        self.status = str(first.get("run_status") or "")
        self.numa = str(first.get("numa") or "")
        self.args = [str(first.get(a) or "") for a in ARG_NAMES]
        self.threads = integer(first.get("numThreads"))
        self.alloc = integer(first.get("allocThreads"))
        parts, zpp = integer(first.get("numParts")), integer(first.get("zonesPerPart"))
        self.total_zones = parts * zpp if parts is not None and zpp is not None else None
        self.ghz = num(first.get("ghz"))
        self.clock = str(first.get("cycle_clock") or "")
        self.core_ghz = (num(first.get("core_clock_min_ghz")), num(first.get("core_clock_max_ghz")))
        self.rows = rows
        self.figures = OrderedDict((str(r.get("key") or ""), Figure(r)) for r in rows)

    @property
    def ok(self):
        return self.status == "OK"

    def figure(self, key):
        return self.figures.get(key)

    def with_role(self, *roles):
        """The figures whose role is one of ROLES, in the record's table order."""
        return [f for f in self.figures.values() if f.role in roles]


def mesh_runs(rows):
    """MeshRun per run, in run order, from measurement rows (dicts by column name)."""
    by_run = OrderedDict()
    for r in rows:
        n = integer(r.get("run"))
        if n is None:
            continue
        by_run.setdefault(n, []).append(r)
    return [MeshRun(n, str(rs[0].get("set") or ""), rs) for n, rs in sorted(by_run.items())]


class ConstructLevel(object):
    """One construct at one level of one run (a row of <base>.constructs.csv)."""

    def __init__(self, row, kinds):
        self.run = integer(row.get("run"))
        self.set = str(row.get("set") or "")
        self.run_status = str(row.get("run_status") or "")
        self.construct = str(row.get("construct") or "")
        self.name = str(row.get("construct_name") or self.construct)
        self.kind = str(row.get("kind") or kinds.get(self.construct, ""))
        self.level = integer(row.get("level"))
        self.outer = integer(row.get("outer_threads"))
        self.inner = integer(row.get("inner_threads"))
        self.status = str(row.get("status") or "")
        self.problem = str(row.get("problem") or "")
        self.overhead = num(row.get("overhead_us"))
        self.ci = pair(row.get("overhead_ci95_low_us"), row.get("overhead_ci95_high_us"))
        self.cycles = num(row.get("overhead_cycles"))
        self.ratio = num(row.get("level2_over_level1"))

    @property
    def measured(self):
        return self.status == "measured"


def construct_levels(rows, kinds=None):
    """ConstructLevel per row; KINDS maps a construct key to its kind where a row has none."""
    return [ConstructLevel(r, kinds or {}) for r in rows]
