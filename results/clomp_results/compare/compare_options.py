"""run_clomp.sh --compare's options checked before anything runs
(compare_driver.py; docs/compare.md):

    compare-options --parse CORES ARGS...   the command line (after --help): spec, pairs, looks,
                                            primary, primary_given, list_figures, out, then
                                            clomp's arguments (seven numbers by default, CORES
                                            threads), each ended by a NUL byte
    compare-options --parse-ompt-tax ARGS...   --ompt-tax's (ompt_tax_driver.py): side, processes,
                                            out, then clomp's arguments; help alone for -h/--help
    compare-options --until SPEC     the planned looks of --until decided[,MAX]: N1,N2,...
    compare-options --primary KEY    KEY checked against side A's clomp --list-schedules (standard input)

Exit 0 (the looks printed, or KEY can name a figure), 2 with one line on
stderr naming what is wrong. --primary checks what the names allow: KEY's
form, its figure (the catalogue's: clomp --list-figures; a key the tools
printed before issue 43, static_overhead, is read as its figure), and (a
measurement's figure) that side A's clomp has that measurement; a
construct's KEY is checked against the first pair's records (compare-report
--look). A plan whose pairs can never reach the primary figure's level with
the exact signed-rank test (3 pairs: p >= 0.25) is refused with the pairs it
needs (clomp-stats plan), unless --force."""
from __future__ import annotations

import os
import re
import shutil
import sys
from typing import Dict, List

from ..core import catalogue, stats_helper
from ..core.estimate import listing_rows
from ..core.safe_io import for_terminal

ALPHA = "0.05"   # the primary figure's level (compare_report.ALPHA)


class Refused(Exception):
    pass


def plan_looks(spec: str) -> List[int]:
    """--until decided[,MAX]: from 6 to MAX [20] pairs, at most 5 looks, evenly spaced."""
    m = re.fullmatch(r"decided(,([0-9]+))?", spec)
    if not m:
        raise Refused("--until: '%s' is not decided[,MAX] (MAX: the most pairs, 6 to 1000)" % spec)
    most = int(m.group(2)) if m.group(2) else 20
    if most < 6 or most > 1000:
        raise Refused("--until: MAX '%d' must be 6 to 1000 pairs (the exact test needs 6)" % most)
    k = min(most - 5, 5)
    if k == 1:
        return [most]
    looks: List[int] = []
    for j in range(k):
        at = 6 + (2 * (most - 6) * j + k - 1) // (2 * (k - 1))
        if not looks or at > looks[-1]:
            looks.append(at)
    return looks


def check_primary(key: str, listing: str) -> None:
    if not re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)*", key):
        raise Refused("--primary: '%s' is not a figure KEY (e.g. %s; --compare --list-figures prints them)"
                      % (key, catalogue.load().primary().key))
    if re.fullmatch(r".*_level[0-9].*_overhead", key):
        return
    cat = catalogue.load()
    key = cat.canonical(key)
    if any(f.key == key for f in cat.in_set("key") if not f.get("measurement") and f.get("json")):
        return   # the process's CPU seconds
    rows = listing_rows(listing)
    for row in rows:   # side A's measurements, named as clomp names their figures
        for f in cat.measurement_figures({"key": row.get("key"), "name": row.get("report name", ""),
                                          "role": row.get("role")}, compared_only=True):
            if f.key == key:
                if row.get("role") == "bestcase" and "overhead" in f["kind"]:
                    raise Refused("--primary: '%s' is 0 by definition (never counted): name another" % key)
                return
    raise Refused("--primary: '%s' names no figure --compare tests that side A's clomp gives (clomp --list-figures "
                  "lists every figure; --compare --list-figures the ones a process gives)" % key)


def check_plan(n: int, force: bool) -> None:
    """A plan whose pairs can never reach the primary figure's level with the exact signed-rank test is
    refused before it runs (clomp-stats plan), unless --force."""
    if force:
        return
    from ..core.stats_helper import find as helper_path
    try:
        p = stats_helper.plan(helper_path(), n, ALPHA)
    except stats_helper.StatsError as e:
        raise Refused("--compare: could not check the plan: %s" % e)
    if not p["reachable"]:
        raise Refused("--replicates %d: %d pairs can never show a difference at p <= %s with the exact signed-rank "
                      "test (the smallest p from %d pairs is %.3g); it needs %d pairs: give --replicates %d or more "
                      "(or --force to run them anyway)" % (n, n, ALPHA, n, p["smallest_p"], p["pairs_needed"],
                                                          p["pairs_needed"]))


def take_value(args: List[str], i: int, got: Dict[str, str], command: str) -> int:
    """How many arguments from args[i] set an option of GOT (its keys: the options that take a value,
    as `--opt VALUE` or `--opt=VALUE`), stored there: 2, 1, or 0 when args[i] is none of them."""
    arg = args[i]
    name, eq, value = arg.partition("=")
    if arg in got:
        if i + 1 >= len(args):
            raise Refused("%s: needs a value (see %s --help)" % (arg, command))
        got[arg] = args[i + 1]
        return 2
    if eq and name in got:
        got[name] = value
        return 1
    return 0


