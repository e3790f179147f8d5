#!/usr/bin/env bash
# The team-size cliff in the suite (issue 32, item 4; issue 47, item 2), black
# box: a suite whose MAX_THREADS is the node's cores plans, after its sweeps, one
# run of set oversubscribed at cores + 1 threads with the sweep's settings that
# measures what the cliff reads (the three probes, Static and Bestcase);
# one of fewer threads, an --mpi one and a --quick one do not; the target
# zones' sweep holds cores - 1 and cores. Full lane: a tiny suite keeps that
# run's rows out of <base>.csv, its report shows the cliff table, its bundle
# leaves every file of the run out and stays valid, and a bundle that carries
# the run is refused by the grade.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
driver=$top/run_clomp.sh
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$root"' EXIT
host=$(uname -n)
host=${host%%.*}

cores=$(env -u OMP_NUM_THREADS "$driver" --dry-run --calibrate=off --quick --out "$root/x" "$CLOMP" </dev/null |
    sed -n 's/^Plan: .*(max threads \([0-9]*\),.*/\1/p')
plan() { "$driver" --dry-run --calibrate=off --no-constructs --no-grain --max-zone-scale 10 --replicates 1 --out "$root/x" "$@" </dev/null; }
listing() { grep '^\[' <<<"$1" | sed 's/^\[[0-9]*\/[0-9]*\] //'; }

dry=$(plan "$CLOMP" "$cores" 1)
over=$(listing "$dry" | grep '^oversubscribed ')
is "$(grep -c . <<<"$over")" 1 "a suite at MAX_THREADS = the cores ($cores) plans one oversubscribed run"
like "$over" " --schedules=bestcase,static,barrier,parallel,parallel_for +$((cores + 1)) -1 [0-9]+ [0-9]+ 32 1 1 " \
    "it has cores + 1 = $((cores + 1)) threads, the suite's timeScale, and measures the barrier, fork/join and parallel-for probes and Static over Bestcase"
parts=$(awk '{ print $(NF - 4) }' <<<"${over%%  ~*}")
ok "$([ $((parts % (cores + 1))) = 0 ] && [ "$parts" -ge $((cores + 1)) ]; echo $?)" \
    "its parts follow its team: $parts parts for $((cores + 1)) threads, a multiple (every thread a part)"
is "$(listing "$dry" | tail -n 1 | awk '{ print $1 }')" oversubscribed "it comes after every sweep run (here, without construct runs, last)"
is "$(listing "$dry" | awk '$1 == "6400zones" { print $(NF - 9) }' | tail -n 2 | paste -sd ' ')" "$((cores - 1)) $cores" \
    "the target zones' sweep ends with cores - 1 and cores"
like "$dry" "^Estimated total: " "the dry run estimates it with the rest"
is "$(listing "$(plan --quick "$CLOMP" "$cores")" | grep -c '^oversubscribed ')" 0 "a --quick suite plans none (its timeScale 1 says nothing of a step)"
if [ "$cores" -gt 1 ]; then
    is "$(listing "$(plan "$CLOMP" $((cores - 1)) 1)" | grep -c '^oversubscribed ')" 0 "a suite below the cores plans none"
else
    skip "a suite below the cores plans none" "1 core"
fi

skip_unless_full_lane "a tiny suite with the cliff run: its tables, report, bundle and grade" && {
    out=$root/suite
    "$driver" --calibrate=off --no-constructs --no-grain --max-zone-scale 1 --replicates 1 --out "$out" "$CLOMP" "$cores" 1 \
        </dev/null >"$root/suite.out" 2>"$root/suite.err"
    rc=$?
    base=$out/CLOMP_${host}_1
    run=$(listing "$(plan "$CLOMP" "$cores" 1 --max-zone-scale 1)" | grep -c .)
    is "$rc" 0 "the tiny suite (key, the sweep, the oversubscribed run) completes"
    [ -s "$base.oversubscribed.csv" ] && ! grep -q "^$run,oversubscribed," "$base.csv" && grep -q "^$run,oversubscribed," "$base.oversubscribed.csv"
    ok $? "the oversubscribed run's rows are in <base>.oversubscribed.csv, not <base>.csv"
    grep -q '<h2 id="cliff">Team-size cliff</h2>' "$base.html" && grep -q "<th>$((cores + 1)) threads (oversubscribed)</th>" "$base.html"
    ok $? "the report has the team-size cliff table, the oversubscribed column included"
    over_json=$(find "$out" -name "CLOMP_${host}_1_oversubscribed.run*.json" ! -name "*.cali.json" | head -n 1)   # the record, not its Caliper profile
    got=$(python3 -c '
import json, sys
m = {x["key"]: x for x in json.load(open(sys.argv[1]))["measurements"]}
print(" ".join(k for k in ("barrier", "parallel", "parallel_for", "bestcase", "static") if (m[k].get("us_per_loop") or 0) > 0))' \
        "$over_json" 2>&1)
    is "$got" "barrier parallel parallel_for bestcase static" \
        "the oversubscribed run's record has the barrier, fork/join and parallel-for figures, and Static and Bestcase for the overhead"
    for figure in "OMP Parallel us/Loop" "OMP Barrier us/Loop" "Parallel For us/Loop" "Static OMP overhead"; do
        grep -q "<td>$figure" "$base.html" || echo "missing $figure"
    done >"$root/rows"
    is "$(cat "$root/rows")" "" "and the report's cliff table has a row for each of the four"
    listed=$(tar -tzf "$base.tar.gz" 2>/dev/null)
    ok "$(! grep -q 'oversubscribed' <<<"$listed" && grep -q '_6400zones.summary' <<<"$listed"; echo $?)" \
        "the bundle leaves every file of the oversubscribed run out (and keeps the others)"
    "$top/clomp_validate" "$base.tar.gz" >"$root/v1" 2>&1
    v1=$?
    ok "$([ "$v1" != 1 ] && [ "$v1" != 2 ] && ! grep -q '^  - .*oversubscribed' "$root/v1"; echo $?)" \
        "the validator finds such a bundle valid, with no reason about the run it left out"
    mkdir -p "$root/carried" && tar -xzf "$base.tar.gz" -C "$root/carried"
    name=CLOMP_${host}_1
    cp "$out/${name}_oversubscribed."* "$root/carried/$name/"
    (cd "$root/carried/$name" && grep -v 'MANIFEST' <(find . -type f | sed 's|^\./||' | LC_ALL=C sort) |
        while IFS= read -r f; do sha256sum "$f"; done >MANIFEST.new && mv MANIFEST.new MANIFEST)
    "$top/clomp_validate" "$root/carried/$name" >"$root/v2" 2>&1
    v2=$?
    ok "$([ "$v2" = 3 ] && grep -q "oversubscribed run (cores + 1) is not submission data" "$root/v2"; echo $?)" \
        "a bundle that carries the run is not submission-grade, the grade naming it"
}

done_testing
