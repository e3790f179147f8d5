#!/usr/bin/env python3
"""The table of bench/fidelity.sh: reads the reports of CLOMP 1.2 (INPUT.12.i),
clomp --trials=1 (INPUT.single.i) and clomp's default (INPUT.default.i) from
DIR, and prints per figure the medians, the ratio clomp/1.2 with a 95%
bootstrap interval, whether clomp's default median lies within the spread of
1.2's processes, and whether the checksums agree.

Usage: fidelity_table.py DIR INPUT RUNS
"""
import random
import re
import statistics
import sys

# (label, schedule as printed in the report, field)
FIGURES = [
    ("OMP Barrier us/Loop", "OMP Barrier", "us"),
    ("Serial Ref us/Loop", "Serial Ref", "us"),
    ("Bestcase us/Loop", "Bestcase OMP", "us"),
    ("Static overhead", "Static OMP", "overhead"),
    ("Dynamic overhead", "Dynamic OMP", "overhead"),
    ("Manual overhead", "Manual OMP", "overhead"),
]
LINE = re.compile(r"^\s*(\S.*?)\s+(us/Loop|Overhead|Checksum):\s+(.*)$")


def read_report(path):
    """{schedule: {"us": float, "overhead": float, "checksum": str}}"""
    found = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = LINE.match(line)
                if not m:
                    continue
                name, field, rest = m.groups()
                entry = found.setdefault(name, {})
                if field == "Checksum":
                    entry["checksum"] = rest.strip()
                    continue
                try:
                    value = float(rest.split()[0])
                except (ValueError, IndexError):
                    continue
                entry["us" if field == "us/Loop" else "overhead"] = value
    except OSError:
        pass
    return found


def ratio_interval(ours, ref, rng, resamples=4000):
    """Percentile bootstrap of median(ours) / median(ref), resampling each side."""
    ratios = []
    for _ in range(resamples):
        a = statistics.median(rng.choices(ours, k=len(ours)))
        b = statistics.median(rng.choices(ref, k=len(ref)))
        if b != 0:
            ratios.append(a / b)
    if len(ratios) < resamples * 0.9:
        return None
    ratios.sort()
    return ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]


def fmt(x):
    return "n/a" if x is None else f"{x:.3g}" if abs(x) < 100 else f"{x:.0f}"


def main():
    folder, name, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    modes = {m: [read_report(f"{folder}/{name}.{m}.{i}") for i in range(1, runs + 1)]
             for m in ("12", "single", "default")}
    rng = random.Random(20071)
    print(f"{'figure':21} {'1.2 median':>10} {'1.2 min..max':>15} | {'--trials=1':>10} {'ratio (95% CI)':>22} "
          f"{'inside 1.2':>10} | {'default':>8} {'ratio (95% CI)':>22} {'inside 1.2':>10}")
    for label, schedule, field in FIGURES:
        values = {m: [r[schedule][field] for r in reports if field in r.get(schedule, {})]
                  for m, reports in modes.items()}
        ref = values["12"]
        if not ref:
            print(f"{label:21} {'(1.2 printed none: its own checks failed first)':>60}")
            continue
        low, high = min(ref), max(ref)
        cells = [f"{label:21} {fmt(statistics.median(ref)):>10} {fmt(low) + '..' + fmt(high):>15}"]
        for mode in ("single", "default"):
            ours = values[mode]
            if not ours:
                cells.append(f"{'none':>10} {'':>22} {'':>10}")
                continue
            med = statistics.median(ours)
            ci = ratio_interval(ours, ref, rng)
            ratio = med / statistics.median(ref) if statistics.median(ref) != 0 else None
            ci_text = f"{fmt(ratio)} ({fmt(ci[0])}..{fmt(ci[1])})" if ci and ratio is not None else "n/a"
            if ci and ci[0] <= 1.0 <= ci[1]:
                ci_text += " *"
            inside = "yes" if low <= med <= high else "no"
            cells.append(f"{fmt(med):>10} {ci_text:>22} {inside:>10}")
        print(" | ".join(cells))
    print("(* the ratio's 95% interval contains 1.0; 'inside 1.2': clomp's median lies within 1.2's min..max)")

    # Same input, same numbers: the checksums of every schedule 1.2 verified.
    differ = []
    for schedule in sorted({s for r in modes["12"] for s in r if "checksum" in r[s]}):
        ref_sums = {r[schedule]["checksum"] for r in modes["12"] if "checksum" in r.get(schedule, {})}
        ours = {r[schedule]["checksum"] for m in ("single", "default") for r in modes[m]
                if "checksum" in r.get(schedule, {})}
        if ref_sums != ours:
            differ.append(f"{schedule}: 1.2 {sorted(ref_sums)} vs clomp {sorted(ours)}")
    if differ:
        print("checksums differ from 1.2's:\n  " + "\n  ".join(differ))
    else:
        print("checksums: identical to 1.2's for every schedule 1.2 printed")


if __name__ == "__main__":
    main()
