"""The dry run's cost model fit to this node (suite/calibrate.sh, docs/suite.md,
"The dry run's estimate"): ``clomp-results calibration CACHED MEMORY THREADS
CORES`` reads the two calibration runs' JSON records and prints the model's
constants as NAME=VALUE words; exit 1 (nothing printed) when a figure is
missing or not positive. The measurements are found by their roles in the
record (the reference, Bestcase, the checked schedules, the probes), never by
a list of names here."""
from __future__ import annotations

import json
import sys
from typing import Any, Dict, List


def _us(doc: Dict[str, Any], role: str) -> List[float]:
    return [float(m["us_per_loop"]) for m in doc["measurements"]
            if m.get("role") == role and m.get("selected", True) and m.get("us_per_loop") is not None]


def _zones(doc: Dict[str, Any]) -> int:
    return int(doc["inputs"]["numParts"]) * int(doc["inputs"]["zonesPerPart"])


def figures(cached: Dict[str, Any], memory: Dict[str, Any], threads: int, cores: int) -> Dict[str, float]:
    bestcase = _us(cached, "bestcase")[0]
    checked = _us(cached, "checked")
    team = min(threads, cores)
    serial_memory, bestcase_memory = _us(memory, "reference")[0], _us(memory, "bestcase")[0]
    return {
        "ZONE_NS_CACHED": _us(cached, "reference")[0] * 1000 / _zones(cached),
        "ZONE_NS_MEMORY": serial_memory * 1000 / _zones(memory),
        "MEMORY_SPEEDUP": serial_memory / bestcase_memory / team if team > 1 else 1.0,
        # The model's regions: its parallel measurements' time beyond Bestcase, on
        # average over Bestcase (none) and the checked schedules.
        "REGION_US": max(sum(us - bestcase for us in checked) / (len(checked) + 1), 0.01),
        "PROBE_US": sum(_us(cached, "probe")) / len(_us(cached, "probe")),
        "BUILD_NS_PER_BYTE": memory["wall_time"]["mesh_build_seconds"] * 1e9 / memory["resolved"]["memory_bytes"],
    }


def main(argv: List[str]) -> int:
    if len(argv) != 4:
        print("usage: clomp-results calibration CACHED_JSON MEMORY_JSON THREADS CORES", file=sys.stderr)
        return 2
    try:
        with open(argv[0]) as a, open(argv[1]) as b:
            found = figures(json.load(a), json.load(b), int(argv[2]), int(argv[3]))
    except (OSError, ValueError, KeyError, IndexError, TypeError, ZeroDivisionError):
        return 1
    if not all(v == v and 0 < v < 1e9 for v in found.values()):
        return 1
    print(" ".join("%s=%.4g" % (k, v) for k, v in found.items()))
    return 0
