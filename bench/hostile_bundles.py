#!/usr/bin/env python3
"""How long ./clomp_validate takes to refuse each hostile bundle, at the
DEFAULT bounds (issue 30: "exits 1 (or 2) within 10 seconds"). The unit tests
(tests/python/test_hostile_bundles.py) prove each refusal and what it says,
with the total bound lowered to keep them fast on a shared machine; this
script times the refusals a buyer's machine would make, the biggest one a
bundle of under 1 MiB that expands past the default 512 MiB in all. Prints
one line per case (status, seconds, the refusal's first line) and the load.
Figures only: nothing here passes or fails.

Usage: bench/hostile_bundles.py [--rounds N]   (default 3; the median is printed)
"""
from __future__ import annotations

import argparse
import gzip
import io
import os
import statistics
import sys
import tarfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests", "python"))
from bundle_lib import NAME, Stage, member  # noqa: E402


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print("load before: %.2f %.2f %.2f" % os.getloadavg())
    stage = Stage()
    try:
        for what, path in cases(stage):
            times, status, first = [], None, ""
            for _ in range(max(1, args.rounds)):
                status, out, seconds = stage.validate(path, timeout=120)
                times.append(seconds)
                first = out.strip().splitlines()[0] if out.strip() else ""
            print("%-62s exit %s  median %.2f s (max %.2f, %d rounds; %.1f KiB bundle)  %s"
                  % (what, status, statistics.median(times), max(times), len(times),
                     os.path.getsize(path) / 1024, first[:100]))
        print("nothing left in the temporary directory: %s; the canary untouched: %s"
              % (stage.leftovers() == [], stage.canary_intact()))
    finally:
        stage.close()
    print("load after: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
