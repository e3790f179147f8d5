"""What a submission says about itself, checked against itself (issue 45,
item 3): the validator's checks beyond the MANIFEST and the plan
(validate.py calls them; docs/suite.md, "Checking a bundle", says what each
covers).

A bundle says the same things in several places, written by different
programs at different times: clomp writes each run's JSON record, its CSV
rows and its text (.full); the driver its manifest, .env, .done and .runs.csv;
machine.sh the machine description; the results package renders the
.summary and construct tables from the records. A forger who edits the
records (a barrier of 0.0001 us, timeScale 100, bound threads, a quiet
node) and rewrites the MANIFEST passes every check of the records alone;
here each place is compared with the others, and every difference is a
reason, naming the file, the run and the value on each side:

- check_plan: the plan's names in safe characters and its inputs numbers;
  a key run (the target input); at most the one oversubscribed run the
  team-size cliff adds (at MAX_THREADS + 1); at least one measured run;
- check_ran: the plan against what ran: .done, the records, .runs.csv and
  the .csv rows name planned runs of their planned sets;
- check_manifest: the driver's manifest (<base>.suite.json) against .done,
  .runs.csv and the records: each run's status, exit status, seconds and
  record, the plan's threads and timeScale, the plan signature;
- check_tables: each .summary row and the construct table re-rendered from
  the records (tables.render) against the rows carried, column by column;
- check_csv: each record's measurements against its rows in <base>.csv
  (inputs, status, threads, verification, checksums, every figure);
- check_full (full_text.py): each run's last complete section of its set's .full: the
  command's inputs, its exit status, the header's numThreads and timeScale,
  CLOMP 1.2's comma-delimited summary (at its printed precision), the thread
  placement's unbound threads and the noise census's lost time;
- check_machine (machine_check.py): the machine description (_machine/) against the manifest's and
  the records: online CPUs, cores, lscpu's fields, the build facts, the host
  (a record's CPUs and host only where no launcher may have run it elsewhere);
- check_profiles (profile_check.py): each run's Caliper profile
  (.cali.json) against its record: tree, every metric, the metadata;
- grain_check.check: the grain search's answers (<base>_grain.json: METG(50%)
  among them) recomputed from its process records by the report's own code.

What this cannot catch: a forger who rewrites every file consistently (the
records, the CSV, the text, the tables, the machine description and the
MANIFEST). Only a re-run on the buyer's side, or a signature by a key the
buyer trusts (sign.py), answers that.

Each check is linear in the bundle's size (every lookup by dict) and says at
most CAP differences of one kind, then how many more.
"""
from __future__ import annotations

import math
import re
from typing import Callable, Dict, List, Optional

from ..core import catalogue, cliff, legacy, manifest, tables
from . import full_text, machine_check, profile_check
from ..grain import grain_check
from ..core.loader import read_table
from ..core.records import INPUT_NAMES, PLAIN_INT, count_of
from ..core.safe_io import SAFE_NAME, for_terminal

CAP = 10
POLICY = re.compile(r"^[A-Za-z0-9_.,:=-]*$")
# A measurement's .csv columns that are no figure of the catalogue, and the record's members they are
# written from (report/figures.c); the figures' own come from the catalogue (csv_measurement).
OTHER_CSV_MEASUREMENT = [("threads", "threads"), ("runtime_seconds", "runtime_seconds"),
                         ("noise_spans_disturbed", "noise_spans_disturbed"),
                         ("noise_involuntary_switches", "noise_involuntary_switches"), ("noise_migrations", "noise_migrations")]


class Said:
    """Reasons of one kind, at most CAP of them said; the rest counted in one last line."""

    def __init__(self, reasons: List[str], kind: str):
        self.reasons, self.kind, self.count = reasons, kind, 0

    def __call__(self, text: str) -> None:
        self.count += 1
        if self.count <= CAP:
            self.reasons.append(text)

    def close(self) -> None:
        if self.count > CAP:
            self.reasons.append("... and %d more differences of %s" % (self.count - CAP, self.kind))


def csv_measurement():
    """[(CSV column, record member)] of a measurement's row: the catalogue's figure kinds (each one's column
    and member, '.' between levels), then the other columns."""
    return [(k["csv"], k["json"]) for k in catalogue.load().kinds if k.get("csv") and k.get("json")] + OTHER_CSV_MEASUREMENT


