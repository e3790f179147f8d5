#!/usr/bin/env bash
# Does a construct row's figure depend on where the process's stack falls?
# It did (kernels/construct.h): clang passed a region the address of the
# caller's stack slot for `w`, and per instance every other thread read the
# cache line the master had just written at its fork call, or did not, by
# the stack's offset. This runs the rows asked (default the three whose cost
# is one region per instance) at stack offsets 0, 8, ..., 56 bytes — address
# randomisation off (setarch -R) and an environment variable of that many
# bytes, which moves the initial stack by as much — K processes per offset,
# for each clomp given (--clomp, repeatable: e.g. a build of the previous
# main beside this one, alternating in one loop so both see the same noise),
# and prints per row and offset the median level-1 overhead over the
# processes, then per row the ratio of the largest offset's median to the
# smallest's (1.0: no dependence). Figures only: nothing passes or fails.
#
# Usage: bench/region_capture.sh [--clomp PATH]... [--processes K] [--rows KEYS] [--threads T]
#   defaults: ./clomp, 3 processes, parallel,parallel_for,reduction, 2 threads
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
clomps=()
processes=3
rows=parallel,parallel_for,reduction
threads=2
usage="usage: $0 [--clomp PATH]... [--processes K] [--rows KEYS] [--threads T]"
while [ $# -gt 0 ]; do
    case $1 in
        --clomp | --processes | --rows | --threads)
            [ $# -ge 2 ] || { echo "$0: $1 needs a value; $usage" >&2; exit 2; } ;;
        *) echo "$0: unknown argument '$1'; $usage" >&2; exit 2 ;;
    esac
    case $1 in
        --clomp) clomps+=("$2") ;;
        --processes) processes=$2 ;;
        --rows) rows=$2 ;;
        --threads) threads=$2 ;;
    esac
    shift 2
done
[ "${#clomps[@]}" -gt 0 ] || clomps=("$top/clomp")
for n in "$processes" "$threads"; do
    [[ $n =~ ^[1-9][0-9]{0,3}$ ]] || { echo "$0: --processes and --threads need whole numbers from 1 to 9999, not '$n'" >&2; exit 2; }
done
for exe in "${clomps[@]}"; do
    [ -x "$exe" ] || { echo "$0: no clomp at $exe" >&2; exit 2; }
done
command -v python3 >/dev/null || { echo "$0: python3 is needed for the table" >&2; exit 2; }
if ! setarch "$(uname -m)" -R true 2>/dev/null; then
    echo "SKIP: setarch -R (address randomisation off) does not work here"
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "machine: $(nproc) CPUs; load before: $(uptime | sed 's/.*load average: //')"
echo "rows $rows at $threads threads, level 1; $processes processes per offset and clomp; OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-unset}"
# Every file name has the same length (fixed-width numbers), so that the
# arguments, which lie on the stack above the environment, do not move it.
for ((k = 1; k <= processes; k++)); do
    for offset in 0 8 16 24 32 40 48 56; do
        pad=$(printf "%${offset}s" '')
        for c in "${!clomps[@]}"; do
            name=$(printf '%s/%02d.%02d.%04d' "$work" "$c" "$offset" "$k")
            CLOMP_STACK_PAD=$pad setarch "$(uname -m)" -R env OMP_NUM_THREADS="$threads" "${clomps[$c]}" \
                "--constructs=$rows" --schedules=serial "--nested=${threads}x1" --construct-delay=0.1 --quiet \
                "--json=$name.json" "$threads" 1 4 10 32 1 1 >/dev/null 2>"$name.err" ||
                echo "clomp ${clomps[$c]} at offset $offset failed: $(head -c 200 "$name.err")"
        done
    done
    printf '.'
done
echo
echo "load after: $(uptime | sed 's/.*load average: //')"

python3 - "$work" "${clomps[@]}" <<'EOF'
import glob, json, os, statistics, sys
work, clomps = sys.argv[1], sys.argv[2:]
offsets = [0, 8, 16, 24, 32, 40, 48, 56]
for c, exe in enumerate(clomps):
    figures = {}   # (row, offset) -> overheads over processes
    for path in glob.glob(os.path.join(work, "%02d.*.json" % c)):
        offset = int(os.path.basename(path).split(".")[1])
        with open(path) as f:
            record = json.load(f)
        for row in record["constructs"]["rows"]:
            value = row["levels"][0].get("overhead_us")
            if value is not None:
                figures.setdefault((row["construct_name"], offset), []).append(value)
    print("\n%s (us per instance, median over the processes that measured the row, by stack offset in"
          " bytes; '-': none did, its reason in the JSON)" % exe)
    names = sorted({name for name, _ in figures})
    print("%-14s" % "row" + "".join("%8d" % o for o in offsets) + "   largest/smallest")
    for name in names:
        medians = [statistics.median(figures[(name, o)]) if (name, o) in figures else None for o in offsets]
        known = [m for m in medians if m is not None]
        cells = "".join("%8.3f" % m if m is not None else "%8s" % "-" for m in medians)
        ratio = "%.2f" % (max(known) / min(known)) if known and min(known) > 0 else "-"
        print("%-14s%s   %s" % (name, cells, ratio))
EOF
