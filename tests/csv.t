#!/usr/bin/env bash
# clomp --csv=FILE: one row per measurement, read with Python's csv module and
# compared, value by value, with the JSON document of the same run (the two
# are written from one record, so every figure must be equal, not just close);
# a failed run's table; --csv=- on stdout; refused and unwritable files.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' err=''
export OMP_WAIT_POLICY=passive
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT

if ! command -v python3 >/dev/null 2>&1; then
    skip "the CSV against the JSON of the same run" "python3 not installed"
    done_testing
fi

# A run without --schedules has a row per measurement of the default sequence (--list-schedules).
n_default=$(schedule_list '' default | grep -c .)

# compare CSV JSON: one line per disagreement, then "rows N" (only that line when they agree).
compare() {
    python3 - "$1" "$2" <<'PY'
import csv, json, math, sys
with open(sys.argv[1], newline="") as f:
    rows = list(csv.DictReader(f))
with open(sys.argv[2]) as f:
    doc = json.load(f)
bad = []
def num(text):
    return None if text == "" else float(text)
def same(what, got, want):
    if got != want and not (isinstance(got, float) and isinstance(want, float) and math.isnan(got) and math.isnan(want)):
        bad.append("%s: csv %r, json %r" % (what, got, want))
ms = doc["measurements"]
same("row count", len(rows), len(ms))
targets = {"barrier": ("barrier_latency", "us"), "parallel_for": ("parallel_for_overhead", "us")}
ghz = doc["cycles"]["ghz"]
for row, m in zip(rows, ms):
    k = m["key"]
    same(k + " key", row["key"], m["key"])
    same(k + " name", row["name"], m["name"])
    same(k + " role", row["role"], m["role"])
    same(k + " selected", row["selected"] == "1", m["selected"])
    same(k + " threads", None if row["threads"] == "" else int(row["threads"]), m["threads"])
    same(k + " verification", row["verification"], m["verification"]["result"])
    same(k + " verified_chunks", int(row["verified_chunks"]), m["verification"]["verified_chunks"])
    for col, field in [("runtime_seconds", "runtime_seconds"), ("us_per_loop", "us_per_loop"),
                       ("speedup", "speedup"), ("efficacy_percent", "efficacy_percent"),
                       ("overhead_us", "overhead_us_per_loop")]:
        same(k + " " + col, num(row[col]), m[field])
    ci = m["overhead_ci_95"] or [None, None]
    same(k + " overhead_ci", [num(row["overhead_ci_low"]), num(row["overhead_ci_high"])], ci)
    st = m["statistics"]
    mci = st["median_ci_95"] if st else None
    mci = mci or [None, None]
    same(k + " us_per_loop_ci", [num(row["us_per_loop_ci_low"]), num(row["us_per_loop_ci_high"])], mci)
    same(k + " cv", num(row["cv"]), st["cv"] if st else None)
    cs = m["checksum"] or {"sum": None, "residue": None, "total": None}
    for part in ("sum", "residue", "total"):
        same(k + " checksum_" + part, num(row["checksum_" + part]), cs[part])
    same(k + " ghz", num(row["ghz"]), ghz)
    # Cycles recomputed from the JSON's microseconds: cycles = us * 1000 * ghz.
    if m["us_per_loop"] is not None and ghz is not None:
        want = m["us_per_loop"] * 1000.0 * ghz
        if abs(num(row["us_per_loop_cycles"]) - want) > 1e-9 * abs(want):
            bad.append("%s us_per_loop_cycles %s, recomputed %r" % (k, row["us_per_loop_cycles"], want))
    if k in targets and m["us_per_loop"] is not None and doc["llnl_targets"][targets[k][0]] is not None:
        t = doc["llnl_targets"][targets[k][0]]
        same(k + " llnl_target_below_cycles", num(row["llnl_target_below_cycles"]), t["target_below"])
        same(k + " llnl_target_cycles", num(row["llnl_target_cycles"]), t["cycles"])
        same(k + " llnl_verdict", row["llnl_verdict"], t["verdict"])
    elif row["llnl_verdict"] != "":
        bad.append("%s has a verdict %r but no LLNL target" % (k, row["llnl_verdict"]))
    same(k + " status", row["status"], doc["status"])
    same(k + " exit_status", int(row["exit_status"]), doc["exit_status"])
    inputs, resolved = doc["inputs"], doc["resolved"]
    for col, want in [("numThreads", resolved["numThreads"]), ("allocThreads", inputs["allocThreads"]),
                      ("numParts", inputs["numParts"]), ("zonesPerPart", inputs["zonesPerPart"]),
                      ("zoneSize", resolved["zoneSize"]), ("flopScale", inputs["flopScale"]),
                      ("timeScale", inputs["timeScale"]), ("trials", resolved["trials"]),
                      ("rounds", inputs["rounds"]), ("iterations", resolved["iterations"])]:
        same(k + " " + col, int(row[col]), want)
    same(k + " numa", row["numa"], inputs["numa"])
    same(k + " host", row["host"], doc["host"])
    same(k + " zone_stride", row["zone_stride"], inputs["zone_stride"])
    same(k + " user_cpu_seconds", num(row["user_cpu_seconds"]), doc["process_cost"]["user_cpu_seconds"])
    same(k + " system_cpu_seconds", num(row["system_cpu_seconds"]), doc["process_cost"]["system_cpu_seconds"])
for b in bad:
    print(b)
print("rows %d" % len(rows))
PY
}