def _same_number(cell: str, value) -> bool:
    """A CSV cell and a record's member: both empty/null, or the same number (clomp writes both with
    the digits that read back as the same double), or the same text."""
    if value is None:
        return cell == ""
    if isinstance(value, bool):
        return cell == ("1" if value else "0")
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return cell == ""
        try:
            return float(cell) == float(value)
        except ValueError:
            return False
    return cell == str(value)


def _table_of(p) -> str:
    """The suffix of the table a planned run's clomp CSV rows go to (suite/run_guard.sh, record_run)."""
    if p.is_construct:
        return ".constructs.csv"
    if p.set_name == "offload_probes":
        return ".target_constructs.csv"
    if p.is_oversubscribed:
        return ".oversubscribed.csv"
    return ".csv"


def measured_runs(suite) -> List[int]:
    """The planned runs (not the oversubscribed one) whose record says they ran and ended ok."""
    return [p.index for p in suite.plan if not p.is_oversubscribed and suite.record(p.index) is not None
            and suite.record(p.index).status == "ok" and suite.record(p.index).exit_status == 0]


def check_plan(suite, reasons: List[str]) -> None:
    say = Said(reasons, "the plan's names and inputs")
    for p in suite.plan:
        if not SAFE_NAME.match(p.set_name) or not POLICY.match(p.policy):
            say("plan: run %d's set '%s' or --numa policy '%s' has characters other than letters, digits, '.', '_' "
                "and '-'" % (p.index, for_terminal(p.set_name[:80]), for_terminal(p.policy[:80])))
        elif len(p.args) != 7 or not all(PLAIN_INT.match(a) for a in p.args):
            say("plan: run %d (%s) has the inputs '%s', not seven whole numbers" % (p.index, for_terminal(p.set_name[:80]), for_terminal(p.args_text[:200])))
    say.close()
    if suite.plan and not any(p.set_name == "key" for p in suite.plan):
        reasons.append("plan: no key run (the target input): not a suite run_clomp.sh plans")
    over = [p for p in suite.plan if p.is_oversubscribed]
    most = suite.env.max_threads
    if len(over) > 1:
        reasons.append("plan: %d runs in set oversubscribed; the team-size cliff adds one (runs %s)"
                       % (len(over), " ".join(str(p.index) for p in over[:CAP]) + (" ..." if len(over) > CAP else "")))
    elif over and most is not None and over[0].threads != most + 1:
        reasons.append("plan: the oversubscribed run %d has %d threads; the team-size cliff's has MAX_THREADS + 1 = %d"
                       % (over[0].index, over[0].threads, most + 1))
    if suite.plan and not measured_runs(suite):
        reasons.append("no measured run: none of the plan's %d runs has a record of a run that ended ok (a bundle "
                       "must carry what it claims to have measured)" % len(suite.plan))


def check_ran(suite, reasons: List[str]) -> None:
    """The plan against what ran: every run named anywhere is a planned run of its planned set."""
    planned = {p.index: p for p in suite.plan}
    say = Said(reasons, "runs that the plan does not have")
    seen = set()
    for run in suite.done:
        if run not in planned:
            say("%s.done marks run %d done, which the plan does not have" % (suite.name, run))
        elif run in seen:
            say("%s.done marks run %d done twice" % (suite.name, run))
        seen.add(run)
    for run, rec in suite.records.items():
        if run not in planned:
            say("%s: a record of run %d, which the plan does not have" % (for_terminal(rec.file), run))
    for what, table in (("runs.csv", suite.runs), ("csv", suite.csv), ("constructs.csv", suite.constructs)):
        if table is None:
            continue
        told = set()
        for row in table.rows:
            run = count_of(row.get("run"))
            if (run, row.get("run")) in told:
                continue            # one line a run and table (a run has a row per measurement)
            told.add((run, row.get("run")))
            p = planned.get(run) if run is not None else None
            if p is None:
                say("%s.%s: a row of run '%s', which the plan does not have" % (suite.name, what, for_terminal(row.get("run", "")[:40])))
            elif row.get("set", "") != p.set_name:
                say("%s.%s: run %d's row says set '%s', the plan %s" % (suite.name, what, run, for_terminal(row.get("set", "")[:80]),
                                                                       for_terminal(p.set_name[:80])))
            elif what == "runs.csv" and row.get("numa", "") != (p.policy or "first-touch"):
                say("%s.runs.csv: run %d's row says --numa '%s', the plan '%s'" % (suite.name, run, for_terminal(row.get("numa", "")[:80]),
                                                                                 for_terminal((p.policy or "first-touch")[:80])))
    say.close()


