#!/usr/bin/env bash
# Probes time a fixed minimum of instances whatever the mesh (issue 35,
# item 8): on a mesh so big that an iteration is the whole run (4 parts of
# 250000 zones at timeScale 1: 1 iteration, 10 subcycles), OMP Barrier, OMP
# Parallel, Parallel For and calc_deposit each time at least 100 iterations
# (1000 barriers, regions, parallel fors or calls), in chunks of their own,
# and say so; the mesh's schedules still time the mesh's 1 iteration. On an
# input with enough iterations the probes time exactly the run's.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

command -v python3 >/dev/null 2>&1 || { printf '1..0 # SKIP python3 reads the JSON\n'; exit 0; }
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT

# timed KEY FILE: the iterations measurement KEY timed in round 1 (its chunks' sum), and its chunk count.
timed() {
    python3 -c 'import json, sys
m = [m for m in json.load(open(sys.argv[1]))["measurements"] if m["key"] == sys.argv[2]][0]
chunks = m["rounds"][0]["chunks"]
print(sum(c["iterations"] for c in chunks), len(chunks))' "$2" "$1"
}

big=(2 1 4 250000 32 1 1)
run_clomp --schedules=serial,calc_deposit,barrier,parallel,parallel_for --json="$tmp/big.json" "${big[@]}"
is "$rc" 0 "clomp ${big[*]} (a 1-iteration mesh) runs"
is "$(timed serial "$tmp/big.json")" "1 1" "Serial Ref times the mesh's 1 iteration"
for probe in calc_deposit barrier parallel parallel_for; do
    read -r iterations chunks <<<"$(timed "$probe" "$tmp/big.json")"
    is "$iterations" 100 "$probe times 100 iterations (1000 instances), not the mesh's 1"
done
read -r _ chunks <<<"$(timed barrier "$tmp/big.json")"
ok "$([ "$chunks" -gt 1 ] && echo 0 || echo 1)" "OMP Barrier's 100 iterations are timed in chunks of their own ($chunks), not one"
like "$out" "^  OMP Barrier   Timed: 100 iterations \(1000 subcycles\), not this mesh's 1: a probe's work does not grow with the mesh" \
    "OMP Barrier's block says it timed 100 iterations, not the mesh's 1"

small=(2 1 16 100 32 1 1)
run_clomp --trials=1 --schedules=serial,barrier --json="$tmp/small.json" "${small[@]}"
want=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["resolved"]["iterations"])' "$tmp/small.json")
is "$(timed barrier "$tmp/small.json")" "$want 1" "with $want iterations (above 100) OMP Barrier times exactly the run's, in 1.2's single shot"
is "$(grep -c ' Timed: ' <<<"$out")" 0 "and no Timed line is printed"

done_testing
