#!/usr/bin/env bash
# run_clomp.sh --grain, black box (issue 48, item 1): bad options exit 2 with one
# line before anything is written; --help and the dry run (the plan and its
# estimate) run nothing. A stand-in clomp whose speed-up at Z zones on 2 threads is
# 2Z / (Z + 300) (each process's figures jittered by under 1%) is searched to its
# end: loop sizes 64, 256, 1024, 4096 (stopping there: above 90% efficiency), then
# the bracket bisected at 512; the answer, its serial work and METG(50%) equal
# what the test computes from the processes' own records, the CSV's figures are
# the catalogue's grain set, and the page escapes a hostile path. A size whose
# processes were all busy leaves the answer undecided and says so; a failed
# process exits 1 and is left out. --schedules dynamic,guided,taskloop: each answered on its own, and
# one real clomp process as a stage launches it records every schedule. The dry run charges the suite's
# set-up per process and names the time cap only when it stops the search; so does the report.
# The full suite's coarse search: on by default (--no-grain: off, and kept on --resume), left out of --quick
# suites, --with-grain refused with --quick; the suite's files, no ID of its own. The validator's replay of
# each search's plan gives its .runs. Every other process is a stand-in: seconds, no timing.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3 (--grain's plan and report need it)"; exit 0; }
# shellcheck source-path=SCRIPTDIR source=lib/driver.sh
. "$(dirname "$0")/lib/driver.sh"   # drive, refuse; top, driver, host, root, bad_dir
# shellcheck source-path=SCRIPTDIR source=lib/stand_in.sh
. "$(dirname "$0")/lib/stand_in.sh"

# ---- 1. bad options: exit 2, one line, nothing written -----------------------------------
grain_refuse() {  # grain_refuse DESC ERE ARGS...: refuse with --grain first
    local desc=$1 ere=$2
    shift 2
    refuse "$desc" "$ere" --grain "$@"
}
grain_refuse "an unknown option" "--grain: unknown option '--nosuch'" --nosuch
grain_refuse "3 processes per size (an interval needs 4)" "--replicates: '3' is not a whole number from 4 to 100" --replicates 3
grain_refuse "a team larger than the cores" "--teams: '[0-9]+' is not a whole number from 2 to" --teams 2,100000
grain_refuse "a schedule it does not know" "--schedules: 'manual': give some of dynamic, guided, taskloop" --schedules manual
grain_refuse "--cores without --dry-run" "--cores: only with --dry-run" --cores 128
grain_refuse "a largest loop below 64 zones" "--max-zones: '10' is not a whole number from 64 to" --max-zones 10
grain_refuse "two binaries" "one EXE at most" ./a ./b
grain_refuse "a control character in --out" "--out: .* holds a control character" --out "$root/a"$'\t'"b"

drive --grain --help
[ "$rc" -eq 0 ] && [[ $out == *'METG(50%)'* ]] && [[ $out == *'--dry-run'* ]]
ok $? "--grain --help explains the answers and the options, and exits 0"

drive --grain --dry-run --cores 128 --out "$bad_dir"
[ "$rc" -eq 0 ] && [ ! -e "$bad_dir" ]
ok $? "--dry-run --cores 128 exits 0 and writes nothing"
like "$out" "8 team sizes \(2,4,8,16,32,64,127,128\) on 128 cores" "the dry run's teams double, then cores - 1 and cores"
like "$out" "Estimated total: at most [0-9]+ processes, ~[0-9]{2}:[0-9]{2} \(mm:ss\); nothing was run\.$" \
    "the dry run ends on its estimate, no time cap named where none was given"
process_s=$(sed -n 's/^.*PROCESS_SECONDS=\([0-9.]*\)$/\1/p' "$top/suite/calibrate.sh")
like "$out" "Model: the suite's .* ${process_s//./\\.} s of set-up per process \(.*measured" \
    "it states the set-up per process it charges (suite/calibrate.sh's, ${process_s:-?} s) and where that figure comes from"
drive --grain --dry-run --cores 128 --minutes 2
like "$out" "the time cap of 2 min stops it first" "a cap shorter than the plan is named as what stops it"
drive --grain --dry-run --quick --teams 2 --max-zones 256
like "$out" "within the time cap of 3 min; nothing was run" "a plan well inside --quick's cap says so, not that the cap stops it"

