"""run_clomp.sh --grain: the smallest loop worth threading, per team size (issue 48,
item 1; docs/grain.md); run_clomp.sh hands every --grain command line to
``clomp-results grain-driver``, and the full suite's coarse search
(suite/suite_grain.sh) runs it with CLOMP_GRAIN_SUITE_BASE, into the suite's own
files. This module only launches: grain_plan checks the options, estimates the
plan and chooses each stage's processes from the records of the ones before
(grain_cli.next_stage: geometric steps, then the brackets bisected); grain_report
writes the report. Each process is clomp with Serial Ref and Static OMP (and
--schedules' extras) at one team and loop size; it leaves its JSON record
STEM_t<T>z<Z>r<R>.json, its output in STEM.full and a line in STEM.runs.

Exit 0 done, 1 a process failed (the others still ran and are reported), 2 bad
usage (one line, before anything runs), 3 the plan, clomp-stats or the report
failed; a TERM, HUP or INT stops the running process and the driver dies of it
(driver_guard)."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from typing import Dict, List

from ..core import safe_write, stats_helper
from ..core.driver_files import (TOP, Usage, append, claim_new_id, count_cores, env_header, file_host_name,
                                 help_asked, make_out_dir)
from ..core.driver_guard import SIGNALS, Guard, guarded
from . import grain_cli, grain_report
from .grain_plan import OptionError, Settings, dry_run, parse

USAGE = os.path.join(TOP, "suite", "grain_usage.txt")
# The cost model's constants the plan uses, in this order: suite/calibrate.sh's defaults (the 2-core VM's,
# not calibrated), read from that file so that the suite's dry run and the search's charge the same.
MODEL = ("ZONE_NS_CACHED", "ZONE_NS_MEMORY", "MEMORY_SPEEDUP", "REGION_US", "PROBE_US", "BUILD_NS_PER_BYTE",
         "SETUP_NS_PER_BYTE", "PROCESS_SECONDS")


def model_constants() -> Dict[str, float]:
    """suite/calibrate.sh's NAME=VALUE assignments (its lines of them at the start of a line) for MODEL."""
    found: Dict[str, str] = {}
    with open(os.path.join(TOP, "suite", "calibrate.sh"), encoding="utf-8") as f:
        for line in f:
            if re.fullmatch(r"([A-Z_]+=[0-9.]+ ?)+", line.rstrip("\n")):
                found.update(w.split("=", 1) for w in line.split())
    return dict((name, float(found[name])) for name in MODEL if name in found)


def choose_binding() -> str:
    """Threads bound as `make run` binds them (suite/binding.sh's choose_binding): OMP_PROC_BIND=close and
    OMP_PLACES=cores set in this environment where it left them unset, neither where GOMP_CPU_AFFINITY or
    KMP_AFFINITY already places the threads; the .env's and the plan's line saying which."""
    env = os.environ
    placed = [n for n in ("GOMP_CPU_AFFINITY", "KMP_AFFINITY") if env.get(n)]
    if placed:
        return "from the environment: " + " ".join("%s=%s" % (n, env[n]) for n in placed)
    set_here = [n for n, v in (("OMP_PROC_BIND", "close"), ("OMP_PLACES", "cores")) if not env.get(n)]
    for name in set_here:
        env[name] = {"OMP_PROC_BIND": "close", "OMP_PLACES": "cores"}[name]
    line = "OMP_PROC_BIND=%s OMP_PLACES=%s" % (env["OMP_PROC_BIND"], env["OMP_PLACES"])
    line += (" (%s set by the suite, as make run does; export them to choose)" % " ".join(set_here) if set_here
             else " (from the environment)")
    return "threads not bound: " + line if env["OMP_PROC_BIND"].lower() == "false" else line


def executable(exe: str) -> str:
    """EXE as the process runs it: a bare name is a file here if there is one, else a command on PATH (as
    the suite's EXE); ./clomp in the source tree is built when it is not there."""
    if "/" not in exe:
        exe = "./" + exe if os.path.lexists("./" + exe) else (shutil.which(exe) or "./" + exe)
    if not os.access(exe, os.X_OK) and exe == "./clomp" and os.path.realpath(".") == os.path.realpath(TOP):
        sys.stdout.flush()
        if subprocess.run(["make", "clomp"], stdout=sys.stderr, stdin=subprocess.DEVNULL).returncode != 0:
            raise Usage("could not build ./clomp")
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        raise Usage("--grain: EXE: '%s' is not an executable file" % exe)
    return exe


