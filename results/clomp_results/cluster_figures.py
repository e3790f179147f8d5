"""The cluster report's key figures, in one place (issue 50): what each node
is judged on, how it is named, and where a clomp JSON record holds it. When
the figure catalogue (`clomp --list-figures`) names these figures, its keys
and labels replace this list; nothing else in the cluster report names a
figure.

Each figure is judged by the outlier rule (timing/outlier_rule.h) within its
group of comparable nodes, two-sided (a node faster than its peers is as odd
as a slower one: a different BIOS setting, a different turbo state). The
floor says what difference is too small to matter: a share of the group's
median of the figure itself, or - for an overhead, which is a difference of
two loop times - of the group's median Serial Ref us/Loop, as the MPI rank
table does (RANK_OUTLIER_FLOOR in measure/record.h).
"""
from __future__ import annotations

from collections import namedtuple
from typing import Dict, Optional, Tuple

# key: the figure's name in summaries, CSV and JSON; label and unit: the text's;
# measurement and member: where one clomp JSON record has it (mpi.per_rank's
# measurements, or the record's own measurements); floor: (share, key of the
# figure whose group median it is a share of: the figure's own or another).
Figure = namedtuple("Figure", "key label unit measurement member floor")

FIGURES = [
    Figure("serial_us", "Serial Ref", "us/Loop", "serial", "us_per_loop", (0.01, "serial_us")),
    Figure("static_overhead_us", "Static OMP overhead", "us/Loop", "static", "overhead_us_per_loop", (0.01, "serial_us")),
    Figure("barrier_us", "OMP Barrier", "us", "barrier", "us_per_loop", (0.01, "barrier_us")),
    Figure("fork_join_us", "OMP Parallel (fork/join)", "us", "parallel", "us_per_loop", (0.01, "fork_join_us")),
    # Serial Ref's us/Loop over Static OMP's: the target input's speed-up (no member of its own per rank).
    Figure("static_speedup", "Static OMP speed-up", "x", "static", None, (0.01, "static_speedup")),
]
KEYS = [f.key for f in FIGURES]
BY_KEY = {f.key: f for f in FIGURES}

# What makes two nodes comparable: they are judged against each other only when all of these agree.
FACTS = ("cpu_model", "cores", "memory_gib", "runtime", "plan")
FACT_LABELS = {"cpu_model": "CPU", "cores": "cores", "memory_gib": "memory GiB", "runtime": "runtime",
               "plan": "plan"}


def _interval_half(ci) -> Optional[float]:
    if isinstance(ci, list) and len(ci) == 2 and all(isinstance(v, (int, float)) for v in ci):
        return 0.5 * (float(ci[1]) - float(ci[0]))
    return None


def _number(v) -> Optional[float]:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def rank_figures(measurements) -> Dict[str, Tuple[Optional[float], Optional[float]]]:
    """One rank's key figures from its mpi.per_rank measurements: key -> (value, half-width of its own
    95% interval, within the rank's process: its chunks). A measurement its record marks not a result
    (valid false) or did not complete gives no figure (None)."""
    by_key = {}
    for m in measurements if isinstance(measurements, list) else []:
        if isinstance(m, dict) and isinstance(m.get("key"), str):
            by_key[m["key"]] = m
    out: Dict[str, Tuple[Optional[float], Optional[float]]] = {}
    for f in FIGURES:
        m = by_key.get(f.measurement)
        if f.key == "static_speedup":
            serial = by_key.get("serial")
            s = _number(serial.get("us_per_loop")) if serial and serial.get("valid") is not False else None
            t = _number(m.get("us_per_loop")) if m and m.get("valid") is not False else None
            out[f.key] = (s / t if s is not None and t else None, None)
            continue
        if m is None or m.get("valid") is False:
            out[f.key] = (None, None)
            continue
        ci = m.get("overhead_ci_95" if f.member == "overhead_us_per_loop" else "us_per_loop_ci_95")
        out[f.key] = (_number(m.get(f.member)), _interval_half(ci))
    return out
