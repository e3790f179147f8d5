"""The package's command line: ``results/clomp-results SUBCOMMAND ARGS``.

One line per subcommand in COMMANDS: name -> (module, one-line help). The
module is imported only when its subcommand runs, and its ``main(argv)``
returns the exit status. Add a subcommand by adding its line.
"""
from __future__ import annotations

import importlib
import sys
from typing import List, Optional

from .core.safe_io import for_terminal

COMMANDS = {
    "load": ("clomp_results.suite.inspect", "print what the loader reads of a suite or bundle (a check of the records)"),
    "tables": ("clomp_results.core.tables", "re-render a suite's .summary, .csv and .constructs.csv rows from its JSON records"),
    "between": ("clomp_results.core.between", "the key inputs' figures between processes (--replicates): <base>_key.processes.csv and .txt"),
    "validate": ("clomp_results.bundle.validate", "check a submission bundle: exit 0 valid, 3 valid but not submission-grade, 1 invalid, 2 not a bundle"),
    "report": ("clomp_results.suite.report", "draw a suite's charts (gnuplot) and write its HTML report <base>.html, in its directory only"),
    "compare-report": ("clomp_results.compare.compare_report", "the report of run_clomp.sh --compare from its processes' JSON records (.txt, .csv, .json)"),
    "compare-driver": ("clomp_results.compare.compare_driver", "run_clomp.sh --compare A,B: the sides, the pairs of processes in random order, --until's looks and the report"),
    "sweep-driver": ("clomp_results.sweep.sweep_driver", "run_clomp.sh --sweep SPEC...: the combinations' processes, interleaved, and the report"),
    "ompt-tax-driver": ("clomp_results.compare.ompt_tax_driver", "run_clomp.sh --ompt-tax: the two comparisons (no tool against each of clomp's tools) and their table"),
    "compare-options": ("clomp_results.compare.compare_options", "run_clomp.sh --compare's --until and --primary checked before anything runs (the planned looks)"),
    "runtime-library": ("clomp_results.core.runtime_library", "the OpenMP runtime a binary loads here (ldd): path and package version (--compare, --sweep)"),
    "ompt-tax-report": ("clomp_results.compare.ompt_tax_report", "the report of run_clomp.sh --ompt-tax from its two comparisons' JSON"),
    "offload": ("clomp_results.suite.offload_figures", "the offload measurements of clomp --json records: device, Offload OMP, crossover, target probes"),
    "compare": ("clomp_results.buyers.buyers_cli", "the buyer's table: submissions (bundles, suites, --compare results, CLOMP 1.2 text) side by side (./clomp_compare)"),
    "sweep-plan": ("clomp_results.sweep.sweep_plan", "run_clomp.sh --sweep's specifications checked and expanded into combinations"),
    "sweep-report": ("clomp_results.sweep.sweep_report", "the report of run_clomp.sh --sweep from its processes' JSON records (.txt, .csv, .json, .html)"),
    "estimate": ("clomp_results.core.estimate", "every run's estimate of a suite's plan (the cost model: dry run, ETA, --run-timeout) and the dry run's listing (suite/calibrate.sh)"),
    "calibration": ("clomp_results.suite.calibration", "the dry run's cost model constants from the two calibration runs' JSON (suite/calibrate.sh)"),
    "find-suite": ("clomp_results.bundle.find_suite", "which suite of a directory run_clomp.sh --bundle [ID] rewrites (its base name)"),
    "bundle": ("clomp_results.bundle.bundle", "write the submission bundle <base>.tar.gz of a suite (MANIFEST, runtime library)"),
    "render": ("clomp_results.suite.render", "every table and report of a suite from its manifest and records: after each run (--progress), the key runs (--between), make plots (--report), the end (--final: + bundle, sign)"),
    "cluster": ("clomp_results.cluster.cluster", "the cluster report: per-node summaries or clomp_mpi ranks, grouped, the odd nodes named (.txt, .csv, .json)"),
    "grain-driver": ("clomp_results.grain.grain_driver", "run_clomp.sh --grain: the search's processes, stage by stage as grain-plan chooses them, and the report"),
    "grain-plan": ("clomp_results.grain.grain_cli", "run_clomp.sh --grain's options, dry run and bracket search: the next stage's processes from the records so far"),
    "grain-report": ("clomp_results.grain.grain_report", "the report of run_clomp.sh --grain from its processes' JSON records (.txt, .csv, .json, .html)"),
    "manifest": ("clomp_results.suite.manifest_cli", "a suite's manifest (<base>.suite.json): a suite from before it gets one built from its .env (--write: beside it)"),
    "nodes-driver": ("clomp_results.cluster.cluster_launch", "run_clomp.sh --nodes: the cluster folder, one srun step per node, then the nodes' summaries, the cluster report and bundle"),
    "nodes": ("clomp_results.cluster.cluster_suite", "run_clomp.sh --nodes: which nodes run what (plan), then the nodes' summaries, the cluster report and bundle (gather)"),
    "sign": ("clomp_results.bundle.sign", "sign a submission bundle: BUNDLE.sig (ssh-keygen -Y sign, namespace clomp-submission)"),
}


def usage() -> str:
    width = max(len(k) for k in COMMANDS)
    lines = ["usage: clomp-results SUBCOMMAND [ARGS] (python3 %d.%d)" % sys.version_info[:2], "subcommands:"]
    for name, (_, text) in COMMANDS.items():
        lines.append("  %-*s  %s" % (width, name, text))
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0 if argv else 2
    name = argv[0]
    if name not in COMMANDS:
        print("clomp-results: unknown subcommand '%s'\n%s" % (for_terminal(name), usage()), file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    try:
        return int(module.main(argv[1:]) or 0)
    except BrokenPipeError:   # the reader went away (| head): no traceback
        sys.stderr.close()
        return 1
