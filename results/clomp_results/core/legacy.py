"""Suites, bundles and archives made before the manifest (issue 46, item 7):
their <base>.env read once, here, and made into the manifest the driver
writes today (manifest.py), which every reader then reads; no other module
reads a .env. `clomp-results manifest [--write] SUITE` (manifest_cli.py)
prints it, or writes <base>.suite.json beside an old suite (the driver's
--resume of an old suite asks for this; suite/manifest.sh).

What an old suite cannot say is left out, never guessed: a plan entry's
clomp options beyond --numa (the construct runs'), how many target
processes --replicates asked for (replicates_asked "not recorded"), and
whether the suite runs the grain search (no grain_search: the driver's
--resume then goes by its options).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence

from . import manifest
from .records import EnvFacts, PlannedRun, Table, count_of

CONVERTED = "built from the .env of a suite from before the manifest (clomp-results manifest)"


def unquote_bash(value: str) -> str:
    """A value bash's printf %q wrote: $'...' (ANSI-C) or backslash escapes."""
    if value.startswith("$'") and value.endswith("'"):
        body = value[2:-1]
        out = []
        i = 0
        simple = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b",
                  "e": "\x1b", "E": "\x1b", "f": "\f", "v": "\v"}
        while i < len(body):
            ch = body[i]
            if ch == "\\" and i + 1 < len(body):
                nxt = body[i + 1]
                if nxt in simple:
                    out.append(simple[nxt])
                    i += 2
                    continue
                m = re.match(r"[0-7]{1,3}", body[i + 1:])
                if m:
                    out.append(chr(int(m.group(0), 8)))
                    i += 1 + len(m.group(0))
                    continue
                m = re.match(r"x[0-9A-Fa-f]{1,2}", body[i + 1:])
                if m:
                    out.append(chr(int(m.group(0)[1:], 16)))
                    i += 1 + len(m.group(0))
                    continue
            out.append(ch)
            i += 1
        return "".join(out)
    if value.startswith("'") and value.endswith("'") and len(value) >= 2:
        return value[1:-1]
    return re.sub(r"\\(.)", r"\1", value)


def parse_plan(line: str) -> List[PlannedRun]:
    """The runs of a plan signature: exe=...;launcher=...;[mpi=...;]set|policy|args;..."""
    runs = []
    for part in line.split(";"):
        if "|" not in part:
            continue
        fields = part.split("|", 2)
        if len(fields) != 3:
            continue
        set_name, policy, args = fields
        if not set_name:
            continue
        runs.append(PlannedRun(len(runs) + 1, set_name, policy, tuple(args.split())))
    return runs


# A run number of at most 9 digits: int() refuses over 4300 (Python 3.8.14+), and a hostile .env must not raise.
STAGE2_LINE = re.compile(r"^replicates auto: stage-2 process \d+ of \d+: run ([0-9]{1,9})$")


def with_auto_replicates(plan: List[PlannedRun], added: int, stage2: Sequence[int] = ()) -> List[PlannedRun]:
    """--replicates auto (suite/replicates.sh, where stage 2's runs are inserted). Two-stage (issue 31): each
    "replicates auto: stage-2 process K of N: run R" line of .env is a run of the plan's first (the
    target input) at run number R, the lines in the order the driver inserted them (ascending: R is
    already the run's final number); the runs from there on are numbered on. A suite from before
    (one at a time): each "one more target process" line is one more such run right after the last
    key run (ADDED of them)."""
    last_key = max((i for i, p in enumerate(plan) if p.set_name == "key"), default=-1)
    runs = plan[:last_key + 1] + [plan[0]] * added + plan[last_key + 1:]
    if stage2:
        # One pass, not an insert per line: a hostile .env's lines cost linear time (issue 30).
        rest, out, j = runs, [], 0
        for run in sorted(set(r for r in stage2 if r >= 1)):
            while len(out) < run - 1 and j < len(rest):
                out.append(rest[j])
                j += 1
            out.append(plan[0])
        runs = out + rest[j:]
    return [PlannedRun(i + 1, p.set_name, p.policy, p.args) for i, p in enumerate(runs)]


def parse_env(text: str) -> EnvFacts:
    env = EnvFacts()
    heading = None
    for line in text.splitlines():
        if line.startswith("---- "):
            rest = line[5:]
            if re.match(r"^(complete|interrupted|resumed|stopped)\b", rest):
                env.status_lines.append(rest)
                heading = None
                continue
            heading = rest
            env.sections.setdefault(heading, [])
            continue
        if heading is None:
            k, sep, v = line.partition(": ")
            if sep and k not in env.facts:
                env.facts[k] = v
                if k == "plan":
                    env.plan = parse_plan(v)
        else:
            env.sections[heading].append(line)
            if heading.startswith("preflight warnings") and line.startswith("WARNING: "):
                env.preflight_warnings.append(line[len("WARNING: "):])
            if heading.startswith("OpenMP and launcher environment") and "=" in line:
                k, _, v = line.partition("=")
                env.openmp_environment[k] = unquote_bash(v)
    added = sum(1 for line in text.splitlines() if line.startswith("replicates auto: one more target process"))
    env.auto_stage2_runs = [int(m.group(1)) for m in (STAGE2_LINE.match(line) for line in text.splitlines()) if m]
    if (added or env.auto_stage2_runs) and env.plan:
        env.plan = with_auto_replicates(env.plan, added, env.auto_stage2_runs)
    if "host" in env.facts:
        env.facts["host"] = unquote_bash(env.facts["host"])
    return env