# ---- 2. a stand-in clomp with a chosen speed-up curve --------------------------------------
# Each call takes the next number c from $FAKE_COUNTER and logs "c T ZONES"; Serial Ref's median
# chunk is ZONES x 1 ns (x 1 + (c mod 7) / 1000), Static OMP's that over 2Z / (Z + 300) (x 1 + (c mod
# 5) / 1000), on the team asked for; its processes at $FAKE_BUSY_ZONES zones find the machine busy.
fake_dir=$root/'bin<b>x'
mkdir -p "$fake_dir"
fake=$fake_dir/clomp
cat >"$fake" <<'FAKE'
#!/usr/bin/env bash
json='' nums=() extra=''
for a in "$@"; do
    case $a in --json=*) json=${a#--json=} ;; --schedules=*) extra=${a#--schedules=serial,static} ;; -*) ;; *) nums+=("$a") ;; esac
done
c=$(( $(cat "$FAKE_COUNTER" 2>/dev/null || echo 0) + 1 ))
echo "$c" >"$FAKE_COUNTER"
t=${nums[0]} zones=$((nums[2] * nums[3]))
printf '%s %s %s%s\n' "$c" "$t" "$zones" "${extra:+ ${extra#,}}" >>"$FAKE_LOG"
[ "$c" != "${FAKE_FAIL_CALL-}" ] || { echo "fake clomp: failing on purpose" >&2; exit 3; }
serial=$(awk -v z="$zones" -v c="$c" 'BEGIN { printf "%.10g", z * 0.001 * (1 + (c % 7) / 1000) }')
static=$(awk -v z="$zones" -v c="$c" 'BEGIN { printf "%.10g", z * 0.001 / (2 * z / (z + 300)) * (1 + (c % 5) / 1000) }')
busy=false
[ "$zones" != "${FAKE_BUSY_ZONES-}" ] || busy=true
# --schedules' extras: speed-up 2Z / (Z + O), O = 600 (dynamic), 450 (guided), 1200 (taskloop).
others() {
    local k o name
    for k in ${extra//,/ }; do
        case $k in dynamic) o=600 name='Dynamic OMP' ;; guided) o=450 name='Guided OMP' ;; taskloop) o=1200 name='Taskloop OMP' ;; *) continue ;; esac
        printf ',\n  {"key": "%s", "name": "%s", "role": "checked", "selected": true, "threads": %s, "valid": true, "us_per_loop": %s}' \
            "$k" "$name" "$t" "$(awk -v z="$zones" -v o="$o" -v c="$c" 'BEGIN { printf "%.10g", z * 0.001 / (2 * z / (z + o)) * (1 + (c % 3) / 1000) }')"
    done
}
cat >"$json" <<JSON
{"schema": "clomp-result", "schema_version": 1, "noise_census": {"busy": $busy},
 "measurements": [
  {"key": "serial", "name": "Serial Ref", "role": "reference", "selected": true, "threads": 1, "valid": true,
   "us_per_loop": $serial},
  {"key": "static", "name": "Static OMP", "role": "checked", "selected": true, "threads": $t, "valid": true,
   "us_per_loop": $static}$(others)]}
JSON
echo "fake clomp, call $c"
FAKE
chmod +x "$fake"
export FAKE_COUNTER=$root/counter FAKE_LOG=$root/fake.log

grain_dir=$root/grain
drive --grain --teams 2 --replicates 4 --bisections 1 --max-zones 16384 --out "$grain_dir" "$fake"
is "$rc" 0 "a search of the stand-in on 2 threads: exit 0"
is "$(awk '{ print $3 }' "$FAKE_LOG" | uniq -c | awk '{ printf "%s x%s;", $2, $1 }')" \
    "64 x4;256 x4;1024 x4;4096 x4;512 x4;" \
    "sizes 64, 256, 1024, 4096 (efficiency above 90% there: the steps stop), then 512 inside the bracket, 4 processes each"
stem=$grain_dir/CLOMP_${host}_1_grain
missing=0
for file in "$stem".txt "$stem".csv "$stem".json "$stem".html "$stem".full "$grain_dir/CLOMP_${host}_1.env" "${stem}_t2z512r4.json"; do
    [ -f "$file" ] || missing=$((missing + 1))
done
is "$missing" 0 "the search leaves .txt, .csv, .json, .html, .full, .env and each process's record under one new ID"
like "$out" "Smallest loop that speeds up: +512 zones \(the next size below, 256, does not\)" \
    "the text names the smallest loop that speeds up, and the size below it that does not"
