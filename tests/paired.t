#!/usr/bin/env bash
# The paired overhead and the measured core clock (issue 31, items 1 and 4).
# A checked schedule's overhead from blocks of two adjacent chunks (its own
# and Bestcase's, random order): the text's appended "Pair Ovh" line, the
# JSON's paired_overhead and the CSV's paired_* columns say the same, the
# estimate lies in its interval, the blocks are those asked for, and
# --paired-blocks=0 pairs the timed runs' chunks and says so; the interval is widened to the
# blocks' effective number when they are serially correlated. The core clock
# is recorded per thread of the team, within a plausible range of the TSC
# rate (0.1..3x: a thread preempted through every repeat on a loaded machine
# reads slow; a folded chain would read several times the TSC), and is the range the verdicts count core cycles over. No timing is
# asserted beyond plausibility; the statistics themselves are unit-tested
# (tests/unit/test_signed_rank.c).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMP_WAIT_POLICY=passive
input=(2 1 16 10 32 1 1)

run_clomp --paired-blocks=seven "${input[@]}"
is "$rc" 2 "--paired-blocks=seven is a usage error (exit 2)"
is "$(line_count "$err")" 1 "said in one line"
like "$err" "--paired-blocks: 'seven'" "naming the option and the bad value"

run_clomp --schedules=bestcase,static --trials=6 --paired-blocks=8 --detail --json="$tmp/run.json" --csv="$tmp/run.csv" \
    "${input[@]}"
is "$rc" 0 "a run with 8 paired blocks exits 0 (--detail: the text prints the paired overhead, which the project does not quote)"
printf '%s\n' "$out" >"$tmp/run.txt"
is "$(python3 - "$tmp/run.json" "$tmp/run.csv" "$tmp/run.txt" <<'PY'
import csv, json, re, sys
d = json.load(open(sys.argv[1]))
rows = {r["key"]: r for r in csv.DictReader(open(sys.argv[2]))}
text = open(sys.argv[3]).read().splitlines()
m = {x["key"]: x for x in d["measurements"]}
bad = []
p = m["static"]["paired_overhead"]
if p is None:
    print("no paired_overhead for Static OMP")
    sys.exit()
if m["bestcase"]["paired_overhead"] is not None or m["serial"]["paired_overhead"] is not None:
    bad.append("Bestcase or Serial Ref has a paired overhead")
if p["blocks"] != 8:
    bad.append("blocks %r, asked 8" % p["blocks"])
if p["order"] not in ("interleaved", "sequential"):
    bad.append("order %r" % p["order"])
if p["order"] == "interleaved":
    if not (0 <= p["schedule_first"] <= 8 and re.fullmatch(r"[0-9a-f]{16}", p["order_seed"])):
        bad.append("schedule_first %r, seed %r" % (p["schedule_first"], p["order_seed"]))
    if p["subcycles_per_chunk"] != m["static"]["rounds"][0]["chunks"][0]["iterations"] * 10:
        bad.append("subcycles per chunk %r, not the timed run's first chunk's" % p["subcycles_per_chunk"])
else:
    if not p["why_sequential"]:
        bad.append("sequential without a reason")
# No batching since issue 44: the interval is widened to the blocks' effective number instead.
if p["batch_length"] != 1 or p["batches"] != 8:
    bad.append("batch_length %r, batches %r (1 and the blocks)" % (p["batch_length"], p["batches"]))
if not 0 <= p["effective_blocks"] <= 8 or (p["lag1_corrected"] <= 0 and p["effective_blocks"] != 8):
    bad.append("effective blocks %r with corrected lag-1 %r" % (p["effective_blocks"], p["lag1_corrected"]))
# Where Static OMP or Bestcase is not a result (issue 35: a busy machine), no overhead of Static's at all, the
# paired one included: null in the JSON, empty in the CSV, no line in the text.
void = m["static"].get("valid") is False or m["bestcase"].get("valid") is False
lo, hi = p["ci_95"] if p["ci_95"] else (None, None)
if void:
    if p["us_per_loop"] is not None or p["ci_95"] is not None or rows["static"]["paired_overhead_us"] != "":
        bad.append("a paired overhead %r %r (CSV %r) of a measurement that is not a result"
                   % (p["us_per_loop"], p["ci_95"], rows["static"]["paired_overhead_us"]))
elif p["effective_blocks"] >= 2 and lo is not None:
    if not lo <= p["us_per_loop"] <= hi:
        bad.append("estimate %r outside its interval %r" % (p["us_per_loop"], p["ci_95"]))
    if not 0.95 <= p["ci_coverage"] < 1:
        bad.append("coverage %r" % p["ci_coverage"])
