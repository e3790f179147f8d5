#!/usr/bin/env bash
# The resolution of run_clomp.sh --compare: what a comparison detects when one
# side carries a known extra cost. A is clomp-faults as it is; B is the same
# binary with CLOMP_FAULT=region-delay CLOMP_FAULT_DELAY_US=D (docs/verification.md),
# which spins D us before every parallel region of Static OMP, so Static OMP's
# overhead grows by exactly D us/Loop and Bestcase's does not. For every size D,
# R comparisons of N pairs of processes; per size it prints, BEFORE and AFTER
# issue 31 side by side, from the same processes (one run):
#   before: --compare's old analysis, the figure as one of the table's, unpaired:
#           Mann-Whitney U with the distribution-free interval of B/A, Bonferroni
#           over the m figures (the JSON's unpaired_detected, u, p, estimate);
#   after:  the primary figure's exact signed-rank test on the pair differences
#           at alpha 0.05 (the JSON's detected, paired.shift; with --until, the
#           group-sequential stop and the pairs it took).
# For each: the detection rate (B above A), flags the other way, the median
# over the comparisons of the estimated shift; and what the fault build says it
# spun (the median over B's processes). For D = 0 the detection rate is the
# false-positive rate. Figures only: nothing here passes or fails
# (tests/faults.t checks that the delay is injected; tests/compare.t and
# tests/unit/test_decision.c check the statistics).
#
# The comparisons run in the order rep 1: every size; rep 2: ...; so a drift of
# the machine hits every size alike.
#
# Usage: bench/detect.sh [--sizes LIST] [--reps R] [--processes N] [--until MAX]
#                        [--mode MODE] [--primary KEY] [--out DIR] [-- CLOMP ARGUMENTS]
#   defaults: --sizes 0,0.02,0.05,0.2 --reps 10 --processes 10 (pairs per comparison)
#   --mode default (unbound: +OMP_PROC_BIND=false; bound: +OMP_PROC_BIND=close+OMP_PLACES=cores)
#   --until MAX: each comparison runs --until decided,MAX instead of N fixed pairs
#   --primary static_overhead, arguments 2 1 64 100 32 1 20 --schedules=bestcase,static
#   (the target input at timeScale 20, only the measurements the overhead needs).
#   A short check: bench/detect.sh --reps 1 --processes 6 -- 2 1 64 100 32 1 2 --schedules=bestcase,static
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
sizes=0,0.02,0.05,0.2 reps=10 n=10 mode=default out='' until='' primary=static_overhead
args=(2 1 64 100 32 1 20 "--schedules=bestcase,static")
usage() { sed -n '/^# Usage:/,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --sizes) sizes=${2:?}; shift 2 ;;
        --reps) reps=${2:?}; shift 2 ;;
        --processes | --replicates) n=${2:?}; shift 2 ;;
        --until) until=${2:?}; shift 2 ;;
        --mode) mode=${2:?}; shift 2 ;;
        --primary) primary=${2:?}; shift 2 ;;
        --out) out=${2:?}; shift 2 ;;
        --) shift; args=("$@"); break ;;
        *) usage ;;
    esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "bench/detect.sh: --reps '$reps' is not a whole number >= 1" >&2; exit 2; }
if ! [[ $n =~ ^[1-9][0-9]*$ ]] || [ "$n" -lt 2 ]; then echo "bench/detect.sh: --processes '$n' is not a whole number >= 2" >&2; exit 2; fi
[ -z "$until" ] || [[ $until =~ ^[1-9][0-9]*$ ]] || { echo "bench/detect.sh: --until '$until' is not a number of pairs" >&2; exit 2; }
IFS=, read -r -a size_list <<<"$sizes"
for d in "${size_list[@]}"; do
    [[ $d =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "bench/detect.sh: size '$d' is not a number of microseconds" >&2; exit 2; }
done
case $mode in
    unbound) set_a='+OMP_PROC_BIND=false' ;;
    bound) set_a='+OMP_PROC_BIND=close+OMP_PLACES=cores' ;;
    default) set_a='' ;;
    *) echo "bench/detect.sh: mode '$mode' is not default, unbound or bound" >&2; exit 2 ;;
esac
nice -n 19 make -C "$top" --no-print-directory clomp-faults clomp-stats >&2
[ -n "$out" ] || { out=$(mktemp -d); trap 'rm -rf "$out"' EXIT; }
mkdir -p "$out"
how=(--replicates "$n")
[ -z "$until" ] || how=(--until "decided,$until")

