#!/usr/bin/env bash
# clomp --constructs: every construct of the table (--list-constructs, read
# from the binary) is measured at level 1 and at level 2 (2x2, oversubscribed
# on small machines) with the teams it asked for, verified inside every inner
# region; the CSV and the JSON carry the same rows; OMP_MAX_ACTIVE_LEVELS=1
# makes every level-2 row "serialized by the runtime", never an overhead;
# below 2x2 level 2 is N/A with its reason; bad input exits 2 with one line;
# and the fault build shows that a construct measured outside its construct
# is caught (exit 1). Timings are never asserted: the machine is shared.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
export OMP_WAIT_POLICY=passive   # 4 threads on 2 cores: spinning waiters would starve the others
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
input=(2 1 4 10 32 1 1)
quick=(--schedules=serial --construct-reps=3 --construct-time=50 --construct-chunks=2 --construct-loop-delay=0.2)

mapfile -t all_keys < <("$CLOMP" --list-constructs | awk -F'\t' '!/^#/ { print $1 }')
# An offload build's target probes run at level 1 only, from the initial
# thread (tests/offload.t): the level matrix below is every other row's.
mapfile -t keys < <("$CLOMP" --list-constructs | awk -F'\t' '!/^#/ && $3 != "target" { print $1 }')
mapfile -t chunked < <("$CLOMP" --list-constructs | awk -F'\t' '!/^#/ && $4 == "n" && $3 != "target" { print $1 }')
every=$(IFS=,; echo "${keys[*]}")
[ "${#keys[@]}" -ge 13 ]
ok $? "--list-constructs lists ${#keys[@]} constructs, at least EPCC's 9 and 4 schedules"
help=$("$CLOMP" --help)
like "$help" "^Constructs \\(--constructs keys" "--help has a constructs paragraph"
like "$help" "^  ${all_keys[*]}\$" "--help names every construct key in table order"

command -v python3 >/dev/null 2>&1 || { skip "the construct table's CSV and JSON" "python3 not installed"; done_testing; }

# ---------------------------------------------------------------- level 1 and 2
run_clomp --constructs="$every" "${quick[@]}" --nested=2x2 --csv="$tmp/all.csv" --json="$tmp/all.json" "${input[@]}"
is "$rc" 0 "--constructs --nested=2x2 at 2 threads runs and exits 0"
check=$(python3 - "$tmp/all.csv" "$tmp/all.json" "${keys[*]}" "${chunked[*]}" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))
keys, chunked = sys.argv[3].split(), set(sys.argv[4].split())
bad = []
for key in keys:
    for level, outer in (("1", "1"), ("2", "2")):
        mine = [r for r in rows if r["construct"] == key and r["level"] == level]
        if len(mine) != 1:
            bad.append(f"{key} level {level}: {len(mine)} rows")
            continue
        r = mine[0]
        if r["status"] != "measured" or r["outer_threads"] != outer or r["inner_threads"] != "2":
            bad.append(f"{key} level {level}: {r['status']} {r['outer_threads']}x{r['inner_threads']} {r['problem']}")
        if r["team_threads_min"] != "2" or r["team_threads_max"] != "2" or r["level_seen"] != level:
            bad.append(f"{key} level {level}: teams {r['team_threads_min']}..{r['team_threads_max']} at {r['level_seen']}")
        if level == "2" and (r["outer_threads_seen"] != "2" or r["active_level_seen"] != "2"):
            bad.append(f"{key} level 2: {r['outer_threads_seen']} outer threads, active level {r['active_level_seen']}")
        if (r["chunk"] == "2") != (key in chunked):
            bad.append(f"{key}: chunk '{r['chunk']}'")
        if level == "2":
            l1 = [x for x in rows if x["construct"] == key and x["level"] == "1"][0]
            a, b = float(r["overhead_us"]), float(l1["overhead_us"])
            low = float(l1["overhead_ci95_low_us"]) if l1["overhead_ci95_low_us"] else b
            want = a / b if a > 0 and b > 0 and low > 0 else None
            got = float(r["level2_over_level1"]) if r["level2_over_level1"] else None
            if (want is None) != (got is None) or (want is not None and abs(got - want) > 1e-9 * want):
                bad.append(f"{key}: ratio {got}, level 2 / level 1 is {want}")
c = doc["constructs"]
if doc["schema_minor"] < 5 or c["outer_threads"] != 2 or c["inner_threads"] != 2 or c["max_active_levels"] < 2:
    bad.append(f"JSON: minor {doc['schema_minor']}, shape {c['outer_threads']}x{c['inner_threads']}, "
               f"max-active-levels {c['max_active_levels']}")
