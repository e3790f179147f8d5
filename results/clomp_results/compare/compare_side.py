"""A side of run_clomp.sh --compare A,B (and --sweep's --side): BASE[+VAR=VALUE...]
resolved from the runtime profiles (env/runtimes/*.tsv, runtime_profiles.py),
into the binary it runs, built now if need be, its settings and the
LD_LIBRARY_PATH put first, and the command that runs it (an argument list:
env VAR=VALUE... BINARY). Nothing in a profile or a side is evaluated.

A BASE with a '/' is a binary; else a profile's side: ``build`` (its own
build), ``library`` (its build with its library's directory first in
LD_LIBRARY_PATH), ``as PROFILE`` (PROFILE's build, this runtime's library
loaded in place of PROFILE's through a private directory holding a link of
PROFILE's soname). Refusals are driver_files.Usage (exit 2), a failed build
exit 3."""
from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import List, Optional

from ..core import runtime_profiles
from ..core.driver_files import TOP, Usage
from ..core.runtime_profiles import Profile

SETTING = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*", re.S)


@dataclass
class Side:
    spec: str
    binary: str
    what: str
    settings: List[str] = field(default_factory=list)   # VAR=VALUE, the profile's then the side's own
    libpath: str = ""

    def command(self, extra: Optional[List[str]] = None) -> List[str]:
        """env [LD_LIBRARY_PATH=...] SETTINGS... EXTRA... BINARY."""
        cmd = ["env"]
        if self.libpath:
            old = os.environ.get("LD_LIBRARY_PATH", "")
            cmd.append("LD_LIBRARY_PATH=" + self.libpath + (":" + old if old else ""))
        return cmd + [s for s in self.settings if s] + list(extra or []) + [self.binary]


def named(field_name: str, value: str) -> Optional[Profile]:
    """The profile whose FIELD line begins with VALUE (a preset's or a side's name)."""
    for p in runtime_profiles.profiles():
        if any(line and line[0] == value for line in p.values(field_name)):
            return p
    return None


def sides_text() -> str:
    """Every profile's sides: what --compare and --sweep's --side take besides a path."""
    return ", ".join(line[0] for p in runtime_profiles.profiles() for line in p.values("side") if line)


def build(what: str, make_args: List[str]) -> None:
    """make MAKE_ARGS in the tree, or Usage (exit 3) with its first error line."""
    done = subprocess.run(["make", "-C", TOP, "--no-print-directory"] + make_args, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, universal_newlines=True,
                          errors="replace")
    if done.returncode != 0:
        lines = done.stdout.splitlines()
        why = next((l for l in lines if re.search(r"error|not found", l, re.I)), lines[-1] if lines else "")
        raise Usage("--compare: could not build %s: %s" % (what, why), status=3)


