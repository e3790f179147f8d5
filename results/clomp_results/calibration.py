"""The dry run's cost model fit to this node (suite/calibrate.sh, docs/suite.md,
"The dry run's estimate"): ``clomp-results calibration MEMORY CORES CACHED...``
reads the calibration runs' JSON records (the memory run, and the cached runs
at a few team sizes) and prints the model's constants as NAME=VALUE words;
exit 1 (nothing printed) when a figure is missing or not positive. The
measurements are found by their roles in the record (the reference, Bestcase,
the checked schedules, the probes), never by a list of names here; each run's
team is its own record's numThreads.

The region cost is measured at every cached run's team size T and fitted,
least squares, as a + b log2 T and as a + b T: the one with the smaller
residual is kept (REGION_FIT log2 or linear; with two sizes both pass through
them and log2 is kept, growing the slower beyond them); one size gives a
constant (REGION_FIT constant, REGION_SLOPE 0)."""
from __future__ import annotations

import json
import math
import sys
from typing import Any, Dict, List, Tuple


def _us(doc: Dict[str, Any], role: str) -> List[float]:
    return [float(m["us_per_loop"]) for m in doc["measurements"]
            if m.get("role") == role and m.get("selected", True) and m.get("us_per_loop") is not None]


def _zones(doc: Dict[str, Any]) -> int:
    return int(doc["inputs"]["numParts"]) * int(doc["inputs"]["zonesPerPart"])


def _team(doc: Dict[str, Any]) -> int:
    return int(doc["resolved"]["numThreads"])


def region_us(doc: Dict[str, Any]) -> float:
    """The model's region cost in one run: its parallel measurements' time beyond Bestcase, on average over
    Bestcase (none) and the checked schedules."""
    bestcase, checked = _us(doc, "bestcase")[0], _us(doc, "checked")
    return sum(us - bestcase for us in checked) / (len(checked) + 1)


def fit(points: List[Tuple[int, float]]) -> Tuple[float, float, str]:
    """(a, b, form) of the region cost over (T, us) points: a + b log2 T or a + b T, whichever fits better."""
    if len({t for t, _ in points}) < 2:
        return max(sum(us for _, us in points) / len(points), 0.01), 0.0, "constant"
    best = None
    for form, f in (("log2", math.log2), ("linear", float)):
        xs, ys = [f(t) for t, _ in points], [us for _, us in points]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        a = my - b * mx
        residual = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
        if best is None or residual < best[0] - 1e-12 * (1 + best[0]):
            best = (residual, a, b, form)
    return best[1], best[2], best[3]


def figures(memory: Dict[str, Any], cores: int, cached: List[Dict[str, Any]]) -> Dict[str, Any]:
    largest = max(cached, key=_team)
    team = min(_team(memory), cores)
    serial_memory, bestcase_memory = _us(memory, "reference")[0], _us(memory, "bestcase")[0]
    a, b, form = fit([(_team(doc), region_us(doc)) for doc in cached])
    return {
        "ZONE_NS_CACHED": _us(largest, "reference")[0] * 1000 / _zones(largest),
        "ZONE_NS_MEMORY": serial_memory * 1000 / _zones(memory),
        # the memory run's own team, on a mesh whose parts follow it (every thread a share)
        "MEMORY_SPEEDUP": serial_memory / bestcase_memory / team if team > 1 else 1.0,
        "REGION_US": a if form != "constant" else max(a, 0.01),
        "REGION_SLOPE": b,
        "PROBE_US": sum(_us(largest, "probe")) / len(_us(largest, "probe")),
        "BUILD_NS_PER_BYTE": memory["wall_time"]["mesh_build_seconds"] * 1e9 / memory["resolved"]["memory_bytes"],
        "REGION_FIT": form,
    }


def main(argv: List[str]) -> int:
    if len(argv) < 3:
        print("usage: clomp-results calibration MEMORY_JSON CORES CACHED_JSON...", file=sys.stderr)
        return 2
    try:
        docs = []
        for path in [argv[0]] + argv[2:]:
            with open(path) as f:
                docs.append(json.load(f))
        found = figures(docs[0], int(argv[1]), docs[1:])
    except (OSError, ValueError, KeyError, IndexError, TypeError, ZeroDivisionError):
        return 1
    numbers = {k: v for k, v in found.items() if k != "REGION_FIT"}
    # The region cost must be positive wherever it is used (the smallest and the largest team fitted).
    teams = [_team(d) for d in docs[1:]]
    ends = [numbers["REGION_US"] + numbers["REGION_SLOPE"] * (math.log2(t) if found["REGION_FIT"] == "log2" else t
                                                              if found["REGION_FIT"] == "linear" else 0)
            for t in (min(teams), max(teams))]
    if not all(v == v and abs(v) < 1e9 for v in numbers.values()) or not all(
            0 < v for k, v in numbers.items() if k not in ("REGION_US", "REGION_SLOPE")) or not all(e > 0 for e in ends):
        return 1
    print(" ".join("%s=%.4g" % (k, v) for k, v in numbers.items()) + " REGION_FIT=" + found["REGION_FIT"])
    return 0