def check_replicates(n: str) -> None:
    if not re.fullmatch(r"[1-9][0-9]*", n) or int(n) < 2:
        raise Refused("--replicates: '%s' must be a whole number of at least 2" % n)


def parse_compare(cores: str, args: List[str]) -> List[str]:
    """--compare's command line as compare_driver reads it; Refused with its one line."""
    got = {"--compare": "", "--replicates": "10", "--until": "", "--out": "out", "--primary": ""}
    given, flags, clomp, numbers, i = set(), set(), [], 0, 0
    while i < len(args):
        arg = args[i]
        name = arg.partition("=")[0]
        taken = take_value(args, i, got, "--compare")
        if taken:
            given.add(name)
            i += taken
            continue
        if arg in ("--list-figures", "--quick", "--force"):
            flags.add(arg)
        elif name in ("--json", "--csv"):
            raise Refused("--compare: clomp's %s is the driver's own (the results go to --out)" % name)
        elif arg == "--dry-run":   # clomp's own --dry-run would still start every process and write the report
            raise Refused("--compare has no dry run (it runs its processes; ./run_clomp.sh --dry-run plans a suite)")
        elif arg == "--":
            clomp += args[i + 1:]
            break
        else:   # clomp's own option, or one of its seven numbers
            clomp.append(arg)
            numbers += not arg.startswith("-")
        i += 1
    n, looks = got["--replicates"], ""
    check_replicates(n)
    if got["--until"]:
        if "--replicates" in given:
            raise Refused("--until and --replicates: give one (--until decided,MAX: MAX is the most pairs)")
        planned = plan_looks(got["--until"])   # from 6 to MAX, at most 5, evenly spaced
        looks, n = ",".join(str(k) for k in planned), str(planned[-1])
    if numbers not in (0, 7):
        raise Refused("--compare: give all seven clomp numbers or none (got %d)" % numbers)
    if numbers == 0:
        clomp += [cores, "1", "64", "100", "32", "1", "1" if "--quick" in flags else "100"]
    if got["--compare"].count(",") != 1:
        raise Refused("--compare: '%s' is not A,B (two sides, one comma)" % got["--compare"])
    if "--list-figures" not in flags:
        check_plan(int(n), "--force" in flags)
    primary = catalogue.load().canonical(got["--primary"]) if got["--primary"] else catalogue.load().primary().key
    return [got["--compare"], n, looks, primary, str(int("--primary" in given)),
            str(int("--list-figures" in flags)), got["--out"]] + clomp


def parse_ompt_tax(args: List[str]) -> List[str]:
    """--ompt-tax's command line as ompt_tax_driver reads it; Refused with its one line."""
    got = {"--side": "", "--replicates": "10", "--out": "out"}
    clomp, quick, force, i = [], False, False, 0
    while i < len(args):
        arg = args[i]
        name = arg.partition("=")[0]
        taken = take_value(args, i, got, "--ompt-tax")
        if taken:
            i += taken
            continue
        if arg in ("-h", "--help"):
            return ["help"]
        elif arg == "--quick":
            quick = True
        elif arg == "--force":
            force = True
        elif arg == "--dry-run":
            raise Refused("--ompt-tax has no dry run (it runs its processes; ./run_clomp.sh --dry-run plans a suite)")
        elif name in ("--ompt", "--compare"):
            raise Refused("--ompt-tax: the tool is the driver's to choose (no --ompt)" if name == "--ompt"
                          else "--ompt-tax: give the side with --side, not --compare")
        elif arg != "--ompt-tax":
            clomp.append(arg)
        i += 1
    n, side = got["--replicates"], got["--side"] or ("llvm" if shutil.which("clang") else "libomp")
    check_replicates(n)
    if "," in side:
        raise Refused("--side: '%s' is one side (no comma)" % side)
    if "CLOMP_OMPT=" in side:
        raise Refused("--side: the driver sets CLOMP_OMPT itself")
    check_plan(int(n), force)   # each tool's comparison is a --compare of N pairs: refused here, before any run
    return [side, n, got["--out"]] + (["--quick"] if quick else []) + (["--force"] if force else []) + clomp


def main(argv: List[str]) -> int:
    if not (len(argv) == 2 and argv[0] in ("--until", "--primary") or len(argv) >= 2 and argv[0] == "--parse"
            or argv[:1] == ["--parse-ompt-tax"]):
        sys.stderr.write("usage: compare-options --parse CORES ARGS... | --parse-ompt-tax ARGS... | --until SPEC | "
                         "--primary KEY <LISTING\n")
        return 2
    try:
        if argv[0].startswith("--parse"):
            cells = parse_compare(argv[1], argv[2:]) if argv[0] == "--parse" else parse_ompt_tax(argv[1:])
            sys.stdout.buffer.write(b"".join(os.fsencode(cell) + b"\0" for cell in cells))
        elif argv[0] == "--until":
            print(",".join(str(n) for n in plan_looks(argv[1])))
        else:
            check_primary(argv[1], sys.stdin.read())
        return 0
    except Refused as e:
        sys.stderr.write("run_clomp.sh: %s\n" % for_terminal(str(e)))
        return 2
    except catalogue.CatalogueError as e:
        sys.stderr.write("run_clomp.sh: --compare: %s\n" % for_terminal(str(e)))
        return 3