levels = [(row["construct"], lv["level"], lv["overhead_us"]) for row in c["rows"] for lv in row["levels"]]
csv_levels = [(r["construct"], int(r["level"]), float(r["overhead_us"])) for r in rows]
if levels != csv_levels:
    bad.append("the JSON's rows and levels are not the CSV's")
if c["oversubscribed"] != (4 > c["cpus"]):
    bad.append(f"oversubscribed {c['oversubscribed']} with {c['cpus']} CPUs")
print("\n".join(bad) if bad else "ok")
PY
)
is "$check" ok "every construct has one level-1 row (1x2) and one level-2 row (2x2), measured in teams of 2 at its level, ratios level 2 / level 1 (none over a level 1 at or near 0), the JSON's rows the CSV's"
like "$out" "Level 2: 2x2 \\(OUTER x INNER\\)" "the text names the level-2 shape"
is "$(printf '%s\n' "$out" | grep -cE '^.{15} {4}1 +1x2 ')" "${#keys[@]}" "the text table has a level-1 line (1x2) per construct"
is "$(printf '%s\n' "$out" | grep -cE '^.{15} {4}2 +2x2 ')" "${#keys[@]}" "the text table has a level-2 line (2x2) per construct"

# ------------------------------------------ level 1 at INNER threads: the base
run_clomp --constructs=barrier "${quick[@]}" --nested=2x2 --csv="$tmp/four.csv" 4 1 4 10 32 1 1
is "$rc" 0 "--constructs=barrier --nested=2x2 at 4 threads runs"
check=$(python3 - "$tmp/four.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
shapes = [(r["level"], r["outer_threads"], r["inner_threads"], r["team_threads_max"]) for r in rows]
if shapes != [("1", "1", "4", "4"), ("1", "1", "2", "2"), ("2", "2", "2", "2")]:
    print(f"rows {shapes}")
else:
    base, l2 = float(rows[1]["overhead_us"]), float(rows[2]["overhead_us"])
    low = float(rows[1]["overhead_ci95_low_us"]) if rows[1]["overhead_ci95_low_us"] else base
    want = l2 / base if base > 0 and l2 > 0 and low > 0 else None
    got = float(rows[2]["level2_over_level1"]) if rows[2]["level2_over_level1"] else None
    print("ok" if (want is None and got is None) or (want and got and abs(got - want) <= 1e-9 * want)
          else f"ratio {got}, want {want}")
PY
)
is "$check" ok "at 4 threads and 2x2: level 1 with 4 threads, level 1 with INNER=2 threads, level 2; the ratio's base is the INNER row"

# ------------------------------------------------- serialized by the runtime
export OMP_MAX_ACTIVE_LEVELS=1
run_clomp --constructs="$every" "${quick[@]}" --nested=2x2 --csv="$tmp/serial.csv" "${input[@]}"
unset OMP_MAX_ACTIVE_LEVELS
is "$rc" 0 "OMP_MAX_ACTIVE_LEVELS=1: the run completes (serialized inner regions are a finding, not a failure)"
check=$(python3 - "$tmp/serial.csv" "${keys[*]}" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = []
for key in sys.argv[2].split():
    l2 = [r for r in rows if r["construct"] == key and r["level"] == "2"]
    if len(l2) != 1 or l2[0]["status"] != "serialized by the runtime" or l2[0]["overhead_us"] != "" \
            or l2[0]["level2_over_level1"] != "" or l2[0]["team_threads_max"] != "1":
        bad.append(f"{key}: {[(r['status'], r['overhead_us'], r['team_threads_max']) for r in l2]}")
    l1 = [r for r in rows if r["construct"] == key and r["level"] == "1"]
    if len(l1) != 1 or l1[0]["status"] != "measured":
        bad.append(f"{key} level 1: {[r['status'] for r in l1]}")
print("\n".join(bad) if bad else "ok")
PY
)
is "$check" ok "OMP_MAX_ACTIVE_LEVELS=1: every construct's level 2 is 'serialized by the runtime' with no overhead or ratio; level 1 still measured"
is "$(printf '%s\n' "$out" | grep -cE '^.{15} {4}2 +2x2 .*serialized by the runtime')" "${#keys[@]}" \
    "the text says 'serialized by the runtime' on the level-2 line of each of the ${#keys[@]} constructs"
like "$out" "Max active levels: 1 \\(OMP_MAX_ACTIVE_LEVELS\\)" "the text reports the max-active-levels in force and where it came from"

