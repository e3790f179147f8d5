"""Submissions of the buyer's table (issue 33): each input made into one
record, a plain JSON-able dict that every writer (HTML, CSV, JSON, the
archive) reads; nothing downstream opens a file.

Inputs (``load(path, label)`` -> [record]; a --compare result gives two):
- a bundle CLOMP_<host>_<id>.tar.gz: validated first by ./clomp_validate's
  code (validate.validate: MANIFEST, runs, verification, grade), then read
  through the loader (safe_io: a private temporary directory, bounds, no
  links or devices);
- a suite's directory: the same checks without the MANIFEST when it has
  none (a directory is not a bundle: there is no checksum to check);
- a ``run_clomp.sh --compare`` result (STEM.json/.txt/.csv or STEM): its
  processes' records STEM_A<r>.json and STEM_B<r>.json, one submission per side;
- CLOMP 1.2's plain text output (text12): one process, no interval, no clock.

A record (docs/compare-submissions.md, "Records"): label, kind, source,
sha256 (the file's; for a directory its content hash), content_sha256 (the
suite's files but MANIFEST, the HTML report, its charts and the runtime
description a bundle adds), host, suite, suite_id, header [[fact, value]],
validation {status, exit, reasons}, valid, target_input, runs, key {figure:
[values per process]}, dropped {figure: processes whose figure the run
marked invalid (or whose Bestcase it marked so, for an overhead)}, dropped_why
{figure: {reason: processes}} (compare_figures.invalid_kind), given {figure:
{of: processes, busy, invalid, failed, not measured: how many gave none and
why}}, targets, clock, sweep {figure: {threads: [values]}}, constructs {row:
[values]}, notes. The figures are the catalogue's (clomp --list-figures):
its key and sweep sets, by key; a figure comes only from a process that gave
it as a result (given.py).
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import os
import sys
import re
from typing import Dict, List, Optional

from ..core import compare_figures, given, loader, machine_facts, safe_io, tables
from ..cluster import cluster_bundle
from ..bundle import crosscheck, grade, record_checks, validate
from ..grain import node_limits
from . import process_figures, text12
from ..core.safe_io import NotABundle, Refused, for_terminal
from ..core.view import num



NOT_CONTENT = re.compile(r"^(MANIFEST|CLOMP_.+\.html|CLOMP_.+_charts/.*|CLOMP_.+_machine/openmp_runtime\.txt)$")
TEXT_BYTES = 16 << 20
MAX_PROCESSES = 10000   # stats/figure_comparison.h's MAX_VALUES: clomp-stats' bound on the values of one figure


class SubmissionError(Exception):
    """The input is not a submission (exit 2), one line."""


class InvalidSubmission(Exception):
    """A submission the validator finds invalid (exit 1 unless --include-invalid): .record, .reasons."""

    def __init__(self, message, record):
        Exception.__init__(self, message)
        self.record = record


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def content_hash(inp: safe_io.Input) -> str:
    """SHA-256 over the suite's files (name and SHA-256 of each, sorted), without what a bundle adds."""
    h = hashlib.sha256()
    for rel in sorted(safe_io.files_under(inp)):
        if NOT_CONTENT.match(rel):
            continue
        h.update(rel.encode("utf-8", "surrogateescape") + b"\0" + sha256_hex(safe_io.read_in_top(inp, rel)).encode() + b"\n")
    return h.hexdigest()


