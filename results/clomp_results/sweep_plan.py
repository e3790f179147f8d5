"""`run_clomp.sh --sweep SPEC...`'s specifications (compare/sweep.sh asks;
docs/settings.md): each SPEC is VAR=V1,V2,... (an environment variable and
its values) or a preset for the runtime the binary runs on; every
combination of the values is one set-up of the sweep.

    sweep-plan --check SPEC...          the specifications' syntax only
    sweep-plan [--library PATH] RECORD SPEC...   the combinations, one per line:
        runtime<TAB>FILE<TAB>KIND
        note<TAB>TEXT                   (what a preset chose, and why)
        combination<TAB>N<TAB>VAR=VALUE<TAB>VAR=VALUE...
RECORD: the JSON record of a `clomp --dry-run` of the binary (its
ompt.runtime_file names the OpenMP library the process loaded, as the
bundle's runtime_library.py reads it), or - when there is none.

A bad specification exits 2 with one line on stderr. Values reach the
processes' environment only, as argv elements of env(1): no value is ever
read by a shell. A value may hold any character but a comma (the separator),
a control character (tab and newline separate this module's output) or
nothing at all.
"""
from __future__ import annotations

import itertools
import json
import os
import re
import sys
from typing import List, Tuple

from .safe_io import for_terminal

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_COMBINATIONS = 64   # each runs --replicates processes: 64 x 6 of the target input is about an hour
PRESETS = ("wait", "barrier")
# libgomp: GOMP_SPINCOUNT is how many times an idle thread polls before it sleeps (libgomp's default:
# 300000 without OMP_WAIT_POLICY, 0 under passive, 3e10 under active; given, it overrides the policy's).
GOMP_SPINCOUNTS = ("0", "10000", "300000", "infinite")
# libomp: KMP_BLOCKTIME is how long (ms) an idle thread spins before it sleeps (default 200).
KMP_BLOCKTIMES = ("0", "200", "infinite")
# libomp's barrier algorithms (kmp_settings.cpp's __kmp_barrier_pattern_name), gather,release alike.
BARRIER_PATTERNS = ("linear", "tree", "hyper", "hierarchical")
BARRIER_VARIABLES = ("KMP_PLAIN_BARRIER_PATTERN", "KMP_FORKJOIN_BARRIER_PATTERN", "KMP_REDUCTION_BARRIER_PATTERN")

Axis = List[List[Tuple[str, str]]]   # the levels of one axis, each one or more (VAR, VALUE)


class SpecError(Exception):
    """A specification that cannot be swept: the one-line reason."""


def runtime_kind(runtime_file: str) -> str:
    """libgomp, libomp (LLVM's, or Intel's libiomp5, which reads the same KMP_ variables) or unknown."""
    name = (runtime_file or "").lower()
    if name.startswith("libgomp"):
        return "libgomp"
    if name.startswith("libomp") or name.startswith("libiomp"):
        return "libomp"
    return "unknown"


def check_value(var: str, value: str) -> None:
    if value == "":
        raise SpecError("%s: an empty value (give VAR=V1,V2,...; no empty values)" % var)
    if any(c < " " or c == "\x7f" for c in value):
        raise SpecError("%s: a value holds a control character" % var)


def parse_variable(spec: str) -> Axis:
    """VAR=V1,V2,... as one axis."""
    var, sep, rest = spec.partition("=")
    if not sep:
        raise SpecError("'%s' is not VAR=V1,V2,... and not a preset (%s)" % (for_terminal(spec), ", ".join(PRESETS)))
    if not NAME.match(var):
        raise SpecError("'%s' is not an environment variable's name (letters, digits, _; not a digit first)"
                        % for_terminal(var))
    values = rest.split(",")
    seen = []
    for value in values:
        check_value(var, value)
        if value in seen:
            raise SpecError("%s: the value '%s' is given twice" % (var, for_terminal(value)))
        seen.append(value)
    return [[(var, v)] for v in values]


def preset(name: str, runtime_file: str, has_patterns: bool) -> Tuple[List[Axis], List[str]]:
    """The axes of preset NAME for the runtime the binary loaded, and notes saying what was chosen."""
    kind = runtime_kind(runtime_file)
    shown = runtime_file or "not known"
    if name == "wait":
        policy = [[("OMP_WAIT_POLICY", v)] for v in ("active", "passive")]
        if kind == "libgomp":
            return [policy, [[("GOMP_SPINCOUNT", v)] for v in GOMP_SPINCOUNTS]], [
                "wait: %s is libgomp: OMP_WAIT_POLICY x GOMP_SPINCOUNT (an explicit spin count overrides the "
                "policy's own: 0 under passive, 3e10 under active)" % shown]
        if kind == "libomp":
            return [policy, [[("KMP_BLOCKTIME", v)] for v in KMP_BLOCKTIMES]], [
                "wait: %s is libomp: OMP_WAIT_POLICY x KMP_BLOCKTIME (ms an idle thread spins before it sleeps)" % shown]
        raise SpecError("wait: the OpenMP runtime (%s) is neither libgomp nor libomp: name the variables "
                        "(VAR=V1,V2,...)" % for_terminal(shown))
    if name == "barrier":
        if kind != "libomp":
            raise SpecError("barrier: the OpenMP runtime (%s) has no barrier-pattern settings: they are libomp's "
                            "KMP_*_BARRIER_PATTERN (run on libomp: --side llvm or --side libomp)" % for_terminal(shown))
        if not has_patterns:
            raise SpecError("barrier: this libomp (%s) does not read KMP_PLAIN_BARRIER_PATTERN: it has no barrier "
                            "patterns to sweep" % for_terminal(shown))
        axis = [[(var, "%s,%s" % (p, p)) for var in BARRIER_VARIABLES] for p in BARRIER_PATTERNS]
        return [axis], ["barrier: %s is libomp: every barrier (plain, fork/join, reduction) gathers and releases "
                        "by one pattern: %s" % (shown, ", ".join(BARRIER_PATTERNS))]
    raise SpecError("unknown preset '%s' (have: %s)" % (for_terminal(name), ", ".join(PRESETS)))


