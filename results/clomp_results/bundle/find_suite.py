"""``clomp-results find-suite DIR ID HOST``: which suite ``run_clomp.sh --bundle
[ID]`` rewrites: with an ID, this host's suite of that ID in DIR, else the
only one of that ID (results copied from a compute node); without one (ID
""), the suite of the highest ID. Prints its base name (DIR/CLOMP_<host>_<id>);
exit 2 with one line when there is none or the ID is ambiguous, or when a
run of it was cut while it was recorded (its record journal, suite/run_guard.sh,
is there: --resume takes its files back to their sizes before that run, and
a report re-rendered first would be cut with them). Warns on stderr when the
suite is not complete (its bundle will not validate)."""
from __future__ import annotations

import os
import re
import sys
from typing import List

from ..core.safe_io import for_terminal

ENV = re.compile(r"^CLOMP_(.+)_([0-9]+)\.env$")


def main(argv: List[str]) -> int:
    if len(argv) != 3:
        print("usage: clomp-results find-suite DIR ID HOST", file=sys.stderr)
        return 2
    directory, wanted, host = argv
    try:
        names = os.listdir(directory)
    except OSError as e:
        print("run_clomp.sh: --bundle: %s: %s" % (for_terminal(directory), e.strerror), file=sys.stderr)
        return 2
    suites = sorted((int(m.group(2)), m.group(1)) for m in map(ENV.match, names) if m and (not wanted or m.group(2) == wanted))
    if not suites:
        print("run_clomp.sh: --bundle: no suite%s in %s" % (wanted and " " + wanted, for_terminal(directory)), file=sys.stderr)
        return 2
    if wanted and (int(wanted), host) in suites:
        chosen = (int(wanted), host)
    elif wanted and len(suites) > 1:
        print("run_clomp.sh: --bundle: several suites %s in %s: %s" % (wanted, for_terminal(directory), " ".join(
            for_terminal(os.path.join(directory, "CLOMP_%s_%d" % (h, n))) for n, h in suites)), file=sys.stderr)
        return 2
    else:
        chosen = suites[-1]
    base = os.path.join(directory, "CLOMP_%s_%d" % (chosen[1], chosen[0]))
    try:
        with open(base + ".env", encoding="utf-8", errors="replace") as f:
            complete = any(line.startswith("---- complete ") for line in f)
    except OSError:
        complete = False
    if not complete:
        print("run_clomp.sh: warning: %s is not complete; its bundle will not validate" % for_terminal(base), file=sys.stderr)
    journal = os.path.join(directory, ".CLOMP_%s_%d.recording" % (chosen[1], chosen[0]))
    if os.path.lexists(journal):
        print("run_clomp.sh: --bundle: a run of %s was cut while it was recorded: finish the suite with --resume first"
              % for_terminal(os.path.basename(base)), file=sys.stderr)
        return 2
    print(base)
    return 0
