"""run_clomp.sh --compare A,B: an A/B comparison of two set-ups (binaries,
OpenMP runtimes, environment settings) in one command; run_clomp.sh hands
every --compare command line to ``clomp-results compare-driver``. See
docs/compare.md.

A and B run as N adjacent pairs of separate processes (A then B or B then A,
at random within each pair: a drift of the machine slower than a pair hits
both of its processes alike, and neither side always runs first), on the
same clomp arguments; the primary figure is decided by the exact signed-rank
test on the pair differences, the others under Holm's procedure
(compare_report asks clomp-stats). --until adds pairs until the primary
figure is decided, at a group-sequential level that keeps alpha.

Exit 0 done, 1 a process failed, 2 bad usage (one line, before anything
runs), 3 a build or the report failed; a TERM, HUP or INT stops the running
process and the driver dies of it (driver_guard)."""
from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import List, Optional

from ..core import catalogue, stats_helper
from . import compare_options, compare_report
from .compare_side import Side, resolve
from ..core.driver_files import (TOP, Usage, append, claim_new_id, count_cores, date_text, env_header, file_host_name,
                           help_asked, make_out_dir)
from ..core.driver_guard import Guard, guarded
from ..core.safe_io import for_terminal, no_controls

USAGE = os.path.join(TOP, "compare", "compare_usage.txt")


class BashRandom:
    """bash's $RANDOM seeded by CLOMP_COMPARE_SEED (bash 5.1+: Park and Miller's minimal standard,
    its halves folded to 15 bits, never the same value twice in a row): a seed orders the pairs as
    it did when the driver was bash."""

    def __init__(self, seed_text: str):
        digits = ""
        for ch in seed_text.strip():
            if not ch.isdigit():
                break
            digits += ch
        self.seed, self.last = int(digits or "0") & 0xFFFFFFFF, 0

    def next(self) -> int:
        while True:
            r = self.seed or 123459876
            h, l = divmod(r, 127773)
            t = 16807 * l - 2836 * h
            self.seed = t + 0x7FFFFFFF if t < 0 else t
            v = ((self.seed >> 16) ^ (self.seed & 0xFFFF)) & 0x7FFF
            if v != self.last:
                self.last = v
                return v


def run_process(guard: Guard, cmd: List[str], clomp_args: List[str], what: str, record: str, full: str,
                number: int, total: int) -> int:
    """One process of a comparison (or of a sweep): CMD with the clomp arguments and its JSON record
    RECORD, its output appended to FULL between the markers; its exit status."""
    out_path = os.path.join(guard.tmp, "out")
    with open(out_path, "wb") as out:
        rc = guard.run(cmd + clomp_args + ["--json=" + record], stdout=out, stderr=out, partial=[record])
    with open(out_path, "rb") as f:
        output = f.read()
    shown = os.fsencode(" ".join(cmd) + " " + " ".join(clomp_args))
    append(full, b"=== process %d/%d: %s: " % (number, total, os.fsencode(what)) + shown + b"\n" + output
           + b"=== end of process %d: exit status %d\n" % (number, rc))
    return rc


def refusal(guard: Guard, cmd: List[str]) -> Optional[str]:
    """None when CMD (a dry run) exits 0, else what it said on stderr (its "clomp: " dropped)."""
    said = os.path.join(guard.tmp, "refusal")
    with open(said, "wb") as f:
        rc = guard.run(cmd, stdout=subprocess.DEVNULL, stderr=f)
    if rc == 0:
        return None
    with open(said, "rb") as f:
        text = f.read().decode("utf-8", "replace").rstrip("\n")
    return text[len("clomp: "):] if text.startswith("clomp: ") else text


def header_records(sides: List[Side], clomp_args: List[str], pairs: int, sequence: str, looks: str) -> str:
    """The header records compare_report reads (clomp-stats comparison-json's format). Each cell from outside
    (the host, the arguments, a side's spec, description, paths and settings) with its control characters as
    visible escapes (no_controls): a tab or newline in one would split its record, an escape reach the report."""
    lines = ["date\t%s" % date_text(), "host\t%s" % no_controls(os.uname().nodename),
             "arguments\t%s" % no_controls(" ".join(clomp_args)),
             "replicates\t%d" % pairs, "order\tpairs, random order within each", "sequence\t%s" % sequence,
             "looks\t%s" % (looks or "NA")]
    for label, side in zip("AB", sides):
        lines.append("\t".join(["side", label] + [no_controls(c) for c in (side.spec, side.what, side.binary, side.libpath)]))
        lines += ["setting\t%s\t%s\t%s" % ((label,) + tuple(no_controls(c) for c in s.partition("=")[::2]))
                  for s in side.settings if s]
    return "\n".join(lines) + "\n"


