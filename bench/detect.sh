#!/usr/bin/env bash
# The resolution of run_clomp.sh --compare: what a comparison detects when one
# side carries a known extra cost. A is clomp-faults as it is; B is the same
# binary with CLOMP_FAULT=region-delay CLOMP_FAULT_DELAY_US=D (docs/verification.md),
# which spins D us before every parallel region of Static OMP, so Static OMP's
# overhead grows by exactly D us/Loop and Bestcase's does not. For every size D
# and placement mode, R comparisons of N+N processes; per size and mode it
# prints how often the figure was detected (in the right direction), the median
# of the comparisons' estimated differences (the median of all B - A process
# pairs), what the fault build says it spun, and the spread of A's processes;
# for D = 0 the detected fraction is the false-positive rate. Beside --compare's
# verdict it gives, exploratory, what a paired analysis of the same processes
# would detect (each ABBA block's neighbouring A and B paired, so slow drift
# cancels; Wilcoxon's exact signed-rank test). Figures only:
# nothing here passes or fails (tests/faults.t checks that the delay is
# injected; tests/compare.t checks the statistics).
#
# Placement modes (the sides' settings; run side by side, interleaved):
#   unbound  +OMP_PROC_BIND=false: the threads go wherever the OS puts them
#   bound    +OMP_PROC_BIND=close+OMP_PLACES=cores
#   default  no setting: whatever the environment gives (the driver adds none)
# The comparisons run in the order rep 1: every size, every mode; rep 2: ...,
# so a drift of the machine hits every size and mode alike.
#
# Usage: bench/detect.sh [--sizes LIST] [--reps R] [--replicates N] [--modes LIST]
#                        [--figure NAME]... [--out DIR] [-- CLOMP ARGUMENTS]
#   defaults: --sizes 0,0.05,0.1,0.2,0.5,2.0 --reps 2 --replicates 10 --modes unbound,bound
#   --figure 'Static OMP overhead us/Loop' (more --figure: each is reported; a figure
#   the processes do not give is skipped), arguments 2 1 64 100 32 1 20
#   --schedules=bestcase,static (the target input at timeScale 20, only the
#   measurements the overhead needs: each comparison then tests 7 figures).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
sizes=0,0.05,0.1,0.2,0.5,2.0 reps=2 n=10 modes=unbound,bound out='' figures=()
args=(2 1 64 100 32 1 20 "--schedules=bestcase,static")
usage() { sed -n '/^# Usage:/,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --sizes) sizes=${2:?}; shift 2 ;;
        --reps) reps=${2:?}; shift 2 ;;
        --replicates) n=${2:?}; shift 2 ;;
        --modes) modes=${2:?}; shift 2 ;;
        --figure) figures+=("${2:?}"); shift 2 ;;
        --out) out=${2:?}; shift 2 ;;
        --) shift; args=("$@"); break ;;
        *) usage ;;
    esac
done
[ "${#figures[@]}" -gt 0 ] || figures=('Static OMP overhead us/Loop')
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "bench/detect.sh: --reps '$reps' is not a whole number >= 1" >&2; exit 2; }
IFS=, read -r -a size_list <<<"$sizes"
IFS=, read -r -a mode_list <<<"$modes"
for d in "${size_list[@]}"; do
    [[ $d =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "bench/detect.sh: size '$d' is not a number of microseconds" >&2; exit 2; }
done
for mode in "${mode_list[@]}"; do
    case $mode in unbound | bound | default) ;; *) echo "bench/detect.sh: mode '$mode' is not unbound, bound or default" >&2; exit 2 ;; esac
done
nice -n 19 make -C "$top" --no-print-directory clomp-faults >&2
[ -n "$out" ] || { out=$(mktemp -d); trap 'rm -rf "$out"' EXIT; }
mkdir -p "$out"

placement() {  # placement MODE: the settings a side gets, as +VAR=VALUE...
    case $1 in
        unbound) printf '+OMP_PROC_BIND=false' ;;
        bound) printf '+OMP_PROC_BIND=close+OMP_PLACES=cores' ;;
        default) ;;
    esac
}

results="$out/detect.tsv"   # one line per comparison: size, mode, rep, its JSON, its .full
: >"$results"
echo "bench/detect.sh: sizes $sizes us, modes $modes, $reps comparisons each of $n+$n processes: ${args[*]}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
for ((rep = 1; rep <= reps; rep++)); do
    for d in "${size_list[@]}"; do
        for mode in "${mode_list[@]}"; do
            set_a=$(placement "$mode")
            set_b="$set_a+CLOMP_FAULT=region-delay+CLOMP_FAULT_DELAY_US=$d+CLOMP_FAULT_SCHEDULE=Static OMP"
            t0=$(date +%s)
            log=$("$top/run_clomp.sh" --compare "$top/clomp-faults$set_a,$top/clomp-faults$set_b" --replicates "$n" \
                --out "$out" "${args[@]}" 2>/dev/null) || { echo "bench/detect.sh: a comparison failed (size $d, $mode)" >&2; exit 1; }
            json=$(sed -n 's/^Files: .* \([^ ]*_compare\.json\) .*/\1/p' <<<"$log")
            printf '%s\t%s\t%s\t%s\t%s\n' "$d" "$mode" "$rep" "$json" "${json%.json}.full" >>"$results"
            printf '  rep %d, +%s us, %s: %s s, load %s\n' "$rep" "$d" "$mode" "$(($(date +%s) - t0))" "$(cut -d' ' -f1 /proc/loadavg)"
        done
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(($(date +%s) - start)) s in all"