# ------------------------------------------------------------ below 2x2
run_clomp --constructs=parallel "${quick[@]}" --json="$tmp/small.json" "${input[@]}"
is "$rc" 0 "--constructs at 2 threads without --nested runs level 1 only"
like "$out" "Level 2: N/A \\(needs at least 2x2 threads" "below 2x2 threads level 2 is N/A with the reason"
is "$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["constructs"]; print(c["level2_unavailable"] is not None, [l["level"] for r in c["rows"] for l in r["levels"]])' "$tmp/small.json")" \
    "True [1, 2]" "the JSON says why level 2 is N/A and keeps its row as not run"

run_clomp --dry-run --constructs=lock,parallel --nested=2x2 --csv="$tmp/dry.csv" "${input[@]}"
like "$out" "^ *Constructs: parallel lock; 20 repetitions, each aimed at 1000 us; level 2: 2x2\$" \
    "--dry-run --constructs names the constructs in table order, EPCC's defaults and the level-2 shape"
[ "$(line_count "$(cat "$tmp/dry.csv")")" -eq 1 ] && [[ $(head -n 1 "$tmp/dry.csv") == construct,construct_name,* ]]
ok $? "and measures nothing: its CSV is the construct table's header alone"

# ------------------------------------------------------------ --compare A,B --constructs
driver=$(cd "$(dirname "$0")/.." && pwd)/run_clomp.sh
"$driver" --compare "$CLOMP","$CLOMP"+OMP_WAIT_POLICY=passive --replicates 2 --out "$tmp/compare" \
    --constructs=barrier,dynamic_n "${quick[@]}" --nested=2x2 "${input[@]}" </dev/null >"$tmp/compare.out" 2>&1
is "$?" 0 "run_clomp.sh --compare A,B --constructs runs both sides"
figures=$(cut -d, -f1 "$tmp"/compare/*_compare.csv | tail -n +2 | tr '\n' '|')
is "$figures" "BARRIER level 1 (1x2) overhead us|BARRIER level 2 (2x2) overhead us|DYNAMIC 2 level 1 (1x2) overhead us|DYNAMIC 2 level 2 (2x2) overhead us|" \
    "and compares one overhead per construct, chunk and level, named as the construct table names them"

# ------------------------------------------------------------ bad input
bad_case() {  # bad_case DESC WORD OPTION...: exit 2, one stderr line naming WORD, no report
    local desc=$1 word=$2
    shift 2
    run_clomp "$@" "${input[@]}"
    [ "$rc" -eq 2 ] && [ "$(line_count "$err")" -eq 1 ] && [[ $err == *"$word"* ]] && [ -z "$out" ]
    ok $? "$desc: exit 2 with one line naming $word (exit $rc: $err)"
}
bad_case "an unknown construct" "'nonsense'" --constructs=parallel,nonsense
bad_case "a malformed OUTERxINNER" "--nested" --constructs --nested=2by2
bad_case "a too large OUTERxINNER" "too large" --constructs --nested=1000x1000
bad_case "zero repetitions" "--construct-reps" --constructs --construct-reps=0
bad_case "a negative delay" "--construct-delay" --constructs --construct-delay=-0.1
bad_case "a construct option without --constructs" "--constructs" --construct-reps=3

# ------------------------------------------------------------ the fault build
FAULTS_BIN=${CLOMP_FAULTS_BIN:-"$(cd "$(dirname "$0")/.." && pwd)/clomp-faults"}
if [ -x "$FAULTS_BIN" ]; then
    CLOMP_FAULT=construct-outside run_clomp --constructs=barrier "${quick[@]}" --nested=2x2 "${input[@]}"
    is "$rc" 0 "the normal clomp ignores CLOMP_FAULT=construct-outside (no fault code in it)"
    missed=()
    for key in "${keys[@]}"; do
        CLOMP_FAULT=construct-outside CLOMP_FAULT_CONSTRUCT=$key CLOMP=$FAULTS_BIN \
            run_clomp --constructs="$key" "${quick[@]}" --nested=2x2 --csv="$tmp/fault.csv" "${input[@]}"
        if [ "$rc" -ne 1 ] || [[ $err != *"measured outside its construct"* ]] ||
            ! grep -q "^$key,.*,failed,measured outside its construct" "$tmp/fault.csv"; then
            missed+=("$key (exit $rc: $err)")
        fi
    done
    is "${missed[*]}" "" "each of the ${#keys[@]} constructs timed outside its construct (fault build) ends the run with exit 1, 'measured outside its construct', and its CSV row failed"
else
    skip "a construct measured outside its construct is caught" "no fault build at $FAULTS_BIN (make clomp-faults)"
fi

done_testing
