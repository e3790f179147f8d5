"""bench/constructs.sh's EPCC 4.0 table: EPCC's processes beside clomp's.

Usage: python3 constructs_table.py WORK RUNS OxI CPUS THREADS [NOT_PROVIDED_NOTE]

WORK holds epcc.PROGRAM.I (EPCC 4.0's output, one file per program and
process) and clomp.KIND.I (clomp's --csv construct tables). Per EPCC
measurement it prints EPCC's median over its processes (of each process's
median_ovrhd) with [min, max], clomp's level-1 median over its processes with
[min, max], the ratio, and whether clomp's median lies within EPCC's [min, max].

A row counts only where EPCC itself measured a cost here (comparable()):
every EPCC process above 0, and EPCC's processes agreeing with each other
(the largest no more than twice the smallest: a spread measured against the
median would pass two disturbed processes of three, 399.9 [0.061, 399.9]). Otherwise "within"
would test nothing: STATIC at -0.42 [-1.5, 33] us holds any figure. A
comparable row where clomp gave no figure (unresolved in every process)
counts as outside, with clomp's reason. The line after the table gives how
often the rule passes when both programs measure the same thing
(within_by_chance), so that a count can be read against it. The last lines
set the references' speeds side by side (reference_speeds): EPCC times its
reference once per process, clomp one beside every repetition.
"""
import csv
import glob
import os
import random
import re
import statistics
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "results"))
# A field's finite float, or None (empty, cut short, text, nan, inf): the results package's reading.
from clomp_results.core.view import num  # noqa: E402

RENAMED = {"LOCK_CONTENDED": "LOCK/UNLOCK"}


def comparable(values):
    """None when EPCC's processes measured a cost here, else (kind, why not)."""
    low, high, mid = min(values), max(values), statistics.median(values)
    if low <= 0.0:
        return "EPCC at or below 0", "a process at %.3g: EPCC does not tell it from no cost" % low
    if high > 2.0 * low:
        return "EPCC's processes disagree", "%.3g..%.3g (median %.3g): its largest more than twice its smallest" % (
            low, high, mid)
    return None


def within_by_chance(m, n, draws=100000, seed=32):
    """P(the median of n draws lies within [min, max] of m others), all from
    one continuous distribution: the rule's pass rate when clomp and EPCC
    measure the same thing. Rank-based, so any distribution gives it;
    simulated with a fixed seed (exact for odd n: 1 - 2 C(m+n-k, n-k) / C(m+n, n),
    k = (n+1)/2)."""
    rng = random.Random(seed)
    hits = 0
    for _ in range(draws):
        e = [rng.random() for _ in range(m)]
        c = statistics.median([rng.random() for _ in range(n)])
        hits += min(e) <= c <= max(e)
    return hits / draws


def read_epcc(work):
    epcc, order = {}, []
    # EPCC 4.0 prints "NAME median_ovrhd = X microseconds": the median over its
    # repetitions of the test time, less the reference's median, per instance.
    for path in sorted(glob.glob(os.path.join(work, "epcc.*.*"))):
        for line in open(path, errors="replace"):
            m = re.match(r"^(.*\S) median_ovrhd += +(-?[0-9.]+) microseconds", line)
            if m:
                name = RENAMED.get(m.group(1), m.group(1))
                if name not in epcc:
                    order.append(name)
                epcc.setdefault(name, []).append(float(m.group(2)))
    return epcc, order


def read_clomp(work, threads):
    """Level-1 figures at the run's threads, level-2 figures, and each
    level-1 row's problems where it had no figure."""
    mine, level2, problems = {}, {}, {}
    for path in sorted(glob.glob(os.path.join(work, "clomp.*.*"))):
        if path.endswith(".err") or os.path.getsize(path) == 0:
            continue
        for row in csv.DictReader(open(path)):
            name = row["construct_name"]
            # Level 1 at the run's threads (not the level-1 base at INNER threads); a
            # row not run (not provided by the runtime) has no team.
            level1 = row["level"] == "1" and (row["inner_threads"] == threads or
                                              row["inner_threads"] == "" and row["status"] == "not run")
            if None in row.values():   # a row cut short (a process killed while writing): no figure, whatever it holds
                problems.setdefault(name, []).append("cut short")
                continue
            overhead = num(row["overhead_us"])
            if overhead is None:
                if level1:
                    problems.setdefault(name, []).append(row["status"] + ": " + row["problem"])
                continue
            target = mine if level1 else level2 if row["level"] == "2" else None
            if target is not None:
                target.setdefault(name, []).append(overhead)
    return mine, level2, problems


