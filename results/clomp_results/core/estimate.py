"""The estimate of each run of a suite, and the dry run's listing (docs/suite.md,
"The dry run's estimate"): ``clomp-results estimate --seconds|--listing EXE CORES
NAME=VALUE...`` reads the suite's plan on standard input as JSON, the plan of
the suite manifest (docs/suite-manifest.md; suite/manifest.sh manifest_plan
writes both): ``{"plan": [{"set", "args": [7 texts], "options": [clomp's
options before them], "launch": [the words before those: launchers and the
executable]}, ...]}``, and prints each run's estimated seconds, one a line in the same
order (--seconds); with --listing, the dry run's lines: each run with its command, estimate
and memory, then the estimated total. NAME=VALUE are the model's constants
(suite/calibrate.sh's: the 2-core VM's, or fit to this node). Exit 0; 3 when
EXE runs but does not list its schedules and constructs (--list-schedules,
--list-constructs: built from older sources); an EXE not built yet gets
``?`` for every run (the estimate counts its measurements from its tables).

The model: clomp sizes the work of each measurement to about 1e7 x
timeScale zone updates (iterations x 10 subcycles x zones x flopScale), each
a dependent multiply and subtract (ZONE_NS_*, more once the mesh leaves the
caches, where the team's speedup is MEMORY_SPEEDUP per thread); the default
sequence's reference (Serial Ref) runs on one thread, its parallel
measurements (Bestcase and the checked schedules, the nested ones from 4
threads, the smallest nested shape 2x2) on min(T, cores), plus their
parallel regions (REGION_US per subcycle each on average: Static and Manual
about 0.4, Dynamic 3, Bestcase none; where the calibration fitted it over team
sizes, REGION_US + REGION_SLOPE x log2 T or x T at the run's team, REGION_FIT
saying which; a third of that on one thread, tenfold when the threads
outnumber the cores) and its probes on the team of PROBE_US
per subcycle (at least 1000 subcycles each). The measurements are counted by
role and threads in clomp --list-schedules, the construct rows by kind in
--list-constructs: a row added to clomp's tables is counted with no edit
here. Untimed: the mesh build (BUILD_NS_PER_BYTE; first touch), per
measurement the warm-up (two iterations, none for a mesh whose iteration
touches over 64 MiB, which warms up on a small one), the reset and the
checks (one pass per chunk, up to 20, and a checksum pass), and the
process's set-up (PROCESS_SECONDS, and SETUP_NS_PER_BYTE for the chunk
plan's serial sweeps and the page locality).
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from typing import Dict, List, Optional, Tuple

# A construct instance's least cost (us), tenfold when a level's threads outnumber the cores.
CONSTRUCT_INSTANCE_US = 35.0
# One target region's launch (us per subcycle): the host plugin's, measured on the 2-core VM.
OFFLOAD_LAUNCH_US = 35.0
# clomp --limits' defaults (cli/limits_options.c: --limits-reps, --limits-time, --limits-trips), and one
# round trip of a cache line: 0.5 us, the top of what docs/limits.md quotes (71-497 ns on this VM).
LIMITS_REPS, LIMITS_TARGET_US, LIMITS_TRIPS, LIMITS_TRIP_US = 20, 1000.0, 2048, 0.5


def listing_rows(text: str) -> List[Dict[str, str]]:
    """The rows of a clomp --list-schedules or --list-constructs table, cells by column name."""
    lines = text.splitlines()
    if not lines:
        return []
    header = lines[0][2:].split("\t") if lines[0].startswith("# ") else lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]]


def listings(exe: str) -> Optional[List[List[Dict[str, str]]]]:
    """[schedule rows, construct rows] of EXE, or None when it lists none."""
    out = []
    for option in ("--list-schedules", "--list-constructs"):
        try:
            text = subprocess.run([exe, option], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  stdin=subprocess.DEVNULL, timeout=60, check=False).stdout.decode("utf-8", "replace")
        except (OSError, subprocess.SubprocessError):
            return None
        first = text.split("\n", 1)[0]
        if not first.startswith("# key") or (option == "--list-schedules" and "\tthreads" not in first) \
                or (option == "--list-constructs" and not first.startswith("# key\t")):
            return None
        out.append(listing_rows(text))
    return out


def options_of(text: str) -> Dict[str, str]:
    """--NAME=VALUE words of a run's clomp options."""
    return dict(w[2:].split("=", 1) for w in text.split() if w.startswith("--") and "=" in w)


