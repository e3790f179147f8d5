"""Typed records of a suite: what the loader (loader.py) reads and every
other module of the package uses. Plain dataclasses over clomp's own
records; nothing here reads a file.

- ``PlannedRun``: one run of the plan (the manifest's ``plan``, manifest.py).
- ``EnvFacts``: the suite's settings as the manifest holds them, by the names
  the driver's log (.env) gives them: the settings, the plan, the machine's
  sections (build facts, CPU, environment...), preflight warnings, status lines.
- ``Table``: a CSV read by column name (``<base>.csv``, ``.summary``,
  ``.constructs.csv``, ``_key.processes.csv``).
- ``RunRecord``: one run's clomp JSON document (docs/json-schema.md), with
  ``measurements`` and ``llnl_targets`` as typed views; ``doc`` is the whole
  document for anything not typed here.
- ``Suite``: all of the above for one suite ID.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

# The seven clomp inputs, in CLOMP 1.2's order (a plan row's and a .summary row's inputs).
INPUT_NAMES = ("numThreads", "allocThreads", "numParts", "zonesPerPart", "zoneSize", "flopScale", "timeScale")
PLAIN_INT = re.compile(r"^-?[0-9]{1,9}$")   # ASCII digits only: int() would take "²" and 4,000 digits
COUNT = re.compile(r"^[0-9]{1,9}$")


def count_of(text) -> Optional[int]:
    """A whole number >= 0 written in ASCII digits (at most 9), else None: str.isdigit() is true of "²",
    which int() refuses (issue 45: a bundle's "²" stopped the buyer's table with a traceback)."""
    return int(text) if isinstance(text, str) and COUNT.match(text) else None


@dataclass
class PlannedRun:
    """One run of the suite's plan: ``set|numa policy|seven inputs``."""
    index: int                 # 1-based run number, as in .done and the records' names
    set_name: str              # key, packed4, <Z>zones, constructs, constructs_outer2, ...
    policy: str                # --numa policy, "" for clomp's default (first touch)
    args: Tuple[str, ...]      # the seven inputs as text, numThreads first

    @property
    def args_text(self) -> str:
        return " ".join(self.args)

    @property
    def threads(self) -> int:
        """The planned numThreads; 0 when the plan's text is not a plain number (a hostile .env:
        "²" is a digit to str.isdigit, not to int)."""
        return int(self.args[0]) if self.args and PLAIN_INT.match(self.args[0]) else 0

    @property
    def is_construct(self) -> bool:
        return self.set_name == "constructs" or self.set_name.startswith("constructs_outer")

    @property
    def is_oversubscribed(self) -> bool:
        """The team-size cliff's cores + 1 run (suite/cliff.sh): never submission data."""
        return self.set_name == "oversubscribed"

    @property
    def is_key(self) -> bool:
        return self.set_name == "key" or self.set_name.startswith("packed")

    def describe(self) -> str:
        pol = ", --numa=" + self.policy if self.policy else ""
        return "run %d (%s%s: %s)" % (self.index, self.set_name, pol, self.args_text)


@dataclass
class EnvFacts:
    """``<base>.env``: ``name: value`` facts before the first section, then
    ``---- heading`` sections; status lines (complete, interrupted...)."""
    facts: Dict[str, str] = field(default_factory=dict)       # first value of each "name: value" line
    plan: List[PlannedRun] = field(default_factory=list)
    sections: Dict[str, List[str]] = field(default_factory=dict)  # heading -> its lines
    status_lines: List[str] = field(default_factory=list)    # "complete ...", "interrupted ...", ...
    preflight_warnings: List[str] = field(default_factory=list)
    openmp_environment: Dict[str, str] = field(default_factory=dict)
    # --replicates auto, two-stage (issue 31): the run numbers of the stage-2 target processes,
    # the only ones its reported interval comes from (the pilot's are left out); empty otherwise.
    auto_stage2_runs: List[int] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return any(s.startswith("complete ") for s in self.status_lines)

    @property
    def max_threads(self) -> Optional[int]:
        return count_of(self.facts.get("max threads", ""))

    @property
    def time_scale(self) -> Optional[int]:
        return count_of(self.facts.get("time scale", ""))

    def section(self, prefix: str) -> List[str]:
        """The lines of the first section whose heading starts with prefix."""
        for heading, lines in self.sections.items():
            if heading.startswith(prefix):
                return lines
        return []


@dataclass
class Table:
    """A CSV whose first row names the columns; rows are dicts by name."""
    name: str
    columns: List[str]
    rows: List[Dict[str, str]]
    widths: List[int] = field(default_factory=list)   # the field count of each row as read

    def column(self, name: str) -> List[str]:
        return [r.get(name, "") for r in self.rows]

    def where(self, **match: str) -> List[Dict[str, str]]:
        return [r for r in self.rows if all(r.get(k, "") == v for k, v in match.items())]


