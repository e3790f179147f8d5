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
lost time per thread and busy verdict; for a run with clomp --limits, its
"Node limits" block (report/text_limits.c) against the record's limits (the
team, not measured, busy, each figure in order: N/A, its value and 95%
interval at the printed digits, INVALID), and the record's limits.busy
against its own noise census. One difference a run is said per comparison.
"""
from __future__ import annotations

import math
import re
from typing import Callable, Dict, List, Optional

from ..core import catalogue, tables
from ..core.records import INPUT_NAMES
from ..core.safe_io import SAFE_NAME, for_terminal

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
LIMITS_START, LIMITS_END = "------ Node limits ", "------ (docs/limits.md) ------"   # report/text_limits.c
LIMITS_FIGURE = re.compile(r"^(.{38}) (N/A \((not a result: )?.*\)|(-?[0-9.]+) [^ ;,]+(, 95% CI (-?[0-9.]+) \.\. (-?[0-9.]+))?.*)$")


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


def _agrees(printed: str, value, interval: bool, bound: bool = False) -> bool:
    """A number clomp printed at the digits its interval supports (report/text_format.c measured_text,
    bound_text) against the record's VALUE: within half a unit of its last printed digit, where with an
    interval a whole number's trailing zeros are unprinted digits ("200": hundreds); a BOUND is rounded
    outward, so within one unit."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        return False
    whole, _, decimals = printed.lstrip("-").partition(".")
    unit = 10.0 ** -len(decimals)
    if interval and not decimals and whole.strip("0"):
        unit = 10.0 ** (len(whole) - len(whole.rstrip("0")))
    return abs(float(printed) - value) <= (1.0 if bound else 0.5) * unit * (1 + 1e-9) + 1e-12 * abs(value)


def compare_limits(rec, body: List[str], where: str, say: Callable[[str], None]) -> None:
    """A --limits run's "Node limits" block (its text) against its record's limits, and that block's busy
    against the record's own noise census (clomp judges both from the one census: measure/limits.c)."""
    limits = rec.doc.get("limits")
    if not isinstance(limits, dict):
        return
    census = rec.noise_census
    judged_busy = census.get("busy") is True
    if limits.get("busy") is not judged_busy or (judged_busy and limits.get("busy_reason") != census.get("busy_reason")):
        say("%s: its record's limits say busy %s, its noise census %s" % (
            where, for_terminal(str(limits.get("busy"))[:20]), for_terminal(str(census.get("busy"))[:20])))
        return
    starts = [i for i, line in enumerate(body) if line.startswith(LIMITS_START)]
    if not starts:
        say("%s: no Node limits block in its text, which its record's limits would be printed in" % where)
        return
    block = body[starts[-1] + 1:]
    block = block[:block.index(LIMITS_END)] if LIMITS_END in block else block
    if bool(limits.get("not_measured")) != any(line.startswith("Node limits: N/A (") for line in block):
        say("%s: its text's Node limits %s measured, its record's %s" % (
            where, "are not" if any(line.startswith("Node limits: N/A (") for line in block) else "are",
            "not (%s)" % for_terminal(str(limits.get("not_measured"))[:80]) if limits.get("not_measured") else "are"))
        return
    if limits.get("not_measured"):
        return
    team = next((line for line in block if line.startswith("Team: ")), "")
    if not team.startswith("Team: %s threads," % limits.get("threads")):
        say("%s: its text's Node limits say '%s', its record %s threads" % (where, for_terminal(team[:60]),
                                                                           for_terminal(str(limits.get("threads"))[:20])))
        return
    if any(line.startswith("Busy: YES") for line in block) != (limits.get("busy") is True):
        say("%s: its text's Node limits %s busy, its record's limits say busy %s" % (
            where, "say" if any(line.startswith("Busy: YES") for line in block) else "do not say", limits.get("busy")))
        return
    by_class = max((i for i, line in enumerate(block) if line.startswith("Pairs by class")), default=-1)
    lines = [line for line in block[by_class + 1:] if not line.startswith(" ") and not line.startswith("LLNL's ")]
    figures = limits.get("figures") if isinstance(limits.get("figures"), dict) else {}
    if len(lines) != len(figures):
        say("%s: its text's Node limits print %d figures, its record's %d" % (where, len(lines), len(figures)))
        return
    for line, (key, fig) in zip(lines, figures.items()):
        m = LIMITS_FIGURE.match(line)
        fig = fig if isinstance(fig, dict) else {}
        value, ci = fig.get("value"), fig.get("ci_95") if isinstance(fig.get("ci_95"), list) else None
        label = str(fig.get("label"))
        if m is None or not m.group(1).startswith(label):
            wrong = "'%s'" % for_terminal(line[:80])
        elif m.group(2).startswith("N/A"):
            wrong = None if value is None else "N/A"
        elif not _agrees(m.group(4), value, m.group(5) is not None):
            wrong = m.group(4)
        elif m.group(5) is not None and (ci is None or len(ci) != 2 or not _agrees(m.group(6), ci[0], True, True)
                                         or not _agrees(m.group(7), ci[1], True, True)):
            wrong = "95%% CI %s .. %s" % (m.group(6), m.group(7))
        elif m.group(5) is None and ci is not None:
            wrong = "no 95% CI"
        elif ("; INVALID: not a result: " in line) != (fig.get("valid") is False):
            wrong = "INVALID" if "; INVALID: " in line else "a result"
        else:
            wrong = None
        if wrong is not None:
            say("%s: its text's Node limits print %s %s, its record %s" % (
                where, for_terminal(label[:60]), wrong, for_terminal(json_text(fig)[:160])))
            return


def json_text(fig: dict) -> str:
    return "value %s, 95%% CI %s%s" % (fig.get("value"), fig.get("ci_95"), "" if fig.get("valid") is not False else
                                       ", not a result: %s" % fig.get("not_a_result"))


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
                compare_limits(suite.record(p.index), body, where, say)
