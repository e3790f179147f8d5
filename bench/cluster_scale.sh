#!/usr/bin/env bash
# The cluster report at scale (issue 50, docs/cluster.md): a synthetic
# cluster of NODES per-node summaries (bench/cluster_synth.py: measured
# distributions, 3 planted outliers, 5 busy and 2 failed nodes), then
# `clomp-results cluster --write` over it: its wall time and peak memory
# (GNU time's maximum resident set, the report's Python and its one
# clomp-stats), what it found against what was planted, and the false rate
# with each node's own interval and the floor (the generator's healthy
# clusters, SEEDS of them, none planted: how many node figures stand out).
# Budget: under a minute and under 1 GB for 1,000 nodes. Figures only:
# nothing here passes or fails. Quote the load printed with the figures.
#
# Usage: bench/cluster_scale.sh [--nodes N] [--seeds K]   (defaults 1000 and 20)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
nodes=1000
seeds=20
while [ $# -gt 0 ]; do
    case $1 in
    --nodes) nodes=${2:?}; shift 2 ;;
    --seeds) seeds=${2:?}; shift 2 ;;
    *) echo "usage: $0 [--nodes N] [--seeds K]" >&2; exit 2 ;;
    esac
done
helper=${CLOMP_STATS:-$top/build/clomp-stats}
[ -x "$helper" ] || make -C "$top" --no-print-directory -s clomp-stats
export CLOMP_STATS=$helper
[ -x /usr/bin/time ] || { echo "cluster_scale.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "load before: $(uptime)"
python3 "$top/bench/cluster_synth.py" --out "$tmp/nodes" --nodes "$nodes" --seed 50
mkdir "$tmp/out"
/usr/bin/time -f '%e %M' -o "$tmp/time" python3 "$top/results/clomp-results" cluster --write "$tmp/out" cluster \
    "$tmp/nodes" >/dev/null
read -r wall rss_kb <"$tmp/time"
echo "cluster report of $nodes nodes: $wall s wall, peak resident memory $((rss_kb / 1024)) MiB" \
    "(summaries $(du -sk "$tmp/nodes" | cut -f1) KiB on disk; report $(du -sk "$tmp/out" | cut -f1) KiB)"
python3 - "$tmp/nodes/planted.manifest" "$tmp/out/cluster.json" <<'PY'
import json, sys
planted = json.load(open(sys.argv[1]))
rep = json.load(open(sys.argv[2]))
flagged = {(o["node"], o["figure"]) for o in rep["outliers"]}
found = [n for n, f in planted["outliers"].items() if (n, f) in flagged]
others = sorted(f for f in flagged if f[0] not in planted["outliers"])
busy = sorted(n["node"] for n in rep["nodes"] if n["verdict"] == "busy")
print("planted outliers found: %d of %d; busy named: %s of %d; failed named: %d of %d; other node figures flagged: %d %s"
      % (len(found), len(planted["outliers"]), len(set(busy) & set(planted["busy"])), len(planted["busy"]),
         sum(1 for n in rep["nodes"] if n["verdict"] == "failed" and n["node"] in planted["failed"]),
         len(planted["failed"]), len(others), others))
PY
flagged=0 judged=0
for seed in $(seq 1 "$seeds"); do
    rm -rf "$tmp/healthy"
    python3 "$top/bench/cluster_synth.py" --out "$tmp/healthy" --nodes "$nodes" --seed "$seed" --plant 0 --busy 0 --failed 0
    read -r f j < <(python3 "$top/results/clomp-results" cluster --format json "$tmp/healthy" | python3 -c '
import json, sys
rep = json.load(sys.stdin)
figs = [f for n in rep["nodes"] for f in n["figures"].values() if f["threshold"] is not None and f["value"] is not None]
print(sum(1 for f in figs if f["stands_out"]), len(figs))')
    flagged=$((flagged + f)) judged=$((judged + j))
done
awk -v f="$flagged" -v j="$judged" -v s="$seeds" -v n="$nodes" 'BEGIN {
    printf "false rate with the own interval and the floor: %d of %d node figures (%.4f%%) over %d healthy clusters of %d nodes\n",
        f, j, 100 * f / j, s, n }'
echo "load after: $(uptime)"