def run_validator(path: str, signers: Optional[str] = None, facts: Optional[dict] = None):
    """(exit status, status line, reasons) of ./clomp_validate's checks on PATH (with --signers SIGNERS:
    the signer left in FACTS["signer"])."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = validate.validate(path, out=out, signers=signers, facts=facts)
    lines = (out.getvalue() + err.getvalue()).splitlines()
    first = lines[0] if lines else ""
    status = {0: "VALID", 3: "VALID, NOT SUBMISSION-GRADE", 1: "INVALID", 2: "not a bundle"}.get(rc, "unknown")
    reasons = [l[4:] for l in lines[1:] if l.startswith("  - ")]
    if rc in (1, 2) and not reasons:
        reasons = [first.split(": ", 2)[-1]]
    return rc, status, reasons


def check_directory(suite, read_text):
    """The validator's checks of a suite directory without a MANIFEST: (exit, status, reasons).
    READ_TEXT: a file of the suite by name (None when there is none), for the cross-checks."""
    reasons: List[str] = []
    validate.check_runs(suite, reasons)
    record_checks.check_verification(suite, reasons)
    record_checks.check_constructs(suite, reasons)
    cores = validate.check_build_and_cores(suite, reasons)
    crosscheck.check_all(suite, read_text, reasons)
    if reasons:
        return validate.EXIT_INVALID, "INVALID", reasons
    why = [for_terminal(r) for r in grade.submission_reasons(suite, cores)]
    if why:
        return validate.EXIT_NOT_SUBMISSION_GRADE, "VALID, NOT SUBMISSION-GRADE (no MANIFEST: a directory)", why
    return validate.EXIT_VALID, "VALID (no MANIFEST: a directory)", []


def _empty(label, kind, source) -> Dict[str, object]:
    return {"label": label, "kind": kind, "source": source, "sha256": "", "content_sha256": "", "host": "",
            "suite": "", "suite_id": "", "header": [], "validation": {"status": "", "exit": None, "reasons": []},
            "valid": True, "target_input": "", "runs": [], "key": {}, "dropped": {}, "given": {}, "targets": {},
            "clock": {"ghz": None, "core_ghz": None, "source": "unknown", "clock": ""}, "sweep": {},
            "constructs": {}, "notes": [], "signer": "", "node": {}}


def from_suite(path: str, label: str, bundle_sha: Optional[str] = None, signers: Optional[str] = None) -> Dict[str, object]:
    is_bundle = bundle_sha is not None
    inp, name = loader.open_suite(path)
    checked = None
    with inp:
        files = safe_io.files_under(inp)
        suite = loader.load_from_input(inp, name, source=path)
        content = content_hash(inp)
        grain = node_limits.grain_doc(lambda rel: safe_io.read_in_top(inp, rel).decode("utf-8", "replace")
                                      if rel in files else None, name)
        if not (is_bundle or "MANIFEST" in files):
            checked = check_directory(suite, lambda rel: safe_io.read_in_top(inp, rel).decode("utf-8", "replace")
                                      if rel in files else None)
    r = _empty(label, "bundle" if is_bundle else "suite directory", path)
    r["suite"] = name
    m = loader.SUITE_NAME.match(name)
    r["suite_id"] = m.group(2) if m else ""
    r["content_sha256"] = content
    r["sha256"] = bundle_sha or content
    facts: Dict[str, str] = {}
    if checked is None:
        rc, status, reasons = run_validator(path, signers, facts)
    else:
        rc, status, reasons = checked
        if signers is not None:
            rc, status = validate.EXIT_INVALID, "INVALID"
            reasons = ["signature: a suite directory carries none (a signature covers a bundle's bytes)"] + reasons
    r["validation"] = {"status": status, "exit": rc, "reasons": reasons}
    r["valid"] = rc in (0, 3)
    r["signer"] = facts.get("signer", "") if signers is not None else "not checked (no --signers)"
    facts = tables.driver_facts(suite)
    key = [p for p in suite.plan if p.set_name == "key"]
    if not key:
        raise SubmissionError("%s: its plan has no key run (no target input)" % for_terminal(path))
    first = key[0]
    pilot = set(suite.auto_pilot_runs)   # --replicates auto: the interval is stage 2's alone (issue 31)
    processes = [p for p in key if p.args == first.args and p.policy == first.policy and p.index not in pilot
                 and p.index in facts]
    target = [p for p in processes if facts[p.index][0] == "OK" and suite.record(p.index) is not None]
    records = [suite.record(p.index) for p in target]
    r["target_input"] = first.args_text + (" --numa=" + first.policy if first.policy else "")
    runs = [{"run": p.index, "set": p.set_name, "args": p.args_text, "numa": p.policy or "first-touch",
             "status": facts.get(p.index, [""])[0]} for p in suite.plan]
    process_figures.fill_figures(r, records, runs, len(processes) - len(target))
    if pilot:
        r["notes"].append("--replicates auto: the target input's figures are stage 2's %d fresh processes; the pilot's %d "
                          "(which planned how many) are left out" % (len(target), len(pilot)))
    if len(target) < 2:
        r["notes"].append("one process of the target input (no --replicates): no interval between processes")
    # The thread sweep: every OK mesh run of the target input's other inputs, by the threads the runtime gave.
    for p in suite.plan:
        rec = suite.record(p.index)
        if p.is_construct or rec is None or facts.get(p.index, [""])[0] != "OK":
            continue
        if p.args[1:] != first.args[1:] or p.policy != first.policy:
            continue
        threads = str(rec.resolved.get("numThreads") or p.threads)
        figs = process_figures.record_figures(rec, process_figures.sweep_figures())
        for fid, value in figs.items():
            if value is not None:
                r["sweep"].setdefault(fid, {}).setdefault(threads, []).append(value)
    if suite.constructs is not None:
        for row in suite.constructs.rows:
            value = num(row.get("overhead_us"))
            if row.get("status") != "measured" or value is None:
                continue
            key_text = "%s|%s|%s|%s" % (compare_figures.plain(row.get("construct_name", "")), row.get("level", ""),
                                        row.get("outer_threads", ""), row.get("inner_threads", ""))
            r["constructs"].setdefault(key_text, []).append(value)
    rec1 = records[0] if records else suite.record(first.index)
    r["node"] = node_limits.submission_figures(suite, grain, rec1.resolved.get("numThreads") if rec1 is not None else None,
                                               r["valid"])
    cpu = machine_facts.lscpu(suite)
    kernel = machine_facts.first_line(suite.machine.get("kernel.txt", ""), "uname -a:") or suite.env.facts.get("uname", "")
    r["host"] = suite.env.facts.get("host", "")
    build = (rec1.doc.get("build") or {}) if rec1 is not None else {}
    omp_env = suite.env.openmp_environment
    r["header"] = [
        ["host", r["host"]],
        ["CPU model", cpu.get("Model name", "")],
        ["sockets x cores x threads", "%s x %s x %s" % (cpu.get("Socket(s)", "?"), cpu.get("Core(s) per socket", "?"),
                                                       cpu.get("Thread(s) per core", "?"))],
        ["NUMA nodes", cpu.get("NUMA node(s)", "")],
        ["memory", machine_facts.memory(suite.machine.get("meminfo.txt", "")) or machine_facts.memory("\n".join(suite.env.section("memory")))],
        ["kernel", " ".join(kernel.split(" ")[2:3]) if kernel.startswith("Linux ") else kernel],
        ["compiler", "%s %s" % (build.get("compiler", ""), build.get("cflags", ""))],
        ["OpenMP runtime", machine_facts.runtime(suite, rec1)],
        ["OpenMP runtime version", machine_facts.runtime_version([rec.doc for rec in records or [rec1] if rec is not None],
                                                                 suite.machine.get("openmp_runtime.txt", ""))],
        ["clomp", str(rec1.doc.get("clomp_version", "")) if rec1 is not None else ""],
        ["OpenMP variables", " ".join("%s=%s" % kv for kv in sorted(omp_env.items())) or "none set"],
        ["placement", machine_facts.placement(rec1)],
        ["governor", machine_facts.first_line(suite.machine.get("governor.txt", "")) or machine_facts.heading(suite, "cpu frequency governor: ")],
        ["load at start", machine_facts.heading(suite, "load average: ")],
        ["Slurm", suite.env.facts.get("slurm job", "")],
        ["date", suite.env.facts.get("date", "")],
        ["target input", "%s (%d processes)" % (r["target_input"], len(target))],
        ["validation", status],
        ["signed by", r["signer"] or "nobody the allowed signers name"],
    ]
    r["runtime"] = machine_facts.runtime(suite, rec1)
    r["runtime_version"] = dict(r["header"])["OpenMP runtime version"]
    r["compiler"] = str(build.get("compiler", ""))
    return r


def compare_stem(path: str) -> Optional[str]:
    """The stem of a --compare result named by PATH (STEM, STEM.json, .txt, .csv), or None."""
    for suffix in (".json", ".txt", ".csv", ""):
        if path.endswith(suffix):
            stem = path[:len(path) - len(suffix)] if suffix else path
            if os.path.isfile(stem + "_A1.json") and os.path.isfile(stem + "_B1.json"):
                return stem
    return None


def from_compare(stem: str, label: str) -> List[Dict[str, object]]:
    out = []
    for side in "AB":
        records, r = [], _empty("%s %s" % (label, side), "--compare result, side %s" % side, stem)
        n = 1
        while os.path.lexists("%s_%s%d.json" % (stem, side, n)):
            if n > safe_io.DEFAULT_LIMITS.max_members:
                raise Refused("%s: more than %d processes" % (for_terminal(stem), safe_io.DEFAULT_LIMITS.max_members))
            try:
                doc = compare_figures.read_record("%s_%s%d.json" % (stem, side, n))
            except ValueError as e:
                raise Refused(str(e))
            records.append(loader.RunRecord(n, "compare", "%s_%s%d.json" % (stem, side, n), doc))
            n += 1
        h = hashlib.sha256()
        for rec in records:
            h.update(repr(sorted(rec.doc.items(), key=lambda kv: kv[0])).encode("utf-8", "replace"))
        r["sha256"] = r["content_sha256"] = h.hexdigest()
        inputs = " ".join(str(records[0].inputs.get(k, "")) for k in loader.INPUT_NAMES) if records else ""
        r["target_input"] = inputs
        r["validation"] = {"status": "not validated (a --compare result: no bundle to check)", "exit": None, "reasons": []}
        process_figures.fill_figures(r, records, [{"run": rec.run, "set": "compare " + side, "args": inputs, "numa": "",
                                                   "status": "OK" if rec.status == "ok" else rec.status} for rec in records])
        rec1 = records[0] if records else None
        doc = rec1.doc if rec1 is not None else {}
        build = doc.get("build") or {}
        env = doc.get("openmp_environment") or {}
        r["host"] = str(doc.get("host", ""))
        r["suite"] = os.path.basename(stem)
        r["runtime"] = machine_facts.runtime(None, rec1)
        r["runtime_version"] = machine_facts.runtime_version([rec.doc for rec in records])
        r["compiler"] = str(build.get("compiler", ""))
        r["header"] = [["host", r["host"]], ["compiler", "%s %s" % (build.get("compiler", ""), build.get("cflags", ""))],
                       ["OpenMP runtime", r["runtime"]], ["OpenMP runtime version", r["runtime_version"]], ["clomp", str(doc.get("clomp_version", ""))],
                       ["OpenMP variables", " ".join("%s=%s" % kv for kv in sorted(env.items())) if isinstance(env, dict) else ""],
                       ["placement", machine_facts.placement(rec1)], ["date", str(doc.get("start_time", ""))],
                       ["target input", "%s (%d processes)" % (inputs, len(records))], ["validation", r["validation"]["status"]]]
        r["notes"].append("a --compare side: its processes' records only (no machine description, no thread sweep)")
        out.append(r)
    return out


def from_text12(path: str, label: str, data: bytes) -> Dict[str, object]:
    text = data.decode("utf-8", errors="replace")
    try:
        parsed = text12.parse(text)
    except text12.NotClomp12Text as e:
        raise SubmissionError("%s: %s" % (for_terminal(path), e))
    if len(parsed["processes"]) > MAX_PROCESSES:
        raise Refused("%s: %d processes (summary blocks) of CLOMP 1.2 text, over the bound of %d (clomp-stats' values "
                      "per figure)" % (for_terminal(path), len(parsed["processes"]), MAX_PROCESSES))
    r = _empty(label, "CLOMP 1.2 text", path)
    r["sha256"] = r["content_sha256"] = sha256_hex(data)
    r["host"] = str(parsed["host"])
    r["target_input"] = " ".join(parsed["inputs"])
    n = len(parsed["processes"])
    for fig in process_figures.key_figures():
        got = [values[fig.key] for values in parsed["processes"] if fig.key in values]
        if got:
            r["key"][fig.key] = got
        r["given"][fig.key] = dict([("of", n)] + [(why, 0) for why in given.REASONS])
        r["given"][fig.key][given.NOT_MEASURED] = n - len(got)
    r["validation"] = {"status": "not validated (CLOMP 1.2 text: nothing to check it against)", "exit": None, "reasons": []}
    r["runs"] = [{"run": i + 1, "set": "text", "args": r["target_input"], "numa": "", "status": "OK"} for i in range(n)]
    r["runtime_version"] = "unknown: CLOMP 1.2's text names no OpenMP runtime"
    r["header"] = [["host", r["host"]], ["program", str(parsed["version"])], ["invocation", str(parsed["invocation"])],
                   ["OpenMP runtime version", r["runtime_version"]],
                   ["date", str(parsed["date"])], ["target input", "%s (%d process%s)" % (r["target_input"], n, "" if n == 1 else "es")],
                   ["validation", r["validation"]["status"]]]
    r["notes"].append("CLOMP 1.2 text output: %d process%s, no interval within a process, no cycle clock and no description "
                      "of the machine; figures to 1.2's printed precision (us/Loop 2 decimals, speedup 1)"
                      % (n, "" if n == 1 else "es"))
    return r


def load(path: str, label: str, signers: Optional[str] = None) -> List[Dict[str, object]]:
    """The submission(s) at PATH; SubmissionError (not a submission), Refused (hostile: one line).
    SIGNERS: an allowed signers file: a bundle's signature is verified and its signer recorded.
    Every string of a record is a bundle's (untrusted): its control characters are escaped here, at the
    door, once for every writer (safe_text.clean: HTML, CSV, JSON, the archive, the terminal)."""
    return [safe_io.clean(r) for r in _load(path, label, signers)]


def _load(path: str, label: str, signers: Optional[str] = None) -> List[Dict[str, object]]:
    stem = compare_stem(path)
    if stem is not None:
        return from_compare(stem, label)
    if not os.path.lexists(path):
        raise SubmissionError("%s: no such file or directory" % for_terminal(path))
    if cluster_bundle.is_cluster(path):   # run_clomp.sh --nodes: each node's bundle a submission
        return cluster_bundle.submissions(path, label, signers, sys.modules[__name__])
    if os.path.isdir(path) and not os.path.islink(path):
        try:
            return [from_suite(path, label, signers=signers)]
        except (loader.SuiteError, NotABundle) as e:
            raise SubmissionError("%s: not a suite directory: %s" % (for_terminal(path), e))
    # Hashed as a stream; only a text's first TEXT_BYTES + 1 are kept (a bundle is never held whole).
    sha, head = hashlib.sha256(), bytearray()

    def take(block: bytes) -> None:
        sha.update(block)
        if len(head) <= TEXT_BYTES:
            head.extend(block[:TEXT_BYTES + 1 - len(head)])
    safe_io.read_bounded(path, safe_io.DEFAULT_LIMITS.max_total_bytes, what=path, sink=take)
    if head[:2] == b"\x1f\x8b":
        try:
            return [from_suite(path, label, sha.hexdigest(), signers)]
        except (loader.SuiteError, NotABundle) as e:
            raise SubmissionError("%s: not a CLOMP bundle: %s" % (for_terminal(path), e))
    if len(head) > TEXT_BYTES:
        raise Refused("%s: more than %d bytes of text, the bound for CLOMP 1.2 output" % (for_terminal(path), TEXT_BYTES))
    return [from_text12(path, label, bytes(head))]