def compare(guard: Guard, argv: List[str]) -> int:
    try:
        cells = compare_options.parse_compare(str(count_cores()), argv)
    except compare_options.Refused as e:
        raise Usage(str(e)) from None
    except catalogue.CatalogueError as e:
        raise Usage("--compare: %s" % e, status=3) from None
    spec, n, looks, primary, primary_given, list_figures, out_dir = cells[:7]
    clomp_args = cells[7:]
    planned = [int(k) for k in looks.split(",")] if looks else []
    a, b = spec.split(",", 1)
    sides = [resolve(0, a, guard.tmp), resolve(1, b, guard.tmp)]
    cmd_a = sides[0].command()
    # A nonexistent clomp option or a bad number is refused once, before anything runs.
    refused = refusal(guard, cmd_a + ["--dry-run"] + clomp_args)
    if refused is not None:
        raise Usage("--compare: clomp refuses the arguments: %s" % refused)
    # --primary KEY, checked as far as the names allow: its form, its figure, and (a measurement's
    # figure) that side A's clomp has it; a construct's KEY is checked against the first pair's records.
    if primary_given == "1":
        listing = os.path.join(guard.tmp, "schedules")
        with open(listing, "wb") as f:
            guard.run(cmd_a + ["--list-schedules"], stdout=f, stderr=subprocess.DEVNULL)
        try:
            with open(listing, encoding="utf-8", errors="replace") as f:
                compare_options.check_primary(primary, f.read())
        except compare_options.Refused as e:
            raise Usage(str(e)) from None
    if list_figures == "1":
        record, out_path = os.path.join(guard.tmp, "list.json"), os.path.join(guard.tmp, "out")
        with open(out_path, "wb") as out:
            rc = guard.run(cmd_a + clomp_args + ["--json=" + record], stdout=out, stderr=out)
        if rc != 0:
            with open(out_path, "rb") as f:
                last = (f.read().rstrip(b"\n").split(b"\n") or [b""])[-1]
            sys.stderr.write("run_clomp.sh: --list-figures: side A's process failed: %s\n"
                             % for_terminal(last.decode("utf-8", "replace")))
            return 1
        return 0 if compare_report.main(["--list-figures", record]) == 0 else 3
    helper = stats_helper.find()
    if not os.access(helper, os.X_OK):
        raise Usage("--compare: clomp-stats could not be built", status=3)

    make_out_dir(out_dir)
    base = claim_new_id(out_dir, file_host_name())
    stem = base + "_compare"
    env_header(base, ["comparison: %s (.txt .csv .json .full; each process's record %s_<side><pair>.json)"
                      % (stem, stem)])
    seed = os.environ.get("CLOMP_COMPARE_SEED", "")
    draw = BashRandom(seed).next if seed else (lambda: random.SystemRandom().randrange(32768))
    total, done, sequence, pairs = 2 * int(n), 0, "", 0
    for r in range(1, int(n) + 1):
        for k in ((0, 1) if draw() % 2 == 0 else (1, 0)):
            label, cmd = "AB"[k], sides[k].command()
            done += 1
            sequence += label
            sys.stderr.write("[%d/%d] %s: %s\n" % (done, total, label, for_terminal(" ".join(cmd + clomp_args))))
            sys.stderr.flush()
            rc = run_process(guard, cmd, clomp_args, "side %s, pair %d" % (label, r), "%s_%s%d.json" % (stem, label, r),
                             stem + ".full", done, total)
            if rc != 0:
                sys.stderr.write("run_clomp.sh: --compare: side %s (pair %d) failed with exit status %d; its output is "
                                 "in %s.full\n" % (label, r, rc, stem))
                return 1
        pairs = r
        # A named primary figure must be one of these processes' figures (a construct's KEY is first
        # checkable here); with --until, each planned look asks whether the question is decided.
        if (r == 1 and primary_given == "1") or r in planned:
            said = compare_report.main(["--look", stem, str(r), helper, primary, looks if r in planned else "-"])
            if said == 0 and r in planned:
                break
            if said not in (0, 1):
                return 2 if said == 2 else 3
    records = os.path.join(guard.tmp, "records")
    with open(records, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(header_records(sides, clomp_args, pairs, sequence, looks))
    sys.stdout.flush()
    return 0 if compare_report.main([stem, records, helper, primary]) == 0 else 3


def main(argv: List[str]) -> int:
    if help_asked(argv, USAGE):
        return 0

    return guarded("--compare", lambda guard: compare(guard, argv))