results="$out/detect.tsv"   # one line per comparison: size, rep, seconds, its JSON, its .full
: >"$results"
echo "bench/detect.sh: sizes $sizes us, mode $mode, $reps comparisons each of ${how[*]}, primary $primary: ${args[*]}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
for ((rep = 1; rep <= reps; rep++)); do
    for d in "${size_list[@]}"; do
        set_b="$set_a+CLOMP_FAULT=region-delay+CLOMP_FAULT_DELAY_US=$d+CLOMP_FAULT_SCHEDULE=Static OMP"
        t0=$(date +%s)
        log=$("$top/run_clomp.sh" --compare "$top/clomp-faults$set_a,$top/clomp-faults$set_b" "${how[@]}" \
            --primary "$primary" --out "$out" "${args[@]}" 2>/dev/null) || { echo "bench/detect.sh: a comparison failed (size $d)" >&2; exit 1; }
        json=$(sed -n 's/^Files: .* \([^ ]*_compare\.json\) .*/\1/p' <<<"$log")
        printf '%s\t%s\t%s\t%s\t%s\n' "$d" "$rep" "$(($(date +%s) - t0))" "$json" "${json%.json}.full" >>"$results"
        printf '  rep %d, +%s us: %s s, load %s\n' "$rep" "$d" "$(($(date +%s) - t0))" "$(cut -d' ' -f1 /proc/loadavg)"
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(($(date +%s) - start)) s in all"

# The tally: counts and medians of what the comparisons' JSON documents say (no test is redone here).
python3 - "$results" "$primary" <<'PY'
import json, re, statistics, sys

results, primary = sys.argv[1], sys.argv[2]
spun = re.compile(r"region-delay in .*: \d+ delays, ([0-9.]+) us each")
rows = {}
for line in open(results):
    d, rep, seconds, js, full = line.rstrip("\n").split("\t")
    doc = json.load(open(js))
    fig = next((f for f in doc["figures"] if f.get("key") == primary), None)
    r = rows.setdefault(d, {"n": 0, "answered": 0, "b_up": 0, "b_down": 0, "b_est": [], "a_up": 0, "a_down": 0, "a_est": [],
                            "spun": [], "pairs": [], "seconds": []})
    r["n"] += 1
    r["spun"] += [float(m.group(1)) for m in map(spun.search, open(full, errors="replace")) if m]
    r["pairs"].append(doc["replicates"])
    r["seconds"].append(int(seconds))
    if fig is None or fig.get("paired") is None:
        continue
    r["answered"] += 1
    above = fig["median_b"] > fig["median_a"]
    r["b_up"] += fig["unpaired_detected"] and above
    r["b_down"] += fig["unpaired_detected"] and not above
    r["b_est"].append((fig["scale"], fig["estimate"]))
    shift = fig["paired"]["shift"]
    r["a_up"] += fig["detected"] and shift > 0
    r["a_down"] += fig["detected"] and shift <= 0
    r["a_est"].append(shift)

def med(xs):
    if not xs:
        return "-"
    if isinstance(xs[0], tuple):
        scales = {s for s, _ in xs}
        if len(scales) > 1:
            return "mixed"
        m = statistics.median(v for _, v in xs)
        return "%.3gx" % m if scales == {"ratio"} else "%+.3f" % m
    return "%+.3f" % statistics.median(xs)

print("\n%s: B = A + region-delay of D us before every Static OMP region (the same processes, two analyses)" % primary)
print("%6s %8s %8s | %-28s | %-28s | %7s %6s" % ("", "", "", "before: unpaired, Bonferroni", "after: paired signed-rank",
                                                 "", ""))
print("%6s %8s %8s | %9s %9s %8s | %9s %9s %8s | %7s %6s" % ("D us", "spun us", "answered", "B above", "B below", "est.",
                                                              "B above", "B below", "est.", "pairs", "s/cmp"))
for d in sorted(rows, key=float):
    r = rows[d]
    spin = "%.3f" % statistics.median(r["spun"]) if r["spun"] else "-"
    frac = lambda k: "%d/%d" % (r[k], r["n"])
    print("%6s %8s %8s | %9s %9s %8s | %9s %9s %8s | %7s %6d" % (
        d, spin, frac("answered"), frac("b_up"), frac("b_down"), med(r["b_est"]), frac("a_up"), frac("a_down"), med(r["a_est"]),
        "%g" % statistics.median(r["pairs"]), statistics.median(r["seconds"])))
print("answered: comparisons in which the figure was a result in at least one pair (on a busy machine an overhead")
print("is often not a result: issue 35's validity rule).")
print("B above / below: comparisons that flagged the figure, by direction (for D > 0 'B above' is the detection rate;")
print("for D = 0 both columns are false positives). est.: the median over the comparisons of the estimated shift")
print("B - A in us/Loop (before: the median of all B - A process pairs, or of all B/A ratios ('1.05x') where every")
print("value was positive, as the old report gave it; after: the Hodges-Lehmann shift of the pair differences). spun: the")
print("median over B's processes of the mean spin the fault build reports. pairs: the median pairs a comparison ran")
print("(with --until: where it stopped); s/cmp: the median seconds of one comparison.")
PY
