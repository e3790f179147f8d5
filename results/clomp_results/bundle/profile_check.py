"""The validator's check of each run's Caliper profile against its record
(issue 49): clomp --caliper-json writes <name>_<set>.run<N>.cali.json from
the same record as <name>_<set>.run<N>.json, and a buyer who reads the
profiles with Hatchet or Thicket must see the figures the records hold.

Read through the same door as every other file (READ_TEXT: safe_io,
bounded); nothing in a profile is trusted. Per profile:

- its form: Caliper's json-split (data, columns, column_metadata, nodes),
  a "path" column, one data row per node, parents before children;
- its run: a record of that run and set exists;
- its tree: clomp -> the record's measurements in order; constructs ->
  level -> the record's construct rows; limits -> the record's figures;
- its metrics: every value column names, per kind of node, the record
  member it equals (column_metadata's clomp.record; a --limits column,
  clomp.limits_unit, only on the figures in that unit); each cell equals
  that member (the same double: clomp writes both with the digits that
  read back) and is null on the kinds the column does not name;
- its metadata: host, inputs, threads, status, build, OpenMP runtime and
  environment, noise verdict, as the record says them.

A bundle that carries profiles carries one for every record (one taken
out is a reason); a bundle of a suite before issue 49 carries none.
"""
from __future__ import annotations

import json
import re
from typing import Callable, Dict, List, Optional

from ..core.records import INPUT_NAMES
from ..core.safe_io import for_terminal

PROFILE_NAME = re.compile(r"^_(.+)\.run([0-9]+)\.cali\.json$")
SPLIT_KEYS = ("data", "columns", "column_metadata", "nodes")
LEVEL_NAMES = ("level 1", "level 1, inner team", "level 2")   # report/caliper_report.c
MEMBER = re.compile(r"^([A-Za-z0-9_.]+?)(?:\[([01])\])?$")
# The profile's metadata keys and the record's members they are written from (report/caliper_metadata.c).
METADATA = [("hostname", "host"), ("executablepath", "executable"), ("cmdline", "invocation"),
            ("status", "status"), ("exit_status", "exit_status"), ("failure", "failure"), ("start_time", "start_time"),
            ("clomp_version", "clomp_version"), ("threads", "resolved.numThreads"), ("compiler", "build.compiler"),
            ("compiler_cc", "build.cc"), ("compiler_flags", "build.cflags"), ("linker_flags", "build.ldflags"),
            ("openmp_version", "build.openmp"), ("openmp_runtime", "ompt.runtime"),
            ("openmp_runtime_file", "ompt.runtime_file"), ("noise_busy", "noise_census.busy"),
            ("numa", "inputs.numa"), ("rounds", "inputs.rounds"), ("cycles_ghz", "cycles.ghz")] + \
           [(name, "inputs." + name) for name in INPUT_NAMES]
OPENMP_VARIABLE = re.compile(r"^(OMP_|GOMP_|KMP_|XLSMPOPTS|LIBOMP_)")
# A profile clomp writes has a few thousand nodes and some 40 columns at most (the construct table's
# every row at three levels): a million cells is beyond any, and bounds the check's time.
MAX_CELLS = 1000000


class Bad(Exception):
    """The profile is not one this check can read (one line)."""


def profile_files(suite) -> Dict[int, str]:
    """Run number -> its profile's file name, for every profile of the suite."""
    out = {}
    for rel in suite.files:
        if "/" not in rel and rel.startswith(suite.name):
            m = PROFILE_NAME.match(rel[len(suite.name):])
            if m and len(m.group(2)) <= 9:
                out[int(m.group(2))] = rel
    return out


def _member(obj, path: str):
    """The member PATH ("a.b", "a.b[1]") of OBJ; None when any step is missing."""
    m = MEMBER.match(path)
    if not m:
        return None
    for step in m.group(1).split("."):
        obj = obj.get(step) if isinstance(obj, dict) else None
    if m.group(2) is not None:
        obj = obj[int(m.group(2))] if isinstance(obj, list) and len(obj) == 2 else None
    return obj


def _same(cell, value) -> bool:
    """A profile's cell and the record's member: both null, or the same number (true/false as 1/0), or
    the same text (metadata)."""
    if value is None or cell is None:
        return value is None and cell is None
    if isinstance(value, bool) or isinstance(cell, bool):
        return isinstance(cell, (bool, int)) and isinstance(value, (bool, int)) and int(cell) == int(value)
    if isinstance(value, (int, float)) and isinstance(cell, (int, float)):
        return float(cell) == float(value)
    return cell == value


