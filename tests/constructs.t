#!/usr/bin/env bash
# clomp --constructs: every construct of the table (--list-constructs, read
# from the binary) is measured at level 1 and at level 2 (2x2, oversubscribed
# on small machines) with the teams it asked for, verified inside every inner
# region; the CSV and the JSON carry the same rows; OMP_MAX_ACTIVE_LEVELS=1
# makes every level-2 row "serialized by the runtime", never an overhead;
# below 2x2 level 2 is N/A with its reason; bad input exits 2 with one line;
# and the fault build shows that a construct measured outside its construct
# is caught (exit 1), and that a body without what its construct promises
# (a taskwait that does not wait, an ordered that does not order, ...) is
# caught by its row's check (exit 1). Every EPCC 4.0 measurement is a row,
# with its kind and parameter; the array clauses run at --construct-sizes.
# Timings are never asserted: the machine is shared. The runs turn the noise
# census off (tests/noise.t owns it; at 72 threads it was most of the file's CPU).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
export OMP_WAIT_POLICY=passive   # 4 threads on 2 cores: spinning waiters would starve the others
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
input=(2 1 4 10 32 1 1)
quick=(--schedules=serial --noise-census=off --construct-reps=3 --construct-time=50 --construct-chunks=2 --construct-loop-delay=0.2
       --construct-sizes=3)

list=$("$CLOMP" --list-constructs)
mapfile -t all_keys < <(awk -F'\t' '!/^#/ { print $1 }' <<<"$list")
# An offload build's target probes run at level 1 only, from the initial
# thread (tests/offload.t): the level matrix below is every other row's.
mapfile -t keys < <(awk -F'\t' '!/^#/ && $3 != "target" { print $1 }' <<<"$list")
mapfile -t chunked < <(awk -F'\t' '!/^#/ && ($4 == "n" || $4 == "size") && $3 != "target" { print $1 }' <<<"$list")
# Rows this build's runtime cannot run (the hinted locks on libgomp): listed, never measured.
mapfile -t absent < <(awk -F'\t' '!/^#/ && $3 != "target" && $5 ~ /^not provided/ { print $1 }' <<<"$list")
mapfile -t present < <(awk -F'\t' '!/^#/ && $3 != "target" && $5 !~ /^not provided/ { print $1 }' <<<"$list")
every=$(IFS=,; echo "${keys[*]}")
# EPCC 4.0's measurements (its README, its programs' test names) with the kind
# and parameter each must have: the list is read against this, not itself.
missing=$(python3 - "$list" <<'PY' 2>&1 || echo "python3 failed"
import sys
rows = {}
for line in sys.argv[1].splitlines():
    if not line.startswith("#"):
        key, name, kind, param, what = line.split("\t")
        rows[name] = (kind, param, what)
want = {"sync -": ["PARALLEL", "FOR", "PARALLEL FOR", "BARRIER", "BARRIER_VAR", "SINGLE", "CRITICAL",
                   "LOCK/UNLOCK", "LOCK_CONTENDED_HINT", "LOCK_UNCONTENDED", "LOCK_UNCONTENDED_HINT",
                   "ORDERED", "ATOMIC", "ATOMIC_SEQCST", "REDUCTION"],
        "loop -": ["STATIC", "STATIC_MONOTONIC"],
        "loop n": ["STATIC n", "STATIC_MONOTONIC n", "DYNAMIC n", "DYNAMIC_MONOTONIC n", "GUIDED n",
                   "GUIDED_MONOTONIC n", "TASKLOOP n"],
        "task -": ["PARALLEL TASK", "PARALLEL TASK DEPS", "MASTER TASK", "MASTER TASK DEPS",
                   "MASTER TASK BUSY SLAVES", "CONDITIONAL TASK", "TASK WAIT", "TASK BARRIER", "NESTED TASK",
                   "NESTED MASTER TASK", "BRANCH TASK TREE", "LEAF TASK TREE"],
        "data size": ["PRIVATE n", "FIRSTPRIVATE n", "COPYPRIVATE n", "COPYIN n"]}
bad = [f"{name}: {rows.get(name, 'not listed')}" for kp, names in want.items() for name in names
       if name not in rows or " ".join(rows[name][:2]) != kp]
if "LOCK_CONTENDED" not in rows.get("LOCK/UNLOCK", ("", "", ""))[2]:
    bad.append("LOCK/UNLOCK does not say it is EPCC 4.0's LOCK_CONTENDED")
if "0.10 us" not in rows.get("BARRIER_VAR", ("", "", ""))[2]:
    bad.append("BARRIER_VAR does not state the late thread's delay")
print("; ".join(bad))
PY
)
is "$missing" "" "--list-constructs lists EPCC 4.0's 15 syncbench, 9 schedbench, 12 taskbench and 4 arraybench measurements, each with its kind and parameter (${#keys[@]} rows)"
hint=$("$CLOMP" --version 2>/dev/null | grep -c CLOMP_HAVE_LOCK_HINT || true)
if [ "$hint" -eq 0 ]; then
    is "${absent[*]}" "lock_contended_hint lock_uncontended_hint" \
        "built without omp_init_lock_with_hint: exactly the hinted lock rows say 'not provided'"