def compiler_of(binary: str) -> List[str]:
    """The compiler lines of BINARY --version."""
    try:
        out = subprocess.run([binary, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL, universal_newlines=True, errors="replace").stdout
    except OSError:
        return []
    return [l[len("compiler: "):] for l in out.splitlines() if l.startswith("compiler: ")]


def profile_binary(p: Profile, label: str, base: str) -> str:
    """The binary built against profile P (its build, binary, build_needs and compiler fields), made
    now: with a compiler named, an existing binary is used as it is (a make would rebuild it with the
    default flags over whatever the user built) but must be that compiler's; else make brings it up to
    date."""
    binary = p.value("binary", "clomp")
    path = os.path.join(TOP, binary)
    needs = (p.values("build_needs") or [[]])[0]
    if needs and needs[0] and shutil.which(needs[0]) is None:
        hint = needs[1] if len(needs) > 1 and needs[1] else "install it"
        raise Usage("--compare: side %s: %s needs %s (%s)" % (label, base, needs[0], hint))
    compiler = p.value("compiler")
    if not compiler or not os.access(path, os.X_OK):
        build("./%s (%s)" % (binary, p.value("build_describes") or p.name), (p.values("build") or [[]])[0])
    if compiler and not any(c.startswith(compiler) for c in compiler_of(path)):
        raise Usage("--compare: side %s: %s needs ./%s built by %s, not '%s'"
                    % (label, base, binary, compiler, "\n".join(compiler_of(path))))
    return path


def profile_library(p: Profile) -> str:
    """The last file P's library patterns find (relative ones under the tree), else the loader's
    cache's file of its soname; "" when neither. A profile whose library is unpacked privately
    (``unpack``: a release that cannot be installed beside the installed one) is that file or
    nothing: the cache's file of the same soname is another release."""
    lib = ""
    for pattern in (p.values("library") or [[]])[0]:
        if not pattern:
            continue
        found = [f for f in sorted(glob.glob(pattern if pattern.startswith("/") else os.path.join(TOP, pattern)))
                 if os.path.isfile(f)]
        lib = found[-1] if found else lib
    soname = p.value("soname")
    if not lib and soname and not p.value("unpack"):
        try:
            cache = subprocess.run(["ldconfig", "-p"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   universal_newlines=True, errors="replace").stdout
        except OSError:
            cache = ""
        for line in cache.splitlines():
            words = line.split()
            if words and words[0] == soname:
                return words[-1]
    return lib


def profile_missing(p: Profile) -> str:
    """Why profile P's library is not here: its unpack field says how to get it."""
    if p.value("unpack"):
        return ("its library (%s) is not unpacked: make runtimes (apt-get download %s, never installed)"
                % ("\t".join((p.values("library") or [[]])[0]), p.value("unpack")))
    return "no %s found (install %s)" % (p.value("soname"), p.value("package") or "its package")


def library_as(lib: str, soname: str, tmp: str) -> str:
    """A directory of TMP holding SONAME -> LIB: a build that loads SONAME loads LIB."""
    directory = tempfile.mkdtemp(prefix="as-" + re.sub(r"[^A-Za-z0-9._-]", "_", soname) + "-", dir=tmp)
    os.symlink(lib, os.path.join(directory, soname))
    return directory


def resolve(index: int, spec: str, tmp: str) -> Side:
    """Side INDEX (0: A, 1: B) from SPEC, BASE[+VAR=VALUE...]; Usage when it cannot be."""
    label = "AB"[index]
    parts = spec.split("+")
    if len(parts) > 1 and not parts[-1]:   # a '+' at the end adds nothing (as the shell's read -a took it)
        parts.pop()
    base = parts[0]
    if not base:
        raise Usage("--compare: side %s is empty (give A,B; see --compare --help)" % label)
    settings: List[str] = []
    if "/" in base:
        if not (os.path.isfile(base) and os.access(base, os.X_OK)):
            raise Usage("--compare: side %s: '%s' is not an executable file" % (label, base))
        side = Side(spec, base, "binary " + base)
    else:
        try:
            p = named("side", base)
            preset = None if p else named("preset", base)
        except runtime_profiles.ProfileError as e:
            raise Usage("--compare: side %s: %s" % (label, e)) from None
        if p is None:
            if preset is not None:
                raise Usage("--compare: side %s: preset '%s' has no binary this driver can build (use PATH+VAR=VALUE; "
                            "have %s)" % (label, base, sides_text()))
            raise Usage("--compare: side %s: unknown preset '%s' (a binary path with a '/', or %s)"
                        % (label, base, sides_text()))
        line = next(l for l in p.values("side") if l and l[0] == base)
        mode, of = (line + ["", ""])[1:3]
        lib = profile_library(p)
        if mode in ("library", "as") and not lib:   # refused before a build
            raise Usage("--compare: side %s: %s: %s" % (label, base, profile_missing(p)))
        if mode in ("build", "library"):
            side = Side(spec, profile_binary(p, label, base),
                        "%s (%s)" % (p.value("build_describes"), p.value("describes")))
            if mode == "library":
                side.libpath, side.what = os.path.dirname(lib), side.what + ", " + lib
        elif mode == "as":
            try:
                other = runtime_profiles.load(of)
            except runtime_profiles.ProfileError as e:
                raise Usage("--compare: side %s: %s: %s" % (label, base, e)) from None
            side = Side(spec, profile_binary(other, label, base), "%s run on %s (%s -> %s)" % (
                other.value("build_describes"), p.value("describes"), other.value("soname"), lib))
            side.libpath = library_as(lib, other.value("soname"), tmp)
        else:
            raise Usage("--compare: side %s: %s: its profile %s.tsv has no side mode '%s' (build, library, as PROFILE)"
                        % (label, base, p.name, mode))
        side.what += ", env/runtimes/%s.tsv" % p.name
        settings = sorted(("\t".join(s) for s in p.values("set") if s and re.match(r"[A-Za-z_][A-Za-z0-9_]*=", s[0])),
                          key=lambda s: s.encode())
    for setting in parts[1:]:
        if not SETTING.fullmatch(setting):
            raise Usage("--compare: side %s: '%s' is not VAR=VALUE" % (label, setting))
        settings.append(setting)
    side.settings = settings
    return side
