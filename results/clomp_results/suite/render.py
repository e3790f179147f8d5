"""``clomp-results render [--progress|--between|--report|--final] [--charts|--no-charts] [--sign KEY] BASE``:
every table and report of a suite, rendered from its manifest and its runs' records, at one place.
run_clomp.sh calls it after each run and at the end (suite/results.sh); ``make plots`` and
``--bundle`` call it on a suite recorded elsewhere.

- ``--progress`` (after each run's record, inside it: suite/run_guard.sh record_run): the
  ``.summary`` tables, the only ones the driver does not write itself; a table whose rows did not
  change is not touched, so a run rewrites its own set's file only (whole, through a new name
  renamed over it: tables.write_files).
- ``--between`` (after the key runs): the same, then the between-process table
  (``<base>_key.processes.csv`` and ``.txt``), its text printed.
- ``--report`` (``make plots``): every table the records give, the between-process table and the
  charts and HTML report, no bundle.
- ``--final`` (the default: the suite's end, ``--bundle``): every table the records give (``.summary``,
  ``.constructs.csv``), the between-process table (its text not printed), the charts and the HTML
  report, the submission bundle and, with ``--sign KEY``, its signature BUNDLE.sig. It prints the
  names of the report, the bundle and the signature.

Each step is its module's own function on the suite read afresh from its files; the first that
fails ends it with its exit status (1: a write failed, 2: the suite cannot be read). Without a chart
option the report draws charts where gnuplot is installed and says so where it is not."""
from __future__ import annotations

import contextlib
import io
import sys
from typing import List

USAGE = "usage: clomp-results render [--progress|--between|--report|--final] [--charts|--no-charts] [--sign KEY] BASE|DIR"


def summaries_only(name: str) -> bool:
    return name.endswith(".summary")


def main(argv: List[str]) -> int:
    args, chart_opt, key, stage = list(argv), [], None, "--final"
    while args and args[0] in ("--charts", "--no-charts", "--sign", "--progress", "--between", "--report", "--final"):
        if args[0] == "--sign":
            if len(args) < 2:
                break
            key = args[1]
            del args[:2]
        elif args[0] in ("--charts", "--no-charts"):
            chart_opt = [args.pop(0)]
        else:
            stage = args.pop(0)
    if len(args) != 1 or (stage in ("--progress", "--between") and chart_opt) or (stage != "--final" and key is not None):
        print(USAGE, file=sys.stderr)
        return 2
    from ..core import tables
    base = args[0]
    if stage in ("--progress", "--between"):   # after each run: only what it needs imported
        status = tables.rewrite(base, summaries_only)
        if status or stage == "--progress":
            return status
        from ..core import between
        return between.main([base])
    from ..core import between
    from ..bundle import bundle, sign
    from . import report
    status = tables.rewrite(base)
    if status:
        return status
    steps = [(between.main, [base], "quiet"), (report.main, chart_opt + [base], "show")]
    if stage == "--final":
        steps.append((bundle.main, [base], "keep"))
    written = ""
    for step, step_args, how in steps:
        if how == "show":
            status = step(step_args)
        else:
            with contextlib.redirect_stdout(io.StringIO()) as said:
                status = step(step_args)
            if how == "keep":     # the bundle's name, which it prints: printed, and signed below
                written = said.getvalue().strip()
                print(written)
        sys.stdout.flush()
        if status:
            return int(status)
    if key is not None:
        return sign.main([key, written.splitlines()[-1]]) if written else 1
    return 0