else
    is "${absent[*]}" "" "built with omp_init_lock_with_hint: every row is provided"
fi
help=$("$CLOMP" --help)
like "$help" "^Constructs \\(--constructs keys" "--help has a constructs paragraph"
like "$help" "^  ${all_keys[*]}\$" "--help names every construct key in table order"

command -v python3 >/dev/null 2>&1 || { skip "the construct table's CSV and JSON" "python3 not installed"; done_testing; }

# ---------------------------------------------------------------- level 1 and 2
run_clomp --constructs="$every" "${quick[@]}" --nested=2x2 --csv="$tmp/all.csv" --json="$tmp/all.json" "${input[@]}"
is "$rc" 0 "--constructs --nested=2x2 at 2 threads runs and exits 0"
check=$(python3 - "$tmp/all.csv" "$tmp/all.json" "${keys[*]}" "${chunked[*]}" "${absent[*]}" "$list" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))
keys, chunked, absent = sys.argv[3].split(), set(sys.argv[4].split()), set(sys.argv[5].split())
bad = []
# Each row's kind is its row's in --list-constructs; the CSV appends the column last, and the
# JSON names the CSV's columns in its order (constructs.csv_columns) and gives each row its kind.
kinds = {line.split("\t")[0]: line.split("\t")[2] for line in sys.argv[6].splitlines() if not line.startswith("#")}
header = list(rows[0].keys()) if rows else []
if header[-1:] != ["kind"] or doc["constructs"].get("csv_columns") != header or doc["schema_minor"] < 9:
    bad.append(f"CSV columns end {header[-2:]}; JSON csv_columns {doc['constructs'].get('csv_columns')}, minor {doc['schema_minor']}")
