#!/usr/bin/env python3
"""The outlier rule's false rate (timing/outlier_rule.h, as clomp-stats
outliers runs it): how often a healthy node - one drawn from the same
distribution as its whole group - is named an outlier on one figure.

    bench/cluster_false_rate.py [--helper build/clomp-stats] [--members 400000] [--seed 50]

For each group size n (3, 5, 10, 30, 100, 1000) it draws groups of n members
until about MEMBERS members are drawn, sends every group in one request to
clomp-stats outliers, and counts the members that stand out. Worst case: no
own interval and no floor (the MAD cut alone), on three spreads - normal,
lognormal (sd of log 0.25: skewed, as timings are) and Student t with 5
degrees of freedom (heavy tails: occasional disturbed nodes). Prints one row
per size: the rate per member and figure, with its binomial 95% interval
(Wilson), and the normal theory for an infinite group, 2 x (1 - Phi(3.5)) =
0.047%. docs/cluster.md quotes its output. A simulation: the load changes
only its time.
"""
import argparse
import math
import os
import random
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = (3, 5, 10, 30, 100, 1000)


def draw(kind, rng):
    if kind == "normal":
        return rng.gauss(0.0, 1.0)
    if kind == "lognormal":
        return math.exp(rng.gauss(0.0, 0.25))
    z = rng.gauss(0.0, 1.0)
    chi2 = sum(rng.gauss(0.0, 1.0) ** 2 for _ in range(5))
    return z / math.sqrt(chi2 / 5.0)


def wilson(k, n, z=1.96):
    if n == 0:
        return (float("nan"), float("nan"))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(helper, kind, n, members, rng):
    groups = max(1, members // n)
    flagged = 0
    for first in range(0, groups, 5000):   # a request holds up to 10,000 distributions
        lines = []
        for g in range(first, min(groups, first + 5000)):
            lines.append("distribution g%d none" % g)
            lines.extend("member m%d %r NA 0" % (i, draw(kind, rng)) for i in range(n))
        out = subprocess.run([helper, "outliers"], input="\n".join(lines).encode(), stdout=subprocess.PIPE,
                             check=True).stdout
        flagged += out.count(b'"stands_out": true')
    return flagged, groups * n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--helper", default=os.environ.get("CLOMP_STATS") or os.path.join(TOP, "build", "clomp-stats"))
    ap.add_argument("--members", type=int, default=400000)
    ap.add_argument("--seed", type=int, default=50)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    started = time.time()
    print("false rate per member and figure of the outlier rule (MAD cut alone: no own interval, no floor), "
          "%d members per cell, seed %d" % (a.members, a.seed))
    print("%-6s %-28s %-28s %-28s" % ("n", "normal", "lognormal (sd log 0.25)", "Student t, 5 df"))
    for n in SIZES:
        cells = []
        for kind in ("normal", "lognormal", "t5"):
            k, total = rate(a.helper, kind, n, a.members, rng)
            lo, hi = wilson(k, total)
            cells.append("%.3f%% [%.3f, %.3f]" % (100.0 * k / total, 100.0 * lo, 100.0 * hi))
        print("%-6d %-28s %-28s %-28s" % (n, cells[0], cells[1], cells[2]))
    print("normal theory, infinite group: 2 x (1 - Phi(3.5)) = %.3f%%" % (100.0 * math.erfc(3.5 / math.sqrt(2))))
    print("took %.0f s" % (time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
