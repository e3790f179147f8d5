"""run_clomp.sh --sweep SPEC...: the OpenMP runtime's settings swept (issue 32,
item 3; docs/settings.md); run_clomp.sh hands every --sweep command line to
``clomp-results sweep-driver``. Every combination of the values given runs as
N separate processes, interleaved (the combinations forward, then backward:
1 2 .. K K .. 2 1 1 2 ..: a drift linear over two rounds hits each alike),
each writing its JSON record; sweep_report writes the text, CSV, JSON and
HTML, the statistics by clomp-stats. The side (binary, preset,
LD_LIBRARY_PATH) is --compare's (compare_side), its messages naming --sweep.

Exit 0 done, 1 a process failed (every other one still ran and is reported),
2 bad usage (one line, before anything runs), 3 a build or the report failed;
a TERM, HUP or INT stops the running process and the driver dies of it
(driver_guard)."""
from __future__ import annotations

import os
import re
import sys
from typing import List

from ..core import runtime_library, stats_helper
from . import sweep_plan, sweep_report
from ..compare.compare_driver import refusal, run_process
from ..compare.compare_side import build, resolve
from ..core.driver_files import (TOP, Usage, claim_new_id, count_cores, date_text, env_header, file_host_name, help_asked,
                           load_average, make_out_dir, team_shape)
from ..core.driver_guard import Guard, guarded
from ..core.safe_io import for_terminal

USAGE = os.path.join(TOP, "compare", "sweep_usage.txt")
VALUED = ("--sweep", "--side", "--replicates", "--out")


def as_sweep(message: str) -> str:
    """--compare's side messages as the sweep's (its one side is --side)."""
    return message.replace("--compare: side A: ", "--sweep: --side: ").replace("--compare:", "--sweep:")


def parse(argv: List[str]) -> dict:
    """The command line: specs, side, replicates, quick, out, plots, clomp's arguments."""
    got = {"specs": [], "side": "", "n": "6", "quick": False, "out": "out", "plots": "auto", "clomp": []}
    numbers, in_specs, i = 0, False, 0
    while i < len(argv):
        arg = argv[i]
        if arg in VALUED and i + 1 >= len(argv):
            raise Usage("%s: needs a value (see --sweep --help)" % arg)
        # The words after --sweep that are neither options nor numbers are its specifications.
        if in_specs and not arg.startswith("-") and not re.fullmatch(r"[0-9]+", arg):
            got["specs"].append(arg)
            i += 1
            continue
        in_specs = False
        name, eq, value = arg.partition("=")
        if arg in VALUED or (eq and name in VALUED):
            if not eq:
                value = argv[i + 1]
                i += 1
            if name == "--sweep":
                got["specs"].append(value)
                in_specs = True
            else:
                got[{"--side": "side", "--replicates": "n", "--out": "out"}[name]] = value
        elif arg == "--quick":
            got["quick"] = True
        elif arg == "--no-plots":
            got["plots"] = "no"
        elif name == "--compare" or arg == "--ompt-tax":
            raise Usage("--sweep: one command at a time (--sweep with %s)" % arg)
        elif name in ("--json", "--csv"):
            raise Usage("--sweep: clomp's %s is the driver's own (the results go to --out)" % name)
        elif arg == "--":
            got["clomp"] += argv[i + 1:]
            break
        else:
            got["clomp"].append(arg)
            numbers += not arg.startswith("-")
        i += 1
    if not re.fullmatch(r"[1-9][0-9]*", got["n"]) or int(got["n"]) < 2:
        raise Usage("--replicates: '%s' must be a whole number of at least 2" % got["n"])
    if numbers not in (0, 7):
        raise Usage("--sweep: give all seven clomp numbers or none (got %d)" % numbers)
    if numbers == 0:   # the target input on every core, its parts following the team
        cores = count_cores()
        got["clomp"] += [str(cores), "1"] + [str(v) for v in team_shape(cores, 6400, 64)] + \
            ["32", "1", "1" if got["quick"] else "100"]
    return got


def plan_lines(specs: List[str], library: str, dry: str) -> List[str]:
    """sweep-plan's lines (runtime, notes, combinations); Usage (exit 2) with its one line."""
    import io
    saved, sys.stdout = sys.stdout, io.StringIO()
    try:
        rc = sweep_plan.main(["--library", library, dry] + specs)
        text = sys.stdout.getvalue()
    finally:
        sys.stdout = saved
    if rc != 0:   # sweep_plan said why
        raise Usage("", status=2)
    return text.splitlines()


