"""The suite manifest, <base>.suite.json: what the package knows of a suite
before it reads a record (docs/suite-manifest.md).

schema "clomp-suite-manifest", schema_major 1 (a reader refuses another
major with one line naming it; a minor adds members, never renames):

    suite            CLOMP_<host>_<id>
    plan_signature   the driver's plan text (--resume compares it, as text)
    settings         date, host, uname, executable, max_threads, time_scale, model,
                     env_preset, thread_binding, launcher, mpi_launcher, replicates_asked,
                     grain_search (coarse|none, 1.2: --resume keeps it; the converter leaves it out),
                     slurm_job, offload_device, openmp_environment {VAR: value},
                     preflight_warnings [text]
    machine          [{heading, lines}]: the machine as the suite started (build facts,
                     lscpu, meminfo, NUMA layout, environment, ulimit, load...)
    plan             [{run, set, numa, args [7 texts], options [clomp options], threads,
                     time_scale, role}]   role: key packed sweep constructs offload
                     oversubscribed other
    runs             [{run, status, exit_code, seconds, reason, record}]
                     status: planned running done failed
    replicates       {asked: fixed|auto, planned, stage2_planned, stage2_runs [run]}
    history          the status lines (resumed, interrupted, stopped, complete), in order
    status           running complete failed interrupted stopped

The driver's writer writes it (`build/clomp-write manifest`,
write/manifest_writer.c, from the facts suite/manifest.sh gives it: no python3,
so a node without python3 leaves it too) one member per line and one run per
line, renamed whole over the old copy after every run; `render` writes the same layout (the converter's,
legacy.py), which the driver's --resume reads back. Everything here is
type-checked: a manifest may come from a hostile bundle.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from .records import EnvFacts, PlannedRun, count_of

SCHEMA = "clomp-suite-manifest"
MAJOR = 1
MINOR = 0
SUFFIX = ".suite.json"
STATUSES = ("planned", "running", "done", "failed")
# The settings' members and the .env names the readers know them by (records.EnvFacts.facts).
FACT_NAMES = (("date", "date"), ("host", "host"), ("uname", "uname"), ("executable", "executable"),
              ("max_threads", "max threads"), ("time_scale", "time scale"), ("model", "model"),
              ("env_preset", "env preset"), ("thread_binding", "thread binding"), ("launcher", "launcher"),
              ("mpi_launcher", "mpi launcher"), ("slurm_job", "slurm job"), ("offload_device", "offload device"))


class ManifestError(ValueError):
    """Not a manifest this reader reads (one line)."""


def parse(data: bytes, name: str = "manifest") -> Dict[str, Any]:
    """The manifest's document, its shape checked; ManifestError (one line) when it is none."""
    try:
        doc = json.loads(data.decode("utf-8", errors="replace"))
    except ValueError as e:
        raise ManifestError("%s: not JSON (%s)" % (name, e))
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise ManifestError("%s: not a %s document" % (name, SCHEMA))
    major = doc.get("schema_major")
    if major != MAJOR:
        raise ManifestError("%s: %s %s needs a newer reader (this one reads %d.x)" % (
            name, SCHEMA, major if isinstance(major, int) else "of no known version", MAJOR))
    for key, kind in (("settings", dict), ("plan", list), ("runs", list), ("machine", list), ("history", list)):
        if not isinstance(doc.get(key, kind()), kind):
            raise ManifestError("%s: '%s' is not a JSON %s" % (name, key, "object" if kind is dict else "array"))
    return doc


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    return value if isinstance(value, str) else str(value) if isinstance(value, (int, float)) else ""


def _texts(value) -> List[str]:
    return [_text(v) for v in value] if isinstance(value, list) else []


def planned_runs(doc: Dict[str, Any]) -> List[PlannedRun]:
    """The plan as PlannedRuns (numbered 1.. in order; "first-touch" is clomp's default, policy "")."""
    runs = []
    for entry in doc.get("plan", []):
        if not isinstance(entry, dict) or not _text(entry.get("set")):
            continue
        policy = _text(entry.get("numa"))
        runs.append(PlannedRun(len(runs) + 1, _text(entry.get("set")), "" if policy == "first-touch" else policy,
                               tuple(_texts(entry.get("args")))))
    return runs


def run_states(doc: Dict[str, Any]) -> Dict[int, Dict[str, Any]]:
    """{run: its status entry}, the entries with a run number and a known status only."""
    out = {}
    for entry in doc.get("runs", []):
        if isinstance(entry, dict) and isinstance(entry.get("run"), int) and entry.get("status") in STATUSES:
            out[entry["run"]] = entry
    return out


def env_facts(doc: Dict[str, Any]) -> EnvFacts:
    """The settings as the readers know them (records.EnvFacts, the names .env gives them)."""
    settings = doc.get("settings", {})
    env = EnvFacts()
    for key, fact in FACT_NAMES:
        if key in settings:
            env.facts[fact] = _text(settings[key])
    env.facts["plan"] = _text(doc.get("plan_signature"))
    env.plan = planned_runs(doc)
    for section in doc.get("machine", []):
        if isinstance(section, dict) and _text(section.get("heading")):
            env.sections.setdefault(_text(section["heading"]), _texts(section.get("lines")))
    env.status_lines = _texts(doc.get("history"))
    env.preflight_warnings = _texts(settings.get("preflight_warnings"))
    omp = settings.get("openmp_environment")
    if isinstance(omp, dict):
        env.openmp_environment = {_text(k): _text(v) for k, v in omp.items()}
    replicates = doc.get("replicates")
    if isinstance(replicates, dict):
        env.auto_stage2_runs = [r for r in replicates.get("stage2_runs", []) if isinstance(r, int)
                                and not isinstance(r, bool)] if isinstance(replicates.get("stage2_runs"), list) else []
    return env


def _line(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def render(doc: Dict[str, Any]) -> str:
    """DOC in the driver's layout (clomp-write manifest, write/manifest_writer.c): one member a line, one plan entry and one run a
    line; its head (up to "plan") is what --resume keeps."""
    out = ["{"]
    head = ["schema", "schema_major", "schema_minor", "suite", "plan_signature", "settings", "machine", "converted"]
    for key in head:
        if key in doc:
            out.append('  "%s": %s,' % (key, _line(doc[key])))
    for key in ("plan", "runs"):
        entries = doc.get(key, [])
        out.append('  "%s": [' % key)
        out += ["    %s%s" % (_line(e), "," if i + 1 < len(entries) else "") for i, e in enumerate(entries)]
        out.append("  ],")
    out.append('  "replicates": %s,' % _line(doc.get("replicates", {})))
    out.append('  "history": [%s],' % ", ".join(_line(h) for h in doc.get("history", [])))
    out.append('  "status": %s' % _line(doc.get("status", "running")))
    out.append("}")
    return "\n".join(out) + "\n"


def source_name(suite) -> str:
    """The file a suite's settings and machine-as-it-started come from, as messages name it: its manifest,
    or for a suite from before it, the .env its manifest was built from (legacy.py)."""
    return suite.name + (".env" if suite.manifest_converted else SUFFIX)


def count(value) -> Optional[int]:
    """A manifest's whole number (an int, or its text), else None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return count_of(value)