# The programs whose reference is delays alone, EPCC's line naming it, and
# clomp's process of the same rows (clomp.KIND.I): their references time the
# same number of delays per instance (schedbench's 1024 iterations per thread
# against clomp's --construct-iters=1024, which bench/constructs_epcc4.sh
# passes; taskbench's one delay against clomp's task rows' one), so that
# their speeds per addition can be set side by side.
DELAY_REFERENCES = {"schedbench": ("reference time median time", "loop"),
                    "taskbench": ("reference time 1 median time", "task")}


def epcc_reference(path, line_name):
    """EPCC's delay length (additions) and its reference's median time (us)
    from one process's output, or None where either is missing."""
    length = reference = None
    for line in open(path, errors="replace"):
        m = re.match(r"^\s*([0-9]+) delay length \(iterations\)", line)
        if m and length is None:
            length = int(m.group(1))
        m = re.match(r"^" + re.escape(line_name) + r" += +(-?[0-9.]+) microseconds", line)
        if m and reference is None:
            reference = float(m.group(1))
    return (length, reference) if length and reference and reference > 0 else None


def clomp_lengths(work):
    """{(program, round): additions} that bench/constructs_epcc4.sh gave clomp ("own" left out)."""
    given = {}
    path = os.path.join(work, "lengths")
    if os.path.exists(path):
        for line in open(path):
            parts = line.split()
            if len(parts) == 3 and parts[2].isdigit() and int(parts[2]) > 0:
                given[(parts[0], parts[1])] = int(parts[2])
    return given


def reference_speeds(work, threads):
    """Per program of DELAY_REFERENCES: per round, EPCC's reference time per
    addition over clomp's (the median of its level-1 rows' references at the
    run's threads). EPCC times its reference once per process, before all
    its tests; clomp times one beside each repetition. The figure shows that
    the two ran at different speeds, not why (docs/constructs.md: the clock
    moves within a process on the development VM); where EPCC's tests ran
    at clomp's reference's speed, its rows with many delays per instance
    carry the difference."""
    given = clomp_lengths(work)
    speeds = {}
    for program, (line_name, kind) in DELAY_REFERENCES.items():
        for path in sorted(glob.glob(os.path.join(work, "epcc.%s.*" % program))):
            run = path.rsplit(".", 1)[1]
            epcc = epcc_reference(path, line_name)
            mine = os.path.join(work, "clomp.%s.%s" % (kind, run))
            if epcc is None or (program, run) not in given or not os.path.exists(mine):
                continue
            refs = [num(r.get("reference_us")) for r in csv.DictReader(open(mine))
                    if r.get("level") == "1" and r.get("inner_threads") == threads]
            refs = [r for r in refs if r is not None and r > 0]
            if refs:
                ratio = (epcc[1] / epcc[0]) / (statistics.median(refs) / given[(program, run)])
                speeds.setdefault(program, []).append(ratio)
    return speeds


def spread(values):
    return f"{statistics.median(values):9.3f} [{min(values):.3f}, {max(values):.3f}]"