def _read(text: str):
    """The profile's sections, checked for form: (columns, metadata, nodes, row of each node, the rest)."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as e:   # RecursionError: nesting deeper than the parser goes
        raise Bad("not JSON (%s)" % str(e)[:120])
    if not isinstance(doc, dict) or not all(isinstance(doc.get(k), list) for k in SPLIT_KEYS):
        raise Bad("not a Caliper json-split profile (data, columns, column_metadata, nodes)")
    columns, meta, nodes = doc["columns"], doc["column_metadata"], doc["nodes"]
    if len(meta) != len(columns) or not all(isinstance(c, str) for c in columns) or not all(isinstance(m, dict) for m in meta):
        raise Bad("its columns and column_metadata do not pair up")
    if "path" not in columns or meta[columns.index("path")].get("is_value") is not False:
        raise Bad("no path column (the tree)")
    path = columns.index("path")
    if len(nodes) * len(columns) > MAX_CELLS:
        raise Bad("%d nodes of %d columns: more than any profile clomp writes" % (len(nodes), len(columns)))
    for i, node in enumerate(nodes):
        if not isinstance(node, dict) or not isinstance(node.get("label"), str) or node.get("column") != "path":
            raise Bad("node %d is not a path node with a label" % i)
        parent = node.get("parent")
        if (i == 0) != (parent is None) or parent is not None and not (isinstance(parent, int) and 0 <= parent < i):
            raise Bad("node %d's parent is not an earlier node (the root first)" % i)
    rows: Dict[int, list] = {}
    for row in doc["data"]:
        if not isinstance(row, list) or len(row) != len(columns) or not isinstance(row[path], int) \
                or isinstance(row[path], bool) or not 0 <= row[path] < len(nodes) or row[path] in rows:
            raise Bad("a data row is not one node's row of every column")
        rows[row[path]] = row
    if len(rows) != len(nodes):
        raise Bad("%d nodes have no data row" % (len(nodes) - len(rows)))
    rest = {k: v for k, v in doc.items() if k not in SPLIT_KEYS}
    return columns, meta, nodes, rows, rest


def _expected(rec) -> Dict[tuple, tuple]:
    """(parent's label, label, kind) path of every node the record gives -> (kind, its record object)."""
    want: Dict[tuple, tuple] = {("clomp",): ("group", None)}
    for m in rec.measurements:
        want[("clomp", m.name)] = ("measurement", m.doc)
    constructs = rec.constructs
    if isinstance(constructs, dict):
        want[("clomp", "constructs")] = ("group", None)
        for row in constructs.get("rows") or []:
            if not isinstance(row, dict):
                continue
            ones = 0
            for level in row.get("levels") or []:
                if not isinstance(level, dict):
                    continue
                if level.get("level") == 2:
                    name = LEVEL_NAMES[2]
                else:
                    name, ones = LEVEL_NAMES[min(ones, 1)], ones + 1
                want[("clomp", "constructs", name)] = ("group", None)
                want[("clomp", "constructs", name, str(row.get("construct_name")))] = ("construct", level)
    limits = rec.doc.get("limits")
    if isinstance(limits, dict):
        want[("clomp", "limits")] = ("group", None)
        for key, figure in (limits.get("figures") or {}).items():
            want[("clomp", "limits", key)] = ("limits", figure)
    return want


def _member_for(kind: str, path: str, obj, rec):
    """PATH of a node's record object OBJ; llnl_targets.TARGET.x: x of the LLNL target the measurement is
    judged against (one with a bound, target_below: the figure catalogue's llnl_target_cycles)."""
    if kind == "measurement" and path.startswith("llnl_targets.TARGET."):
        targets = [t for t in (rec.doc.get("llnl_targets") or {}).values()
                   if isinstance(t, dict) and t.get("measurement") == obj.get("key") and t.get("target_below") is not None]
        return _member(targets[0], path[len("llnl_targets.TARGET."):]) if targets else None
    return _member(obj, path)


def check_one(rec, rel: str, text: str, say: Callable[[str], None]) -> None:
    shown = for_terminal(rel)
    try:
        columns, meta, nodes, rows, rest = _read(text)
    except Bad as e:
        say("%s: %s" % (shown, e))
        return
    paths: List[tuple] = []
    for node in nodes:
        parent = node.get("parent")
        paths.append((paths[parent] if parent is not None else ()) + (node["label"],))
    want = _expected(rec)
    have = set(paths)
    for p in [p for p in want if p not in have][:3]:
        say("%s: the record's %s has no node" % (shown, for_terminal(" -> ".join(p)[:160])))
    for p in [p for p in paths if p not in want][:3]:
        say("%s: node %s is not in the record" % (shown, for_terminal(" -> ".join(p)[:160])))
    if len(have) != len(paths):
        say("%s: a node is there twice" % shown)
    measured = [p[1] for p in paths if len(p) == 2 and want.get(p, ("",))[0] == "measurement"]
    if measured != [m.name for m in rec.measurements] and not [p for p in want if p not in have]:
        say("%s: its measurements are not in the record's order" % shown)
    path_column = columns.index("path")
    for j, column in enumerate(columns):
        if j == path_column:
            continue
        members = meta[j].get("clomp.record")
        if meta[j].get("is_value") is not True or not isinstance(members, dict):
            say("%s: column %s does not say which record member it is (column_metadata clomp.record)" % (shown, for_terminal(column[:80])))
            continue
        unit = meta[j].get("clomp.limits_unit")
        for i, p in enumerate(paths):
            kind, obj = want.get(p, ("group", None))
            cell = rows[i][j]
            member = members.get(kind)
            if kind == "limits" and unit is not None and isinstance(obj, dict) and obj.get("unit") != unit:
                member = None   # a --limits figure's value sits in the column of its unit only
            value = _member_for(kind, member, obj, rec) if isinstance(member, str) and obj is not None else None
            if not _same(cell, value):
                say("%s: %s, %s is %s, its record %s" % (shown, for_terminal(" -> ".join(p[1:])[:120]), for_terminal(column[:80]),
                                                      for_terminal(json.dumps(cell)[:40]), for_terminal(json.dumps(value)[:40])))
                break
    _check_metadata(rec, shown, rest, say)


def _check_metadata(rec, shown: str, rest: dict, say: Callable[[str], None]) -> None:
    for key, member in METADATA:
        value = _member(rec.doc, member)
        if key not in rest or not _same(rest[key], value):
            say("%s: its metadata %s is %s, its record's %s %s" % (shown, key, for_terminal(json.dumps(rest.get(key))[:80]),
                                                                 member, for_terminal(json.dumps(value)[:80])))
    environment = rec.doc.get("openmp_environment") if isinstance(rec.doc.get("openmp_environment"), dict) else {}
    told = {k: v for k, v in rest.items() if OPENMP_VARIABLE.match(k)}
    if told != environment:
        say("%s: its OpenMP variables (%s) are not the record's (%s)" % (
            shown, for_terminal(" ".join(sorted(told))[:120]), for_terminal(" ".join(sorted(environment))[:120])))
    ranks = (rec.doc.get("mpi") or {}).get("ranks") if isinstance(rec.doc.get("mpi"), dict) else None
    if rest.get("jobsize") != (ranks if isinstance(ranks, int) and ranks > 0 else 1):
        say("%s: its jobsize %s is not the record's MPI ranks" % (shown, for_terminal(json.dumps(rest.get("jobsize"))[:40])))


def check_profiles(suite, read_text: Callable[[str], Optional[str]], say: Callable[[str], None]) -> None:
    """Every profile of the suite against its record (SAY: one reason)."""
    profiles = profile_files(suite)
    for run, rel in sorted(profiles.items()):
        rec = suite.record(run)
        set_name = PROFILE_NAME.match(rel[len(suite.name):]).group(1)
        if rec is None or rec.set_name != set_name:
            say("%s: a profile of run %d (%s), which has no record" % (for_terminal(rel), run, for_terminal(set_name[:80])))
            continue
        text = read_text(rel)
        if text is not None:
            check_one(rec, rel, text, say)
    if profiles:
        for run, rec in sorted(suite.records.items()):
            if run not in profiles:
                say("%s has no profile (%s_%s.run%d.cali.json), though the bundle carries the other runs'" % (
                    for_terminal(rec.file), suite.name, for_terminal(rec.set_name[:80]), run))