like "$out" "Load: [0-9.]+ [0-9.]+ [0-9.]+ .* before, [0-9.]+ " "the text quotes the load average before and after"

check=$(python3 - "$stem" "$CLOMP" <<'PY'
import csv, json, math, statistics, subprocess, sys
stem, clomp = sys.argv[1], sys.argv[2]
doc = json.load(open(stem + ".json"))
team = doc["teams"][0]
bad = []
recs = [json.load(open("%s_t2z512r%d.json" % (stem, r))) for r in (1, 2, 3, 4)]
serial = [m["us_per_loop"] for d in recs for m in d["measurements"] if m["key"] == "serial"]
static = [m["us_per_loop"] for d in recs for m in d["measurements"] if m["key"] == "static"]
if team["smallest_speedup"]["zones"] != 512 or not team["smallest_speedup"]["decided"]:
    bad.append("smallest %r" % team["smallest_speedup"])
if abs(team["smallest_speedup"]["serial_loop_us"]["value"] - statistics.median(serial)) > 1e-9:
    bad.append("serial work %r, want %r" % (team["smallest_speedup"]["serial_loop_us"], statistics.median(serial)))
if team["half_efficiency"]["zones"] != 512 or abs(team["half_efficiency"]["metg_us"]["value"] - statistics.median(static)) > 1e-9:
    bad.append("METG %r, want %r" % (team["half_efficiency"], statistics.median(static)))
size = [s for s in team["sizes"] if s["zones"] == 512][0]
want = math.exp(statistics.median([math.log(a / b) for a in serial for b in static]))
if abs(size["speedup"]["value"] - want) > 1e-6 * want or not size["speedup"]["ci_95"][0] > 1:
    bad.append("speed-up %r, want %r" % (size["speedup"], want))
cat = json.loads(subprocess.run([clomp, "--list-figures", "--json"], stdout=subprocess.PIPE).stdout)
grain = set(f["key"] for f in cat["figures"] if "grain" in f["sets"])
printed = set(r["figure"] for r in csv.DictReader(open(stem + ".csv", newline="")))
if not printed or printed - grain:
    bad.append("CSV figures not in the catalogue's grain set: %s" % sorted(printed - grain))
if "<b>x" in open(stem + ".html").read() or "&lt;b&gt;x" not in open(stem + ".html").read():
    bad.append("the page does not escape the binary's path")
if "<svg" not in open(stem + ".html").read():
    bad.append("no chart in the page")
print("; ".join(bad))
PY
)
is "$check" "" "the answer, its serial work, METG(50%) and the speed-up equal the records' own; the CSV's figures are the catalogue's; the page escapes the path and has its chart"

# The time cap is named only where it ended a search: the finished search's plan, its cap long past,
# asks for nothing and leaves no mark; the same plan with only the first stage's records would have run
# more, so the cap is what stopped it, and the report says so.
helper=${CLOMP_STATS:-$top/build/clomp-stats}
capped() {  # capped STEM: STEM's plan with a 1-minute cap that ran out an hour ago
    python3 - "$1" <<'PY'
import json, sys, time
doc = json.load(open(sys.argv[1] + ".plan"))
doc["settings"]["minutes"], doc["start_epoch"] = 1.0, time.time() - 3600
json.dump(doc, open(sys.argv[1] + ".plan", "w"))
PY
}
cap_dir=$root/capped
mkdir -p "$cap_dir"
cp "$stem".plan "$stem".runs "$stem"_t*.json "$cap_dir"/
whole=$cap_dir/$(basename "$stem")
capped "$whole"
next=$(python3 "$top/results/clomp-results" grain-plan next "$whole" "$helper")
[ -z "$next" ] && [ ! -e "$whole.stopped" ]
ok $? "a search that ended before its cap ran out is not marked as stopped by it"
part=$cap_dir/part
cp "$stem".plan "$part".plan
grep -F "_t2z64r" "$stem".runs >"$part".runs
capped "$part"
next=$(python3 "$top/results/clomp-results" grain-plan next "$part" "$helper")
[ -z "$next" ] && [ -s "$part.stopped" ]
ok $? "a search with sizes left when its cap ran out launches nothing more and is marked as stopped by the cap"
python3 "$top/results/clomp-results" grain-report "$whole" "$helper" >/dev/null 2>&1
python3 "$top/results/clomp-results" grain-report "$part" "$helper" >/dev/null 2>&1
! grep -q "time cap" "$whole.txt" && grep -q "^ *Stopped: the time cap of 1 min" "$part.txt" &&
    grep -q '"stopped_by_time_cap": true' "$part.json" && grep -q '"stopped_by_time_cap": false' "$whole.json"