@dataclass
class Measurement:
    """One of a run's measurements (docs/json-schema.md, measurements[])."""
    key: str
    name: str
    role: str
    selected: bool
    doc: Dict[str, Any]

    def get(self, member: str, default: Any = None) -> Any:
        return self.doc.get(member, default)

    @property
    def verification(self) -> str:
        v = self.doc.get("verification") or {}
        return v.get("result", "") if isinstance(v, dict) else ""

    @property
    def valid(self) -> Optional[bool]:
        """fig-validity's per-measurement verdict; None in older records."""
        v = self.doc.get("valid")
        return v if isinstance(v, bool) else None


@dataclass
class LlnlTarget:
    """One row of the record's llnl_targets table (measure/llnl_targets.c)."""
    key: str
    label: str
    measurement: str
    figure: str
    citation: Optional[str]
    cycles: Optional[float]
    cycles_ci_95: Optional[List[float]]
    target_below: Optional[float]
    verdict: Optional[str]
    clock: Optional[str]
    core_cycles: Optional[List[float]]
    not_judged: Optional[str]


@dataclass
class RunRecord:
    """One run's clomp JSON document (rank 0's for MPI)."""
    run: int
    set_name: str
    file: str
    doc: Dict[str, Any]

    @property
    def status(self) -> str:
        return str(self.doc.get("status", ""))

    @property
    def exit_status(self) -> Optional[int]:
        v = self.doc.get("exit_status")
        return v if isinstance(v, int) else None

    @property
    def inputs(self) -> Dict[str, Any]:
        return self.doc.get("inputs") or {}

    @property
    def resolved(self) -> Dict[str, Any]:
        return self.doc.get("resolved") or {}

    @property
    def measurements(self) -> List[Measurement]:
        out = []
        for m in self.doc.get("measurements") or []:
            if isinstance(m, dict):
                out.append(Measurement(str(m.get("key", "")), str(m.get("name", "")), str(m.get("role", "")),
                                       bool(m.get("selected")), m))
        return out

    def measurement(self, key: str) -> Optional[Measurement]:
        for m in self.measurements:
            if m.key == key:
                return m
        return None

    @property
    def llnl_targets(self) -> List[LlnlTarget]:
        out = []
        for key, t in (self.doc.get("llnl_targets") or {}).items():
            if not isinstance(t, dict):
                continue
            out.append(LlnlTarget(key, str(t.get("label", key)), str(t.get("measurement", "")), str(t.get("figure", "")),
                                  t.get("citation"), t.get("cycles"), t.get("cycles_ci_95"), t.get("target_below"),
                                  t.get("verdict"), t.get("clock"), t.get("core_cycles"), t.get("not_judged")))
        return out

    @property
    def noise_census(self) -> Dict[str, Any]:
        return self.doc.get("noise_census") or {}

    @property
    def constructs(self) -> Optional[Dict[str, Any]]:
        return self.doc.get("constructs")

    @property
    def warnings(self) -> List[str]:
        return [str(w) for w in self.doc.get("warnings") or []]


@dataclass
class Suite:
    """One suite ID: every file of it, read through safe_io."""
    name: str                                  # CLOMP_<host>_<id>
    source: str                                # what was opened (directory, bundle)
    env: EnvFacts
    done: List[int]                            # run numbers in <base>.done, in order
    records: Dict[int, RunRecord]              # run number -> its JSON record
    summaries: Dict[str, Table]                # set name -> <base>_<set>.summary
    csv: Optional[Table]                       # <base>.csv: every measurement of every mesh run
    constructs: Optional[Table]                # <base>.constructs.csv
    processes: Optional[Table]                 # <base>_key.processes.csv (--replicates)
    machine: Dict[str, str]                    # <base>_machine/<file> -> its text
    files: Dict[str, int]                      # every file (relative to the suite's directory) -> size
    problems: List[str] = field(default_factory=list)  # what could not be read, one line each
    runs: Optional[Table] = None               # <base>.runs.csv: the driver's record of each run
    manifest: Dict[str, Any] = field(default_factory=dict)   # <base>.suite.json (manifest.py), as read
    manifest_converted: bool = False           # built from an old suite's .env (legacy.py), not the driver's

    @property
    def plan(self) -> List[PlannedRun]:
        return self.env.plan

    def record(self, run: int) -> Optional[RunRecord]:
        return self.records.get(run)

    def planned(self, run: int) -> Optional[PlannedRun]:
        for p in self.env.plan:
            if p.index == run:
                return p
        return None

    @property
    def key_runs(self) -> List[PlannedRun]:
        return [p for p in self.env.plan if p.set_name == "key"]

    @property
    def auto_pilot_runs(self) -> List[int]:
        """--replicates auto, two-stage (issue 31): the pilot's runs (the target input's key runs
        that are not stage 2's), which every interval reported leaves out; empty otherwise."""
        stage2 = set(self.env.auto_stage2_runs)
        if not stage2 or not self.env.plan:
            return []
        first = self.env.plan[0]
        return [p.index for p in self.env.plan if p.set_name == "key" and p.args == first.args
                and p.policy == first.policy and p.index not in stage2]
