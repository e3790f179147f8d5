"""The machine description against the suite's own facts (issue 45, item 3;
crosscheck.check_machine): _machine/'s lscpu table, lscpu.txt and build.txt
against the manifest's lscpu and build facts (both taken as the suite
started; a description taken later, marked by its NOTE.txt, is not
compared), and each record's online CPUs, compiler, CFLAGS and host against
them (a record's CPUs and host only where no launcher may have run it
elsewhere).
"""
from __future__ import annotations

from typing import Dict, List, Optional

from ..core import manifest
from ..core.records import count_of
from ..core.safe_io import for_terminal
from . import full_text

LSCPU_FIELDS = ("Model name", "CPU(s)", "On-line CPU(s) list", "Socket(s)", "Core(s) per socket", "Thread(s) per core",
                "NUMA node(s)")


def _lscpu(lines) -> Dict[str, str]:
    out: Dict[str, str] = {}
    for line in lines:
        k, sep, v = line.partition(":")
        if sep:
            out.setdefault(k.strip(), v.strip())
    return out


def _cpu_list_count(text: str) -> Optional[int]:
    """How many CPUs a list such as 0-3,8,10-11 names; None when it is not one."""
    n = 0
    for part in text.split(","):
        a, _, b = part.partition("-")
        lo, hi = count_of(a), count_of(b or a)
        if lo is None or hi is None or hi < lo:
            return None
        n += hi - lo + 1
    return n


def _cpu_table(text: str):
    """(online CPUs, cores) of lscpu -p's table (its '# CPU,Core,Socket,Node' comment names the columns)."""
    names: List[str] = []
    cpus, pairs = set(), set()
    for line in text.splitlines():
        if line.startswith("#"):
            cells = [c.strip().lower() for c in line.lstrip("#").split(",")]
            if "core" in cells and "socket" in cells and "cpu" in cells:
                names = cells
            continue
        cells = line.split(",")
        if names and len(cells) == len(names):
            cpus.add(cells[names.index("cpu")])
            pairs.add((cells[names.index("core")], cells[names.index("socket")]))
    return (len(cpus), len(pairs)) if cpus else (None, None)


def compare(suite, say) -> None:
    """The machine description against the manifest's (both taken as the suite started) and the records:
    each difference said through SAY (crosscheck.Said)."""
    source = manifest.source_name(suite)
    env_cpu = _lscpu(suite.env.section("CPU"))
    env_online = _cpu_list_count(env_cpu.get("On-line CPU(s) list", ""))
    per, sockets = count_of(env_cpu.get("Core(s) per socket")), count_of(env_cpu.get("Socket(s)"))
    env_cores = per * sockets if per is not None and sockets is not None else None
    later = "NOTE.txt" in suite.machine     # taken when the bundle was made, not when the suite ran: not compared
    cpus, cores = _cpu_table(suite.machine.get("lscpu-cores.csv", "")) if not later else (None, None)
    machine = "%s_machine/lscpu-cores.csv" % suite.name
    if cpus is not None and env_online is not None and cpus != env_online:
        say("%s lists %d online CPUs, %s's lscpu %d (On-line CPU(s) list)" % (machine, cpus, source, env_online))
    if cores is not None and env_cores is not None and cores != env_cores:
        say("%s has %d cores, %s's lscpu %d (Core(s) per socket x Socket(s))" % (machine, cores, source, env_cores))
    if not later and "lscpu.txt" in suite.machine and env_cpu:
        described = _lscpu(suite.machine["lscpu.txt"].splitlines())
        for field in LSCPU_FIELDS:
            if field in described and field in env_cpu and described[field] != env_cpu[field]:
                say("%s_machine/lscpu.txt says %s '%s', %s's lscpu '%s'" % (suite.name, field, for_terminal(described[field][:80]),
                                                                            source, for_terminal(env_cpu[field][:80])))
    env_build = _lscpu(suite.env.section("build facts"))
    if not later and "build.txt" in suite.machine:
        described = _lscpu(suite.machine["build.txt"].splitlines())
        for field in ("compiler", "CFLAGS", "LDFLAGS"):
            if field in described and field in env_build and described[field] != env_build[field]:
                say("%s_machine/build.txt says %s '%s', %s's build facts '%s'" % (suite.name, field, for_terminal(described[field][:120]),
                                                                                 source, for_terminal(env_build[field][:120])))
    # A launcher (srun, mpirun) may run a record's process on another node: its host and CPUs are compared
    # only when the runs ran where the driver did.
    local = suite.env.facts.get("launcher", "none") == "none" and suite.env.facts.get("mpi launcher", "none") == "none"
    host = suite.env.facts.get("host")
    for run, rec in sorted(suite.records.items()):
        placement = (rec.doc.get("numa") or {}).get("thread_placement") or {}
        online = placement.get("cpus_online")
        for theirs, what in ((cpus, machine), (env_online, source + "'s lscpu")):
            if local and isinstance(online, int) and not isinstance(online, bool) and theirs is not None and online != theirs:
                say("run %d's record counts %d online CPUs, %s %d" % (run, online, what, theirs))
                break
        compiler = full_text.compiler_line(rec.doc.get("build"))
        if compiler is not None and "compiler" in env_build and compiler != env_build["compiler"]:
            say("run %d's record was built with the compiler '%s', %s's build facts say '%s'" % (
                run, for_terminal(compiler[:120]), source, for_terminal(env_build["compiler"][:120])))
        cflags = (rec.doc.get("build") or {}).get("cflags")
        if isinstance(cflags, str) and "CFLAGS" in env_build and cflags.strip() != env_build["CFLAGS"]:
            say("run %d's record was built with CFLAGS '%s', %s's build facts say '%s'" % (
                run, for_terminal(cflags[:120]), source, for_terminal(env_build["CFLAGS"][:120])))
        if local and host is not None and "host" in rec.doc and str(rec.doc.get("host")) != host:
            say("run %d's record ran on host '%s', %s's host is '%s'" % (run, for_terminal(str(rec.doc.get("host"))[:80]),
                                                                        source, for_terminal(host[:80])))
