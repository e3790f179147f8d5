"""Which OpenMP runtime library ran (issue 35, item 9): path, soname,
package and version. The record says the runtime's file name as the
process found it at run time (``ompt.runtime_file``, e.g. libgomp.so.1.0.0);
this finds that file among the libraries the dynamic loader knows
(``ldconfig -p``) and asks dpkg which package owns it. Nothing from the
suite is executed (ldd would run the binary); commands run without a shell.
``runtime-library BINARY`` (loaded_runtime) is the exception, for --compare
and --sweep only: ldd on the user's own binary, which they run next anyway.
"""
from __future__ import annotations

import os
import socket
import re
import subprocess
import sys
from collections import Counter
from typing import Dict, List, Optional, Tuple

from . import runtime_profiles


def _run(argv: List[str], env: Optional[Dict[str, str]] = None) -> str:
    try:
        done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=10, check=False, env=env)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.decode("utf-8", errors="replace") if done.returncode == 0 else ""


def loader_libraries() -> List[Tuple[str, str]]:
    """(soname, path) of every library ldconfig's cache lists."""
    out = []
    for line in _run(["ldconfig", "-p"]).splitlines()[1:]:
        left, sep, path = line.partition(" => ")
        if sep:
            out.append((left.strip().split(" ")[0], path.strip()))
    return out


def owning_package(path: str) -> Tuple[str, str]:
    """(package as dpkg -S names it, e.g. libgomp1:amd64, its version) of the file at path; ("", "")
    when dpkg owns none."""
    owner = _run(["dpkg", "-S", path]).splitlines()
    if not owner or ":" not in owner[0]:
        return "", ""
    pkg = owner[0].split(": ", 1)[0]
    return pkg, _run(["dpkg-query", "-W", "-f=${Version}", pkg]).strip()


def find_runtime(file_name: str, libraries: Optional[List[Tuple[str, str]]] = None) -> Dict[str, str]:
    """What is known of the runtime whose real file name is file_name."""
    facts = {"runtime_file": file_name, "path": "unknown", "soname": "unknown", "package": "unknown", "version": "unknown"}
    for soname, path in (loader_libraries() if libraries is None else libraries):
        real = os.path.realpath(path)
        if os.path.basename(real) == file_name:
            facts.update(path=real, soname=soname)
            break
    if facts["path"] != "unknown":
        pkg, version = owning_package(facts["path"])
        if pkg:
            facts.update(package=pkg, version=version or "unknown")
    return facts


def unpacked_package(path: str) -> str:
    """"PACKAGE VERSION" of a runtime library unpacked privately (make runtimes: a Debian package
    extracted under build/runtimes/<profile>/, never installed, its package and version in that
    directory's file `package`), else ""."""
    here = os.path.dirname(path)
    while len(here) > 1:
        if os.path.basename(os.path.dirname(here)) == "runtimes" and os.path.isfile(os.path.join(here, "package")):
            try:
                with open(os.path.join(here, "package"), encoding="utf-8") as f:
                    said = f.read(200).strip()
            except OSError:
                return ""
            return said if re.match(r"^[a-z0-9][a-z0-9.+-]* [0-9A-Za-z.:~+-]+$", said) else ""
        here = os.path.dirname(here)
    return ""


def loaded_runtime(binary: str, env: Optional[Dict[str, str]] = None) -> Tuple[str, str]:
    """(path, version) of the OpenMP runtime BINARY loads in this process's
    environment (or ENV), as ldd resolves it (run_clomp.sh --compare and --sweep: the
    user's own binaries, run next anyway; never a bundle's): the real path,
    and the owning package with its version (or the privately unpacked one's),
    else the file's name; unknown when ldd names none. A runtime library is
    one of the runtime profiles' files (runtime_profiles.library_names)."""
    names = "|".join(re.escape(n) for n in runtime_profiles.library_names()) or "$^"
    for line in _run(["ldd", binary], env).splitlines():
        words = line.split()
        if re.search(r"(%s)[^ ]* => " % names, line) and len(words) > 2:
            real = os.path.realpath(words[2])
            pkg, version = owning_package(real)
            if pkg:   # the package without its architecture, as --compare's side line names it
                return real, "%s %s" % (pkg.split(":")[0], version)
            return real, unpacked_package(real) or os.path.basename(real)
    return "unknown", "unknown"


PLACEMENT_VARIABLES = tuple(runtime_profiles.placement_variables())


def placement(settings: List[str], environ: Dict[str, str]) -> str:
    """Where a --compare or --sweep side's threads run, recorded, not chosen (binding by default did
    not narrow the spread of an overhead on a shared node, docs/noise.md): the first of the
    placement variables its settings (VAR=VALUE) set, else the driver's environment (ENVIRON)."""
    for var in PLACEMENT_VARIABLES:
        if any(s.startswith(var + "=") for s in settings):
            return "set by the side (%s)" % var
        if var in environ:
            return "set in the driver's environment (%s=%s)" % (var, environ[var])
    return "not set: the threads may migrate (no %s)" % ", ".join(PLACEMENT_VARIABLES)


def main(argv: List[str]) -> int:
    """runtime-library BINARY: "path<TAB>version" of loaded_runtime."""
    if len(argv) != 1:
        print("usage: clomp-results runtime-library BINARY", file=sys.stderr)
        return 2
    print("%s\t%s" % loaded_runtime(argv[0]))
    return 0


def describe(suite) -> str:
    """The text of <name>_machine/openmp_runtime.txt: per runtime file the
    runs' records name, what this machine knows of it."""
    counts = Counter()
    names = {}
    for rec in suite.records.values():
        ompt = rec.doc.get("ompt") or {}
        key = str(ompt.get("runtime_file") or "unknown")
        counts[key] += 1
        names[key] = str(ompt.get("runtime") or "unknown")
    lines = ["# The OpenMP runtime library the runs used: the file name each run's record names (found at run",
             "# time), and where that file is on the machine that made the bundle (ldconfig -p, dpkg -S).",
             "# bundled on: %s" % (socket.gethostname() or "unknown")]
    if not counts:
        lines.append("runtime: unknown (no run records)")
    libraries = loader_libraries()
    for key, n in sorted(counts.items()):
        facts = find_runtime(key, libraries) if key != "unknown" else {}
        lines.append("runtime: %s (%s), named by %d run record(s)" % (names[key], key, n))
        for field in ("path", "soname", "package", "version"):
            lines.append("  %s: %s" % (field, facts.get(field, "unknown")))
    return "\n".join(lines) + "\n"