def sweep(guard: Guard, argv: List[str]) -> int:
    got = parse(argv)
    clomp_args = got["clomp"]
    # The specifications' syntax, before anything is built or run (one line, exit 2).
    if sweep_plan.main(["--check"] + got["specs"]) != 0:
        return 2
    side_spec = got["side"]
    if "," in side_spec:
        raise Usage("--sweep: --side '%s' is one side (no comma)" % side_spec)
    if not side_spec:
        if not os.access(os.path.join(TOP, "clomp"), os.X_OK):
            build("./clomp", ["clomp"])
        side_spec = os.path.join(TOP, "clomp")
    side = resolve(0, side_spec, guard.tmp)
    # The arguments checked once, and the runtime the process loads read from a dry run's record.
    dry = os.path.join(guard.tmp, "dry.json")
    refused = refusal(guard, side.command() + ["--dry-run"] + clomp_args + ["--json=" + dry])
    if refused is not None:
        raise Usage("--sweep: clomp refuses the arguments: %s" % refused)
    env = dict(os.environ)
    env.update(s.partition("=")[::2] for s in side.command()[1:-1])
    lib, version = runtime_library.loaded_runtime(side.binary, env)
    lib, version = lib or "unknown", version or "unknown"
    plan = plan_lines(got["specs"], "" if lib == "unknown" else lib,
                      dry if os.path.isfile(dry) and os.path.getsize(dry) else "-")
    combos = [line.split("\t")[2:] for line in plan if line.startswith("combination\t")]

    make_out_dir(got["out"])
    base = claim_new_id(got["out"], file_host_name())
    stem = base + "_sweep"
    load_before = load_average()
    env_header(base, ["sweep: %s (.txt .csv .json .html .full; each process's record %s_c<combination>r<replicate>"
                      ".json)" % (stem, stem)])
    n, k = int(got["n"]), len(combos)
    total, done, sequence, failed = n * k, 0, [], []
    for r in range(1, n + 1):
        for i in range(k):
            c = i + 1 if r % 2 == 1 else k - i
            cmd = side.command(combos[c - 1])
            done += 1
            sequence.append(str(c))
            sys.stderr.write("[%d/%d] combination %d: %s\n" % (done, total, c, for_terminal(" ".join(cmd + clomp_args))))
            sys.stderr.flush()
            rc = run_process(guard, cmd, clomp_args, "combination %d, replicate %d" % (c, r),
                             "%s_c%dr%d.json" % (stem, c, r), stem + ".full", done, total)
            if rc != 0:
                sys.stderr.write("run_clomp.sh: --sweep: combination %d (process %d) failed with exit status %d; its "
                                 "output is in %s.full\n" % (c, r, rc, for_terminal(stem)))
                failed.append("failed\t%d\t%d\t%d" % (c, r, rc))

    helper = stats_helper.find()
    if not os.access(helper, os.X_OK):
        raise Usage("--sweep: clomp-stats could not be built", status=3)
    lines = ["date\t%s" % date_text(), "host\t%s" % os.uname().nodename, "arguments\t%s" % " ".join(clomp_args),
             "replicates\t%d" % n, "order\tforward, then backward", "sequence\t%s" % " ".join(sequence),
             "load_before\t%s" % load_before, "load_after\t%s" % load_average(),
             "\t".join(["side", side.spec, side.what, side.binary, side.libpath, lib, version])]
    lines += ["setting\t%s\t%s" % s.partition("=")[::2] for s in side.settings if s]
    lines += [l for l in plan if not l.startswith("combination\t")] + [l for l in plan if l.startswith("combination\t")]
    records = os.path.join(guard.tmp, "records")
    with open(records, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write("\n".join(lines + failed) + "\n")
    sys.stdout.flush()
    if sweep_report.main(["--charts" if got["plots"] == "auto" else "--no-charts", stem, records, helper]) != 0:
        return 3
    print(for_terminal("Files: %s.txt %s.csv %s.json %s.html %s.full %s.env" % (stem, stem, stem, stem, stem, base)))
    return 1 if failed else 0


def main(argv: List[str]) -> int:
    if help_asked(argv, USAGE):
        return 0

    def body(guard: Guard) -> int:
        try:
            return sweep(guard, argv)
        except Usage as e:   # the side's messages name --compare's side A: here it is --sweep's --side
            raise Usage(as_sweep(str(e)), e.status) from None
    return guarded("--sweep", body)
