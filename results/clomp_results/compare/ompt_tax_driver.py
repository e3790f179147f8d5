"""run_clomp.sh --ompt-tax: what attaching an OMPT tool costs each figure;
run_clomp.sh hands every --ompt-tax command line to ``clomp-results
ompt-tax-driver``. The tool is chosen when the runtime starts, so it cannot
change within one process: two A/B comparisons between processes
(compare_driver, adjacent pairs), the same side without a tool against it
with clomp's trivial tool (CLOMP_OMPT=trivial), then against its sampling
tool (CLOMP_OMPT=sampling, 200 Hz of CPU time), and one table of both
(ompt_tax_report). See docs/ompt.md.

Exit as the failing comparison did (1 a process, 2 usage, 3 a build), else
as the report; a TERM, HUP or INT stops the running comparison (which stops
its process) and the driver dies of it (driver_guard)."""
from __future__ import annotations

import os
import sys
from typing import List

from . import compare_options, ompt_tax_report
from ..core.driver_files import TOP, Usage, claim_new_id, file_host_name, make_out_dir
from ..core.driver_guard import Guard, guarded
from ..core.safe_io import for_terminal

USAGE = os.path.join(TOP, "compare", "ompt_tax_usage.txt")


def ompt_tax(guard: Guard, argv: List[str]) -> int:
    try:
        cells = compare_options.parse_ompt_tax(argv)
    except compare_options.Refused as e:
        raise Usage(str(e)) from None
    if cells[0] == "help":
        with open(USAGE, encoding="utf-8") as f:
            sys.stdout.write(f.read())
        return 0
    side, n, out_dir = cells[:3]
    clomp_args = cells[3:]
    make_out_dir(out_dir)
    base = claim_new_id(out_dir, file_host_name())
    work = base + "_ompt_tax.d"
    for tool in ("trivial", "sampling"):
        os.makedirs(os.path.join(work, tool), exist_ok=True)
    # One comparison per tool; a failure's status (1 a process, 2 usage, 3 build) is ours.
    for tool in ("trivial", "sampling"):
        sys.stderr.write(for_terminal("== %s: no tool (A) against CLOMP_OMPT=%s (B), %s processes each" % (side, tool, n)) + "\n")
        sys.stderr.flush()
        with open(os.path.join(work, tool + ".log"), "wb") as log:
            status = guard.run([sys.executable, os.path.join(TOP, "results", "clomp-results"), "compare-driver",
                                "--compare", "%s,%s+CLOMP_OMPT=%s" % (side, side, tool), "--replicates", n,
                                "--out", os.path.join(work, tool)] + clomp_args, stdout=log)
        if status != 0:
            sys.stderr.write("run_clomp.sh: --ompt-tax: the %s comparison failed (exit status %d): see %s/%s.log\n"
                             % (tool, status, for_terminal(work), tool))
            return status
    # The table of both comparisons and the sampling tool's samples, then the files' names.
    sys.stdout.flush()
    return 0 if ompt_tax_report.main([base, side, n, work, " ".join(clomp_args)]) == 0 else 1


def main(argv: List[str]) -> int:
    return guarded("--ompt-tax", lambda guard: ompt_tax(guard, argv))
