"""What the validator checks of a suite's records themselves (validate.py calls them; docs/suite.md,
"Validating"): verification (no selected measurement whose verification failed, in the .csv and the
records; every checksum of one input identical across thread counts, placements and schedules) and
the construct table (its header, a row for every planned construct run, each row measured with an
overhead or not run with a reason).
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Dict, List

from ..core.safe_io import for_terminal

VERIFIED = ("reference", "passed", "skipped", "not applicable")
CONSTRUCT_OK = ("measured", "not run", "serialized by the runtime", "fewer threads than asked", "unresolved")
NUMBER = re.compile(r"^-?[0-9.]+([eE][-+]?[0-9]+)?$")


def check_verification(suite, reasons: List[str]) -> None:
    name = suite.name
    if suite.csv is None or not suite.csv.rows:
        reasons.append("%s.csv (every measurement of every run) is missing" % name)
    else:
        for row in suite.csv.rows:
            if row.get("selected") == "1" and row.get("verification") not in VERIFIED:
                reasons.append("run %s: %s verification is '%s'" % (for_terminal(row.get("run", "")), for_terminal(row.get("name", "")),
                                                                   for_terminal(row.get("verification", ""))))
        _same_checksums(("run %s %s (%s threads)" % (r.get("run"), r.get("name"), r.get("numThreads")),
                         " ".join(r.get(c, "") for c in ("numParts", "zonesPerPart", "zoneSize", "flopScale", "timeScale")),
                         "sum %s, residue %s, total %s" % (r.get("checksum_sum"), r.get("checksum_residue"), r.get("checksum_total")))
                        for r in suite.csv.rows if r.get("checksum_total", "") != "")
        for msg in _same_checksums.found:
            reasons.append(for_terminal(msg))
    recs = []
    for run, rec in sorted(suite.records.items()):
        for m in rec.measurements:
            if m.selected and m.verification not in VERIFIED:
                reasons.append("run %d: %s verification is '%s' (its record)" % (run, for_terminal(m.name), for_terminal(m.verification)))
            c = m.get("checksum")
            if isinstance(c, dict) and c.get("total") is not None:
                inputs = " ".join(str(rec.inputs.get(k, "")) for k in ("numParts", "zonesPerPart", "zoneSize", "flopScale", "timeScale"))
                recs.append(("run %d %s (%s threads; its record)" % (run, m.name, rec.resolved.get("numThreads")), inputs,
                             "sum %r, residue %r, total %r" % (c.get("sum"), c.get("residue"), c.get("total"))))
    _same_checksums(recs)
    for msg in _same_checksums.found:
        reasons.append(for_terminal(msg))


def _same_checksums(items) -> None:
    """One input, one answer: (where, input, checksum) items; the
    differences found are left in _same_checksums.found."""
    first: Dict[str, tuple] = {}
    told = set()
    found = []
    for where, inputs, checksum in items:
        if inputs not in first:
            first[inputs] = (checksum, where)
        elif checksum != first[inputs][0] and (inputs, checksum) not in told:
            told.add((inputs, checksum))
            found.append("input %s: checksum %s in %s differs from %s in %s" % (inputs, checksum, where, first[inputs][0], first[inputs][1]))
    _same_checksums.found = found


_same_checksums.found = []


def check_constructs(suite, reasons: List[str]) -> str:
    planned = {str(p.index) for p in suite.plan if p.is_construct}
    if not planned:
        return ""
    name = suite.name
    table = suite.constructs
    if table is None or not table.rows:
        reasons.append("%s.constructs.csv (the construct table of runs %s) is missing" % (name, " ".join(sorted(planned, key=int))))
        return ""
    bad = []
    if table.columns[:6] != ["run", "set", "run_status", "run_exit_code", "run_seconds", "construct"]:
        bad.append("its header does not start with run,set,run_status,run_exit_code,run_seconds,construct")
    for need in ("construct_name", "level", "outer_threads", "inner_threads", "status", "problem", "overhead_us"):
        if need not in table.columns:
            bad.append("its header has no column " + need)
    got = Counter()
    measured = 0
    for line, (row, width) in enumerate(zip(table.rows, table.widths), start=2):
        what = "run %s %s level %s" % (row.get("run"), row.get("construct_name"), row.get("level"))
        if width != len(table.columns):
            bad.append("line %d has %d fields, its header %d" % (line, width, len(table.columns)))
        if row.get("run") not in planned:
            bad.append("line %d: run '%s' is not a construct run of the plan" % (line, row.get("run")))
        else:
            got[row["run"]] += 1
        status = row.get("status", "")
        if status == "measured":
            measured += 1
            if not NUMBER.match(row.get("overhead_us", "")):
                bad.append(what + " is measured but has no overhead")
        elif status == "not run":
            if not row.get("problem"):
                bad.append(what + " is not run and gives no reason")
        elif status not in CONSTRUCT_OK:
            bad.append("%s is '%s'%s" % (what, status, ": " + row["problem"] if row.get("problem") else ""))
    for run in sorted(planned - set(got), key=int):
        bad.append("run %s (a construct run) has no row" % run)
    for b in bad:
        reasons.append("%s.constructs.csv: %s" % (name, for_terminal(b)))
    return "; construct table: %d rows, %d measured" % (len(table.rows), measured)
