"""The dry run's cost model fit to this node (suite/calibrate.sh, docs/suite.md,
"The dry run's estimate").

``clomp-results calibration --run EXE THREADS CORES LOAD [LAUNCHER...]``
runs the calibration's clomp processes (below; each stopped after
CALIBRATION_LIMIT seconds) in a temporary directory (suite/calibrate.sh has
refused a busy node and a team above the cores) and prints, one a line:
``head=`` the note's first words (calibrated in S s at load L, or not and
why), and when calibrated ``regions=`` the region cost's text and the model's
constants as NAME=VALUE. Exit 0 either way.
``clomp-results calibration MEMORY CORES CACHED...`` reads the calibration
runs' JSON records (the memory run, and the cached runs at a few team sizes)
and prints the model's constants as NAME=VALUE words; exit 1 (nothing
printed) when a figure is missing or not positive. The
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
import os
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional, Tuple

from ..grain.grain_plan import shape

# The calibration's clomp processes (about 1e7 zone updates per measurement, a fraction of a second each
# on an idle node; each stopped after CALIBRATION_LIMIT seconds): the target input's schedules and probes
# on a mesh in the caches at timeScale 1 (zone update time, regions, probes) at a few team sizes
# (calibration_teams: the region cost is fitted over them), and Serial Ref and Bestcase on an 80 MiB mesh
# whose parts follow the team (zone update time from memory, the team's speedup there, first-touch build
# time).
CALIBRATION_LIMIT = 5
CALIBRATION_MEMORY_ZONES = 2621440
CALIBRATION_CACHED = ["--trials=1", "--schedules=serial,bestcase,static,dynamic,manual,barrier,parallel,parallel_for"]
CALIBRATION_MEMORY = ["--trials=1", "--schedules=serial,bestcase"]


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


def calibration_teams(t: int) -> List[int]:
    """The team sizes of the cached runs: 2, T/4, T/2 and T (T = MAX_THREADS), each once."""
    if t < 2:
        return [t]
    out: List[int] = []
    for n in (2, t // 4, t // 2, t):
        if 2 <= n <= t and n not in out:
            out.append(n)
    return out


def _clomp(words: List[str]) -> bool:
    """Whether one calibration process ran to its end, stopped as timeout(1) stops one: SIGTERM at the
    limit (a launcher in WORDS passes it on), then waited for."""
    try:
        process = subprocess.Popen(words, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
    except OSError:
        return False
    try:
        return process.wait(timeout=CALIBRATION_LIMIT) == 0
    except subprocess.TimeoutExpired:
        process.terminate()
        process.wait()
        return False


def _constants(exe: str, threads: int, cores: int, launch: List[str], tmp: str) -> Optional[Dict[str, str]]:
    """The model's constants from this node's calibration runs, or None when a run or a figure failed."""
    cached = []
    for t in calibration_teams(threads):
        parts, zpp = shape(t, 6400, 64)
        path = os.path.join(tmp, "cached%d.json" % t)
        if not _clomp(launch + [exe] + CALIBRATION_CACHED + ["--json=" + path, str(t), "1", str(parts), str(zpp),
                                                             "32", "1", "1"]):
            break
        cached.append(path)
    if not cached or not os.path.isfile(cached[-1]) or os.path.getsize(cached[-1]) == 0:
        return None
    memory = os.path.join(tmp, "memory.json")
    parts, zpp = shape(threads, CALIBRATION_MEMORY_ZONES, 16)
    if not _clomp(launch + [exe] + CALIBRATION_MEMORY + ["--json=" + memory, str(threads), "1", str(parts), str(zpp),
                                                         "32", "1", "1"]):
        return None
    words = constant_words([memory, str(cores)] + cached)
    return dict(w.split("=", 1) for w in words) if words else None


def region_text(constants: Dict[str, str], teams: List[int]) -> str:
    """The region cost as the note states it: its fit over team sizes T."""
    fitted = "(fitted over T = %s)" % ",".join(str(t) for t in teams)
    if constants["REGION_FIT"] == "log2":
        return "%s + %s x log2(T) us %s" % (constants["REGION_US"], constants["REGION_SLOPE"], fitted)
    if constants["REGION_FIT"] == "linear":
        return "%s + %s x T us %s" % (constants["REGION_US"], constants["REGION_SLOPE"], fitted)
    return "%s us at any team size" % constants["REGION_US"]


def run(argv: List[str]) -> int:
    """--run EXE THREADS CORES LOAD [LAUNCHER...]: the calibration on this node, or why it failed."""
    exe, threads, cores, load, launch = argv[0], int(argv[1]), int(argv[2]), argv[3], argv[4:]
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        constants = _constants(exe, threads, cores, launch, tmp)
    if constants is None:
        print("head=not calibrated (the calibration runs of %s failed or took over %d s (a busy node?)): the constants"
              " of the 2-core VM they were fit on" % (exe, CALIBRATION_LIMIT))
        return 0
    print("head=calibrated on this node in %.1f s at load %s (%d threads)" % (time.time() - start, load.split(" ")[0],
                                                                             threads))
    print("regions=" + region_text(constants, calibration_teams(threads)))
    for name, value in constants.items():
        print("%s=%s" % (name, value))
    return 0


def constant_words(argv: List[str]) -> Optional[List[str]]:
    """MEMORY CORES CACHED...: the model's constants from the calibration runs' JSON as NAME=VALUE words,
    or None when a figure is missing or not positive."""
    try:
        docs = []
        for path in [argv[0]] + argv[2:]:
            with open(path) as f:
                docs.append(json.load(f))
        found = figures(docs[0], int(argv[1]), docs[1:])
    except (OSError, ValueError, KeyError, IndexError, TypeError, ZeroDivisionError):
        return None
    numbers = {k: v for k, v in found.items() if k != "REGION_FIT"}
    # The region cost must be positive wherever it is used (the smallest and the largest team fitted).
    teams = [_team(d) for d in docs[1:]]
    ends = [numbers["REGION_US"] + numbers["REGION_SLOPE"] * (math.log2(t) if found["REGION_FIT"] == "log2" else t
                                                              if found["REGION_FIT"] == "linear" else 0)
            for t in (min(teams), max(teams))]
    if not all(v == v and abs(v) < 1e9 for v in numbers.values()) or not all(
            0 < v for k, v in numbers.items() if k not in ("REGION_US", "REGION_SLOPE")) or not all(e > 0 for e in ends):
        return None
    return ["%s=%.4g" % (k, v) for k, v in numbers.items()] + ["REGION_FIT=" + found["REGION_FIT"]]


def main(argv: List[str]) -> int:
    if argv[:1] == ["--run"] and len(argv) >= 5:
        try:
            return run(argv[1:])
        except KeyboardInterrupt:
            return 130
    if len(argv) < 3:
        print("usage: clomp-results calibration MEMORY_JSON CORES CACHED_JSON... | --run EXE THREADS CORES LOAD"
              " [LAUNCHER...]", file=sys.stderr)
        return 2
    words = constant_words(argv)
    if words is None:
        return 1
    print(" ".join(words))
    return 0