bad += [f"{r['construct']}: CSV kind '{r.get('kind')}'" for r in rows if r.get("kind") != kinds.get(r["construct"])]
bad += [f"{r['construct']}: JSON kind '{r.get('kind')}'" for r in doc["constructs"]["rows"] if r.get("kind") != kinds.get(r["construct"])]
for key in keys:
    for level, outer in (("1", "1"), ("2", "2")):
        mine = [r for r in rows if r["construct"] == key and r["level"] == level]
        if len(mine) != 1:
            bad.append(f"{key} level {level}: {len(mine)} rows")
            continue
        r = mine[0]
        if key in absent or (level == "2" and r["problem"].startswith("not provided")):
            if r["status"] != "not run" or not r["problem"].startswith("not provided") or r["overhead_us"] != "":
                bad.append(f"{key} level {level}: not provided, yet {r['status']} {r['problem']}")
            continue
        if r["status"] not in ("measured", "unresolved") or r["outer_threads"] != outer or r["inner_threads"] != "2":
            bad.append(f"{key} level {level}: {r['status']} {r['outer_threads']}x{r['inner_threads']} {r['problem']}")
        if r["status"] == "unresolved" and (r["overhead_us"] != "" or r["problem"] == ""):
            bad.append(f"{key} level {level}: unresolved with overhead '{r['overhead_us']}', reason '{r['problem']}'")
        if r["team_threads_min"] != "2" or r["team_threads_max"] != "2" or r["level_seen"] != level:
            bad.append(f"{key} level {level}: teams {r['team_threads_min']}..{r['team_threads_max']} at {r['level_seen']}")
        if level == "2" and (r["outer_threads_seen"] != "2" or r["active_level_seen"] != "2"):
            bad.append(f"{key} level 2: {r['outer_threads_seen']} outer threads, active level {r['active_level_seen']}")
        if (r["chunk"] in ("2", "3")) != (key in chunked):
            bad.append(f"{key}: chunk '{r['chunk']}'")
        if level == "2":
            l1 = [x for x in rows if x["construct"] == key and x["level"] == "1"][0]
            want = None
            if r["status"] == "measured" and l1["status"] == "measured":
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
csv_levels = [(r["construct"], int(r["level"]), float(r["overhead_us"]) if r["overhead_us"] else None) for r in rows]
if levels != csv_levels:
    bad.append("the JSON's rows and levels are not the CSV's")
if c["oversubscribed"] != (4 > c["cpus"]):
    bad.append(f"oversubscribed {c['oversubscribed']} with {c['cpus']} CPUs")
print("\n".join(bad) if bad else "ok")
PY
)
is "$check" ok "every construct has one level-1 row (1x2) and one level-2 row (2x2), measured (or unresolved, with why and no overhead) in teams of 2 at its level (a row this runtime lacks: not run, 'not provided'), ratios level 2 / level 1 only between measured rows (none over a level 1 at or near 0), the JSON's rows the CSV's, each row's kind (its --list-constructs kind) in the CSV's last column and the JSON, and the JSON naming the CSV's columns in order"
like "$out" "Level 2: 2x2 \\(OUTER x INNER\\)" "the text names the level-2 shape"
is "$(printf '%s\n' "$out" | grep -cE '^[A-Z].* +1 +1x2 ')" "${#present[@]}" "the text table has a level-1 line (1x2) per construct this runtime provides"
is "$(printf '%s\n' "$out" | grep -cE '^[A-Z].* +2 +(2x2 |0x0 +- not provided)')" "${#keys[@]}" "the text table has a level-2 line (2x2) per construct"

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
    want = None
    if rows[1]["status"] == "measured" and rows[2]["status"] == "measured":
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
check=$(python3 - "$tmp/serial.csv" "${present[*]}" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = []
for key in sys.argv[2].split():
    l2 = [r for r in rows if r["construct"] == key and r["level"] == "2"]
    if len(l2) == 1 and l2[0]["status"] == "not run" and l2[0]["problem"].startswith("not provided"):
        continue   # not run inside nested teams by this runtime (docs/constructs.md)
    if len(l2) != 1 or l2[0]["status"] != "serialized by the runtime" or l2[0]["overhead_us"] != "" \
            or l2[0]["level2_over_level1"] != "" or l2[0]["team_threads_max"] != "1":
        bad.append(f"{key}: {[(r['status'], r['overhead_us'], r['team_threads_max']) for r in l2]}")
    l1 = [r for r in rows if r["construct"] == key and r["level"] == "1"]
    if len(l1) != 1 or l1[0]["status"] not in ("measured", "unresolved"):
        bad.append(f"{key} level 1: {[r['status'] for r in l1]}")
print("\n".join(bad) if bad else "ok")
PY
)
serialized=$(grep -c ',serialized by the runtime,' "$tmp/serial.csv")
is "$check" ok "OMP_MAX_ACTIVE_LEVELS=1: every construct's level 2 is 'serialized by the runtime' with no overhead or ratio; level 1 still measured (or unresolved)"
is "$(printf '%s\n' "$out" | grep -cE '^[A-Z].* +2 +2x2 .*serialized by the runtime')" "$serialized" \
    "the text says 'serialized by the runtime' on the level-2 line of each of the $serialized serialized rows"
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
"$driver" --compare "$CLOMP","$CLOMP"+OMP_WAIT_POLICY=passive --replicates 2 --force --out "$tmp/compare" \
    --constructs=barrier,dynamic_n "${quick[@]}" --nested=2x2 "${input[@]}" </dev/null >"$tmp/compare.out" 2>&1
