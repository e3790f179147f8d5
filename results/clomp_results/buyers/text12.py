"""CLOMP 1.2's plain text output as a submission of the buyer's table
(issue 33): published and historical 1.2 runs join with what they have.

What 1.2 prints and this reads: the "Comma-delimited summary" block (its
header names the input and the measurements' columns; rows us/Loop, Speedup,
Efficacy, Overhead), the Hostname, Start time and numThreads lines. clomp's
own text output keeps those lines and columns (docs/output.md), so it reads
the same. Each block is one process; several blocks of one input in one file
(runs appended to a log) are several processes of it. There is no
interval within a process, no clock, and no description of the machine:
every figure says so rather than guessing.
"""
from __future__ import annotations

import re
from typing import Dict, List

from ..core import catalogue

SUMMARY_MARK = "Comma-delimited summary"
NUMBER = re.compile(r"^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?%?$")


class NotClomp12Text(Exception):
    """The file has no CLOMP 1.2 summary block."""


def column_slug(name: str) -> str:
    """A 1.2 column name as the .summary's column prefix: 'OMP Barrier' -> omp_barrier."""
    return re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")


def looks_like(text: str) -> bool:
    return SUMMARY_MARK in text


def parse(text: str) -> Dict[str, object]:
    """{"processes": [{figure column: value}], "inputs": [7 input texts], "host", "date", "threads",
    "version", "invocation"}; NotClomp12Text without a summary block, or when the blocks' inputs differ."""
    # The summary's rows (us/Loop, Speedup, Efficacy, Overhead): the catalogue's kinds CLOMP 1.2 prints, by
    # their text line, each a figure key's suffix.
    rows = dict((k["text_line"], k["suffix"]) for k in catalogue.load().runtime_kinds())
    lines = text.splitlines()
    facts = {"host": "", "date": "", "threads": "", "version": "", "invocation": ""}
    processes: List[Dict[str, float]] = []
    inputs = None
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        for label, key in (("Hostname:", "host"), ("Start time:", "date"), ("numThreads:", "threads"),
                           ("Invocation:", "invocation")):
            if stripped.startswith(label) and not facts[key]:
                facts[key] = stripped[len(label):].strip()
        if not facts["version"] and ("Benchmark Version" in stripped or stripped.startswith("clomp ")):
            facts["version"] = stripped
        if SUMMARY_MARK in line and i + 1 < len(lines):
            header = [c.strip() for c in lines[i + 1].split(",")]
            words = header[0].split()
            if len(words) < 8:
                raise NotClomp12Text("the summary block's first line does not name the seven inputs")
            these = words[-7:]
            if inputs is not None and these != inputs:
                raise NotClomp12Text("its summary blocks are of different inputs (%s; %s): one input per submission"
                                     % (" ".join(inputs), " ".join(these)))
            inputs = these
            columns = header[1:]
            values: Dict[str, float] = {}
            j = i + 2
            while j < len(lines) and lines[j].split(",", 1)[0].strip() in ("Runtime",) + tuple(rows):
                cells = [c.strip() for c in lines[j].split(",")]
                member = rows.get(cells[0])
                for name, cell in zip(columns, cells[1:]):
                    if member and NUMBER.match(cell):
                        values["%s_%s" % (column_slug(name), member)] = float(cell.rstrip("%"))
                j += 1
            if not values:
                raise NotClomp12Text("its summary block has no us/Loop, Speedup or Overhead row")
            processes.append(values)
            i = j
            continue
        i += 1
    if not processes:
        raise NotClomp12Text("no '%s' block (not CLOMP 1.2 text output)" % SUMMARY_MARK)
    facts["threads"] = facts["threads"].split(" ")[0]
    out: Dict[str, object] = dict(facts)
    out["processes"] = processes
    out["inputs"] = inputs
    return out
