"""``clomp-results finish [--charts|--no-charts] [--sign KEY] BASE``: a suite's results at its
end (run_clomp.sh's write_results, suite/results.sh), in one process: the
tables re-rendered from the records (``tables BASE --write``), the
between-process summary (``between BASE``, its text not printed), the charts
and the HTML report (``report``), the submission bundle (``bundle``) and,
with --sign KEY (run_clomp.sh --sign), its signature BUNDLE.sig (``sign``).
Each step is its subcommand's own main, run as that subcommand runs it, and
reads the suite afresh from its files; the first step that fails ends it
with its exit status. One Python start instead of four: a start (with these
imports) costs more than a quick suite's tables."""
from __future__ import annotations

import contextlib
import io
import sys
from typing import List


def main(argv: List[str]) -> int:
    args, chart_opt, key = list(argv), [], None
    while args and args[0] in ("--charts", "--no-charts", "--sign"):
        if args[0] == "--sign":
            if len(args) < 2:
                break
            key = args[1]
            del args[:2]
        else:
            chart_opt = [args.pop(0)]
    if len(args) != 1:
        print("usage: clomp-results finish [--charts|--no-charts] [--sign KEY] BASE", file=sys.stderr)
        return 2
    from . import between, bundle, report, sign, tables
    base = args[0]
    # Without a chart option the report draws charts where gnuplot is installed and says so where not.
    steps = [(tables.main, [base, "--write"], "show"), (between.main, [base], "quiet"),
             (report.main, chart_opt + [base], "show"), (bundle.main, [base], "keep")]
    written = ""
    for step, args, how in steps:
        if how == "show":
            status = step(args)
        else:
            with contextlib.redirect_stdout(io.StringIO()) as said:
                status = step(args)
            if how == "keep":     # the bundle's name, which it prints: printed, and signed below
                written = said.getvalue().strip()
                print(written)
        sys.stdout.flush()
        if status:
            return int(status)
    if key is not None:
        return sign.main([key, written.splitlines()[-1]]) if written else 1
    return 0
