"""What a submission says of its machine and software (the buyer's table's
header, issue 33): lscpu, memory, placement, the OpenMP runtime and the core
clock, read from a suite's machine description, its .env and its records.
Every function takes what the loader read; nothing here opens a file."""
from __future__ import annotations

from typing import Dict

from .view import num


def lscpu(suite) -> Dict[str, str]:
    facts: Dict[str, str] = {}
    lines = suite.machine.get("lscpu.txt", "").splitlines() or suite.env.section("CPU")
    for line in lines:
        k, sep, v = line.partition(":")
        if sep:
            facts.setdefault(k.strip(), v.strip())
    return facts


def first_line(text: str, prefix: str = "") -> str:
    for line in text.splitlines():
        if line.startswith(prefix):
            return line[len(prefix):].strip()
    return ""


def heading(suite, prefix: str) -> str:
    """The rest of the .env's one-line section heading PREFIX... (the driver writes some facts that way)."""
    for heading in suite.env.sections:
        if heading.startswith(prefix):
            return heading[len(prefix):].strip()
    return ""


def memory(text: str) -> str:
    kb = first_line(text, "MemTotal:").split(" ")[0]
    return "%.1f GiB" % (int(kb) / 1048576.0) if kb.isascii() and kb.isdigit() and len(kb) < 20 else ""


def placement(rec) -> str:
    numa = (rec.doc.get("numa") or {}) if rec is not None else {}
    placement = numa.get("thread_placement") or {}
    threads = [t for t in placement.get("threads") or [] if isinstance(t, dict)]
    policy = str(numa.get("placement") or "")
    if threads:
        cpus = ",".join(str(t.get("cpu")) for t in threads)
        unbound = placement.get("unbound_threads")
        bound = "threads not bound" if unbound else "bound"
        return "%s; %s; thread CPUs %s" % (policy, bound, cpus)
    locality = numa.get("locality") or {}
    if isinstance(locality.get("threads_bound"), bool):
        return "%s; %s" % (policy, "bound" if locality["threads_bound"] else "threads not bound")
    return policy or "not recorded"


def runtime(suite, rec) -> str:
    text = suite.machine.get("openmp_runtime.txt", "") if suite is not None else ""
    found = [l.strip() for l in text.splitlines() if l.strip() and not l.startswith("#")]
    ompt = (rec.doc.get("ompt") or {}) if rec is not None else {}
    if found:
        return "; ".join(found)[:300]
    parts = [str(ompt.get(k)) for k in ("runtime", "runtime_file", "runtime_version") if ompt.get(k)]
    return " ".join(parts) or "not recorded"


def clock(records) -> Dict[str, object]:
    """The cycle rate and the core clock range over the processes (the widest)."""
    ghz, lows, highs, sources = None, [], [], []
    for rec in records:
        c = rec.doc.get("cycles") or {}
        if ghz is None and num(c.get("ghz")) is not None:
            ghz = num(c.get("ghz"))
        rng = c.get("core_clock_ghz")
        if isinstance(rng, list) and len(rng) == 2 and num(rng[0]) is not None and num(rng[1]) is not None:
            lows.append(num(rng[0]))
            highs.append(num(rng[1]))
        if c.get("core_clock_source") and str(c["core_clock_source"]) not in sources:
            sources.append(str(c["core_clock_source"]))
    return {"ghz": ghz, "core_ghz": [min(lows), max(highs)] if lows else None,
            "source": "/".join(sources) or "unknown", "clock": str(((records[0].doc.get("cycles") or {}).get("clock")) or "")
            if records else ""}
