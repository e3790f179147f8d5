"""The loader: a suite directory or bundle in, typed records out.

API (stable: the render and compare modules rely on it; add, never rename):

    load_suite(path, suite_id=None, limits=DEFAULT_LIMITS) -> records.Suite
        path: a bundle CLOMP_<host>_<id>.tar.gz, its unpacked directory, an
        output directory (its highest suite ID, or suite_id), or a base path
        out/CLOMP_<host>_<id> (with or without .env). Everything is read
        through safe_io (links, devices, FIFOs refused; sizes bounded) and
        held in memory; no temporary file outlives the call.
    open_suite(path, suite_id=None, limits) -> (safe_io.Input, name)
        the same, left open (a context manager), for readers that need the
        files' bytes (the validator's MANIFEST check, the bundle).
    load_from_input(inp, name) -> records.Suite: its settings, plan and run states from
        the suite manifest <name>.suite.json (manifest.py); a suite from before it gets
        one built from its .env by legacy.py (Suite.manifest_converted), the one reader
        of a .env; a manifest of another major version is refused (safe_io.Refused).
    read_table(name, data) -> records.Table   (csv module: quoting, commas,
        newlines in cells; rows by column name)
    SuiteError: what open_suite raises when no suite is there (exit 2).

Records' file names: <name>.suite.json (the manifest), <name>.env (the driver's log), <name>.done, <name>.csv,
<name>.constructs.csv, <name>_<set>.summary, <name>_<set>.full,
<name>_<set>.run<N>.json (run N's clomp --json record; rank 0's for MPI),
<name>.runs.csv (the driver's record of each run: run, set, numa, status,
exit_code, seconds; older suites have none, and their .summary rows say it),
<name>_key.processes.csv/.txt, <name>_machine/*.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
from typing import Dict, List, Optional, Tuple

from . import legacy, manifest, safe_io
from .records import INPUT_NAMES, EnvFacts, PlannedRun, RunRecord, Suite, Table
from .safe_io import DEFAULT_LIMITS, Limits

__all__ = ["load_suite", "open_suite", "load_from_input", "read_table",
           "SuiteError", "SUITE_NAME", "INPUT_NAMES", "EnvFacts", "PlannedRun", "RunRecord", "Suite", "Table"]

# A suite's name in safe characters (run_clomp.sh's file_host_name makes the host part so); a name
# that has the shape but other characters (quotes, $( ), ESC) is refused (safe_io.check_suite_name).
SUITE_NAME = re.compile(r"^CLOMP_([A-Za-z0-9._-]+)_([0-9]{1,9})$")
SUITE_SHAPE = re.compile(r"^CLOMP_(.+)_([0-9]+)$", re.S)
MACHINE_FILE_BYTES = 4 << 20   # a machine description file: lscpu of a 1,000-CPU node is well under 1 MiB
MACHINE_BYTES = 16 << 20       # all of them, held as text: a real description is a few KiB to a few hundred
RECORD_NAME = re.compile(r"^_(.+)\.run([0-9]+)\.json$")


class SuiteError(Exception):
    """No suite at the path given (one line)."""


def _belongs(entry: str, name: str) -> bool:
    """An entry of an output directory that is a file of suite `name`
    (not its bundle, nor a temporary file being written)."""
    if entry.endswith((".tar.gz", ".tar.gz.tmp")) or ".tmp." in entry:
        return False
    return entry.startswith(name + ".") or entry.startswith(name + "_")


def _suite_names(entries: List[str]) -> List[Tuple[int, str]]:
    out = []
    for e in entries:
        if e.endswith(".env"):
            m = SUITE_NAME.match(e[:-4])
            if m:
                out.append((int(m.group(2)), e[:-4]))
            elif SUITE_SHAPE.match(e[:-4]):
                safe_io.check_suite_name(e[:-4])
    return sorted(out)


def checked_name(name: str) -> str:
    """NAME, refused when it has a suite's shape in unsafe characters (one line, exit 1)."""
    if SUITE_SHAPE.match(name) and not SUITE_NAME.match(name):
        safe_io.check_suite_name(name)
        raise safe_io.Refused("suite name '%s': the suite ID is not a number of at most 9 digits" % safe_io.for_terminal(name[:200]))
    return name


