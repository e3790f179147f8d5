#!/usr/bin/env bash
# The suite's plan for the nodes users have (issue 47): on stand-in 128- and
# 256-core nodes (2 sockets, 8 NUMA nodes, 16 L3 domains, SMT-2:
# tests/lib/standin_node.sh, read through CLOMP_TOPOLOGY_ROOT) the dry run
# counts the stand-in's cores, not the hardware threads; every run gives every
# thread at least one part, the parts a multiple of the threads and the zones
# within 5% of the run's size (checked here from the listing, not from the
# driver's rule); the cliff run at cores + 1 measures the probes and Static;
# Nested OMP's default follows the stand-in's NUMA nodes; and the estimate is
# the model's at the stand-in's cores (clomp-results estimate run here at 128
# and at this machine's count). Dry runs only: quick lane.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source-path=SCRIPTDIR source=lib/standin_node.sh
. "$(dirname "$0")/lib/standin_node.sh"

command -v python3 >/dev/null 2>&1 || { printf '1..0 # SKIP the dry run estimates with python3\n'; exit 0; }
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT
unset SLURM_JOB_ID SLURM_CPUS_ON_NODE
export OMP_WAIT_POLICY=passive

for cores in 128 256; do
    node=$tmp/n$cores
    make_standin_node "$node" 2 $((cores / 2)) 2 8 2 || { echo "Bail out! cannot make the stand-in node"; exit 255; }
    plan=$(CLOMP_TOPOLOGY_ROOT=$node "$top/run_clomp.sh" --dry-run --calibrate=off --no-grain --max-zone-scale 100 --replicates 1 \
        --out "$tmp/out" "$CLOMP" 2>&1)
    is "$?" 0 "a $cores-core SMT-2 stand-in: the dry run plans the suite"
    like "$plan" "^Plan: [0-9]+ runs of .* \(max threads $cores, timeScale 100\)" "MAX_THREADS is its $cores cores, not its $((2 * cores)) hardware threads"
    like "$plan" "^Cores: $cores \(the $((2 * cores)) CPUs of this process's affinity mask are $cores cores with up to 2 hardware threads each \(SMT\)\)" \
        "the Cores line says how they were counted, SMT named"
    like "$plan" "^Parts: parts follow the team: .*; at $cores threads $cores x $((6400 / cores)) zones$" "the Parts line states the rule and the key runs' shape"

    # Every run's threads, parts, zones per part and set, from the listing (driver-independent check).
    runs=$(grep '^\[' <<<"$plan" | sed 's/  ~.*//' | awk '{ n = NF; print $2, $(n - 6), $(n - 4), $(n - 3), ($0 ~ /--schedules=/ ? "schedules" : "-") }')
    bad=$(awk '$3 < $2 || $3 % $2 != 0 { print }' <<<"$runs")
    is "$bad" "" "every run has at least one part per thread, a multiple of its threads (set threads parts zones: none breaks it)"
    bad=$(awk '{ z = $3 * $4; size = ($1 ~ /zones$/) ? substr($1, 1, length($1) - 5) + 0 : 0
                 if (size > 0 && (z < 0.95 * size || z > 1.05 * size)) print }' <<<"$runs")
    is "$bad" "" "and every sweep run's zones are within 5% of its set's size"
    keys=$(awk '$1 == "key" { print $2, $3 * $4 }' <<<"$runs" | sort -u | paste -sd ' ')
    is "$keys" "$cores 6400 $cores 64000 $cores 640000" "the key runs run $cores threads on 6400, 64000 and 640000 zones"
    sweep=$(awk '$1 == "6400zones" { print $2 }' <<<"$runs" | paste -sd ' ')
    want="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 32 64"
    [ "$cores" = 128 ] || want+=" 128"
    is "$sweep" "$want $((cores - 1)) $cores" "the target zones' sweep: 1..16, powers of two, cores - 1 and cores"
    over=$(grep '^\[[0-9/]*\] oversubscribed ' <<<"$plan")
    like "$over" "--schedules=bestcase,static,barrier,parallel,parallel_for $((cores + 1)) -1 $((cores + 1)) " \
        "the cliff run: $((cores + 1)) threads on $((cores + 1)) parts, measuring the three probes and Static over Bestcase"
    is "$(awk '$1 ~ /^constructs/ && $3 < $2' <<<"$runs")" "" "the construct runs have a part per thread too"
    is "$(grep '^\[[0-9/]*\] constructs' <<<"$plan" | awk '{ print $2, ($0 ~ / --limits /) ? "limits" : "-" }' | sort | uniq -c | awk '{ printf "%s %s x%s;", $2, $3, $1 }')" \
        "constructs limits x1;constructs_outer2 - x$(grep -c '^\[[0-9/]*\] constructs_outer2 ' <<<"$plan");" \
        "clomp --limits runs once, with the construct run at the key thread count, not with the sweep's"
    like "$(tail -n 1 <<<"$plan")" "^Estimated total: ~[0-9]+:[0-9]+ \(mm:ss\); nothing was run\.$" "the dry run estimates the suite"

    # The estimate is the model's at the stand-in's cores: the key run's, recomputed here.
    key_line=$(grep -m1 '^\[[0-9/]*\] key ' <<<"$plan")
    listed=$(sed -n 's/.*  ~\([0-9]*\)s  .*/\1/p' <<<"$key_line")
    args=$(awk '{ print $(NF - 6), $(NF - 5), $(NF - 4), $(NF - 3), $(NF - 2), $(NF - 1), $NF }' <<<"${key_line%%  ~*}")
    model=(ZONE_NS_CACHED=1.25 ZONE_NS_MEMORY=1.6 MEMORY_SPEEDUP=0.8 REGION_US=1.0 PROBE_US=0.35 REGION_SLOPE=0
           REGION_FIT=constant BUILD_NS_PER_BYTE=1.0 SETUP_NS_PER_BYTE=0.15 PROCESS_SECONDS=0.3)
    # shellcheck disable=SC2086  # the seven numbers as words
    at() { printf '{"plan": [{"set": "key", "args": ["%s", "%s", "%s", "%s", "%s", "%s", "%s"], "options": [], "launch": []}]}' $args |
        python3 "$top/results/clomp-results" estimate --seconds "$CLOMP" "$1" "${model[@]}"; }
    here=$("$CLOMP" --topology | sed -n 's/^cores: //p')
    is "$listed" "$(at "$cores")" "the key run's estimate ($listed s) is the model's at $cores cores"
    ok "$([ "$(at "$here")" != "$listed" ]; echo $?)" "not at this machine's $here (there: $(at "$here") s)"

    like "$(CLOMP_TOPOLOGY_ROOT=$node "$CLOMP" --dry-run "$cores" -1 "$cores" $((6400 / cores)) 32 1 1 2>&1)" \
        "Nested OMP shape: 8x$((cores / 8)) \(OUTERxINNER requested; default: one outer thread per NUMA node of this job's CPUs \(8\)" \
        "Nested OMP's default at $cores threads: 8 x $((cores / 8)), one outer thread per NUMA node"
done

done_testing
