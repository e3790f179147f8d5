#!/usr/bin/env bash
# The suite's estimate is fit to the node it runs on (issue 35, item 11): the
# dry run calibrates the cost model with two short runs of the suite's
# executable and states the constants it derived, that they came from this
# node, and that the estimate assumes an idle node; a suite records them in
# its .env; --calibrate=off keeps the constants the model was fit on, and says
# so; and the ETA the suite prints scales the remaining runs' estimates by how
# the runs already measured compared with theirs.
#
# The executable here is a stand-in whose calibration JSON holds known
# figures (2.5 ns per zone update in the caches, 4 ns from memory, a team
# speedup of 1.5 on 2 threads, Static and Manual 0.4 us and Dynamic 3.2 us
# over Bestcase, probes of 0.3, 0.6 and 0.9 us, 2 ns per byte built), so the
# constants the driver derives are checked against those.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

command -v python3 >/dev/null 2>&1 || { printf '1..0 # SKIP the calibration reads JSON with python3\n'; exit 0; }
top=$(cd "$(dirname "$0")/.." && pwd)
driver=$top/run_clomp.sh
root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$root"' EXIT
rc='' out=''
drive() {
    "$driver" "$@" </dev/null >"$root/drive.out" 2>&1
    rc=$?
    out=$(cat "$root/drive.out")
}

# The stand-in: --version and --help as the driver needs; --json=FILE (the
# calibration) writes figures for its input, scaled by $FAKE_SLOWER (default
# 1); any other call writes a minimal CSV to --csv=FILE. Every call is logged.
fake=$root/fakeclomp
cat >"$fake" <<'FAKE'
#!/usr/bin/env bash
case ${1-} in
    --version) echo "fake clomp 0.0 (a test stand-in)"; exit 0 ;;
    --help) echo "  --csv=FILE  (a test stand-in)"; exit 0 ;;