ok $? "and only that report says the time cap stopped the search (text and JSON)"

# ---- --schedules: dynamic, guided and taskloop measured in every process, each answered as Static OMP
rm -f "$FAKE_COUNTER" "$FAKE_LOG"
sched_dir=$root/schedules
drive --grain --teams 2 --replicates 4 --bisections 1 --max-zones 16384 --schedules dynamic,guided,taskloop \
    --out "$sched_dir" "$fake"
is "$rc" 0 "--schedules dynamic,guided,taskloop: the stand-in's search exits 0"
is "$(awk '$4 != "dynamic,guided,taskloop"' "$FAKE_LOG" | wc -l | tr -d ' ') of $(wc -l <"$FAKE_LOG" | tr -d ' ')" \
    "0 of $(wc -l <"$FAKE_LOG" | tr -d ' ')" "every process measures dynamic, guided and taskloop beside Static OMP"
is "$(awk '{ print $3 }' "$FAKE_LOG" | uniq | tr '\n' ' ')" "64 256 1024 4096 512 " \
    "the search follows Static OMP: the same sizes as without --schedules"
check=$(python3 - "$sched_dir/CLOMP_${host}_1_grain" <<'PY'
import csv, json, sys
stem = sys.argv[1]
doc = json.load(open(stem + ".json"))
text = open(stem + ".txt").read()
overhead = {"static": 300, "dynamic": 600, "guided": 450, "taskloop": 1200}
measured = [64, 256, 512, 1024, 4096]
bad = []
got = [s["schedule"] for s in doc["schedules"]]
if got != ["static", "dynamic", "guided", "taskloop"]:
    bad.append("schedules %r" % got)
for sched in doc["schedules"]:
    o = overhead[sched["schedule"]]
    # The oracle: the curve's own smallest measured size above a speed-up of 1 (the jitter is under 1%).
    want = min(z for z in measured if 2.0 * z / (z + o) > 1.02)
    team = sched["teams"][0]
    if team["smallest_speedup"]["zones"] != want or not team["smallest_speedup"]["decided"]:
        bad.append("%s: smallest %r, want %d" % (sched["schedule"], team["smallest_speedup"]["zones"], want))
    if sorted(c["zones"] for c in team["sizes"]) != measured:
        bad.append("%s: sizes %r" % (sched["schedule"], [c["zones"] for c in team["sizes"]]))
    if "%s against Serial Ref: the answer per team size" % sched["name"] not in text:
        bad.append("no text block for %s" % sched["name"])
rows = set(r["schedule"] for r in csv.DictReader(open(stem + ".csv", newline="")))
if rows != set(overhead):
    bad.append("CSV schedules %r" % sorted(rows))
print("; ".join(bad))
PY
)
is "$check" "" "each schedule gets its own answer (the smallest loop that speeds up, from its curve: 512, 1024, 512, 4096 zones), sizes, text block and CSV rows"

# The real clomp, one process as --schedules' stages launch it (their arguments, from grain-plan), at 16,384
# zones (cheap): its record holds each schedule on the team, each a catalogue figure the cells read, so a
# schedule is measured, not "not measured" (on a busy machine its figures are then "busy", which is said).
plan_stem=$root/real_plan
CLOMP_GRAIN_MODEL="ZONE_NS_CACHED=1.25 ZONE_NS_MEMORY=1.6 MEMORY_SPEEDUP=0.8 REGION_US=1 PROBE_US=0.35 BUILD_NS_PER_BYTE=1 SETUP_NS_PER_BYTE=0.15 PROCESS_SECONDS=0.3" \
    python3 "$top/results/clomp-results" grain-plan start "$plan_stem" 2 --grain --teams 2 --max-zones 16384 \
    --schedules taskloop,dynamic,guided