def count_list(text: str) -> int:
    return len(text.split(",")) if text else 0


class Model:
    def __init__(self, constants: Dict[str, float], cores: int, schedules: List[Dict[str, str]],
                 constructs: List[Dict[str, str]], region_fit: str = "constant"):
        self.c = constants
        self.cores = cores
        self.constructs = constructs
        self.region_fit = region_fit

        self.schedules = schedules
        self.serial, self.team, self.nested, self.probes = self.counts(None)

    def counts(self, keys: Optional[set]) -> Tuple[int, int, int, int]:
        """(reference, team, nested, probes): the measurements of the default sequence, or of a --schedules
        list of keys (the reference always runs), counted by role and threads in clomp --list-schedules."""
        def count(*roles: str, threads=None, not_threads=None) -> int:
            return sum(1 for r in self.schedules if r.get("role", "") in roles
                       and (r.get("runs", "") == "default" if keys is None
                            else r.get("key", "") in keys or r.get("role", "") == "reference")
                       and (threads is None or r.get("threads", "") == threads)
                       and (not_threads is None or r.get("threads", "") != not_threads))
        return (count("reference"), count("bestcase", "checked", threads="team"),
                count("bestcase", "checked", threads="nested"), count("probe", not_threads="one"))

    def region_us(self, t: float) -> float:
        """A parallel region's cost (us) at a team of t threads, at most the cores: REGION_US + REGION_SLOPE x
        log2 T or x T, as suite/calibrate.sh fitted it (REGION_FIT), or REGION_US alone; at least 0.01."""
        team = max(1.0, min(t, self.cores))
        x = math.log2(team) if self.region_fit == "log2" else team if self.region_fit == "linear" else 0.0
        return max(self.c["REGION_US"] + self.c.get("REGION_SLOPE", 0.0) * x, 0.01)

    def mesh_exact(self, a: List[float], keys: Optional[set] = None) -> float:
        """A mesh run's seconds, to 0.1 s: T ALLOC P Z ZONESIZE FLOPSCALE TIMESCALE; keys: its --schedules."""
        c = self.c
        serial, team, nested, probes = self.counts(keys) if keys is not None else \
            (self.serial, self.team, self.nested, self.probes)
        t, p, z, zs, f, ts = a[0], a[2], a[3], a[4], a[5], a[6]
        cores = self.cores
        if t < 1:
            t = cores
        zones = p * z
        nbytes = zones * (zs if zs > 32 else 32)
        it = 1e6 * ts / (zones * f)
        iterations = it if it == int(it) else int(it) + 1
        subcycles = iterations * 10
        updates = subcycles * zones * f
        in_memory = nbytes > 8 * 1048576
        ns = (c["ZONE_NS_MEMORY"] if in_memory else c["ZONE_NS_CACHED"]) * 1e-9
        eff = t if t < cores else cores
        if in_memory and eff > 1:
            eff *= c["MEMORY_SPEEDUP"]
        scale = 10 if t > cores else (1 / 3 if t == 1 else 1)
        parallel = team + (nested if t >= 4 else 0)
        probe_subcycles = (100 if iterations < 100 else iterations) * 10
        timed = serial * updates * ns + parallel * updates * ns / eff \
            + (subcycles * parallel * self.region_us(t) + probe_subcycles * probes * c["PROBE_US"]) * scale * 1e-6
        one_pass = zones * f * ns / eff
        chunks = iterations if iterations < 20 else 20
        warm = 0 if zones * 32 > 64 * 1048576 else 2 * updates * ns / iterations
        untimed = (serial + parallel) * (warm + one_pass + (chunks + 1) * one_pass) \
            + nbytes * (c["BUILD_NS_PER_BYTE"] + c["SETUP_NS_PER_BYTE"]) * 1e-9 + c["PROCESS_SECONDS"]
        return float("%.1f" % (timed + untimed))

    def mesh(self, a: List[float]) -> int:
        return whole(self.mesh_exact(a))

    def construct(self, set_name: str, t: int, opts: Dict[str, str]) -> int:
        """A construct run: per level, the sync rows (task rows, and data rows once per array size,
        counted with them) of (2 reps: each repetition's count is twice the one that reached TIME, as
        EPCC's getinnerreps + 4 calibration: each doubling count timed 3 times, about 6 TIME, and the
        checks) x (reference + test) of TIME each, at least 10 instances; the loop rows (one per chunk
        for a chunked one) of (2 reps + 1) x (a reference of 128 x threads delays and a test of 128
        delays per thread: one loop reaches TIME, two are timed); level 2 as many rows on its teams."""
        ours = set(opts.get("constructs", "").split(","))
        rows = [r for r in self.constructs if r.get("key", "") in ours]
        sizes = count_list(opts.get("construct-sizes", "")) or 1
        nsync = sum(1 for r in rows if r.get("kind") in ("sync", "task")) \
            + sum(1 for r in rows if r.get("kind") == "data") * sizes
        nloop = sum(1 for r in rows if r.get("kind") == "loop" and r.get("parameter", "") != "n")
        nchunked = sum(1 for r in rows if r.get("kind") == "loop" and r.get("parameter", "") == "n")
        reps, time = float(opts["construct-reps"]), float(opts["construct-time"])
        delay = float(opts["construct-loop-delay"])
        nrows = nloop + nchunked * count_list(opts.get("construct-chunks", ""))
        inst = CONSTRUCT_INSTANCE_US

        def level(n: int, team: int) -> float:
            over = 10 if n > self.cores else 1
            sync = nsync * (2 * reps + 4) * (2 * time if 2 * time > 10 * inst * over else 10 * inst * over)
            loop = nrows * (2 * reps + 1) * (128 * team * delay + 128 * delay * over)
            return (sync + loop) * 1e-6
        outer = inner = 0
        if set_name.startswith("constructs_outer"):
            outer, inner = int(set_name[len("constructs_outer"):]), t
        elif t >= 4:   # Nested OMP's default shape: two halves
            outer, inner = 2, t // 2
        secs = self.c["PROCESS_SECONDS"] + level(t, t)
        if outer >= 2 and inner >= 2:
            secs += level(outer * inner, inner)
        return whole(secs)

    def offload(self, set_name: str, a: List[float], opts: Dict[str, str]) -> int:
        """A mesh run's estimate (which counts more schedules than these run) plus, for Offload OMP, a
        launch per subcycle; for the target probes, per row and parameter (7 rows, 4 of them per map size,
        the reduction per array size), (2 reps + 4) x (reference + test) of the construct time or 10
        instances, whichever is longer."""
        mesh = self.mesh(a)
        if set_name != "offload_probes":
            return whole(mesh + 1e7 * a[6] / (a[2] * a[3] * a[5]) * OFFLOAD_LAUNCH_US * 1e-6)
        rows = 7 + 4 * count_list(opts.get("construct-chunks", "")) + count_list(opts.get("construct-sizes", ""))
        reps, time = float(opts["construct-reps"]), float(opts["construct-time"])
        each = 2 * time if 2 * time > 10 * CONSTRUCT_INSTANCE_US else 10 * CONSTRUCT_INSTANCE_US
        return whole(mesh + rows * (2 * reps + 4) * each * 1e-6)

    def limits(self, t: int, opts: Dict[str, str]) -> float:
        """clomp --limits (docs/limits.md): per repetition (and 2 calibrations) six barriers and fork/joins
        of 2-4 x the target time each (3 on average), and the round trips of every pair of the team's CPUs
        (LIMITS_TRIP_US each); tenfold when the team outnumbers the cores."""
        team = t if t >= 1 else self.cores
        reps = float(opts.get("limits-reps", LIMITS_REPS))
        target = float(opts.get("limits-time", LIMITS_TARGET_US))
        trips = float(opts.get("limits-trips", LIMITS_TRIPS))
        secs = (reps + 2) * 6 * 3 * target * 1e-6 + team * (team - 1) / 2 * trips * LIMITS_TRIP_US * 1e-6
        return secs * (10 if team > self.cores else 1)

    def run(self, set_name: str, args: List[str], options: List[str]) -> int:
        """A run's estimate (whole seconds) from its set, clomp's seven inputs and its clomp options."""
        a = [float(w) for w in args]
        opts = options_of(" ".join(options))
        extra = whole(self.limits(int(a[0]), opts)) if "--limits" in options else 0
        if set_name == "constructs" or set_name.startswith("constructs_outer"):
            return self.construct(set_name, int(a[0]), opts) + extra
        if set_name in ("offload", "offload_probes") or set_name.startswith("offload_zpp"):
            return self.offload(set_name, a, opts) + extra
        if "schedules" in opts:   # the team-size cliff's runs (suite/cliff.sh): only what they measure
            return whole(self.mesh_exact(a, set(opts["schedules"].split(",")))) + extra
        return self.mesh(a) + extra