# ---- 1. one run, both files --------------------------------------------------------------------
args=(2 -1 16 50 40 1 1)
"$CLOMP" --csv="$tmp/run.csv" --json="$tmp/run.json" --rounds=2 "${args[@]}" </dev/null >"$tmp/run.out" 2>"$tmp/run.err"
is "$?" 0 "a run with --csv and --json (2 threads, 2 rounds) exits 0"
result=$(compare "$tmp/run.csv" "$tmp/run.json")
is "$(tail -n 1 <<<"$result")" "rows $n_default" "the CSV has one row per measurement of the default sequence: $n_default, as many as the JSON's measurements"
is "$result" "rows $n_default" "every cell of every row equals the JSON's value (figures, intervals, checksums, cycles, LLNL verdicts, inputs)"
header=$(head -n 1 "$tmp/run.csv")
like "$header" '^key,name,role,selected,threads,verification,' "the header row starts with key, name, role, selected, threads, verification"
# Independent of both files: the text report's summary line, rounded as the text prints it.
text_us=$(awk -F', *' '$1 == "us/Loop" { print $6; exit }' "$tmp/run.out")
csv_us=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } $1 == "static" { printf "%.2f", $c["runtime_us_per_loop"] }' \
    "$tmp/run.csv")
is "$csv_us" "$text_us" "Static OMP's runtime_us_per_loop (CLOMP 1.2's, from Runtime), rounded to 2 decimals, is the text summary's 'us/Loop,' figure"
runtime_us=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } $1 == "static" { printf "%.6f", $c["runtime_seconds"] * 1e6 / ($c["iterations"] * 10) }' \
    "$tmp/run.csv")
is "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } $1 == "static" { printf "%.6f", $c["runtime_us_per_loop"] }' "$tmp/run.csv")" \
    "$runtime_us" "and it is Runtime x 1e6 / (iterations x 10), as in CLOMP 1.2"
checks=$(awk -F, 'NR > 1 && ($3 == "reference" || $3 == "checked") { print $28 }' "$tmp/run.csv" | sort -u)
is "$(grep -c . <<<"$checks")" 1 "Serial Ref and every checked schedule have the same checksum_total"