words=$(python3 "$top/results/clomp-results" grain-plan next "$plan_stem" "${CLOMP_STATS:-$top/build/clomp-stats}" | head -n 1 | cut -f 4-)
like "$words" "^--schedules=serial,static,taskloop,dynamic,guided	2	1	" "a stage's process measures Serial Ref, Static OMP and every --schedules extra"
read -r -a real_args <<<"$(tr '\t' ' ' <<<"$words")"
real_args[4]=256   # zones per part: 64 x 256 = 16,384 zones
"$CLOMP" "${real_args[@]}" --json="$root/real.json" >/dev/null 2>&1
is "$?" 0 "the real clomp runs that process at 16,384 zones"
check=$(PYTHONPATH=$top/results python3 - "$root/real.json" <<'PY'
import json, sys
from clomp_results.grain import grain_cells
from clomp_results.core import given
try:
    doc = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print("no record: %s" % e)
    sys.exit(0)
bad = []
for sched in ("static", "taskloop", "dynamic", "guided"):
    m = given.measurement(doc, sched)
    if not m or m.get("threads") != 2 or not isinstance(m.get("us_per_loop"), (int, float)):
        bad.append("%s: %r" % (sched, m and {k: m.get(k) for k in ("threads", "us_per_loop")}))
    sv, pv, why = grain_cells.process_values(doc, True, 2, sched)
    if why not in (None, given.BUSY, given.INVALID):
        bad.append("%s: %s" % (sched, why))
print("; ".join(bad))
PY
)
is "$check" "" "its record has every schedule on the 2-thread team, each read by the grain cells (a result, or busy or invalid, never not measured)"

# ---- the full suite's coarse search (on by default; --no-grain), into the suite's own files -------------
drive --quick --with-grain --dry-run
is "$rc" 2 "--with-grain with --quick is refused (exit 2)"
like "$err" "--with-grain: not with --quick" "and says why in one line"
refuse "--with-grain and --no-grain together" "^run_clomp.sh: --with-grain, --no-grain: one of them, once$" --no-grain --with-grain --dry-run
drive --quick --dry-run --max-zone-scale 1 --replicates 1 --no-constructs --calibrate=off
ok "$([ "$rc" = 0 ] && ! grep -q '^Grain search' <<<"$out"; echo $?)" "a --quick suite plans no grain search (the default leaves it out there)"
drive --dry-run --calibrate=off --max-zone-scale 10 --replicates 1 --no-constructs --out "$root/dry_out"
ok "$([ "$rc" = 0 ] && [ ! -e "$root/dry_out" ]; echo $?)" "the full suite's dry run with its grain line exits 0 and writes nothing (it once ran the suite: an expansion error in the grain line abandoned the listing)"
suite_total=$(sed -n 's/^Estimated total: ~\([0-9:]*\) .*/\1/p' <<<"$out")
grain_line=$(grep '^Grain search' <<<"$out")
like "$grain_line" "^Grain search, after the runs \(coarse; --no-grain leaves it out\): at most 20 processes, ~[0-9]{2}:[0-9]{2} \(mm:ss\), [0-9]+% of the suite's runs; nothing was run\.$" \
    "a full suite plans the coarse search by default, its estimate after the suite's own (~${suite_total:-?}; team 2: sizes 64 .. 1 M zones x16 apart, 4 processes each)"
# The share, recomputed from the listing's per-run seconds and the line's mm:ss (the test's own sum).
runs_s=$(sed -n 's/^\[[0-9]*\/[0-9]*\] .*  ~\([0-9]*\)s  .*/\1/p' <<<"$out" | awk '{ s += $1 } END { print s }')
want_pct=$(sed -n 's/^Grain search.* ~\([0-9]*\):\([0-9]*\) (mm:ss).*/\1 \2/p' <<<"$grain_line" |
    awk -v s="$runs_s" '{ printf "%d", ((($1 * 60 + $2) * 100) / s) + 0.5 }')
like "$grain_line" ", $want_pct% of the suite's runs" "its share is the search's estimate over the sum of the runs' (${runs_s} s)"
drive --dry-run --calibrate=off --max-zone-scale 10 --replicates 1 --no-constructs --no-grain
ok "$([ "$rc" = 0 ] && ! grep -q '^Grain search' <<<"$out"; echo $?)" "--no-grain leaves it out of the plan"
# A suite started with --no-grain keeps it on --resume (the manifest's settings.grain_search), though the
# default now runs the search: a stand-in that does nothing, a 5-run full plan, resumed once complete.
plain=$root/plain_clomp
plain_stand_in "$plain"   # tests/lib/stand_in.sh
nograin=(--max-zone-scale 1 --replicates 1 --no-constructs --no-plots --calibrate=off --no-offload --out "$root/nograin")
drive "${nograin[@]}" --no-grain "$plain" 2
nograin_base=$root/nograin/CLOMP_${host}_1
is "$rc $(python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); print(m["schema_minor"], m["settings"].get("grain_search"))' "$nograin_base.suite.json")" \
    "0 2 none" "a suite started with --no-grain says so in its manifest (settings.grain_search none, schema 1.2)"