esac
printf '%s\n' "$*" >>"$FAKE_LOG"
json='' csv='' pos=()
for a in "$@"; do
    case $a in --json=*) json=${a#--json=} ;; --csv=*) csv=${a#--csv=} ;; -*) ;; *) pos+=("$a") ;; esac
done
if [ -n "$json" ]; then
    # awk, not a python3 start per call (a figure is the double Python's float
    # arithmetic gives: the same operations in the same order, printed to 17
    # digits); a FAKE_SLOWER that is not a number writes nothing, as a failed run.
    awk -v path="$json" -v parts="${pos[2]}" -v zones="${pos[3]}" -v slower="${FAKE_SLOWER:-1}" -v threads="${pos[0]}" \
        -v region="${FAKE_REGION:-none,0}" '
    function real(x, s) { s = sprintf("%.17g", x); return s ~ /[.en]/ ? s : s ".0" }
    function log2(t, k) { for (k = 0; t > 1 && t % 2 == 0; k++) t /= 2; return t == 1 ? k : k + log(t) / log(2) }
    BEGIN {
        if (slower !~ /^[0-9]+(\.[0-9]*)?$/) { print "fakeclomp: FAKE_SLOWER " slower " is not a number" > "/dev/stderr"; exit 1 }
        n = parts * zones
        ns = n * 32 <= 8 * 2 ^ 20 ? 2.5 : 4.0
        serial = n * ns / 1000 * slower
        bestcase = serial / 1.5
        # FAKE_REGION=log2,B or linear,B: each region costs B x log2 T (or B x T) more, so that the model'"'"'s region
        # cost, the mean over Bestcase and the three checked schedules of their time beyond Bestcase, is 1 + that.
        comma = index(region, ",")
        form = substr(region, 1, comma - 1); slope = substr(region, comma + 1)
        extra = slope * (form == "log2" ? log2(threads) : form == "linear" ? threads : 0) * 4 / 3
        split("serial bestcase static dynamic manual barrier parallel parallel_for", keys, " ")
        v["serial"] = serial; v["bestcase"] = bestcase; v["static"] = bestcase + 0.4 * slower + extra
        v["dynamic"] = bestcase + 3.2 * slower + extra; v["manual"] = bestcase + 0.4 * slower + extra
        v["barrier"] = 0.3 * slower; v["parallel"] = 0.6 * slower; v["parallel_for"] = 0.9 * slower
        # as clomp --list-schedules says
        split("reference bestcase checked checked checked probe probe probe", roles, " ")
        printf "{\"inputs\": {\"numParts\": %d, \"zonesPerPart\": %d}, \"resolved\": {\"memory_bytes\": %d, \"numThreads\": %d}, ", parts, zones, n * 32, threads >path
        printf "\"wall_time\": {\"mesh_build_seconds\": %s}, \"measurements\": [", real(n * 32 * 2e-9 * slower) >path
        for (i = 1; i <= 8; i++)
            printf "%s{\"key\": \"%s\", \"role\": \"%s\", \"selected\": true, \"us_per_loop\": %s}", (i > 1 ? ", " : ""), keys[i], roles[i], real(v[keys[i]]) >path
        print "]}" >path
    }'
    exit 0
fi
echo "fake clomp $*"
[ -z "$csv" ] || printf 'key,name,runtime_us_per_loop\nserial,Serial Ref,11.79\n' >"$csv"
FAKE
# The suite's estimate counts the measurements and constructs in the executable's own tables: the stand-in lists the real clomp's.
# And clomp's own topology (--topology): the cores, and the load of an idle stand-in node.
sed -i "1a [[ \${1-} != --list-* && \${1-} != --topology ]] || exec \"$CLOMP\" \"\$@\"" "$fake"
chmod +x "$fake"
export FAKE_LOG=$root/fake.log
# An idle 2-core node (tests/lib/standin_node.sh): the calibration is refused on a busy one (below).
# shellcheck source-path=SCRIPTDIR source=lib/standin_node.sh
. "$(dirname "$0")/lib/standin_node.sh"
make_standin_node "$root/idle" 1 2 1 1 1 0.00 || { echo "Bail out! cannot make a stand-in node"; exit 255; }
export CLOMP_TOPOLOGY_ROOT=$root/idle
plan=(--quick --max-zone-scale 100 --replicates 1 --no-constructs)

# ---- the dry run calibrates on this node and says so --------------------------------------
# (At timeScale 100, the estimate's comparison below: the calibration runs are the same at any.)
: >"$FAKE_LOG"
drive --dry-run "${plan[@]}" --out "$root/dry/out" "$fake" 2 100
is "$rc" 0 "--dry-run with the calibration exits 0"
like "$out" "^Model: calibrated on this node in [0-9.]+ s at load [0-9.]+ \(2 threads\); zone update 2.5 ns in cache, 4 ns from memory \(team speedup x0.75 per thread\), regions 1 us at any team size, probes 0.6 us, first touch 2 ns/byte\. The estimate assumes an idle node" \
    "the dry run states the constants derived from this node's runs (2.5 and 4 ns, x0.75, 1 us, 0.6 us, 2 ns/byte), and that the estimate assumes an idle node"
is "$(grep -c -- '--json=' "$FAKE_LOG")" 2 "the dry run runs the executable twice, for the calibration only (--json)"
is "$(grep -vc -- '--json=' "$FAKE_LOG")" 0 "and for nothing else"
like "$(head -1 "$FAKE_LOG")" "^--trials=1 --schedules=serial,bestcase,static,dynamic,manual,barrier,parallel,parallel_for --json=.* 2 1 64 100 32 1 1$" \
    "the first calibration run is the target input's schedules and probes at timeScale 1"
like "$(tail -1 "$FAKE_LOG")" "^--trials=1 --schedules=serial,bestcase --json=.* 2 1 16 163840 32 1 1$" \
    "the second is Serial Ref and Bestcase on an 80 MiB mesh"
[ ! -e "$root/dry" ]
ok $? "the dry run still creates nothing (the calibration's files are temporary)"
# At timeScale 100 the timed work outweighs the fixed per-process costs.
total() { sed -n 's/^Estimated total: ~\([0-9]*\):\([0-9]*\) .*/\1 \2/p' <<<"$1" | awk '{ print $1 * 60 + $2 }'; }
fast=$(total "$out")
FAKE_SLOWER=3 drive --dry-run "${plan[@]}" --out "$root/dry/out" "$fake" 2 100
slow=$(total "$out")
[ -n "$fast" ] && [ -n "$slow" ] && [ "$slow" -gt $((2 * fast)) ]
ok $? "a node three times slower gets an estimate more than twice as long (${fast:-?} s, then ${slow:-?} s)"

# ---- without calibration: the constants the model was fit on, said so -------------------------
: >"$FAKE_LOG"
drive --dry-run --calibrate=off "${plan[@]}" --out "$root/dry/out" "$fake" 2
like "$out" "^Model: not calibrated \(--calibrate=off\): the constants of the 2-core VM they were fit on; zone update 1.25 ns in cache, 1.6 ns from memory" \
    "--calibrate=off says the estimate uses the constants it was fit on, and states them"
is "$(cat "$FAKE_LOG")" "" "--dry-run --calibrate=off runs nothing"
FAKE_SLOWER=bad drive --dry-run "${plan[@]}" --out "$root/dry/out" "$fake" 2
like "$out" "^Model: not calibrated \(the calibration runs of .* failed or took over [0-9]+ s \(a busy node\?\)\): the constants of the 2-core VM" \
    "a calibration that yields no figures falls back to those constants, and says why"
is "$rc" 0 "and the dry run still exits 0"

# ---- refused where its figures would be the contention's (issue 47, item 6) --------------------
make_standin_node "$root/busy" 1 2 1 1 1 5.00 || exit 255
: >"$FAKE_LOG"
CLOMP_TOPOLOGY_ROOT=$root/busy drive --dry-run "${plan[@]}" --out "$root/dry/out" "$fake" 2
like "$out" "^Model: not calibrated \(the node is busy: load 5.00 above 0.70 \(0.1 x 2 cores \+ 0.5\); its figures would be the other work's\): the constants of the 2-core VM" \
    "on a busy node (load 5 on 2 cores) the calibration is refused, the built-in model used, and the dry run says so"
is "$(grep -c -- '--json=' "$FAKE_LOG")" 0 "and nothing is run for it"
drive --dry-run "${plan[@]}" --out "$root/dry/out" "$fake" 4
like "$out" "^Model: not calibrated \(the calibration would be oversubscribed: 4 threads on 2 cores\)" \
    "with MAX_THREADS above the cores (4 on 2) it is refused too"
is "$(grep -c -- '--json=' "$FAKE_LOG")" 0 "and nothing is run for it either"

# ---- the region cost at a few team sizes, fitted ------------------------------------------------
make_standin_node "$root/node16" 1 16 1 1 1 0.00 || exit 255
: >"$FAKE_LOG"
# (At timeScale 100: its estimate is compared with the flat regions' below.)
CLOMP_TOPOLOGY_ROOT=$root/node16 FAKE_REGION=log2,0.5 drive --dry-run "${plan[@]}" --out "$root/dry/out" "$fake" 16 100
log16=$(total "$out")
is "$(grep -- '--schedules=serial,bestcase,static' "$FAKE_LOG" | awk '{ print $(NF - 6) }' | paste -sd ' ')" "2 4 8 16" \
    "on an idle 16-core node the cached calibration runs at 2, 4, 8 and 16 threads"
like "$(grep -- '--schedules=serial,bestcase --json' "$FAKE_LOG")" " 16 1 16 163840 32 1 1$" \
    "the memory calibration runs the 16 threads it divides by, on parts that follow them (16 of 163840 zones)"
like "$out" "regions 1 \+ 0.5 x log2\(T\) us \(fitted over T = 2,4,8,16\)" \
    "regions growing as 1 + 0.5 log2 T are fitted as a + b log2 T, and the note says so"
CLOMP_TOPOLOGY_ROOT=$root/node16 FAKE_REGION=linear,0.25 drive --dry-run "${plan[@]}" --out "$root/dry/out" "$fake" 16
like "$out" "regions 1 \+ 0.25 x T us \(fitted over T = 2,4,8,16\)" "regions growing as 1 + 0.25 T are fitted as a + b T"
flat16=$(total "$(CLOMP_TOPOLOGY_ROOT=$root/node16 drive --dry-run "${plan[@]}" --out "$root/dry/out" "$fake" 16 100; echo "$out")")
[ -n "$log16" ] && [ -n "$flat16" ] && [ "$log16" -gt "$flat16" ]
ok $? "and the estimate uses the fit: costlier regions at larger teams give a longer estimate (${log16:-?} s against ${flat16:-?} s)"

# ---- a suite records the model in its .env ----------------------------------------------------
# (The .env is written before the first run; --stop-on-slowdown ends the suite after it, as the
# stand-in's CSV gives no Static OMP speedup: one run, not the plan's 8 and the reports.)
: >"$FAKE_LOG"
drive "${plan[@]}" --max-zone-scale 10 --no-plots --stop-on-slowdown --out "$root/suite" "$fake" 2
is "$rc:$(grep -c -- '--csv=' "$FAKE_LOG")" "4:1" "that suite calibrates, then stops after its first run (exit 4)" || diag "$out" "$(cat "$FAKE_LOG")"
env_file=$(find "$root/suite" -name 'CLOMP_*.env' | head -1)
file_has() { grep -Eq -- "$2" "$1" 2>/dev/null; ok $? "$3"; }
file_has "$env_file" "^model: calibrated on this node in [0-9.]+ s at load .*zone update 2.5 ns in cache" "the suite's .env records the calibration"
file_has "$env_file" "^model constants: ZONE_NS_CACHED=2.5 ZONE_NS_MEMORY=4 MEMORY_SPEEDUP=0.75 REGION_US=1 PROBE_US=0.6 BUILD_NS_PER_BYTE=2 REGION_SLOPE=0 REGION_FIT=constant$" \
    "and the constants the estimate used"

# ---- the ETA: the estimates left, scaled by the runs measured ----------------------------------
eta_of() {  # eta_of FROM DONE_RUNS "ESTIMATES" "RUN:SECONDS ...": eta_seconds after the measured runs
    (
        # shellcheck source=../suite/calibrate.sh
        . "$top/suite/calibrate.sh"
        writer=${CLOMP_WRITE:-$top/build/clomp-write}   # the driver's find_writer: the ETA is clomp-write eta's
        # Each run its own plan line here, its estimate by that line (as suite/calibrate.sh keeps them).
        read -r -a estimates <<<"$3"
        total_runs=${#estimates[@]} plan=()
        for ((k = 0; k < total_runs; k++)); do plan+=("set$k|first-touch|2 1 64 100 32 1 $k"); estimate_of["${plan[k]}"]=${estimates[k]}; done
        tr ' ' '\n' <<<"$2" >"$root/done"
        for m in $4; do eta_note_run "${m%%:*}" "${m#*:}"; done
        eta_seconds "$1" "$root/done"
    )
}
is "$(eta_of 0 '' '10 10 20 20' '')" 60 "before any run, the ETA is the sum of the estimates (60 s)"
is "$(eta_of 2 '1 2' '10 10 20 20' '0:5 1:5')" 20 "runs measured at half their estimates halve the rest: 40 s left estimated, 20 s ETA"
is "$(eta_of 2 '1 2' '10 10 20 20' '0:30 1:10')" 80 "runs measured at twice their estimates double it: 80 s"
is "$(eta_of 1 '1 3' '10 10 20 20' '0:10 2:20')" 30 "runs already done (resumed) are not counted again: 10 + 20 left"

done_testing