def open_suite(path: str, suite_id: Optional[int] = None, limits: Limits = DEFAULT_LIMITS, verify=None):
    """(Input, suite name) for a bundle, a suite's directory, an output
    directory or a base path; SuiteError when there is none, safe_io's
    Refused/NotABundle for hostile input (a suite's name in other characters
    than safe_io.SAFE_NAME's among them). VERIFY: safe_io.open_input's, for
    a bundle (its signature, checked on the file that is extracted)."""
    if os.path.isdir(path):
        base_dir = path
        entries = os.listdir(path)
        own = os.path.basename(os.path.normpath(os.path.abspath(path)))
        if SUITE_SHAPE.match(own) and (own + ".env" in entries or "MANIFEST" in entries):
            name = checked_name(own)                    # an unpacked bundle
            inp = safe_io.open_input(path, limits)
            return inp, name
        names = _suite_names(entries)
        if suite_id is not None:
            names = [n for n in names if n[0] == suite_id]
            if len(names) > 1:
                raise SuiteError("several suites %d in %s: %s" % (suite_id, safe_io.for_terminal(path),
                                                                 " ".join(safe_io.for_terminal(n[1]) for n in names)))
        if not names:
            raise SuiteError("no suite%s (CLOMP_*.env) in %s" % ("" if suite_id is None else " %d" % suite_id,
                                                                 safe_io.for_terminal(path)))
        name = names[-1][1]
    elif os.path.isfile(path + ".env") or os.path.isfile(path) and path.endswith(".env"):
        base = path[:-4] if path.endswith(".env") else path
        base_dir, name = os.path.split(base)
        base_dir = base_dir or "."
        checked_name(name)
    elif os.path.lexists(path):
        inp = safe_io.open_input(path, limits, verify=verify)   # a bundle
        try:
            return inp, checked_name(os.path.basename(inp.top))
        except safe_io.Refused:
            inp.close()
            raise
    else:
        raise SuiteError("no suite at %s (neither a bundle, a directory nor %s.env)" % (
            safe_io.for_terminal(path), safe_io.for_terminal(path)))
    inp = safe_io.open_input(base_dir, limits, only=lambda entry: _belongs(entry, name))
    return inp, name


def load_suite(path: str, suite_id: Optional[int] = None, limits: Limits = DEFAULT_LIMITS) -> Suite:
    inp, name = open_suite(path, suite_id, limits)
    with inp:
        return load_from_input(inp, name, source=path)


def _text(inp: safe_io.Input, rel: str) -> Optional[str]:
    files = safe_io.files_under(inp)
    if rel not in files:
        return None
    return safe_io.read_in_top(inp, rel).decode("utf-8", errors="replace")


def load_from_input(inp: safe_io.Input, name: str, source: str = "") -> Suite:
    files = safe_io.files_under(inp)
    problems: List[str] = []
    if name + ".env" not in files:
        problems.append("%s.env is missing" % name)
    done_text = _text(inp, name + ".done") or ""
    done = [int(x) for x in done_text.split() if x.isascii() and x.isdigit() and len(x) <= 9]   # int() refuses "²", 4300+ digits
    records: Dict[int, RunRecord] = {}
    summaries: Dict[str, Table] = {}
    for rel in sorted(files):
        if "/" in rel or not rel.startswith(name):
            continue
        rest = rel[len(name):]
        m = RECORD_NAME.match(rest)
        if m:
            try:
                doc = json.loads(safe_io.read_in_top(inp, rel).decode("utf-8", errors="replace"))
                if not isinstance(doc, dict) or doc.get("schema") != "clomp-result":
                    raise ValueError("not a clomp-result document")
                records[int(m.group(2))] = RunRecord(int(m.group(2)), m.group(1), rel, doc)
            except (ValueError, RecursionError) as e:
                problems.append("%s: not a clomp JSON record (%s)" % (rel, e))
        elif rest.startswith("_") and rest.endswith(".summary"):
            summaries[rest[1:-len(".summary")]] = read_table(rel, safe_io.read_in_top(inp, rel))
    tables = {}
    for suffix in (".csv", ".constructs.csv", "_key.processes.csv", ".runs.csv"):
        data = safe_io.read_in_top(inp, name + suffix) if name + suffix in files else None
        tables[suffix] = read_table(name + suffix, data) if data else None
    if name + manifest.SUFFIX in files:
        try:
            doc = manifest.parse(safe_io.read_in_top(inp, name + manifest.SUFFIX), name + manifest.SUFFIX)
        except manifest.ManifestError as e:
            raise safe_io.Refused(str(e))
        converted = "converted" in doc   # the converter's, carried by a bundle of an old suite
    else:   # a suite from before the manifest: one built from what it carries (legacy.py)
        doc = legacy.manifest_of(name, _text(inp, name + ".env") or "", done, tables[".runs.csv"],
                                 {run: rec.file for run, rec in records.items()})
        converted = True
    env = manifest.env_facts(doc)
    machine = {}
    held = sum(size for rel, size in files.items() if rel.startswith(name + "_machine/"))
    if held > MACHINE_BYTES:
        raise safe_io.Refused("%s_machine/: %d bytes in all, over the bound of %d for a machine description" % (name, held, MACHINE_BYTES))
    for rel in files:
        if rel.startswith(name + "_machine/"):
            data = safe_io.read_in_top(inp, rel, MACHINE_FILE_BYTES)
            machine[rel.split("/", 1)[1]] = data.decode("utf-8", errors="replace")
    return Suite(name=name, source=source, env=env, done=done, records=records, summaries=summaries,
                 csv=tables[".csv"], constructs=tables[".constructs.csv"], processes=tables["_key.processes.csv"],
                 machine=machine, files=files, problems=problems, runs=tables[".runs.csv"],
                 manifest=doc, manifest_converted=converted)


def read_table(name: str, data: bytes) -> Table:
    """A CSV (RFC 4180: quoted cells may hold commas, quotes, newlines) by column name."""
    text = data.decode("utf-8", errors="replace")
    reader = csv.reader(io.StringIO(text, newline=""))
    rows = list(reader)
    if not rows:
        return Table(name, [], [], [])
    columns = rows[0]
    out = []
    widths = []
    for r in rows[1:]:
        widths.append(len(r))
        out.append({c: (r[i] if i < len(r) else "") for i, c in enumerate(columns)})
    return Table(name, columns, out, widths)