python3 - "$results" "${figures[@]}" <<'PY'
import json, re, statistics, sys

results, wanted = sys.argv[1], sys.argv[2:]
spun = re.compile(r"region-delay in .*: \d+ delays, ([0-9.]+) us each")
rows = {}

def paired(a, b):
    """(Hodges-Lehmann estimate, exact two-sided signed-rank p) of the differences b[r] - a[r]."""
    d = [y - x for x, y in zip(a, b)]
    walsh = [(d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d))]
    nz = sorted((abs(x), x > 0) for x in d if x != 0)
    n = len(nz)
    if n == 0:
        return statistics.median(walsh), 1.0
    ranks2, i = [], 0          # doubled mid-ranks, integers
    while i < n:
        j = i
        while j + 1 < n and nz[j + 1][0] == nz[i][0]:
            j += 1
        ranks2 += [i + j + 2] * (j - i + 1)
        i = j + 1
    counts = {0: 1}             # the distribution of 2 W+ over the 2^n sign patterns
    for r2 in ranks2:
        nxt = dict(counts)
        for w, c in counts.items():
            nxt[w + r2] = nxt.get(w + r2, 0) + c
        counts = nxt
    total, centre = 2 ** n, sum(ranks2) / 2
    w_obs = sum(r2 for r2, (_, pos) in zip(ranks2, nz) if pos)
    p = sum(c for w, c in counts.items() if abs(w - centre) >= abs(w_obs - centre) - 1e-9) / total
    return statistics.median(walsh), min(1.0, p)

for line in open(results):
    d, mode, rep, js, full = line.rstrip("\n").split("\t")
    doc = json.load(open(js))
    injected = [float(m.group(1)) for m in map(spun.search, open(full, errors="replace")) if m]
    for f in doc["figures"]:
        if f["figure"] not in wanted:
            continue
        a, b = f["a"], f["b"]
        shift = statistics.median(y - x for y in b for x in a)   # Hodges-Lehmann: every B - A pair
        up = f["detected"] and f["median_b"] > f["median_a"]
        any_way = f["detected"]
        r = rows.setdefault((f["figure"], d, mode), {"up": 0, "any": 0, "n": 0, "shift": [], "inj": [], "a": [],
                                                      "p_up": 0, "p_any": 0, "p_shift": []})
        # Exploratory, not what --compare does: the same processes analysed as the ABBA design's
        # pairs (replicate r of A and of B ran next to each other), so a slow drift of the machine
        # cancels within each pair: Wilcoxon's signed-rank test, exact, at the table's 0.05/m.
        p_est, p_value = paired(a, b)
        p_hit = p_value < 0.05 / doc["figures_compared"]
        r["p_up"] += p_hit and p_est > 0
        r["p_any"] += p_hit
        r["p_shift"].append(p_est)
        r["n"] += 1
        r["up"] += up
        r["any"] += any_way
        r["shift"].append(shift)
        r["inj"].extend(injected)
        r["a"].extend(a)

def mad(xs):
    m = statistics.median(xs)
    return statistics.median(abs(x - m) for x in xs)

for figure in wanted:
    keys = [k for k in rows if k[0] == figure]
    if not keys:
        print(f"\n{figure}: not among the figures compared")
        continue
    print(f"\n{figure}: B = A + region-delay of D us before every Static OMP region")
    print(f"{'D us':>6} {'mode':>8} {'spun us':>8} {'B above A':>10} {'B below A':>10} {'median est.':>12} "
          f"{'est. min..max':>17}  {'A: median, MAD':<15} | {'paired: above':>13} {'below':>5} {'est.':>7}")
    for key in sorted(keys, key=lambda k: (float(k[1]), k[2])):
        r = rows[key]
        spin = f"{statistics.median(r['inj']):.3f}" if r["inj"] else "-"
        down = r["any"] - r["up"]
        print(f"{key[1]:>6} {key[2]:>8} {spin:>8} {str(r['up']) + '/' + str(r['n']):>10} "
              f"{str(down) + '/' + str(r['n']):>10} {statistics.median(r['shift']):>+12.3f} "
              f"{min(r['shift']):>+8.3f}..{max(r['shift']):<+8.3f} "
              f"{format(statistics.median(r['a']), '.3f') + ', ' + format(mad(r['a']), '.3f'):<15} | "
              f"{str(r['p_up']) + '/' + str(r['n']):>13} {str(r['p_any'] - r['p_up']) + '/' + str(r['n']):>5} "
              f"{statistics.median(r['p_shift']):>+7.3f}")
    for key in sorted(keys, key=lambda k: k[2]):
        if float(key[1]) == 0:
            r = rows[key]
            print(f"false-positive rate ({key[2]}, D = 0, either direction): {r['any']}/{r['n']} "
                  f"(paired, exploratory: {r['p_any']}/{r['n']})")
    print("B above / below A: comparisons whose verdict flagged the figure, by direction (the detection rate is")
    print("'B above A' for D > 0); est.: the median over all B - A process pairs of a comparison, then the median")
    print("(and range) over the comparisons; spun: the median over B's processes of the mean spin the fault")
    print("build reports (D plus the last clock read and any preemption); A: the median and the median absolute")
    print("deviation of A's processes over all comparisons of that size and mode (the between-process spread).")
    print("paired (exploratory, not --compare's test): the same processes as the ABBA design's neighbouring pairs")
    print("(B's replicate r minus A's), Wilcoxon's exact signed-rank test at 0.05/m and its Hodges-Lehmann estimate.")
PY
