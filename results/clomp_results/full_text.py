"""A run's text against its record (issue 45, item 3; crosscheck.check_full):
what clomp printed (the run's section of <base>_<set>.full, between the
driver's `=== run N/M: COMMAND` and `=== end of run N: exit status RC
(STATUS)` markers) and what it wrote to its JSON record come from one
process, so they must say the same. A run's last complete section is its
text (a section a cut record left stays before it; an injected one is a
difference). Compared, in clomp's own formats (report/text_setup.c,
text_summary.c, text_noise.c): the inputs the command ran, its exit
status, the header's compiler, numThreads and timeScale, CLOMP 1.2's comma-delimited
summary (Runtime, us/Loop, Speedup, Efficacy, Overhead, each at its printed
precision), the thread placement's unbound threads and the noise census's
lost time per thread and busy verdict. One difference a run is said.
"""
from __future__ import annotations

import math
import re
from typing import Callable, Dict, List, Optional

from . import catalogue, tables
from .records import INPUT_NAMES
from .safe_io import SAFE_NAME, for_terminal

SHOWN = 10    # runs named in one line
RUN_START = re.compile(r"^=== run ([0-9]{1,9})/[0-9]{1,9}: (.*)$")
RUN_END = re.compile(r"^=== end of run ([0-9]{1,9}): exit status (-?[0-9]{1,9}) \(([A-Z]+)\)$")
SUMMARY_MARK = "----------- Comma-delimited summary ----------"
# The decimal places CLOMP 1.2's comma-delimited summary prints each row at (report/text_summary.c).
SUMMARY_DECIMALS = {"Runtime": 3, "us/Loop": 2, "Speedup": 1, "Efficacy": 1, "Overhead": 2}
HEADER_INPUT = re.compile(r"^ *(numThreads|timeScale): (-?[0-9]{1,9})\b")
PLACEMENT = re.compile(r"^ Thread placement: [0-9]+ -> ")
NOISE_THREAD = re.compile(r"^   Noise thread ([0-9]+): .*, lost ([0-9.]+)%, ")
COMPILER = "         Compiler: "     # report/text_setup.c


def summary_rows() -> Dict[str, tuple]:
    """label -> (record member, decimals) of CLOMP 1.2's summary rows: Runtime, then the catalogue's kinds
    1.2 prints (its text_line: us/Loop, Speedup, Efficacy, Overhead), each read from its member."""
    rows = {"Runtime": ("runtime_seconds", SUMMARY_DECIMALS["Runtime"])}
    for k in catalogue.load().runtime_kinds():
        rows[k["text_line"]] = (k["json"], SUMMARY_DECIMALS[k["text_line"]])
    return rows


def _printed(cell: str, value, decimals: int) -> bool:
    """A figure CLOMP 1.2's summary printed (DECIMALS places, or N/A) against the record's value."""
    cell = cell.strip().rstrip("%")
    if value is None or not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        return cell == "N/A"
    try:
        shown = float(cell)
    except ValueError:
        return False
    return abs(shown - value) <= 0.5 * 10 ** -decimals * (1 + 1e-9) + 1e-12 * abs(value)


def _sections(text: str):
    """run -> (command, body lines, exit status, status) of each run's last complete section of a .full."""
    out = {}
    lines = text.splitlines()
    start = None
    for i, line in enumerate(lines):
        if line.startswith("=== run "):
            m = RUN_START.match(line)
            if m:
                start = (int(m.group(1)), m.group(2), i)
        elif line.startswith("=== end of run ") and start is not None:
            m = RUN_END.match(line)
            if m and int(m.group(1)) == start[0]:
                out[start[0]] = (start[1], lines[start[2] + 1:i], int(m.group(2)), m.group(3))
                start = None
    return out


def _summary_block(body: List[str]):
    """(inputs, {row label: [cells]}, [measurement names]) of CLOMP 1.2's comma-delimited summary in a
    run's text, or None when it has none."""
    at = None
    for i, line in enumerate(body):
        if line == SUMMARY_MARK:
            at = i
    if at is None or at + 1 >= len(body):
        return None
    rows, known = {}, summary_rows()
    for line in body[at + 2:]:
        label, _, rest = line.partition(",")
        if label not in known:
            break
        rows[label] = rest.split(",")
    width = len(rows.get("us/Loop", []))
    parts = body[at + 1].split(", ")
    if width == 0 or len(parts) <= width:
        return None
    return parts[-width - 1].split()[-7:], rows, [n.strip() for n in parts[-width:]]


def compiler_line(build) -> Optional[str]:
    """The compiler as clomp prints it from a record's build ("GCC 12.2.0 (CC=gcc)": the .full's Compiler line,
    the .env's build facts), or None when the record does not name one."""
    if not isinstance(build, dict) or not isinstance(build.get("compiler"), str) or not isinstance(build.get("cc"), str):
        return None
    return "%s (CC=%s)" % (build["compiler"], build["cc"])


