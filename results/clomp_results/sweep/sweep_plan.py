"""`run_clomp.sh --sweep SPEC...`'s specifications (sweep_driver.py asks;
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

from ..core import runtime_profiles
from ..core.safe_io import for_terminal

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_COMBINATIONS = 64   # each runs --replicates processes: 64 x 6 of the target input is about an hour
PRESETS = ("wait", "barrier")
# Each runtime's knobs are its profile's (env/runtimes/<name>.tsv, runtime_profiles): `wait` VAR and the
# values swept against OMP_WAIT_POLICY, `barrier` the barrier-pattern variables and `barrier_patterns`.

Axis = List[List[Tuple[str, str]]]   # the levels of one axis, each one or more (VAR, VALUE)


class SpecError(Exception):
    """A specification that cannot be swept: the one-line reason."""


def runtime_kind(runtime_file: str) -> str:
    """The runtime profile whose library RUNTIME_FILE is (libgomp, libomp, ...), or unknown."""
    try:
        p = runtime_profiles.for_file(runtime_file)
    except runtime_profiles.ProfileError as e:
        raise SpecError(str(e)) from None
    return p.name if p is not None else "unknown"


def barrier_variables(runtime_file: str) -> List[str]:
    """The barrier-pattern variables of the runtime's profile ([] when it has none)."""
    p = runtime_profiles.for_file(runtime_file)
    return [v for line in (p.values("barrier") if p else []) for v in line if v]


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
    """The axes of preset NAME for the runtime the binary loaded (its profile's knobs), and notes saying
    what was chosen."""
    kind = runtime_kind(runtime_file)
    p = runtime_profiles.load(kind) if kind != "unknown" else None
    shown = runtime_file or "not known"
    known = ", ".join(q.name for q in runtime_profiles.profiles() if q.values("files"))
    if name == "wait":
        knob = p.values("wait")[0] if p is not None and p.values("wait") else []
        if len(knob) < 2:
            raise SpecError("wait: the OpenMP runtime (%s) has no wait knob in a runtime profile (%s; "
                            "env/runtimes/): name the variables (VAR=V1,V2,...)"
                            % (for_terminal(shown), for_terminal(kind if p is not None else "profiles: " + known)))
        policy = [[("OMP_WAIT_POLICY", v)] for v in ("active", "passive")]
        return [policy, [[(knob[0], v)] for v in knob[1:]]], [
            "wait: %s is %s: OMP_WAIT_POLICY x %s (%s)" % (shown, kind, knob[0], p.value("wait_note", "its profile's"))]
    if name == "barrier":
        variables = barrier_variables(runtime_file)
        patterns = [v for line in (p.values("barrier_patterns") if p else []) for v in line if v]
        if not variables or not patterns:
            raise SpecError("barrier: the OpenMP runtime (%s) has no barrier-pattern settings in its profile (%s): "
                            "libomp has them, KMP_*_BARRIER_PATTERN (run on libomp: --side llvm or --side libomp)"
                            % (for_terminal(shown), for_terminal(kind)))
        if not has_patterns:
            raise SpecError("barrier: this %s (%s) does not read %s: it has no barrier patterns to sweep"
                            % (kind, for_terminal(shown), variables[0]))
        axis = [[(var, "%s,%s" % (pattern, pattern)) for var in variables] for pattern in patterns]
        return [axis], ["barrier: %s is %s: every barrier (%s) gathers and releases by one pattern: %s"
                        % (shown, kind, ", ".join(variables), ", ".join(patterns))]
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
    from ..core import safe_io
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
    from ..core.runtime_library import find_runtime
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
        variables = barrier_variables(runtime) if "barrier" in args else []
        patterns = bool(variables) and library_reads(runtime, library, variables[0])
        axes, notes = parse(args, runtime, patterns)
    except (SpecError, runtime_profiles.ProfileError) as e:
        sys.stderr.write("run_clomp.sh: --sweep: %s\n" % e)
        return 2
    lines = ["runtime\t%s\t%s" % (runtime or "unknown", runtime_kind(runtime))]
    lines += ["note\t%s" % n for n in notes]
    for i, combo in enumerate(combinations(axes), start=1):
        lines.append("\t".join(["combination", str(i)] + ["%s=%s" % pair for pair in combo]))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
