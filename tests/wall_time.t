#!/usr/bin/env bash
# What clomp costs around its timed runs (issue 22): the Wall time line and
# the JSON's wall_time split the process's wall time into set-up, mesh build,
# warm-ups, mesh resets, timed runs, verification and the rest, and the parts
# add up; the timed part is the sum of every round's Runtime in the JSON, the
# build part the Mesh build time line. A mesh above 64 MiB warms up on a small
# mesh of the same parts (2 MiB of zones, at least 2 zones each, as
# docs/suite.md states the rule; the test computes it) and still verifies to
# the oracle's checksum; a small mesh warms up on itself. No timing value is
# asserted, only structure and arithmetic.
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
ORACLE=${BUILD_DIR:-"$(cd "$(dirname "$0")/.." && pwd)/build"}/tests/clomp_oracle
if [ ! -x "$ORACLE" ]; then
    echo "Bail out! no oracle at $ORACLE (run make unit-tests)"
    exit 255
fi
if ! command -v python3 >/dev/null 2>&1; then
    skip "the wall time split and the warm-up mesh" "python3 not installed (reads the JSON)"
    # ---- warm-up by what an iteration touches, not by the allocation (issue 35) ---------------
# The mem-bound input allocates 64 x 10000 x 512 bytes (312 MiB) but in CLOMP 1.2's layout
# its zones lie 32 bytes apart: an iteration touches 20 MiB, and it warms up on itself (the
# first timed pass is not cold). Spread over the whole zoneSize, it touches all 312 MiB and
# warms up on 2 MiB: 2 MiB / (64 parts x 512 bytes) = 64 zones per part. Dry runs: no mesh.
membound=(2 1 64 10000 512 1 1)
run_clomp --dry-run --json="$tmp/membound.json" "${membound[@]}"
is "$(pyget "$tmp/membound.json" '(d["resolved"]["memory_bytes"], d["resolved"]["warmup_zones_per_part"])')" \
    "(327680000, 0)" "the mem-bound input (312 MiB allocated, 20 MiB touched) warms up on itself"
run_clomp --dry-run --zone-stride=zonesize --json="$tmp/spread.json" "${membound[@]}"
is "$(pyget "$tmp/spread.json" 'd["resolved"]["warmup_zones_per_part"]')" $((2 * 1024 * 1024 / (64 * 512))) \
    "spread over zoneSize (312 MiB touched) it warms up on 2 MiB of the same 64 parts"

done_testing
fi
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT

# pyget FILE EXPR: EXPR over the JSON document d of FILE.
pyget() {
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2" 2>&1
}

# ---- a 73 MiB mesh: 4 parts of 600000 zones of 32 bytes ---------------------------------
big=(2 -1 4 600000 32 1 1)
run_clomp --schedules=serial,static --json="$tmp/big.json" "${big[@]}"
is "$rc" 0 "clomp ${big[*]} (73 MiB) runs and verifies"
want=$("$ORACLE" "${big[@]}" | sed -n 's/^Checksum: //p')
for schedule in 'Serial Ref' 'Static OMP'; do
    is "$(sed -n "s/^ *$schedule Checksum: //p" <<<"$out")" "$want" \
        "73 MiB mesh, warmed up on a small one: $schedule's checksum equals the oracle's"
done
zones=$((2 * 1024 * 1024 / (4 * 32)))
is "$(pyget "$tmp/big.json" 'd["resolved"]["warmup_zones_per_part"]')" "$zones" \
    "the JSON's warmup_zones_per_part is 2 MiB over 4 parts x 32 bytes ($zones)"
like "$out" "^          Warm-up: on a mesh of the same 4 parts with $zones zones each, not on this one, whose iteration touches 73 MiB" \
    "the set-up says the warm-ups run on a mesh of the same parts, and what an iteration of this one touches"

# Each part is timed on its own and is >= 0; what none of them timed (rest_seconds, the total less
# every part) stays small: time spent in an untimed place would show there. Two parts are figures
# printed elsewhere.
is "$(pyget "$tmp/big.json" 'all(v >= 0 for v in d["wall_time"].values())')" True "every wall_time part is >= 0"
is "$(pyget "$tmp/big.json" '(lambda w: w["rest_seconds"] < max(0.05, 0.02 * w["total_seconds"]))(d["wall_time"])')" \
    True "what no part timed (rest_seconds) is under 2% of the wall time (or 50 ms)"
is "$(pyget "$tmp/big.json" 'd["wall_time"]["total_seconds"] == d["process_cost"]["wall_seconds"]')" True \
    "total_seconds is the process's wall time (process_cost.wall_seconds)"