drive "${nograin[@]}" "$plain" 2 --resume 1
ok "$([ "$rc" = 0 ] && ! grep -q 'grain search' <<<"$out" && [ ! -e "${nograin_base}_grain.json" ]; echo $?)" \
    "--resume without repeating --no-grain runs no grain search"
drive "${nograin[@]}" --with-grain "$plain" 2 --resume 1
ok "$([ "$rc" = 2 ] && [ "$(line_count "$err")" = 1 ] && [[ $err == *"was started with --no-grain"* ]]; echo $?)" \
    "--resume --with-grain of it is refused, exit 2 with one line"
rm -f "$FAKE_COUNTER" "$FAKE_LOG"
suite_dir=$root/suite_out
mkdir -p "$suite_dir"
printf 'host: x\n' >"$suite_dir/CLOMP_x_7.env"
CLOMP_GRAIN_SUITE_BASE=$suite_dir/CLOMP_x_7 "$top/suite/grain.sh" --grain --replicates 4 --factor 16 --bisections 0 \
    --time-scale 1 --teams 2 --out "$suite_dir" "$fake" >"$root/sg.out" 2>&1
is "$?" 0 "the search as the suite runs it (CLOMP_GRAIN_SUITE_BASE) exits 0"
[ -s "$suite_dir/CLOMP_x_7_grain.json" ] && [ -s "$suite_dir/CLOMP_x_7_grain.html" ] && [ "$(cat "$suite_dir/CLOMP_x_7.env")" = "host: x" ]
ok $? \
    "it writes <base>_grain.* beside the suite's files, and leaves the suite's .env as it was"
is "$(find "$suite_dir" -name '*.env' | wc -l | tr -d ' ')" 1 "and claims no suite ID of its own"
is "$(awk '{ print $3 }' "$FAKE_LOG" | uniq -c | awk '{ printf "%s x%s;", $2, $1 }')" "64 x4;1024 x4;16384 x4;" \
    "coarse: sizes x16 apart, 4 processes each, stopping above 90% efficiency (16384 zones: 98%), no bisection"

# ---- 3. busy sizes and a failed process ------------------------------------------------------
rm -f "$FAKE_COUNTER" "$FAKE_LOG"
FAKE_BUSY_ZONES=64 FAKE_FAIL_CALL=14 drive --grain --teams 2 --replicates 4 --bisections 1 --max-zones 16384 \
    --out "$grain_dir" "$fake"
is "$rc" 1 "a failed process: exit 1 (the others still run and are reported)"
like "$err" "1 process\(es\) failed" "stderr says how many processes failed"
like "$out" "Smallest loop that speeds up: +not decided: at most 512 zones, but below it no interval at 64 zones \(4 of 4 processes gave none: 4 busy\)" \
    "every process busy at 64 zones: the smallest loop is not decided, and the line says why"
like "$out" "4096 +64x64 .* 3 of 4 processes \(1 failed\); no interval" \
    "the failed process is counted as failed in its size's row, which then has no interval"

# The validator's check of a bundled search (grain_check.py) on the driver's own files: its replay of
# each plan gives the .runs line for line (the geometric steps, the bisection at 512, the failure).
check=$(PYTHONPATH=$top/results python3 - "$grain_dir" "$helper" <<'PY'
import glob, os, sys
from clomp_results.grain import grain_check
directory, helper = sys.argv[1], sys.argv[2]
def read_text(rel):
    path = os.path.join(directory, rel)
    return open(path).read() if os.path.exists(path) else None
stems = sorted(glob.glob(os.path.join(directory, "*_grain.runs")))
for stem in stems:
    reasons = []
    grain_check.check(os.path.basename(stem)[:-len("_grain.runs")], read_text, reasons, helper)
    for reason in reasons:
        print(reason)
print("%d searches" % len(stems))
PY
)
is "$check" "2 searches" \
    "the validator's replay of each search's plan (grain_cli.planned) gives its .runs, its failure in its .full"

done_testing