def whole(seconds: float) -> int:
    """Seconds rounded to whole, at least 1."""
    r = int(seconds + 0.5)
    return 1 if r < 1 else r


def read_plan(text: str) -> List[Dict]:
    """The plan entries of a JSON document {"plan": [...]} (the manifest's, with each run's launch words):
    each with set, args (7 texts), options and launch (lists of texts). ValueError when it is not one."""
    doc = json.loads(text)
    plan = doc.get("plan") if isinstance(doc, dict) else None
    if not isinstance(plan, list):
        raise ValueError("not a plan document: no \"plan\" list")
    for entry in plan:
        ok = isinstance(entry, dict) and isinstance(entry.get("set"), str)
        for member, n in (("args", 7), ("options", None), ("launch", None)):
            words = entry.get(member, []) if ok else None
            ok = ok and isinstance(words, list) and all(isinstance(w, str) for w in words) and (n is None or len(words) == n)
        if not ok:
            raise ValueError("a plan entry is not {set, args [7 texts], options, launch}")
    return plan


def listing(plan: List[Dict], estimates: List[str], exe: str) -> str:
    """The dry run's lines: [k/N] SET LAUNCH OPTIONS ARGS  ~SECONDSs  BYTES bytes, then the total."""
    out = []
    for k, (entry, secs) in enumerate(zip(plan, estimates), 1):
        args = entry["args"]
        p, z, zone_size = (int(w) for w in args[2:5])
        out.append("[%d/%d] %-10s %s %s  ~%ss  %d bytes" % (k, len(plan), entry["set"],
                                                           " ".join(list(entry.get("launch", [])) + list(entry.get("options", []))),
                                                           " ".join(args), secs, p * z * zone_size + 72 * p))
    if "?" in estimates:
        out.append("Estimated total: unknown: %s is not built yet, and the estimate counts its measurements from its "
                   "own tables (make, then --dry-run again); nothing was run." % exe)
    else:
        total = sum(int(s) for s in estimates)
        out.append("Estimated total: ~%02d:%02d (mm:ss); nothing was run." % (total // 60, total % 60))
    return "\n".join(out) + "\n"


def main(argv: List[str]) -> int:
    if len(argv) < 3 or argv[0] not in ("--seconds", "--listing"):
        print("usage: clomp-results estimate --seconds|--listing EXE CORES NAME=VALUE... <PLAN.json", file=sys.stderr)
        return 2
    show, argv = argv[0] == "--listing", argv[1:]
    exe, cores = argv[0], int(argv[1] or 1)
    words = dict(w.split("=", 1) for w in argv[2:])
    region_fit = words.pop("REGION_FIT", "constant")
    constants = {k: float(v) for k, v in words.items()}
    try:
        plan = read_plan(sys.stdin.read())
    except ValueError as e:
        print("clomp-results estimate: %s" % e, file=sys.stderr)
        return 2
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        estimates = ["?"] * len(plan)
    else:
        tables = listings(exe)
        if tables is None:
            return 3
        model = Model(constants, cores, tables[0], tables[1], region_fit)
        estimates = ["%d" % model.run(e["set"], e["args"], e.get("options", [])) for e in plan]
    sys.stdout.write(listing(plan, estimates, exe) if show else "".join(e + "\n" for e in estimates))
    return 0
