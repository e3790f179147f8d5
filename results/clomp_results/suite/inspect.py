"""``clomp-results load PATH``: what the loader reads of a suite, one line
per record, names escaped for the terminal. A check of the records."""
from __future__ import annotations

import sys
from typing import List

from ..core import loader, safe_io
from ..core.safe_io import for_terminal


def main(argv: List[str]) -> int:
    if len(argv) != 1:
        print("usage: clomp-results load SUITE|BUNDLE|DIR", file=sys.stderr)
        return 2
    try:
        suite = loader.load_suite(argv[0])
    except (loader.SuiteError, safe_io.NotABundle) as e:
        print("clomp-results: %s: %s" % (for_terminal(argv[0]), e), file=sys.stderr)
        return 2
    except safe_io.Refused as e:
        print("clomp-results: %s: refused: %s" % (for_terminal(argv[0]), e), file=sys.stderr)
        return 1
    print("suite %s: %d planned runs, %d done, %s" % (for_terminal(suite.name), len(suite.plan), len(suite.done),
                                                     "complete" if suite.env.complete else "not complete"))
    for p in suite.plan:
        rec = suite.record(p.index)
        state = "no record" if rec is None else "record %s, status %s" % (for_terminal(rec.file), for_terminal(rec.status))
        print("  %s: %s" % (for_terminal(p.describe()), state))
    for name, table in (("csv", suite.csv), ("constructs", suite.constructs), ("processes", suite.processes)):
        print("  %s table: %s" % (name, "absent" if table is None else "%d rows" % len(table.rows)))
    for problem in suite.problems:
        print("  problem: %s" % for_terminal(problem))
    return 0