def main(argv):
    work, runs, nested, cpus, threads = argv[1], int(argv[2]), argv[3], int(argv[4]), argv[5]
    not_provided_note = argv[6] if len(argv) > 6 else ""
    epcc, order = read_epcc(work)
    mine, level2, problems = read_clomp(work, threads)
    outer, inner = (int(x) for x in nested.split("x"))
    note = " (oversubscribed: %d threads on %d CPUs)" % (outer * inner, cpus) if outer * inner > cpus else ""
    print(f"Overhead per instance, us: median over {runs} processes [min, max]; EPCC: its median_ovrhd; "
          f"level 2 = {nested}{note}")
    print(f"{'measurement':24} {'EPCC 4.0':>30} {'clomp level 1':>30} {'ratio':>7}  {'within':6} {'clomp level 2':>30}")
    inside = counted = both = both_inside = 0
    skipped = {}
    for name in order:
        e = epcc[name]
        c = mine.get(name)
        why_not = comparable(e)
        if why_not is None and c is None and name in problems and all("not provided" in p for p in problems[name]):
            why_not = ("not provided", "clomp: not provided by this runtime" +
                       (f"; {not_provided_note}" if not_provided_note else ""))
        l2 = spread(level2[name]) if name in level2 else f"{'N/A':>30}"
        if c is not None:   # the count without the comparability rule: the table's count before it had one
            both += 1
            both_inside += min(e) <= statistics.median(c) <= max(e)
        if why_not is not None:
            kind, why_not = why_not
            skipped[kind] = skipped.get(kind, 0) + 1
            shown = spread(c) if c is not None else "(no clomp figure)"
            print(f"{name:24} {spread(e):>30} {shown:>30} {'':7}  {'n/c':6} {l2:>30}  not comparable: {why_not}")
            continue
        counted += 1
        if c is None:
            why = sorted(set(problems.get(name, ["no row"])))[0]
            print(f"{name:24} {spread(e):>30} {'(no clomp figure)':>30} {'':7}  {'NO':6} {l2:>30}  clomp {why[:90]}")
            continue
        med, cm = statistics.median(e), statistics.median(c)
        ok = min(e) <= cm <= max(e)
        inside += ok
        ratio = f"{cm / med:7.2f}" if med > 0 and cm > 0 else f"{'-':>7}"
        more = f"  clomp: {len(c)} of {runs} processes had a figure" if len(c) < runs else ""
        print(f"{name:24} {spread(e):>30} {spread(c):>30} {ratio}  {'yes' if ok else 'NO':6} {l2:>30}{more}")
    print(f"clomp's level-1 median within EPCC 4.0's spread over its processes: {inside} of {counted} comparable rows "
          f"({len(order)} rows; not comparable: "
          + (", ".join(f"{k} {v}" for k, v in sorted(skipped.items())) or "none") + ")")
    print(f"without the comparability rule (every row with both figures, as this table counted before): "
          f"{both_inside} of {both}")
    print(f"if both programs measured the same thing, a row would fall within by this rule with probability "
          f"{within_by_chance(runs, runs):.2f} at {runs} processes each (0.60 at 3, 0.83 at 5, 0.93 at 7, 0.97 at 9)")
    speeds = reference_speeds(work, threads)
    if speeds:
        print("reference time per addition, EPCC's (timed once per process, before all its tests) over clomp's "
              "(beside each repetition), median [min, max] over rounds: " + "; ".join(
                  f"{p} {statistics.median(v):.2f} [{min(v):.2f}, {max(v):.2f}] ({len(v)} of {runs} rounds)"
                  for p, v in sorted(speeds.items()))
              + " (below 1: EPCC's reference ran faster per addition than clomp's; had EPCC's tests run at clomp's "
              "reference's speed, EPCC's rows with many delays per instance would carry the difference: "
              "docs/constructs.md, \"The references' speeds\")")
    for hinted, plain in (("LOCK_CONTENDED_HINT", "LOCK/UNLOCK"), ("LOCK_UNCONTENDED_HINT", "LOCK_UNCONTENDED")):
        parts = []
        for side, table in (("EPCC", epcc), ("clomp", mine)):
            if hinted in table and plain in table:
                a, b = statistics.median(table[hinted]), statistics.median(table[plain])
                unhinted = " (both unhinted here)" if side == "EPCC" and not_provided_note else ""
                parts.append(f"{side} {a:.3f} vs {b:.3f} us" + (f" ({a / b:.2f}x)" if a > 0 and b > 0 else "") + unhinted)
        if parts:
            print(f"the hint's effect, {hinted} against {plain}: " + "; ".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
