#!/usr/bin/env bash
# What clomp itself costs on a big mesh, against CLOMP 1.2 (issue 22). Runs
# clomp and CLOMP 1.2 (built here from its source, when present) alternately
# on one input, N times each (and a third binary, --before PATH, e.g. clomp
# built from an older commit, in the same loop), and prints per binary the
# median wall time, the median of the timed runtimes (the sum of the comma
# summary's Runtime row: what every program times the same way) and the
# median peak RSS; then clomp against 1.2: the wall time ratio, the timed
# runtime ratio (median and min .. max over the alternating pairs) and the
# peak RSS ratio. The machine's load is printed before and after: on a shared
# machine, read the figures with it. Figures only: nothing here passes or fails.
#
# Usage: bench/big.sh [--runs N] [--clomp PATH] [--before PATH] [--reference FILE] [-- CLOMP ARGUMENTS]
#   defaults: 2 runs, ./clomp, the reference ../shared/reference/clomp-1.2/clomp.c,
#   arguments 2 -1 64 1000000 32 1 100 (64 M zones, 2 GB: minutes per run)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
runs=2
clomp=$top/clomp
before=
reference=$top/../shared/reference/clomp-1.2/clomp.c
args=(2 -1 64 1000000 32 1 100)
usage="usage: $0 [--runs N] [--clomp PATH] [--before PATH] [--reference FILE] [-- CLOMP ARGUMENTS]"
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=${2:?$usage}; shift 2 ;;
        --clomp) clomp=${2:?$usage}; shift 2 ;;
        --before) before=${2:?$usage}; shift 2 ;;
        --reference) reference=${2:?$usage}; shift 2 ;;
        --) shift; args=("$@"); break ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
case $runs in '' | *[!0-9]* | 0) echo "$0: --runs needs a whole number above 0" >&2; exit 2 ;; esac
for exe in "$clomp" ${before:+"$before"}; do
    [ -x "$exe" ] || { echo "$0: no clomp at $exe" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "$0: GNU time (/usr/bin/time) is needed for the peak RSS" >&2; exit 2; }
command -v python3 >/dev/null || { echo "$0: python3 is needed for the statistics" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
names=(clomp)
bins=("$clomp")
if [ -r "$reference" ]; then
    if ${CC:-gcc} -O3 -fopenmp -o "$tmp/clomp12" "$reference" -lm 2>"$tmp/cc.err"; then
        names+=(clomp-1.2)
        bins+=("$tmp/clomp12")
    else
        echo "# CLOMP 1.2 did not build from $reference: $(head -n 1 "$tmp/cc.err"); clomp alone"
    fi
else
    echo "# skip CLOMP 1.2: no reference source at $reference (users do not have it); clomp alone"
fi
if [ -n "$before" ]; then
    names+=(before)
    bins+=("$before")
fi

echo "# input: ${args[*]}; $runs run(s) of each, alternating: ${names[*]}"
echo "# load before: $(uptime)"
for ((r = 1; r <= runs; r++)); do
    for i in "${!bins[@]}"; do
        out=$tmp/${names[$i]}.$r
        /usr/bin/time -f '%e %M' -o "$out.time" "${bins[$i]}" "${args[@]}" >"$out.txt" 2>"$out.err" ||
            { echo "$0: ${names[$i]} failed: $(tail -n 1 "$out.err")" >&2; exit 1; }
        echo "# run $r ${names[$i]}: $(cat "$out.time") (s wall, KB peak RSS)"
    done
done
echo "# load after: $(uptime)"

python3 - "$tmp" "$runs" "${names[@]}" <<'EOF'
import statistics, sys
tmp, runs, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def timed(path):
    """The sum of the comma summary's Runtime row (N/A cells left out)."""
    for line in open(path):
        if line.startswith("Runtime,"):
            return sum(float(c) for c in line.split(",")[1:] if c.strip() not in ("", "N/A"))
    raise SystemExit(f"no Runtime row in {path}")

data = {}
for n in names:
    rows = []
    for r in range(1, runs + 1):
        wall, rss = open(f"{tmp}/{n}.{r}.time").read().split()[-2:]
        rows.append((float(wall), timed(f"{tmp}/{n}.{r}.txt"), int(rss)))
    data[n] = rows
print(f"{'binary':>10} {'wall s':>9} {'timed s':>9} {'peak RSS MB':>12}   (medians of {runs} runs)")
for n in names:
    w, t, m = (statistics.median(x[k] for x in data[n]) for k in range(3))
    print(f"{n:>10} {w:9.2f} {t:9.2f} {m / 1024:12.1f}")
for other in [n for n in names if n != "clomp"]:
    pairs = list(zip(data["clomp"], data[other]))
    for k, what in ((0, "wall time"), (1, "timed runtime"), (2, "peak RSS")):
        ratios = [a[k] / b[k] for a, b in pairs]
        print(f"clomp / {other} {what}: {statistics.median(ratios):.3f} "
              f"(min .. max over {len(ratios)} alternating pairs: {min(ratios):.3f} .. {max(ratios):.3f})")
EOF