# ---- 2. a schedule left out -------------------------------------------------------------------
"$CLOMP" --csv="$tmp/some.csv" --json="$tmp/some.json" --schedules=static "${args[@]}" </dev/null >/dev/null 2>&1
is "$?" 0 "a run with --schedules=static and --csv exits 0"
result=$(compare "$tmp/some.csv" "$tmp/some.json")
is "$result" "rows $n_default" "with --schedules=static (no bestcase) the CSV still equals the JSON: unselected rows are empty, efficacy and overhead empty"
is "$(awk -F, '$1 == "dynamic" { print $4 "|" $9 "|" $6 }' "$tmp/some.csv")" "0||not run" "Dynamic OMP's row says selected 0, no us/Loop, 'not run'"

# ---- 3. a failed run still writes its table -------------------------------------------------------
FAULTS_BIN=${CLOMP_FAULTS_BIN:-"$(cd "$(dirname "$0")/.." && pwd)/clomp-faults"}
if [ -x "$FAULTS_BIN" ]; then
    CLOMP_FAULT=lost-update CLOMP_FAULT_SCHEDULE='Static OMP' "$FAULTS_BIN" --trials=5 --csv="$tmp/fault.csv" \
        --json="$tmp/fault.json" "${args[@]}" </dev/null >/dev/null 2>&1
    is "$?" 1 "a lost update in Static OMP (clomp-faults) exits 1 with --csv"
    result=$(compare "$tmp/fault.csv" "$tmp/fault.json")
    is "$result" "rows $n_default" "the failed run's CSV equals its JSON"
    is "$(awk -F, '$1 == "static" { print $6 "|" $9 "|" $29 "|" $30 }' "$tmp/fault.csv")" "failed||verification failed|1" \
        "Static OMP's row: verification 'failed', no us/Loop, status 'verification failed', exit_status 1"
else
    skip "a failed run still writes its CSV" "no executable $FAULTS_BIN (make clomp-faults)"
fi

# ---- 4. standard output, refusals, nothing half-written ------------------------------------------
"$CLOMP" --csv=- --schedules=static "${args[@]}" </dev/null >"$tmp/stdout.csv" 2>"$tmp/stdout.err"
is "$?" 0 "--csv=- exits 0"
is "$(head -n 1 "$tmp/stdout.csv")" "$header" "--csv=- writes the table to stdout"
is "$(grep -c . "$tmp/stdout.csv")" $((n_default + 1)) "stdout holds only the table (header + $n_default rows)"
grep -q '^CORAL RFP' "$tmp/stdout.err"
ok $? "with --csv=- the text report goes to stderr"
run_clomp --csv=- --json=- "${args[@]}"
is "$rc:$err" "2:clomp: --json=- and --csv=- cannot both use standard output" "--csv=- with --json=- is refused with exit 2 and one line"
run_clomp --csv= "${args[@]}"
is "$rc" 2 "--csv= with no file name is a usage error (exit 2)"
echo precious >"$tmp/keep.csv"
run_clomp --csv="$tmp/keep.csv" 2 -1 16 50 40 1 0
is "$rc:$(cat "$tmp/keep.csv")" "2:precious" "a run refused for a bad argument leaves an existing CSV file untouched"
run_clomp --csv="$tmp/no/such/dir.csv" "${args[@]}"
like "$rc:$err" "^2:clomp: --csv: cannot create a temporary file beside '$tmp/no/such/dir.csv': " "a CSV file that cannot be created is refused with exit 2, naming it"
is "$(find "$tmp" -name '*.tmp.*' | wc -l | tr -d ' ')" 0 "no temporary CSV file is left behind"
run_clomp --json="$tmp/first.json" --csv="$tmp/no/such/dir.csv" "${args[@]}"
is "$rc" 2 "a --json file that opens and a --csv file that cannot: exit 2"
is "$(find "$tmp" -name 'first.json*' | wc -l | tr -d ' ')" 0 "and the JSON's temporary file, already opened, is removed too: nothing half-made stays"

done_testing
