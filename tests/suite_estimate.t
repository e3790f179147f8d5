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
    python3 - "$json" "${pos[2]}" "${pos[3]}" "${FAKE_SLOWER:-1}" <<'EOF'
import json, sys
path, parts, zones, slower = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
n = parts * zones
ns = 2.5 if n * 32 <= 8 * 2**20 else 4.0
serial = n * ns / 1000 * slower
bestcase = serial / 1.5
figures = {"serial": serial, "bestcase": bestcase, "static": bestcase + 0.4 * slower,
           "dynamic": bestcase + 3.2 * slower, "manual": bestcase + 0.4 * slower,
           "barrier": 0.3 * slower, "parallel": 0.6 * slower, "parallel_for": 0.9 * slower}
roles = {"serial": "reference", "bestcase": "bestcase", "static": "checked", "dynamic": "checked", "manual": "checked",
         "barrier": "probe", "parallel": "probe", "parallel_for": "probe"}   # as clomp --list-schedules says
json.dump({"inputs": {"numParts": parts, "zonesPerPart": zones},
           "resolved": {"memory_bytes": n * 32},
           "wall_time": {"mesh_build_seconds": n * 32 * 2e-9 * slower},
           "measurements": [{"key": k, "role": roles[k], "selected": True, "us_per_loop": v} for k, v in figures.items()]},
          open(path, "w"))
EOF
    exit 0
fi
echo "fake clomp $*"
[ -z "$csv" ] || printf 'key,name,runtime_us_per_loop\nserial,Serial Ref,11.79\n' >"$csv"
FAKE
# The suite's estimate counts the measurements and constructs in the executable's own tables: the stand-in lists the real clomp's.
sed -i "1a [[ \${1-} != --list-* ]] || exec \"$CLOMP\" \"\$1\"" "$fake"
chmod +x "$fake"
export FAKE_LOG=$root/fake.log
plan=(--quick --max-zone-scale 100 --replicates 1 --no-constructs)

# ---- the dry run calibrates on this node and says so --------------------------------------
: >"$FAKE_LOG"
drive --dry-run "${plan[@]}" --out "$root/dry/out" "$fake" 2
is "$rc" 0 "--dry-run with the calibration exits 0"
like "$out" "^Model: calibrated on this node in [0-9.]+ s at load [0-9.]+ \(2 threads\); zone update 2.5 ns in cache, 4 ns from memory \(team speedup x0.75 per thread\), regions 1 us, probes 0.6 us, first touch 2 ns/byte\. The estimate assumes an idle node" \
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
drive --dry-run "${plan[@]}" --out "$root/dry/out" "$fake" 2 100
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

# ---- a suite records the model in its .env ----------------------------------------------------
drive "${plan[@]}" --max-zone-scale 10 --no-plots --out "$root/suite" "$fake" 2
env_file=$(find "$root/suite" -name 'CLOMP_*.env' | head -1)
file_has() { grep -Eq -- "$2" "$1" 2>/dev/null; ok $? "$3"; }
file_has "$env_file" "^model: calibrated on this node in [0-9.]+ s at load .*zone update 2.5 ns in cache" "the suite's .env records the calibration"
file_has "$env_file" "^model constants: ZONE_NS_CACHED=2.5 ZONE_NS_MEMORY=4 MEMORY_SPEEDUP=0.75 REGION_US=1 PROBE_US=0.6 BUILD_NS_PER_BYTE=2$" \
    "and the constants the estimate used"

# ---- the ETA: the estimates left, scaled by the runs measured ----------------------------------
eta_of() {  # eta_of FROM DONE_RUNS "ESTIMATES" "RUN:SECONDS ...": eta_seconds after the measured runs
    (
        # shellcheck source=../suite/calibrate.sh
        . "$top/suite/calibrate.sh"
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