def run_stage(guard: Guard, exe: str, stem: str, lines: List[str], counts: List[int], deadline: List[int]) -> None:
    """One stage's processes, none started after the time cap's deadline; COUNTS: [run, failed]."""
    out_path = os.path.join(guard.tmp, "out")
    for line in lines:
        words = line.split("\t")
        if words[0] == "deadline":
            deadline[:] = [int(words[1])]
            continue
        if deadline and int(time.time()) >= deadline[0]:
            break
        limit, record, args = int(words[1]), words[2], words[3:]
        counts[0] += 1
        shown = " ".join([exe] + args + ["--json=" + record])
        sys.stderr.write("[%d] %s\n" % (counts[0], shown))
        sys.stderr.flush()
        began = time.time()
        with open(out_path, "wb") as out:
            rc = guard.run([exe] + args + ["--json=" + record], stdout=out, stderr=out, partial=[record], limit=limit)
        seconds = time.time() - began
        counts[1] += rc != 0
        with open(out_path, "rb") as f:
            output = f.read()
        # The process's section and its line together: a stop signal waits until both are written.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
        try:
            append(stem + ".full", b"=== process %d: %s\n" % (counts[0], os.fsencode(shown)) + output
                   + b"=== end of process %d: exit status %d\n" % (counts[0], rc))
            append(stem + ".runs", os.fsencode("%s\t%d\t%.3f\n" % (record, rc, seconds)))
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def grain(guard: Guard, argv: List[str]) -> int:
    try:
        s: Settings = parse(count_cores(), argv)
    except OptionError as e:   # its values already escaped (for_terminal): printed as it is
        sys.stderr.write("run_clomp.sh: %s\n" % e)
        return 2
    constants = model_constants()
    if s.dry_run:
        sys.stdout.write(dry_run(s, constants))
        return 0
    exe = executable(s.exe)
    helper = stats_helper.find()
    if not os.access(helper, os.X_OK):
        raise Usage("--grain: clomp-stats could not be built", status=3)
    binding = choose_binding()
    suite_base = os.environ.get("CLOMP_GRAIN_SUITE_BASE")
    if suite_base:
        base = suite_base   # run_clomp.sh's full suite (suite/suite_grain.sh): the suite's own files and ID
    else:
        make_out_dir(s.out)
        base = claim_new_id(s.out, file_host_name())
    stem = base + "_grain"
    if not suite_base:
        env_header(base, ["grain: %s (.txt .csv .json .html .full; each process's record %s_t<T>z<Z>r<R>.json)"
                          % (stem, stem)])
        append(base + ".env", os.fsencode("---- thread binding: %s\n" % binding))
    try:
        grain_cli.start(stem, s, binding, constants)
    except (OSError, safe_write.UnsafeTarget) as e:
        raise Usage("--grain: %s: %s" % (stem + ".plan", e)) from None

    counts, deadline = [0, 0], []   # [processes run, failed]; the time cap's deadline (epoch), once known
    while True:
        try:
            lines = grain_cli.next_stage(stem, helper)
        except (OSError, ValueError, KeyError, IndexError, stats_helper.StatsError) as e:
            raise Usage("--grain: the plan failed: %s" % e, status=3) from None
        if not lines:
            break
        run_stage(guard, exe, stem, lines, counts, deadline)
    sys.stdout.flush()
    if grain_report.main([stem, helper]) != 0:
        return 3
    print("Files: %s.txt %s.csv %s.json %s.html %s.full %s.env" % (stem, stem, stem, stem, stem, base))
    if counts[1]:
        sys.stdout.flush()
        sys.stderr.write("run_clomp.sh: --grain: %d process(es) failed (left out of the figures; their output is "
                         "in %s.full)\n" % (counts[1], stem))
        return 1
    return 0


def main(argv: List[str]) -> int:
    if help_asked([a for a in argv if a != "--"], USAGE):   # -h or --help anywhere: grain_plan reads no "--"
        return 0
    return guarded("--grain", lambda guard: grain(guard, argv))