elif p["effective_blocks"] < 2 and p["ci_95"] is not None:
    bad.append("an interval from %r effective blocks" % p["effective_blocks"])
if (p["effective_blocks"] < 8) != (p["ci_method"] == "Hodges-Lehmann, signed-rank interval widened for serial correlation") \
        and p["ci_95"] is not None:
    bad.append("ci_method %r with %r effective blocks" % (p["ci_method"], p["effective_blocks"]))
if not 0 <= p["p_value"] <= 1:
    bad.append("p-value %r" % p["p_value"])
row = rows["static"]
if not void and abs(float(row["paired_overhead_us"]) - p["us_per_loop"]) > 1e-9 * max(1, abs(p["us_per_loop"])) \
   or row["paired_order"] != p["order"] or int(row["paired_blocks"]) != 8:
    bad.append("CSV %r/%r/%r, JSON %r/%r" % (row["paired_overhead_us"], row["paired_order"], row["paired_blocks"],
                                            p["us_per_loop"], p["order"]))
if rows["bestcase"]["paired_overhead_us"] != "":
    bad.append("CSV: Bestcase has a paired overhead")
lines = [l for l in text if re.match(r"^ *Static OMP Pair Ovh: ", l)]
if void:
    if lines:
        bad.append("text: a Pair Ovh line for a measurement that is not a result: %r" % lines)
elif len(lines) != 1 or ("%d %s" % (8, "interleaved blocks" if p["order"] == "interleaved" else "sequential pairs")) not in lines[0]:
    bad.append("text: %r" % lines)
# Appended: after the block's other overhead lines, and CLOMP 1.2's lines kept.
idx = {k: i for i, l in enumerate(text) for k in ("Static OMP Overhead:", "Static OMP Pair Ovh:") if k in l}
if not void and (len(idx) != 2 or idx["Static OMP Pair Ovh:"] < idx["Static OMP Overhead:"]):
    bad.append("the Pair Ovh line is not after 1.2's Overhead line")
# The measured core clock: per thread of the team, plausible against the TSC.
c = d["cycles"]
team = d["resolved"]["numThreads"]
for when in ("core_clock_before", "core_clock_after"):
    k = c[when]
    if k is None or len(k["threads_ghz"]) != team:
        bad.append("%s: not one figure per team thread (%d)" % (when, team))
        continue
    if c["source"] == "tsc" and not all(0.1 * c["ghz"] <= g <= 3.0 * c["ghz"] for g in k["threads_ghz"]):
        bad.append("%s %r not within 0.1..3x the TSC rate %r" % (when, k["threads_ghz"], c["ghz"]))
    if not k["min_ghz"] <= k["median_ghz"] <= k["max_ghz"] or min(k["threads_ghz"]) != k["min_ghz"]:
        bad.append("%s: min <= median <= max does not hold" % when)
    if k["seconds"] > 1.0:
        bad.append("%s took %r s (a few ms expected)" % (when, k["seconds"]))
    if (k["perf_cycles_per_ref_cycle"] is None) == (k["perf_unavailable"] is None):
        bad.append("%s: perf neither counted nor said unavailable" % when)
if c["source"] == "tsc":
    # the verdicts' range: the lowest and highest clock of both samples, before and after the runs
    want = [min(c["core_clock_before"]["min_ghz"], c["core_clock_after"]["min_ghz"]),
            max(c["core_clock_before"]["max_ghz"], c["core_clock_after"]["max_ghz"])]
    if c["core_clock_source"] != "measured" or c["core_clock_ghz"] != want:
        bad.append("the verdicts' core clock range %r (%s) is not both samples' %r" % (c["core_clock_ghz"], c["core_clock_source"], want))
if not any(l.startswith("Core clock before the timed runs: ") for l in text) or \
   not any(l.startswith("Verdicts: one process's") for l in text):
    bad.append("text: no Core clock / one-process verdict line")
for b in bad:
    print(b)
PY
)" "" "paired overhead and core clock: JSON = CSV = text, estimate inside its interval, 8 blocks, clock per thread near the TSC rate"

run_clomp --schedules=bestcase,static --trials=6 --paired-blocks=0 --json="$tmp/seq.json" "${input[@]}"
is "$rc" 0 "--paired-blocks=0 exits 0"
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = [m for m in d["measurements"] if m["key"] == "static"][0]["paired_overhead"]
print(p["order"], p["why_sequential"], p["blocks"], p["order_seed"])' "$tmp/seq.json")" \
    "sequential --paired-blocks=0 6 None" \
    "--paired-blocks=0 pairs the timed runs' 6 chunks (sequential), says why, and draws no order"

done_testing
