"""What a submission says of its machine and software (the buyer's table's
header, issue 33): lscpu, memory, placement, the OpenMP runtime and the core
clock, read from a suite's machine description, its .env and its records.
Every function takes what the loader read; nothing here opens a file."""
from __future__ import annotations

import re
from collections import Counter
from typing import Dict, List

from . import runtime_profiles
from .view import num

LLVM_DIR = re.compile(r"/llvm-([0-9]+)/")


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


def runtime_version(docs: List[dict], runtime_txt: str = "") -> str:
    """The OpenMP runtime each process ran and its version, one line (issue 49, item 4), from the records DOCS
    (ompt.runtime, runtime_file, runtime_path, runtime_version) and a bundle's openmp_runtime.txt RUNTIME_TXT:
    the runtime profile whose library the path is, the LLVM release its path names, the package version the
    bundle's machine listed, the version OMPT reported; "version unknown: why" when none says. Processes that
    differ are each named with their count."""
    seen = Counter(_one_runtime(doc, runtime_txt) for doc in docs if isinstance(doc, dict))
    if not seen:
        return "unknown: no process left a record"
    if len(seen) == 1:
        return next(iter(seen))
    return "; ".join("%s (%d process%s)" % (text, n, "" if n == 1 else "es") for text, n in sorted(seen.items()))


def _one_runtime(doc: dict, runtime_txt: str) -> str:
    ompt = doc.get("ompt") if isinstance(doc.get("ompt"), dict) else {}
    name, file, path, said = (str(ompt.get(k) or "") for k in ("runtime", "runtime_file", "runtime_path", "runtime_version"))
    if not (name or file):
        return "unknown: the record names no OpenMP runtime (no ompt.runtime)"
    versions = []
    profile = _profile_of(path)
    if profile:
        versions.append("profile %s" % profile)
    llvm = LLVM_DIR.search(path)
    if llvm:
        versions.append("LLVM %s (its path)" % llvm.group(1))
    package = _package_version(runtime_txt, file)
    if package:
        # dpkg ran where the bundle was made: the run's node's package only when that is the run's host.
        bundler = _bundled_on(runtime_txt)
        host = str(doc.get("host") or "")
        if bundler and bundler == host:
            versions.append("package version %s (the bundle's openmp_runtime.txt, made on the runs' host)" % package)
        else:
            versions.append("package version %s on %s, the machine that made the bundle, not necessarily the runs' "
                            "host %s (openmp_runtime.txt)" % (package, bundler or "an unnamed machine", host or "(not recorded)"))
    if said:
        versions.append("OMPT says %s" % said)
    what = "%s (%s)" % (name or file, path or file or "file not recorded")
    if versions:
        return "%s: %s" % (what, "; ".join(versions))
    why = ["libgomp has no OMPT to report one" if "gomp" in (name + file) else "%s reported none through OMPT" % (name or file)]
    why.append("its path names no release" if path else "the record has no library path (a clomp before schema minor 15)")
    why.append("the bundle lists no package version" if runtime_txt else "no openmp_runtime.txt (a suite directory, not a bundle)")
    return "%s: version unknown: %s" % (what, ", ".join(why))


def _profile_of(path: str) -> str:
    """The runtime profile (env/runtimes) whose library the loaded file PATH is, or ""."""
    if not path:
        return ""
    try:
        for p in runtime_profiles.profiles():
            library = p.value("library")
            if library and "/" in library and path.endswith("/" + library.lstrip("/")):
                return p.name
    except (runtime_profiles.ProfileError, OSError):
        return ""
    return ""


def _bundled_on(runtime_txt: str) -> str:
    """The host openmp_runtime.txt says it was made on (its "# bundled on:" line), or "" (older bundles)."""
    for line in runtime_txt.splitlines():
        if line.startswith("# bundled on: "):
            return line[len("# bundled on: "):].strip()[:80]
    return ""


def _package_version(runtime_txt: str, file: str) -> str:
    """The package version a bundle's openmp_runtime.txt gives for the runtime file FILE, or ""."""
    block = None
    for line in runtime_txt.splitlines():
        if line.startswith("runtime: "):
            block = "(%s)" % file in line if file else False
        elif block and line.strip().startswith("version: "):
            version = line.strip()[len("version: "):].strip()
            return "" if version == "unknown" else version[:80]
    return ""


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