def is_preset_word(spec: str) -> bool:
    return "=" not in spec


def parse(specs: List[str], runtime_file: str = "", has_patterns: bool = False,
          check_only: bool = False) -> Tuple[List[Axis], List[str]]:
    """Every specification's axes (presets expanded unless check_only) and the notes."""
    if not specs:
        raise SpecError("needs VAR=V1,V2,... or a preset (%s)" % ", ".join(PRESETS))
    axes: List[Axis] = []
    notes: List[str] = []
    for spec in specs:
        if is_preset_word(spec):
            if spec not in PRESETS:
                raise SpecError("unknown preset '%s' (have: %s; or VAR=V1,V2,...)" % (for_terminal(spec), ", ".join(PRESETS)))
            if check_only:
                continue
            more, said = preset(spec, runtime_file, has_patterns)
            axes += more
            notes += said
        else:
            axes.append(parse_variable(spec))
    named: List[str] = []
    for axis in axes:
        for var in sorted({v for level in axis for v, _ in level}):
            if var in named:
                raise SpecError("%s is swept twice (by two specifications)" % var)
            named.append(var)
    count = 1   # with check_only, of the variables given (the presets' come with the runtime)
    for axis in axes:
        count *= len(axis)
    if count > MAX_COMBINATIONS:
        raise SpecError("%d combinations: over the cap of %d (each runs --replicates processes); sweep fewer values"
                        % (count, MAX_COMBINATIONS))
    return axes, notes


def combinations(axes: List[Axis]) -> List[List[Tuple[str, str]]]:
    """Every combination, the first axis slowest: [(VAR, VALUE), ...] each."""
    return [[pair for level in levels for pair in level] for levels in itertools.product(*axes)]


def runtime_of(record_path: str) -> str:
    """The runtime file a dry run's record names, or ""."""
    if record_path == "-":
        return ""
    from . import safe_io
    try:
        doc = json.loads(safe_io.read_bounded(record_path, 16 << 20, what=record_path).decode("utf-8", "replace"))
    except (OSError, ValueError, RecursionError, safe_io.Refused):
        return ""
    ompt = doc.get("ompt") if isinstance(doc, dict) else None
    name = ompt.get("runtime_file") if isinstance(ompt, dict) else None
    if not isinstance(name, str) or "/" in name or any(c < " " or c == "\x7f" for c in name):
        return ""
    return name


def library_reads(runtime_file: str, library: str, variable: str) -> bool:
    """Whether the runtime's library file holds VARIABLE's name: LIBRARY (the file the side's process
    loads, as the driver resolved it) when given, else the file runtime_library finds by its name."""
    from .runtime_library import find_runtime
    path = library or find_runtime(runtime_file).get("path", "unknown")
    if path == "unknown":
        return False
    try:
        with open(path, "rb") as f:
            return variable.encode() in f.read(256 << 20)
    except OSError:
        return False


def main(argv: List[str]) -> int:
    if not argv:
        sys.stderr.write("usage: sweep-plan --check SPEC... | sweep-plan [--library PATH] RECORD|- SPEC...\n")
        return 2
    library = ""
    if argv[0] == "--library" and len(argv) >= 3:
        library, argv = argv[1], argv[2:]
    check_only, args = argv[0] == "--check", argv[1:]
    try:
        if check_only:
            parse(args, check_only=True)
            return 0
        # The record's name for it, else (no record: a dry run that writes none) the library's own file name.
        runtime = runtime_of(argv[0])
        if not runtime and library:
            runtime = os.path.basename(os.path.realpath(library))
        patterns = runtime_kind(runtime) == "libomp" and "barrier" in args and library_reads(runtime, library, BARRIER_VARIABLES[0])
        axes, notes = parse(args, runtime, patterns)
    except SpecError as e:
        sys.stderr.write("run_clomp.sh: --sweep: %s\n" % e)
        return 2
    lines = ["runtime\t%s\t%s" % (runtime or "unknown", runtime_kind(runtime))]
    lines += ["note\t%s" % n for n in notes]
    for i, combo in enumerate(combinations(axes), start=1):
        lines.append("\t".join(["combination", str(i)] + ["%s=%s" % pair for pair in combo]))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