def _same_value(ours, theirs) -> bool:
    """A manifest's number and a .runs.csv cell: the same number, or both absent."""
    if ours is None or isinstance(ours, bool):
        return theirs in ("", None)
    try:
        return float(theirs) == float(ours)
    except (TypeError, ValueError):
        return False


def check_manifest(suite, reasons: List[str]) -> None:
    """The driver's manifest against the other records: each run's status against .done and .runs.csv
    (its exit status and seconds), its record's name against the record there, its plan entry's threads
    and timeScale against its inputs, and the plan signature (--resume's) against the plan. A manifest
    built from an old suite's .env (legacy.py) is made of those records: nothing to compare."""
    if suite.manifest_converted:
        return
    say = Said(reasons, "the manifest")
    me = suite.name + manifest.SUFFIX
    states = manifest.run_states(suite.manifest)
    done = set(suite.done)
    rows = {}
    for row in (suite.runs.rows if suite.runs is not None else []):
        rows[row.get("run", "")] = row     # the latest row of a run (one ran again on --resume)
    for p in suite.plan:
        state = states.get(p.index)
        if state is None:
            say("%s: run %d has no status" % (me, p.index))
            continue
        ran = state["status"] in ("done", "failed")
        if ran != (p.index in done):
            say("%s: run %d is '%s', and %s.done %s" % (me, p.index, state["status"], suite.name,
                                                      "marks it done" if p.index in done else "does not mark it done"))
            continue
        row = rows.get(str(p.index))
        if ran and row is not None:
            if (state["status"] == "failed") != (row.get("status") == "FAILED"):
                say("%s: run %d is '%s', %s.runs.csv says %s" % (me, p.index, state["status"], suite.name, for_terminal(row.get("status", "")[:20])))
            for key in ("exit_code", "seconds"):
                if not _same_value(state.get(key), row.get(key)):
                    say("%s: run %d's %s is %s, %s.runs.csv says '%s'" % (me, p.index, key, for_terminal(str(state.get(key))[:40]),
                                                                          suite.name, for_terminal(row.get(key, "")[:40])))
        rec = suite.record(p.index)
        named = state.get("record")
        if rec is None and p.set_name == cliff.OVERSUBSCRIBED_SET and isinstance(named, str) and \
                cliff.never_submitted(named, suite.name):
            continue   # the cliff's oversubscribed run: a bundle leaves its record out by design
        if ran and (rec.file if rec else None) != named:
            say("%s: run %d's record is named '%s', the suite has %s" % (me, p.index, for_terminal(str(named)[:120]),
                                                                         for_terminal(rec.file) if rec else "none"))
    for entry in suite.manifest.get("plan", []):
        if not isinstance(entry, dict) or not isinstance(entry.get("args"), list) or len(entry["args"]) != 7:
            continue
        for key, at in (("threads", 0), ("time_scale", 6)):
            if str(entry.get(key)) != str(entry["args"][at]):
                say("%s: run %s's %s is %s, its inputs say %s" % (me, for_terminal(str(entry.get("run"))[:20]), key,
                                                                   for_terminal(str(entry.get(key))[:20]), for_terminal(str(entry["args"][at])[:20])))
    stage2 = set(suite.env.auto_stage2_runs)
    signed = [(r.set_name, r.policy, r.args) for r in legacy.parse_plan(suite.env.facts.get("plan", ""))]
    planned = [(p.set_name, p.policy, p.args) for p in suite.plan if p.index not in stage2]
    if signed != planned:
        say("%s: the plan signature (what --resume compares) names %d runs, its plan %d other than --replicates auto's "
            "stage 2, or other ones" % (me, len(signed), len(planned)))
    say.close()


