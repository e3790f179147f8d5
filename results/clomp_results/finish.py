"""``clomp-results finish [--charts|--no-charts] BASE``: a suite's results at its
end (run_clomp.sh's write_results, suite/results.sh), in one process: the
tables re-rendered from the records (``tables BASE --write``), the
between-process summary (``between BASE``, its text not printed), the charts
and the HTML report (``report``) and the submission bundle (``bundle``). Each
step is its subcommand's own main, run as that subcommand runs it, and reads
the suite afresh from its files; the first step that fails ends it with its
exit status. One Python start instead of four: a start (with these imports)
costs more than a quick suite's tables."""
from __future__ import annotations

import contextlib
import io
import sys
from typing import List


def main(argv: List[str]) -> int:
    chart_opt = argv[:1] if argv and argv[0] in ("--charts", "--no-charts") else []
    if len(argv) != len(chart_opt) + 1:
        print("usage: clomp-results finish [--charts|--no-charts] BASE", file=sys.stderr)
        return 2
    from . import between, bundle, report, tables
    base = argv[-1]
    # Without a chart option the report draws charts where gnuplot is installed and says so where not.
    steps = [(tables.main, [base, "--write"], True), (between.main, [base], False),
             (report.main, chart_opt + [base], True), (bundle.main, [base], True)]
    for step, args, show in steps:
        if show:
            status = step(args)
        else:
            with contextlib.redirect_stdout(io.StringIO()):
                status = step(args)
        sys.stdout.flush()
        if status:
            return int(status)
    return 0
