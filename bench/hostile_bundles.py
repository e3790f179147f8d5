#!/usr/bin/env python3
"""How long ./clomp_validate takes to refuse each hostile bundle, and its
peak memory, at the DEFAULT bounds (issue 30: "exits 1 (or 2) within 10
seconds"; issue 45: "a 15,000-run plan and a 300 MiB long name answered
within 10 s in under 300 MB"). The unit tests (tests/python/test_hostile_
bundles.py, test_untrusted*.py) prove each refusal and what it says, with
the total bound lowered to keep them fast on a shared machine; this script
times the refusals a buyer's machine would make, the biggest one a bundle of
under 1 MiB that expands past the default 512 MiB in all. Prints one line
per case (status, seconds, peak resident memory of the validator, the
refusal's first line) and the load. Figures only: nothing here passes or
fails.

Usage: bench/hostile_bundles.py [--rounds N] [--only WORD]   (default 3 rounds; the median is printed)
"""
from __future__ import annotations

import argparse
import glob
import gzip
import io
import json
import os
import re
import statistics
import sys
import tarfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests", "python"))
from bundle_lib import NAME, VALIDATE, Stage, member  # noqa: E402
from test_untrusted import gnu_header, submission_grade  # noqa: E402
from test_untrusted_big import long_name_bundle, peak_of  # noqa: E402


def cases(stage):
    """(what, path) of each hostile bundle, built in the stage's directory."""
    zeros = b"\0" * (8 << 20)
    yield ("expands past the default 512 MiB in all (65 x 8 MiB of zeros)",
           stage.pack("total.tar.gz", extra=[member(NAME + "/pad%d" % i, data=zeros) for i in range(65)]))
    yield ("one member over the default 64 MiB (72 MiB of zeros)",
           stage.pack("member.tar.gz", extra=[member(NAME + "/big.full", data=b"\0" * (72 << 20))]))
    out = os.path.join(stage.root, "header.tar.gz")
    head = io.BytesIO()
    with tarfile.open(fileobj=head, mode="w") as tar:
        tar.add(stage.suite, arcname=NAME)
        end = tar.offset   # the end of the last member: end-of-archive blocks and padding follow
    info, _ = member(NAME + "/big.full", size=2 << 30)
    with gzip.open(out, "wb") as f:
        f.write(head.getvalue()[:end] + info.tobuf(format=tarfile.GNU_FORMAT))
    yield ("a header claiming 2 GiB", out)
    yield ("20,000 members", stage.pack("count.tar.gz",
                                        extra=[member(NAME + "/m/%d" % i) for i in range(20000)]))
    yield ("a path with ..", stage.pack("dotdot.tar.gz", extra=[member(NAME + "/../escape", data=b"x")]))
    yield ("an absolute path", stage.pack("abs.tar.gz", extra=[member("/tmp/clomp-escape", data=b"x")]))
    yield ("a symbolic link out", stage.pack("sym.tar.gz", extra=[member(
        NAME + "/link", kind=tarfile.SYMTYPE, linkname="/etc/passwd")]))
    yield ("a hard link", stage.pack("hard.tar.gz", extra=[member(
        NAME + "/hard", kind=tarfile.LNKTYPE, linkname="/etc/passwd")]))
    yield ("a FIFO", stage.pack("fifo.tar.gz", extra=[member(NAME + "/fifo", kind=tarfile.FIFOTYPE)]))
    # Issue 45's cases.
    yield ("a GNU long name of 300 MiB, really there", long_name_bundle(stage, 300 << 20, "long300.tar.gz"))
    yield ("a GNU long name of 1 GiB, really there", long_name_bundle(stage, 1 << 30, "long1g.tar.gz"))
    raw = head.getvalue()[:end]
    for what, extra in (("a pax header claiming 1 MiB", gnu_header("pax", b"x", 1 << 20)),
                        ("5,000 chained GNU long-name headers", (gnu_header("././@LongLink", b"L", 4) + b"abc\0".ljust(512, b"\0")) * 5000)):
        out = os.path.join(stage.root, re.sub(r"\W+", "_", what) + ".tar.gz")
        with gzip.open(out, "wb") as f:
            f.write(raw + extra)
        yield (what, out)
    yield from edited(stage)


def edited(stage):
    """The forged bundles: each an edit of the staged suite (with its MANIFEST rewritten), packed, undone."""
    env_path = stage.path(NAME + ".env")
    env = open(env_path).read()
    records = {p: open(p).read() for p in glob.glob(stage.path(NAME + "_*.run*.json"))}
    plan = "plan: exe=./clomp;launcher=;" + "key||2 -1 64 100 32 1 1;" * 15000
    open(env_path, "w").write(re.sub(r"(?m)^plan: .*$", plan, env))
    stage.remanifest()
    yield ("a plan of 15,000 runs", stage.pack("plan.tar.gz"))
    open(env_path, "w").write(env.replace("time scale: 1\n", "time scale: 100\n").replace(" 32 1 1;", " 32 1 100;"))
    for p, text in records.items():
        doc = json.loads(text)
        submission_grade(doc)
        open(p, "w").write(json.dumps(doc))
    stage.remanifest()
    yield ("forged: records and .env say submission-grade", stage.pack("forged.tar.gz"))
    # Last, since it deletes: every set renamed oversubscribed, records, summaries and texts gone, .done empty.
    for pattern in ("_*.run*.json", "_*.summary", "_*.full"):
        for f in glob.glob(stage.path(NAME + pattern)):
            os.unlink(f)
    open(stage.path(NAME + ".done"), "w").close()
    open(env_path, "w").write(re.sub(r"(?m)^(plan: exe=\./clomp;launcher=;)(.*)$",
                                     lambda m: m.group(1) + re.sub(r"(^|;)\w+\|\|", r"\1oversubscribed||", m.group(2)), env))
    stage.remanifest()
    yield ("empty: every set oversubscribed, no record", stage.pack("empty.tar.gz"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="only the cases whose description holds this word")
    args = ap.parse_args()
    print("load before: %.2f %.2f %.2f" % os.getloadavg())
    stage = Stage()
    try:
        for what, path in cases(stage):
            if args.only not in what:
                continue
            times, peaks, status, first = [], [], None, ""
            for _ in range(max(1, args.rounds)):
                t0 = time.time()
                status, out, peak = peak_of(stage, [VALIDATE, path])
                times.append(time.time() - t0)
                peaks.append(peak)
                first = out.strip().splitlines()[0] if out.strip() else ""
            print("%-50s exit %s  median %.2f s (max %.2f, %d rounds)  peak %.0f MB  (%.1f KiB bundle)  %s"
                  % (what, status, statistics.median(times), max(times), len(times), max(peaks) / 1e6,
                     os.path.getsize(path) / 1024, re.sub(r"^clomp_validate: \S+: ", "", first)[:110]))
        print("nothing left in the temporary directory: %s; the canary untouched: %s"
              % (stage.leftovers() == [], stage.canary_intact()))
    finally:
        stage.close()
    print("load after: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