# "---- run K FAILED (SET, exit status RC): REASON" (suite/run_guard.sh): a run's reason, its latest.
FAILED_LINE = re.compile(r"^---- run ([0-9]{1,9}) FAILED \([^)]*\): (.*)$")


def run_role(set_name: str) -> str:
    """The plan entry's role (as write/manifest_writer.c role_of gives it to a new suite)."""
    if set_name == "key":
        return "key"
    if set_name.startswith("packed"):
        return "packed"
    if set_name == "oversubscribed":
        return "oversubscribed"
    if set_name.endswith("zones"):
        return "sweep"
    if set_name == "constructs" or set_name.startswith("constructs_outer"):
        return "constructs"
    if set_name == "offload" or set_name.startswith("offload_zpp") or set_name == "offload_probes":
        return "offload"
    return "other"


def _number(text: str):
    """A plain decimal of .runs.csv as a JSON number, else None."""
    if count_of(text) is not None:
        return int(text)
    if re.match(r"^-?[0-9]{1,9}(\.[0-9]{1,9})?$", text or ""):
        return int(text) if "." not in text else float(text)
    return None


def manifest_of(name: str, env_text: str, done: Sequence[int], runs: Optional[Table],
                records: Dict[int, str]) -> Dict[str, Any]:
    """The manifest of old suite NAME from its .env's text, its .done runs, its .runs.csv (None: none)
    and RECORDS {run: its record's file name}."""
    env = parse_env(env_text)
    facts = env.facts
    settings: Dict[str, Any] = {}
    for key, fact in manifest.FACT_NAMES:
        if fact in facts:
            settings[key] = facts[fact]
    for key in ("max_threads", "time_scale"):
        if key in settings and count_of(settings[key]) is not None:
            settings[key] = int(settings[key])
    settings["replicates_asked"] = "not recorded"
    settings["openmp_environment"] = env.openmp_environment
    settings["preflight_warnings"] = env.preflight_warnings
    reasons = {}
    for line in env_text.splitlines():
        m = FAILED_LINE.match(line)
        if m:
            reasons[int(m.group(1))] = m.group(2)
    rows = {}
    for row in (runs.rows if runs is not None else []):
        if count_of(row.get("run")) is not None:
            rows[int(row["run"])] = row
    done_set = set(done)
    plan, states = [], []
    for p in env.plan:
        plan.append({"run": p.index, "set": p.set_name, "numa": p.policy or "first-touch", "args": list(p.args),
                     "options": ["--numa=" + p.policy] if p.policy else [], "threads": count_of(p.args[0]) if p.args else None,
                     "time_scale": count_of(p.args[6]) if len(p.args) > 6 else None, "role": run_role(p.set_name)})
        row = rows.get(p.index, {})
        state = "planned"
        if p.index in done_set:
            state = "failed" if row.get("status") == "FAILED" else "done"
        states.append({"run": p.index, "status": state, "exit_code": _number(row.get("exit_code", "")) if state != "planned" else None,
                       "seconds": _number(row.get("seconds", "")) if state != "planned" else None,
                       "reason": reasons.get(p.index) if state == "failed" else None,
                       "record": records.get(p.index) if state != "planned" else None})
    last = env.status_lines[-1].split(" ", 1)[0] if env.status_lines else ""
    if last == "complete":
        status = "failed" if "FAILED" in env.status_lines[-1] else "complete"
    else:
        status = {"interrupted": "interrupted", "stopped": "stopped"}.get(last, "running")
    first = env.plan[0] if env.plan else None
    return {"schema": manifest.SCHEMA, "schema_major": manifest.MAJOR, "schema_minor": manifest.MINOR, "suite": name,
            "plan_signature": facts.get("plan", ""), "settings": settings,
            "machine": [{"heading": h, "lines": lines} for h, lines in env.sections.items()], "converted": CONVERTED,
            "plan": plan, "runs": states,
            "replicates": {"asked": "auto" if env.auto_stage2_runs else "fixed",
                           "planned": sum(1 for p in env.plan if first and p.set_name == "key" and p.args == first.args
                                          and p.policy == first.policy and p.index not in env.auto_stage2_runs),
                           "stage2_planned": len(env.auto_stage2_runs), "stage2_runs": env.auto_stage2_runs},
            "history": env.status_lines, "status": status}
