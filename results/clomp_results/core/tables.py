"""The suite's tables from the runs' JSON records (issue 29, item 2):

- ``<base>_<set>.summary``: per run its driver facts (run, set, status, exit
  code, seconds), its seven inputs, per measurement CLOMP 1.2's Runtime
  figures (us/Loop, speedup, efficacy, overhead), the numa policy, the
  fork/join probe and the process's CPU seconds. Header and rows come from
  one column list, SUMMARY_COLUMNS(record): the measurements are the
  record's own (docs/json-schema.md), so a new default schedule appears
  with no edit here. Their places are CLOMP 1.2's: the eight measurements
  of the first .summary, then the appended columns; a later measurement
  that is not a probe is appended after those (columns never move).
- ``<base>.constructs.csv``: per construct run clomp's construct table (its
  record's ``constructs.rows``, one line per level shown), after the run's
  driver facts; the columns are the record's own names, in its order.

Cells are written as clomp's CSV writer writes them (report/csv_report.c):
numbers as the shortest %.15g..%.17g text that reads back as the same
double, text quoted (RFC 4180) when it holds a comma, quote or line break.

``clomp-results tables SUITE --check`` re-renders both from the records
and compares them, row by row, with the files there (exit 1 on a
difference, each named); ``--write`` rewrites them.
"""
from __future__ import annotations

import os
import re
import sys
from typing import Any, Dict, List, Optional

from . import catalogue, loader, safe_io
from .records import INPUT_NAMES, PlannedRun, RunRecord, Suite, count_of
from .safe_io import for_terminal

DRIVER_COLUMNS = ["run", "set", "status", "exit_code", "seconds"]
# The .summary's first measurements, in CLOMP 1.2's column names (their places are fixed).
FIRST_MEASUREMENTS = [("calc_deposit", "calc_deposit"), ("barrier", "omp_barrier"), ("serial", "serial_ref"),
                      ("bestcase", "bestcase_omp"), ("static", "static_omp"), ("dynamic", "dynamic_omp"),
                      ("manual", "manual_omp"), ("nested", "nested_omp")]
FORK_JOIN = "parallel"
PLAIN_NUMBER = re.compile(r"^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$")


def number_text(value: Any) -> str:
    """A JSON number as clomp's CSV writes it; "" for null."""
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return ""
        for precision in (15, 16, 17):
            text = "%.*g" % (precision, value)
            if float(text) == value:
                return text
        return text
    return text_cell(str(value))


def text_cell(text: Optional[str]) -> str:
    if text is None:
        return ""
    if any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def cell(value: Any) -> str:
    return text_cell(value) if isinstance(value, str) else number_text(value)


