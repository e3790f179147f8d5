"""The OpenMP runtime profiles (env/runtimes/<name>.tsv, env/runtimes/README.md)
read from Python: one file per runtime, FIELD<TAB>VALUE[<TAB>VALUE...] per line,
'#' lines comments; the same files env/runtime.sh reads from bash. A field a
profile does not give comes from the profile it ``inherits`` (never its
runtime, preset or side lines).

- ``profiles()``: every profile, by name, sorted;
- ``for_file(runtime_file)``: the profile of the runtime whose library file is
  that (a record's ompt.runtime_file: its ``files`` prefixes), or None;
- ``Profile.values(field)`` / ``.value(field)``: a field's value lists / first value.

CLOMP_RUNTIME_DIR names another directory of profiles (the tests' scratch copies)."""
from __future__ import annotations

import os
import re
from typing import Dict, List, Optional

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))))
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
NOT_INHERITED = ("runtime", "preset", "side", "files")


class ProfileError(Exception):
    """A profile that cannot be read: the one-line reason."""


def directory() -> str:
    return os.environ.get("CLOMP_RUNTIME_DIR") or os.path.join(TOP, "env", "runtimes")


class Profile:
    def __init__(self, name: str, fields: Dict[str, List[List[str]]], parent: Optional["Profile"]):
        self.name, self.fields, self.parent = name, fields, parent

    def values(self, field: str) -> List[List[str]]:
        """Every line of FIELD, each its values; the inherited profile's when this one gives none."""
        if field in self.fields:
            return self.fields[field]
        if self.parent is not None and field not in NOT_INHERITED:
            return self.parent.values(field)
        return []

    def value(self, field: str, default: str = "") -> str:
        lines = self.values(field)
        return lines[0][0] if lines and lines[0] else default


def _read(path: str) -> Dict[str, List[List[str]]]:
    fields: Dict[str, List[List[str]]] = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if any(c < " " or c == "\x7f" for cell in cells for c in cell):
                raise ProfileError("%s:%d: a control character" % (path, n))
            fields.setdefault(cells[0], []).append(cells[1:])
    return fields


def load(name: str, _seen: tuple = ()) -> Profile:
    if not NAME.match(name) or name in _seen:
        raise ProfileError("no runtime profile '%s'" % name if name not in _seen else "%s inherits itself" % name)
    path = os.path.join(directory(), name + ".tsv")
    try:
        fields = _read(path)
    except OSError as e:
        raise ProfileError("%s: %s" % (path, e.strerror)) from None
    if [v[0] for v in fields.get("runtime", []) if v] != [name]:
        raise ProfileError("%s: its runtime line must name it (%s)" % (path, name))
    parent = fields.get("inherits")
    return Profile(name, fields, load(parent[0][0], _seen + (name,)) if parent and parent[0] else None)


def profiles() -> List[Profile]:
    try:
        names = sorted(f[:-4] for f in os.listdir(directory()) if f.endswith(".tsv"))
    except OSError:
        return []
    return [load(n) for n in names if NAME.match(n)]


def for_file(runtime_file: str) -> Optional[Profile]:
    """The profile whose library files (its ``files`` prefixes) RUNTIME_FILE is one of; None when none is."""
    name = (runtime_file or "").lower()
    for p in profiles():
        if name and any(name.startswith(prefix) for line in p.values("files") for prefix in line if prefix):
            return p
    return None


def library_names() -> List[str]:
    """Every profile's library file prefixes (libgomp, libomp, ...): what an OpenMP runtime's file looks like."""
    return sorted({prefix for p in profiles() for line in p.values("files") for prefix in line if prefix})


def placement_variables() -> List[str]:
    """The variables that place threads: OpenMP's own, then each profile's ``placement`` ones."""
    out = ["OMP_PROC_BIND", "OMP_PLACES"]
    for p in profiles():
        out += [v for line in p.values("placement") for v in line if v and v not in out]
    return out