is "$(pyget "$tmp/big.json" 'abs(d["wall_time"]["timed_seconds"] - sum(r["runtime_seconds"] for m in d["measurements"] if m.get("rounds") for r in m["rounds"])) < 1e-6')" \
    True "timed_seconds is the sum of every measurement's rounds' runtime_seconds"
build_line=$(sed -n 's/^  Mesh build time: \([0-9.]*\) s.*/\1/p' <<<"$out")
is "$(pyget "$tmp/big.json" '"%.3f" % d["wall_time"]["mesh_build_seconds"]')" "$build_line" \
    "mesh_build_seconds is the Mesh build time line's figure"
is "$(grep '^Wall time: ' <<<"$out")" \
    "$(pyget "$tmp/big.json" '(lambda w: "Wall time: %.3f s: set-up %.3f, mesh build %.3f, warm-ups %.3f, mesh resets %.3f, timed %.3f, verification %.3f, constructs %.3f, after the runs %.3f, the rest %.3f (seconds; untimed %.1f%%); paired blocks %.3f" % (w["total_seconds"], w["setup_seconds"], w["mesh_build_seconds"], w["warmup_seconds"], w["mesh_reset_seconds"], w["timed_seconds"], w["verification_seconds"], w["constructs_seconds"], w["after_runs_seconds"], w["rest_seconds"], 100 * (w["total_seconds"] - w["timed_seconds"]) / w["total_seconds"], w["paired_blocks_seconds"]))(d["wall_time"])')" \
    "the text's Wall time line gives the JSON's wall_time"
cost_at=$(grep -n '^Process CPU time: ' <<<"$out" | cut -d: -f1)
wall_at=$(grep -n '^Wall time: ' <<<"$out" | cut -d: -f1)
summary_at=$(grep -n '^----------- Comma-delimited summary' <<<"$out" | cut -d: -f1)
[ -n "$wall_at" ] && [ "$wall_at" -eq $((cost_at + 1)) ] && [ "$wall_at" -lt "$summary_at" ]
ok $? "the Wall time line follows the Process CPU time line, before the comma-delimited summary"

# ---- the construct table has a part of its own -----------------------------------------
run_clomp --constructs=barrier,parallel --construct-reps=3 --construct-time=50 --schedules=serial \
    --json="$tmp/constructs.json" 2 1 16 100 32 1 1
is "$rc" 0 "clomp --constructs=barrier,parallel runs"
is "$(pyget "$tmp/constructs.json" '(lambda w: w["constructs_seconds"] > 0 and w["rest_seconds"] < max(0.05, 0.02 * w["total_seconds"]))(d["wall_time"])')" \
    True "with --constructs the construct table's time is its own part (constructs_seconds > 0), not the rest"

# ---- a small mesh warms up on itself ---------------------------------------------------
run_clomp --trials=1 --json="$tmp/small.json" 2 1 16 100 32 1 1
is "$rc" 0 "clomp 2 1 16 100 32 1 1 runs and verifies"
is "$(pyget "$tmp/small.json" 'd["resolved"]["warmup_zones_per_part"]')" 0 "a 5 KiB mesh warms up on itself (warmup_zones_per_part 0)"
is "$(grep -c '^          Warm-up: ' <<<"$out")" 0 "and no Warm-up line is printed"
is "$(pyget "$tmp/small.json" 'd["wall_time"]["constructs_seconds"] == 0')" True "without --constructs the constructs part is 0"

# ---- warm-up by what an iteration touches, not by the allocation (issue 35) ---------------
# The mem-bound input allocates 64 x 10000 x 512 bytes (312 MiB) but in CLOMP 1.2's layout
# its zones lie 32 bytes apart: an iteration touches 20 MiB, and it warms up on itself (the
# first timed pass is not cold). Spread over the whole zoneSize, it touches all 312 MiB and
# warms up on 2 MiB: 2 MiB / (64 parts x 512 bytes) = 64 zones per part. Dry runs: no mesh.
membound=(2 1 64 10000 512 1 1)
run_clomp --dry-run --json="$tmp/membound.json" "${membound[@]}"
is "$(pyget "$tmp/membound.json" '(d["resolved"]["memory_bytes"], d["resolved"]["warmup_zones_per_part"])')" \
    "(327680000, 0)" "the mem-bound input (312 MiB allocated, 20 MiB touched) warms up on itself"
run_clomp --dry-run --zone-stride=zonesize --json="$tmp/spread.json" "${membound[@]}"
is "$(pyget "$tmp/spread.json" 'd["resolved"]["warmup_zones_per_part"]')" $((2 * 1024 * 1024 / (64 * 512))) \
    "spread over zoneSize (312 MiB touched) it warms up on 2 MiB of the same 64 parts"

done_testing