def _summary_name(key: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", key.lower()).strip("_")


def summary_measurements(record: Optional[RunRecord]) -> List[tuple]:
    """(measurement key, column prefix) of the .summary's figure columns."""
    out = list(FIRST_MEASUREMENTS)
    return out


def appended_measurements(record: Optional[RunRecord]) -> List[tuple]:
    """Measurements of the record beyond the first eight that are not probes:
    their columns go after system_cpu_seconds."""
    if record is None:
        return []
    first = {k for k, _ in FIRST_MEASUREMENTS}
    return [(m.key, _summary_name(m.name)) for m in record.measurements
            if m.key not in first and m.role != "probe" and m.selected]


def runtime_figures() -> List[tuple]:
    """(key suffix, record member) of CLOMP 1.2's four figures per measurement (the catalogue's kinds that
    1.2 prints: us/Loop, speedup, efficacy, overhead, each from the Runtime), in the .summary's order."""
    return [(k["suffix"], k["json"]) for k in catalogue.load().runtime_kinds()]


def fork_join_figure():
    """The .summary's fork/join column: OMP Parallel's CLOMP 1.2 us/Loop (the catalogue's figure)."""
    return catalogue.load().figure_of(FORK_JOIN, runtime_figures()[0][0])


def summary_columns(record: Optional[RunRecord] = None) -> List[str]:
    cols = DRIVER_COLUMNS + list(INPUT_NAMES)
    kinds = runtime_figures()
    for _, prefix in summary_measurements(record):
        cols += ["%s_%s" % (prefix, f) for f, _ in kinds]
    cols += ["numa", fork_join_figure().key] + [f.key for f in catalogue.load().process_columns()]
    for _, prefix in appended_measurements(record):
        cols += ["%s_%s" % (prefix, f) for f, _ in kinds]
    return cols


def _figure(record: Optional[RunRecord], key: str, member: str) -> str:
    m = record.measurement(key) if record is not None else None
    text = number_text(m.get(member)) if m is not None else ""
    return text if PLAIN_NUMBER.match(text) else ""


def summary_row(planned: PlannedRun, record: Optional[RunRecord], status: str, exit_code: str, seconds: str) -> List[str]:
    """The run's .summary row. A failed run's figures, and a construct run's,
    are empty (they are in .full, the record and the construct table)."""
    row = [str(planned.index), planned.set_name, status, exit_code, seconds] + list(planned.args)
    figures = record if (status == "OK" and not planned.is_construct) else None
    kinds = runtime_figures()
    for key, _ in summary_measurements(record):
        row += [_figure(figures, key, member) for _, member in kinds]
    cpu = [number_text(catalogue.value(figures.doc, f["json"])) if figures is not None else ""
           for f in catalogue.load().process_columns()]
    row += [planned.policy or "first-touch", _figure(figures, FORK_JOIN, fork_join_figure()["json"])] + cpu
    for key, _ in appended_measurements(figures):
        row += [_figure(figures, key, member) for _, member in kinds]
    return row


def construct_columns(record: RunRecord) -> List[str]:
    """The construct table's columns, in the record's own names and order: its
    ``constructs.csv_columns`` (schema minor 9), else (an older record) the
    row's members, its first level's, then the ratio, as clomp wrote them."""
    rows = (record.constructs or {}).get("rows") or []
    if not rows:
        return []
    named = (record.constructs or {}).get("csv_columns")
    if isinstance(named, list) and named and all(isinstance(c, str) for c in named):
        return list(named)
    first = rows[0]
    head = [k for k in first if k not in ("levels", "level2_over_level1")]
    levels = first.get("levels") or [{}]
    return head + list(levels[0].keys()) + ["level2_over_level1"]


def construct_rows(planned: PlannedRun, record: RunRecord, status: str, exit_code: str, seconds: str) -> List[List[str]]:
    cols = construct_columns(record)
    prefix = [str(planned.index), planned.set_name, status, exit_code, seconds]
    out = []
    for row in (record.constructs or {}).get("rows") or []:
        for level in row.get("levels") or []:
            merged = dict(row)
            merged.update(level)
            if level.get("level") != 2:   # the ratio is a level-2 figure: on its line only (report/construct_columns.c)
                merged["level2_over_level1"] = None
            out.append(prefix + [cell(merged.get(c)) for c in cols])
    return out


def driver_facts(suite: Suite) -> Dict[int, List[str]]:
    """run -> [status, exit code, seconds] as the driver recorded them: its
    <base>.runs.csv, else (a suite from before it) the .summary rows."""
    facts = {}
    sources = [suite.runs] if suite.runs is not None else list(suite.summaries.values())
    for table in sources:
        for row in table.rows:
            if count_of(row.get("run")) is not None:
                facts[int(row["run"])] = [row.get("status", ""), row.get("exit_code", ""), row.get("seconds", "")]
    return facts


def render(suite: Suite) -> Dict[str, List[str]]:
    """file name -> its lines (header first): every .summary and the construct table."""
    facts = driver_facts(suite)
    files: Dict[str, List[str]] = {}
    construct_lines: List[str] = []
    for planned in suite.plan:
        if planned.index not in facts:
            continue
        status, rc, seconds = facts[planned.index]
        record = suite.record(planned.index)
        name = "%s_%s.summary" % (suite.name, planned.set_name)
        files.setdefault(name, [",".join(summary_columns(record))])
        files[name].append(",".join(summary_row(planned, record, status, rc, seconds)))
        if planned.is_construct and record is not None and record.constructs:
            if not construct_lines:
                construct_lines.append(",".join(["run", "set", "run_status", "run_exit_code", "run_seconds"] + construct_columns(record)))
            construct_lines += [",".join(r) for r in construct_rows(planned, record, status, rc, seconds)]
    if construct_lines:
        files[suite.name + ".constructs.csv"] = construct_lines
    return files


def write_files(directory: str, files: Dict[str, List[str]]) -> None:
    """Each file written whole through a fresh temporary (mkstemp), synced and renamed
    over it: never through a link or a pre-existing name; a file there keeps its mode."""
    import tempfile
    for name, lines in files.items():
        target = os.path.join(directory, name)
        if os.path.lexists(target) and not os.path.isfile(target) or os.path.islink(target):
            raise safe_io.Refused("%s: not a regular file: not replaced" % for_terminal(name))
        mode = os.lstat(target).st_mode & 0o777 if os.path.lexists(target) else 0o644
        fd, tmp = tempfile.mkstemp(prefix="." + name + ".", dir=directory)
        try:
            with os.fdopen(fd, "w") as f:
                f.write("\n".join(lines) + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, mode)
            os.replace(tmp, target)
        except BaseException:
            os.unlink(tmp)   # a full disk leaves no half temporary behind
            raise


def rewrite(path: str, wanted_file=lambda name: True) -> int:
    """The tables of the suite at PATH (a suite directory or base name) that the records give and
    WANTED_FILE picks, each rewritten whole where it differs from the file there (write_files); the
    others are left as they are. 0, or 1 when a write fails, 2 when the suite cannot be read (said)."""
    try:
        inp, name = loader.open_suite(path)
        with inp:
            suite = loader.load_from_input(inp, name)
            wanted = {f: lines for f, lines in render(suite).items() if wanted_file(f)}
            have = {f: safe_io.read_in_top(inp, f).decode("utf-8", "replace").splitlines() for f in wanted
                    if f in safe_io.files_under(inp)}
            top, temporary = inp.top, inp.root != inp.top
    except (loader.SuiteError, safe_io.NotABundle, safe_io.Refused) as e:
        print("clomp-results tables: %s" % e, file=sys.stderr)
        return 2
    if temporary:
        print("clomp-results tables: --write needs a suite directory, not a bundle", file=sys.stderr)
        return 2
    try:
        write_files(top, {f: lines for f, lines in wanted.items() if have.get(f) != lines})
    except (OSError, safe_io.Refused) as e:
        print("clomp-results tables: %s" % for_terminal(str(e)), file=sys.stderr)
        return 1
    return 0


def main(argv: List[str]) -> int:
    if len(argv) != 2 or argv[1] not in ("--check", "--print", "--write"):
        print("usage: clomp-results tables SUITE|BUNDLE|DIR --check|--print|--write", file=sys.stderr)
        return 2
    if argv[1] == "--write":
        return rewrite(argv[0])
    try:
        inp, name = loader.open_suite(argv[0])
        with inp:
            suite = loader.load_from_input(inp, name)
            wanted = render(suite)
            have = {f: safe_io.read_in_top(inp, f).decode("utf-8", "replace").splitlines() for f in wanted
                    if f in safe_io.files_under(inp)}
    except (loader.SuiteError, safe_io.NotABundle, safe_io.Refused) as e:
        print("clomp-results tables: %s" % e, file=sys.stderr)
        return 2
    if argv[1] == "--print":
        for f, lines in wanted.items():
            print("== %s" % for_terminal(f))
            print("\n".join(lines))
        return 0
    differences = 0
    for f, lines in sorted(wanted.items()):
        old = have.get(f)
        if old is None:
            print("%s: not there" % for_terminal(f))
            differences += 1
            continue
        for i in range(max(len(lines), len(old))):
            a = lines[i] if i < len(lines) else "(none)"
            b = old[i] if i < len(old) else "(none)"
            if a != b:
                differences += 1
                print("%s line %d:\n  file:    %s\n  records: %s" % (for_terminal(f), i + 1, for_terminal(b), for_terminal(a)))
    print("%d files re-rendered from the records, %d differences" % (len(wanted), differences))
    return 1 if differences else 0