is "$?" 0 "run_clomp.sh --compare A,B --constructs runs both sides"
# Only rows both sides resolved have an overhead to compare (--construct-reps=3 gives no interval: none).
figures=$(cut -d, -f1 "$tmp"/compare/*_compare.csv | tail -n +2 |
    grep -cvxE 'BARRIER level 1 \(1x2\) overhead us|BARRIER level 2 \(2x2\) overhead us|DYNAMIC 2 level 1 \(1x2\) overhead us|DYNAMIC 2 level 2 \(2x2\) overhead us')
is "$figures" 0 "and compares at most one overhead per construct, chunk and level, named as the construct table names them"

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
bad_case "a too large OUTERxINNER (even with --oversubscribe)" "too large" --constructs --nested=1000x1000 --oversubscribe
bad_case "zero repetitions" "--construct-reps" --constructs --construct-reps=0
bad_case "a negative delay" "--construct-delay" --constructs --construct-delay=-0.1
bad_case "a construct option without --constructs" "--constructs" --construct-reps=3
bad_case "an array size that is not a power of 3" "--construct-sizes" --constructs=private --construct-sizes=1,100
bad_case "an array size above 59049" "--construct-sizes" --constructs=private --construct-sizes=177147
bad_case "an empty size list" "--construct-sizes" --constructs=private --construct-sizes=
bad_case "--construct-sizes without --constructs" "--constructs" --construct-sizes=3
bad_case "a delay given as a time and as a length" "not both" --constructs --construct-delay=0.1 --construct-delay-length=153
bad_case "a loop delay given as a length and as a time" "not both" --constructs --construct-loop-delay-length=153 \
    --construct-loop-delay=0.1
bad_case "a delay length that is not a whole number" "--construct-delay-length" --constructs --construct-delay-length=15.3
bad_case "--construct-delay-length without --constructs" "--constructs" --construct-delay-length=153

# ------------------------------------------------------------ a delay given as a length
# EPCC's --delay-length: the additions are the ones given, only timed; the text,
# the JSON and the work say so. 37 and 4321 lie on no step of the calibration
# (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 20, 23, 26, 29, 32, 36, 40, ...).
run_clomp --constructs=barrier,static --schedules=serial --noise-census=off --construct-reps=3 --construct-time=50 \
    --construct-delay-length=37 --construct-loop-delay-length=4321 --json="$tmp/given.json" "${input[@]}"
like "$out" "^Delay: 37 additions given, [0-9.]+ us timed; loops: 4321 additions given, [0-9.]+ us timed, " \
    "--construct-delay-length and --construct-loop-delay-length: the Delay line says each length was given, and timed"
given=$(python3 - "$tmp/given.json" <<'PY' 2>&1
import json, sys
doc = json.load(open(sys.argv[1]))
c = doc["constructs"]
s, l = c["sync_delay"], c["loop_delay"]
rows = [lv for r in c["rows"] for lv in r["levels"] if lv["level"] == 1]
print(doc["schema_minor"] >= 10, s["target_us"], s["length"], s["length_given"], s["calibrated_us"] > 0, l["length"],
      l["length_given"], sorted({lv["status"] for lv in rows} - {"measured", "unresolved"}))
PY
)
is "$given" "True None 37 True True 4321 True []" \
    "the JSON's delays hold the lengths given (no time asked, length_given true, a time per call; schema_minor 10), and the rows ran"
run_clomp --constructs=barrier --schedules=serial --noise-census=off --construct-reps=3 --construct-time=50 --construct-delay=0.05 \
    --json="$tmp/calibrated.json" "${input[@]}"
calibrated=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["constructs"]["sync_delay"]; print(s["target_us"], s["length_given"], s["length"] > 0)' "$tmp/calibrated.json" 2>&1)
is "$calibrated" "0.05 False True" "without a length the delay is calibrated to the time asked, and the JSON says so"

# ------------------------------------------------------------ arraybench's sizes
run_clomp --constructs=copyin "${quick[@]:0:6}" --csv="$tmp/sizes.csv" "${input[@]}"
sizes=$(awk -F, 'NR > 1 && $4 == 1 && ($7 == "measured" || $7 == "unresolved") { printf "%s ", $3 }' "$tmp/sizes.csv")
is "$sizes" "1 3 9 27 81 243 729 2187 6561 19683 59049 " \
    "without --construct-sizes an array clause runs at EPCC's 1 .. 59049 in powers of 3, a row each ('COPYIN 59049'), measured or unresolved"
like "$out" "^COPYIN 59049 +1 +1x2 " "the text names each size's row as EPCC does"

# ------------------------------------------------------------ the fault build
FAULTS_BIN=${CLOMP_FAULTS_BIN:-"$(cd "$(dirname "$0")/.." && pwd)/clomp-faults"}
if [ -x "$FAULTS_BIN" ]; then
    CLOMP_FAULT=construct-outside run_clomp --constructs=barrier "${quick[@]}" --nested=2x2 "${input[@]}"
    is "$rc" 0 "the normal clomp ignores CLOMP_FAULT=construct-outside (no fault code in it)"
    missed=()
    for key in "${present[@]}"; do
        CLOMP_FAULT=construct-outside CLOMP_FAULT_CONSTRUCT=$key CLOMP=$FAULTS_BIN \
            run_clomp --constructs="$key" "${quick[@]}" --nested=2x2 --csv="$tmp/fault.csv" "${input[@]}"
        if [ "$rc" -ne 1 ] || [[ $err != *"measured outside its construct"* ]] ||
            ! grep -q "^$key,.*,failed,measured outside its construct" "$tmp/fault.csv"; then
            missed+=("$key (exit $rc: $err)")
        fi
    done
    is "${missed[*]}" "" "each of the ${#present[@]} constructs timed outside its construct (fault build) ends the run with exit 1, 'measured outside its construct', and its CSV row failed"

    # Each body without what its construct promises (kernels/fault.h's
    # construct-wrong): its check, run untimed at every level, must catch it.
    wrong=(barrier_var ordered taskloop_n parallel_task_deps master_task_deps conditional_task task_wait task_barrier
           nested_task nested_master_task private firstprivate copyprivate copyin)
    # Not lock_contended_hint: its check (no two holders at once) needs the
    # threads to overlap inside the unlocked body, which a busy machine need
    # not give: a miss there would be the scheduler's, not the check's.
    CLOMP_FAULT=construct-wrong run_clomp --constructs=task_wait "${quick[@]}" --nested=2x2 "${input[@]}"
    is "$rc" 0 "the normal clomp ignores CLOMP_FAULT=construct-wrong"
    missed=()
    for key in "${wrong[@]}"; do
        CLOMP_FAULT=construct-wrong CLOMP_FAULT_CONSTRUCT=$key CLOMP=$FAULTS_BIN \
            run_clomp --constructs="$key" "${quick[@]}" --nested=2x2 --csv="$tmp/wrong.csv" "${input[@]}"
        if [ "$rc" -ne 1 ] || [[ $err != *"its body does the wrong thing"* ]] ||
            ! grep -q "^$key,.*,failed,its body does the wrong thing" "$tmp/wrong.csv"; then
            missed+=("$key (exit $rc: $err)")
        fi
    done
    is "${missed[*]}" "" "each of the ${#wrong[@]} bodies without its construct's effect (a taskwait that does not wait, an ordered that does not order, a dependence ignored, a copy not made...) ends the run with exit 1, 'its body does the wrong thing', and its CSV row failed"

    # Every check at every team size (issue 47, item 5): the task checks kept
    # a counter per thread in a table of 64 and passed silently above it. At
    # 72 threads a dependence ignored is caught like at 2.
    CLOMP_FAULT=construct-wrong CLOMP_FAULT_CONSTRUCT=parallel_task_deps CLOMP=$FAULTS_BIN \
        run_clomp --constructs=parallel_task_deps "${quick[@]}" 72 1 72 1 32 1 1
    is "$rc" 1 "a task check runs at 72 threads too: PARALLEL TASK DEPS without its dependences ends the run with exit 1"
    like "$err" "PARALLEL TASK DEPS level 1 \\(1x72\\): its body does the wrong thing" "naming the row, its 72 threads and the fault"

    # The levels run in phases (measure/constructs.c): every row's level 1
    # before any row's level 2, so that inner threads a runtime keeps
    # spinning after a nested region never share the CPUs with a level-1
    # test. A run that ends at the second row's level 1 shows the order: the
    # first row's level 1 done, its level 2 not yet; the third row's level 1
    # not reached, each saying where the run ended.
    CLOMP_FAULT=construct-wrong CLOMP_FAULT_CONSTRUCT=task_wait CLOMP=$FAULTS_BIN \
        run_clomp --constructs=barrier,task_wait,task_barrier "${quick[@]}" --nested=2x2 --csv="$tmp/order.csv" "${input[@]}"
    is "$rc $(python3 - "$tmp/order.csv" <<'PY'
import csv, sys
ended = "not measured: the run ended at TASK WAIT level 1"
def state(r):   # measured or unresolved: done (a figure or why not, at --construct-reps=3)
    done = r["status"] in ("measured", "unresolved")
    return "done" if done else r["status"].replace(" ", "_") + (":ended_at_TASK_WAIT_1" if r["problem"] == ended else "")
print(" ".join(f"{r['construct']}:{r['level']}:{state(r)}" for r in csv.DictReader(open(sys.argv[1]))))
PY
)" "1 barrier:1:done barrier:2:not_run:ended_at_TASK_WAIT_1 task_wait:1:failed task_wait:2:not_run:ended_at_TASK_WAIT_1 task_barrier:1:not_run:ended_at_TASK_WAIT_1 task_barrier:2:not_run:ended_at_TASK_WAIT_1" \
        "every row's level 1 runs before any row's level 2: a run ending at the second row's level 1 has the first row's level 1 done and no level 2, and each level not reached says where the run ended"
    # A level that cannot run here (level 2 below 2x2) keeps its own reason
    # when the run ends early: "not reached" is only for levels that would have run.
    CLOMP_FAULT=construct-wrong CLOMP_FAULT_CONSTRUCT=task_wait CLOMP=$FAULTS_BIN \
        run_clomp --constructs=barrier,task_wait,task_barrier "${quick[@]}" --nested=2x1 --csv="$tmp/order.csv" "${input[@]}"
    is "$rc $(python3 - "$tmp/order.csv" <<'PY'
import csv, sys
print(" ".join(f"{r['construct']}:{r['level']}:{r['problem']}" for r in csv.DictReader(open(sys.argv[1])) if r["level"] == "2"))
PY
)" "1 barrier:2:needs at least 2x2 threads, not 2x1 task_wait:2:needs at least 2x2 threads, not 2x1 task_barrier:2:needs at least 2x2 threads, not 2x1" \
        "a run that ends early leaves each level that could not run here with its own reason (level 2 at 2x1: needs at least 2x2 threads)"
else
    skip "a construct measured outside its construct is caught" "no fault build at $FAULTS_BIN (make clomp-faults)"
fi

done_testing