def check_tables(suite, reasons: List[str]) -> None:
    """Each .summary and the construct table as the records render them (tables.render), against the
    carried files, row by row (by run) and column by column."""
    say = Said(reasons, "tables that differ from the records")
    carried = dict(("%s_%s.summary" % (suite.name, s), t) for s, t in suite.summaries.items())
    if suite.constructs is not None:
        carried[suite.name + ".constructs.csv"] = suite.constructs
    for fname, lines in tables.render(suite).items():
        want = read_table(fname, "\n".join(lines).encode())
        have = carried.get(fname)
        if have is None and cliff.never_submitted(fname, suite.name):
            continue   # the oversubscribed run's table: a bundle leaves it out by design
        if have is None:
            say("%s is missing: the records give it %d rows" % (for_terminal(fname), len(want.rows)))
            continue
        if have.columns != want.columns:
            say("%s: its header is not the one its records give" % for_terminal(fname))
            continue
        by_run: Dict[str, List[dict]] = {}
        for row in have.rows:
            by_run.setdefault(row.get("run", ""), []).append(row)
        used: Dict[str, int] = {}
        for row in want.rows:
            run = row.get("run", "")
            k = used.get(run, 0)
            used[run] = k + 1
            rows = by_run.get(run, [])
            if k >= len(rows):
                say("%s: run %s has no row (its record gives one)" % (for_terminal(fname), for_terminal(run[:40])))
                continue
            for column in want.columns:
                if rows[k].get(column, "") != row.get(column, ""):
                    say("%s, run %s: %s is '%s', its record gives '%s'" % (for_terminal(fname), for_terminal(run[:40]), for_terminal(column[:80]),
                                                                           for_terminal(rows[k].get(column, "")[:80]),
                                                                           for_terminal(row.get(column, "")[:80])))
                    break
        for run, rows in by_run.items():
            if len(rows) > used.get(run, 0):
                say("%s: %d row(s) of run '%s' that no record gives" % (for_terminal(fname), len(rows) - used.get(run, 0),
                                                                        for_terminal(run[:40])))
    say.close()


def check_csv(suite, reasons: List[str]) -> None:
    """Each mesh run's record against its rows in <base>.csv (clomp's own CSV of the run, written with
    the record by the same process): inputs, status, verification, checksums, every figure."""
    if suite.csv is None:
        return
    say = Said(reasons, "records that differ from the .csv")
    rows = {}
    for row in suite.csv.rows:
        rows.setdefault((row.get("run", ""), row.get("key", "")), row)
    columns = set(suite.csv.columns)
    csv_name = suite.name + ".csv"
    measured = csv_measurement()
    for p in suite.plan:
        rec = suite.record(p.index)
        if rec is None or _table_of(p) != ".csv" or rec.status != "ok":
            continue
        run_inputs = [(c, rec.inputs.get(c)) for c in INPUT_NAMES] + [("status", rec.status), ("exit_status", rec.exit_status)]
        for m in rec.measurements:
            row = rows.get((str(p.index), m.key))
            if row is None:
                say("run %d: its record's measurement %s has no row in %s" % (p.index, for_terminal(m.key[:80]), csv_name))
                break
            checks = list(run_inputs) + [("verification", m.verification), ("selected", 1 if m.selected else 0)]
            checksum = m.get("checksum") if isinstance(m.get("checksum"), dict) else {}
            checks += [("checksum_" + k, checksum.get(k)) for k in ("sum", "residue", "total") if k in checksum]
            checks += [(column, catalogue.value(m.doc, member)) for column, member in measured
                       if member.split(".", 1)[0] in m.doc]
            wrong = [(c, v) for c, v in checks if c in columns and not _same_number(row.get(c, ""), v)]
            if wrong:      # the first difference of the run: one line a run
                column, value = wrong[0]
                say("run %d %s: %s says %s '%s', its record '%s'" % (p.index, for_terminal(m.key[:80]), csv_name, column,
                                                                     for_terminal(row.get(column, "")[:80]), for_terminal(str(value)[:80])))
                break
    say.close()


def check_full(suite, read_text: Callable[[str], Optional[str]], reasons: List[str]) -> None:
    """Each run that ran OK: its last complete section of <base>_<set>.full against the plan and its record
    (full_text.py). READ_TEXT: a file of the suite by name, or None when the bundle has none."""
    say = Said(reasons, "runs whose text differs from their record")
    full_text.compare(suite, read_text, say)
    say.close()


def check_machine(suite, reasons: List[str]) -> None:
    """The machine description against the manifest's and the records (machine_check.py)."""
    say = Said(reasons, "the machine description")
    machine_check.compare(suite, say)
    say.close()


def check_profiles(suite, read_text: Callable[[str], Optional[str]], reasons: List[str]) -> None:
    """Each run's Caliper profile against its record (profile_check.py), through READ_TEXT."""
    say = Said(reasons, "profiles that differ from their records")
    profile_check.check_profiles(suite, read_text, say)
    say.close()


def check_all(suite, read_text: Callable[[str], Optional[str]], reasons: List[str]) -> None:
    """Every check above, in order."""
    check_plan(suite, reasons)
    check_ran(suite, reasons)
    check_manifest(suite, reasons)
    check_tables(suite, reasons)
    check_csv(suite, reasons)
    check_full(suite, read_text, reasons)
    check_machine(suite, reasons)
    check_profiles(suite, read_text, reasons)
    grain_check.check(suite.name, read_text, reasons)