def _compare_text(p, rec, body: List[str], where: str, say: Callable[[str], None]) -> None:
    """One run's text (its .full section) against its record."""
    compiler = compiler_line(rec.doc.get("build"))
    for line in body[:200]:
        if line.startswith(COMPILER) and compiler is not None and line[len(COMPILER):].strip() != compiler:
            say("%s: its text says the compiler was '%s', its record '%s'" % (
                where, for_terminal(line[len(COMPILER):].strip()[:120]), for_terminal(compiler[:120])))
            return
    seen = set()
    for line in body[:200]:
        m = HEADER_INPUT.match(line)
        if m and m.group(1) not in seen:
            seen.add(m.group(1))
            if str(rec.inputs.get(m.group(1))) != m.group(2):
                say("%s: its text says %s %s, its record %s" % (where, m.group(1), m.group(2), for_terminal(str(rec.inputs.get(m.group(1)))[:40])))
                return
    block = _summary_block(body)
    summary = summary_rows()
    named = {}
    for m in rec.measurements:
        named.setdefault(m.name, m)
    if block is None:
        if any(m.get(summary["us/Loop"][0]) is not None for m in rec.measurements):
            say("%s: no CLOMP 1.2 summary in its text, which its record's figures would be printed in" % where)
        return
    inputs, rows, names = block
    if inputs != [str(rec.inputs.get(c)) for c in INPUT_NAMES]:
        say("%s: its text's summary is of the inputs '%s', its record's '%s'" % (
            where, for_terminal(" ".join(inputs)[:120]), for_terminal(" ".join(str(rec.inputs.get(c)) for c in INPUT_NAMES)[:120])))
        return
    for k, name in enumerate(names):
        m = named.get(name)
        if m is None:
            say("%s: its text's summary has a column '%s' that its record does not" % (where, for_terminal(name[:80])))
            return
        for label, cells in rows.items():
            member, decimals = summary[label]
            if k < len(cells) and not _printed(cells[k], m.get(member), decimals):
                say("%s: its text prints %s %s %s, its record %s" % (where, for_terminal(name[:80]), label, for_terminal(cells[k].strip()[:40]),
                                                                   for_terminal(str(m.get(member))[:40])))
                return
    placement = (rec.doc.get("numa") or {}).get("thread_placement") or {}
    lines = [line for line in body if PLACEMENT.match(line)]
    if lines and isinstance(placement.get("unbound_threads"), int) and placement.get("team") == len(lines):
        unbound = sum(1 for line in lines if "(unbound: " in line)
        if unbound != placement["unbound_threads"]:
            say("%s: its text places %d of %d threads unbound, its record %d" % (where, unbound, len(lines), placement["unbound_threads"]))
            return
    census = rec.noise_census
    threads = census.get("threads") if isinstance(census.get("threads"), list) else []
    for line in body:
        m = NOISE_THREAD.match(line)
        if not m:
            if line.startswith("       Noise busy: ") and isinstance(census.get("busy"), bool) and \
                    line.startswith("       Noise busy: YES") != census["busy"]:
                say("%s: its text says the noise census found the node busy: %s, its record %s" % (
                    where, "yes" if line.startswith("       Noise busy: YES") else "no", census["busy"]))
                return
            continue
        t = int(m.group(1))
        lost = threads[t].get("lost_fraction") if t < len(threads) and isinstance(threads[t], dict) else None
        if not isinstance(lost, (int, float)) or isinstance(lost, bool) or not _printed(m.group(2), 100 * lost, 3):
            said = "%.3f%%" % (100 * lost) if isinstance(lost, (int, float)) and not isinstance(lost, bool) else for_terminal(str(lost)[:40])
            say("%s: its text says noise thread %d lost %s%%, its record %s" % (where, t, m.group(2), said))
            return


def compare(suite, read_text: Callable[[str], Optional[str]], say: Callable[[str], None]) -> None:
    """Each run that ran OK: its last complete section of <base>_<set>.full against the plan and its
    record, each difference to SAY. READ_TEXT: a file of the suite by name, None when there is none."""
    facts = tables.driver_facts(suite)
    by_set: Dict[str, List] = {}
    for p in suite.plan:
        if not p.is_oversubscribed and facts.get(p.index, [""])[0] == "OK":
            by_set.setdefault(p.set_name, []).append(p)
    for set_name, runs in by_set.items():
        fname = "%s_%s.full" % (suite.name, set_name)
        text = read_text(fname) if SAFE_NAME.match(set_name) else None
        if text is None:
            say("%s is missing: the text of runs %s" % (for_terminal(fname[:200]), " ".join(str(p.index) for p in runs[:SHOWN])))
            continue
        sections = _sections(text)
        for p in runs:
            where = "run %d (%s.full)" % (p.index, for_terminal(set_name[:80]))
            if p.index not in sections:
                say("%s: no complete section '=== run %d/...' ... '=== end of run %d'" % (where, p.index, p.index))
                continue
            command, body, rc, status = sections[p.index]
            if command.split()[-7:] != list(p.args):
                say("%s: its text ran the inputs '%s', not the planned %s" % (where, for_terminal(" ".join(command.split()[-7:])[:200]),
                                                                              p.args_text))
            elif rc != 0 or status != "OK":
                say("%s: its text ends with exit status %d (%s), the tables say OK" % (where, rc, for_terminal(status)))
            elif suite.record(p.index) is not None:
                _compare_text(p, suite.record(p.index), body, where, say)
