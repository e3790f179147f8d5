#!/usr/bin/env python3
"""The table of bench/fidelity.sh: reads the reports of CLOMP 1.2 (INPUT.12.i)
and of each clomp MODE (INPUT.MODE.i: single = --trials=1, default; with
--before also before-single and before-default) from DIR, and prints per
figure the medians, the ratio clomp/1.2 with a 95% bootstrap interval,
whether clomp's median lies within the spread of 1.2's processes, and
whether the checksums agree.

Usage: fidelity_table.py DIR INPUT RUNS MODE...
"""
import random
import statistics
import sys

from benchstats import ratio_interval, read_report

# (label, schedule as printed in the report, field[, 1.2's field when it has not this one])
FIGURES = [
    ("OMP Barrier us/Loop", "OMP Barrier", "us"),
    ("Serial Ref us/Loop", "Serial Ref", "us"),
    ("Bestcase us/Loop", "Bestcase OMP", "us"),
    ("Static overhead", "Static OMP", "overhead"),
    # clomp's median-chunk overhead (Med. Ovh; 1.2 has none: compared with 1.2's Overhead line)
    ("Static med. chunk ovh", "Static OMP", "median_overhead", "overhead"),
    ("Dynamic overhead", "Dynamic OMP", "overhead"),
    ("Manual overhead", "Manual OMP", "overhead"),
]
def fmt(x):
    return "n/a" if x is None else f"{x:.3g}" if abs(x) < 100 else f"{x:.0f}"


def main():
    folder, name, runs, ours = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    modes = {m: [read_report(f"{folder}/{name}.{m}.{i}") for i in range(1, runs + 1)] for m in ["12"] + ours}
    rng = random.Random(20071)
    print(f"{'figure':21} {'1.2 median':>10} {'1.2 min..max':>15} | " +
          " | ".join(f"{m:>14} {'ratio (95% CI)':>22} {'inside 1.2':>10}" for m in ours))
    for label, schedule, field, *ref_field in FIGURES:
        values = {m: [r[schedule][field] for r in reports if field in r.get(schedule, {})]
                  for m, reports in modes.items()}
        ref_key = ref_field[0] if ref_field else field
        ref = [r[schedule][ref_key] for r in modes["12"] if ref_key in r.get(schedule, {})]
        if not ref:
            print(f"{label:21} {'(1.2 printed none: its own checks failed first)':>60}")
            continue
        low, high = min(ref), max(ref)
        cells = [f"{label:21} {fmt(statistics.median(ref)):>10} {fmt(low) + '..' + fmt(high):>15}"]
        for mode in ours:
            mine = values[mode]
            if not mine:
                cells.append(f"{'none':>14} {'':>22} {'':>10}")
                continue
            med = statistics.median(mine)
            ci = ratio_interval(mine, ref, rng)
            ratio = med / statistics.median(ref) if statistics.median(ref) != 0 else None
            ci_text = f"{fmt(ratio)} ({fmt(ci[0])}..{fmt(ci[1])})" if ci and ratio is not None else "n/a"
            if ci and ci[0] <= 1.0 <= ci[1]:
                ci_text += " *"
            inside = "yes" if low <= med <= high else "no"
            cells.append(f"{fmt(med):>14} {ci_text:>22} {inside:>10}")
        print(" | ".join(cells))
    print("(* the ratio's 95% interval contains 1.0; 'inside 1.2': clomp's median lies within 1.2's min..max)")

    # Same input, same numbers: the checksums of every schedule 1.2 verified.
    differ = []
    for schedule in sorted({s for r in modes["12"] for s in r if "checksum" in r[s]}):
        ref_sums = {r[schedule]["checksum"] for r in modes["12"] if "checksum" in r.get(schedule, {})}
        mine = {r[schedule]["checksum"] for m in ours for r in modes[m] if "checksum" in r.get(schedule, {})}
        if ref_sums != mine:
            differ.append(f"{schedule}: 1.2 {sorted(ref_sums)} vs clomp {sorted(mine)}")
    if differ:
        print("checksums differ from 1.2's:\n  " + "\n  ".join(differ))
    else:
        print("checksums: identical to 1.2's for every schedule 1.2 printed")


if __name__ == "__main__":
    main()
