#!/usr/bin/env bash
# run_clomp.sh --sweep, black box: bad specifications (no '=', empty values, names
# that are not environment variables, unknown presets, a variable twice, more
# combinations than the cap, a preset the runtime has no settings for) exit 2
# with one line before anything runs or is written; a stand-in clomp whose figures
# the test chooses runs under every combination, interleaved (forward, then
# backward), each setting reaching its processes' environment and no shell; the
# table's medians and intervals equal what the test computes from the processes'
# own JSON records, and CPU per wall second is (user + system) / wall of each
# record; hostile values are escaped in the HTML page and quoted in the CSV.
# Every run is tiny. No timing is asserted.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
top=$(cd "$(dirname "$0")/.." && pwd)
driver=$top/run_clomp.sh
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
host=$(uname -n)
host=${host%%.*}
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3 (the sweep's report needs it)"; exit 0; }

root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$root"' EXIT

drive() {  # drive ARGS...: sets rc, out, err
    "$driver" "$@" </dev/null >"$root/drive.out" 2>"$root/drive.err"
    rc=$?
    out=$(cat "$root/drive.out")
    err=$(cat "$root/drive.err")
}

# ---- 1. bad specifications: exit 2, one line, nothing written ---------------------------
bad_dir=$root/bad
refuse() {  # refuse DESC ERE ARGS...
    local desc=$1 ere=$2
    shift 2
    drive --out "$bad_dir" "$@"
    [ "$rc" -eq 2 ] && [ "$(line_count "$err")" -eq 1 ] && [ -z "$out" ] && [ ! -e "$bad_dir" ]
    ok $? "$desc: exit 2 with one line on stderr, no output and no files"
    like "$err" "$ere" "$desc: the line says what is wrong"
}
refuse "a word that is neither VAR=V1,... nor a preset" "--sweep: unknown preset 'nosuch'" --sweep nosuch --quick
refuse "an empty value list (A=)" "--sweep: FAKE_A: an empty value" --sweep FAKE_A= --quick
refuse "an empty value among others (A=1,,2)" "--sweep: FAKE_A: an empty value" --sweep FAKE_A=1,,2 --quick
refuse "a name with a digit first" "'1A' is not an environment variable's name" --sweep 1A=x,y --quick
refuse "a name with a dash" "'A-B' is not an environment variable's name" --sweep A-B=x --quick
refuse "an empty name (=x)" "'' is not an environment variable's name" --sweep =x --quick
refuse "a value given twice" "FAKE_A: the value '1' is given twice" --sweep FAKE_A=1,2,1 --quick
refuse "a variable swept twice" "FAKE_A is swept twice" --sweep FAKE_A=1 FAKE_A=2 --quick
refuse "72 combinations (9 x 8), over the cap" "72 combinations: over the cap of 64" \
    --sweep A=1,2,3,4,5,6,7,8,9 B=1,2,3,4,5,6,7,8 --quick
refuse "--replicates 1" "--replicates: '1' must be a whole number of at least 2" --sweep A=1 --replicates 1 --quick
refuse "--json (the driver writes its own)" "--json is the driver's own" --sweep A=1 --json=x.json
refuse "no specification at all (an option where it belongs)" "unknown preset '--quick'" --sweep --quick
if "$CLOMP" --version 2>/dev/null | grep -q '^compiler: GCC' && ldd "$CLOMP" 2>/dev/null | grep -q 'libgomp.so.1 => [^ ]*libgomp'; then
    refuse "the barrier preset on libgomp" "barrier: the OpenMP runtime \(libgomp[^)]*\) has no barrier-pattern settings" \
        --sweep barrier --side "$CLOMP" --quick
else
    skip "the barrier preset on libgomp is refused" "clomp is not a gcc build on libgomp"
fi

drive --sweep --help
[ "$rc" -eq 0 ] && [[ $out == *'GOMP_SPINCOUNT 0,10000,300000,infinite'* ]] && [[ $out == *'At most 64 combinations'* ]]
ok $? "--sweep --help explains the specifications, the presets and the cap, and exits 0"

# ---- 2. a stand-in clomp with chosen figures --------------------------------------------
# Each call takes the next number c from $FAKE_COUNTER, logs "c FAKE_A FAKE_B" and writes a record
# whose figures depend on both (A x 10 + c / 100 and so on), a CPU cost of (c/10 + 0.5) user and
# 0.25 system seconds over 1 + c/50 wall seconds, and one measurement marked not valid (which the
# sweep must leave out).
fake=$root/fakeclomp
cat >"$fake" <<'FAKE'
#!/usr/bin/env bash
json=''
for a in "$@"; do
    case $a in --dry-run) exit 0 ;; --json=*) json=${a#--json=} ;; esac
done
c=$(( $(cat "$FAKE_COUNTER" 2>/dev/null || echo 0) + 1 ))
echo "$c" >"$FAKE_COUNTER"
printf '%s\t%s\t%s\n' "$c" "${FAKE_A-unset}" "${FAKE_B-unset}" >>"$FAKE_LOG"
a=${FAKE_A:-0}
case $a in *[!0-9]*) a=7 ;; esac
v() { awk -v a="$a" -v c="$c" -v k="$1" 'BEGIN { printf "%.10g", a * 10 * k + c / 100 }'; }
cat >"$json" <<JSON
{"schema": "clomp-result", "schema_version": 1,
 "measurements": [
  {"key": "parallel", "name": "OMP Parallel", "selected": true, "us_per_loop": $(v 1)},
  {"key": "barrier", "name": "OMP Barrier", "selected": true, "us_per_loop": $(v 2), "valid": true},
  {"key": "parallel_for", "name": "Parallel For", "selected": true, "us_per_loop": $(v 3)},
  {"key": "static", "name": "Static OMP", "selected": true, "us_per_loop": 99, "overhead_us_per_loop": $(v 4),
   "valid": $([ $((c % 5)) = 0 ] && echo false || echo true)}],
 "process_cost": {"user_cpu_seconds": $(awk -v c="$c" 'BEGIN { print c / 10 + 0.5 }'), "system_cpu_seconds": 0.25,
                  "wall_seconds": $(awk -v c="$c" 'BEGIN { print 1 + c / 50 }'),
                  "cpus_busy": $(awk -v c="$c" 'BEGIN { printf "%.17g", (c / 10 + 0.5 + 0.25) / (1 + c / 50) }')}}
JSON
echo "fake clomp, call $c"
[ "$c" != "${FAKE_FAIL_CALL-}" ] || { echo "fake clomp: failing on purpose" >&2; exit 3; }
FAKE
chmod +x "$fake"
export FAKE_COUNTER=$root/counter FAKE_LOG=$root/fake.log

rm -f "$FAKE_COUNTER" "$FAKE_LOG"
sweep_dir=$root/sweep
drive --sweep FAKE_A=1,2 FAKE_B=x,'y z' --side "$fake" --replicates 3 --out "$sweep_dir" --no-plots 2 1 16 100 32 1 1
is "$rc" 0 "a sweep of 2 x 2 stand-in settings, 3 processes each: exit 0"
is "$(cut -f2,3 "$FAKE_LOG" | tr '\t\n' '/;')" \
    "1/x;1/y z;2/x;2/y z;2/y z;2/x;1/y z;1/x;1/x;1/y z;2/x;2/y z;" \
    "every combination runs, interleaved: 1 2 3 4, then 4 3 2 1, then 1 2 3 4, each with its own settings (a space kept)"
stem=$sweep_dir/CLOMP_${host}_1_sweep
ok "$([ -f "$stem.txt" ] && [ -f "$stem.csv" ] && [ -f "$stem.json" ] && [ -f "$stem.html" ] && [ -f "$stem.full" ] &&
    [ -f "$sweep_dir/CLOMP_${host}_1.env" ] && [ -f "${stem}_c4r3.json" ]; echo $?)" \
    "the sweep leaves .txt, .csv, .json, .html, .full, .env and each process's record under one new ID"
like "$out" "Processes: 3 per combination, 4 combinations" "the text says how many processes and combinations ran"
like "$out" "Load: [0-9.]+ [0-9.]+ [0-9.]+ .* before, [0-9.]+ " "the text quotes the load average before and after"

check=$(python3 - "$stem" "$FAKE_LOG" <<'PY'
import csv, json, sys
stem, log = sys.argv[1], sys.argv[2]
calls = [l.rstrip("\n").split("\t") for l in open(log)]
def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
rows = {(r["combination"], r["figure"]): r for r in csv.DictReader(open(stem + ".csv", newline=""))}
doc = json.load(open(stem + ".json"))
bad = []
# The sweep's figures by the catalogue's keys (clomp --list-figures: the median chunks and the project's overhead).
members = {"omp_parallel_median_us_per_loop": ("parallel", "us_per_loop"),
           "omp_barrier_median_us_per_loop": ("barrier", "us_per_loop"),
           "parallel_for_median_us_per_loop": ("parallel_for", "us_per_loop"),
           "static_omp_median_overhead_us": ("static", "overhead_us_per_loop")}
for c in range(1, 5):
    recs = [json.load(open("%s_c%dr%d.json" % (stem, c, r))) for r in (1, 2, 3)]
    for fig, (key, member) in members.items():
        vals = [m[member] for rec in recs for m in rec["measurements"] if m["key"] == key and m.get("valid") is not False]
        row = rows.get((str(c), fig))
        if row is None:
            bad.append("no row %d %s" % (c, fig)); continue
        if abs(float(row["median"]) - median(vals)) > 1e-9 * abs(median(vals)) or int(row["processes"]) != len(vals):
            bad.append("%d %s: median %s from %s processes, want %r from %d" % (c, fig, row["median"], row["processes"], median(vals), len(vals)))
        if float(row["min"]) != min(vals) or float(row["max"]) != max(vals) or row["ci95_low"] != "":
            bad.append("%d %s: min/max/interval %s %s %r" % (c, fig, row["min"], row["max"], row["ci95_low"]))
    cpu = [(r["process_cost"]["user_cpu_seconds"] + r["process_cost"]["system_cpu_seconds"]) / r["process_cost"]["wall_seconds"] for r in recs]
    row = rows.get((str(c), "cpu_per_wall"))
    if row is None or abs(float(row["median"]) - median(cpu)) > 1e-9 * median(cpu):
        bad.append("%d CPU/wall %s, want %r" % (c, row and row["median"], median(cpu)))
    entry = doc["combinations"][c - 1]
    marked = sum(1 for rec in recs for m in rec["measurements"] if m["key"] == "static" and m.get("valid") is False)
    if entry["not_valid"]["static_omp_median_overhead_us"] != marked:
        bad.append("%d: %s processes counted not valid, the records mark %d" % (c, entry["not_valid"]["static_omp_median_overhead_us"], marked))
    got_cpu = sorted(entry["figures"]["cpu_per_wall"]["values"])
    if len(got_cpu) != len(cpu) or any(abs(g - w) > 1e-12 * w for g, w in zip(got_cpu, sorted(cpu))):
        bad.append("%d JSON CPU/wall values %s against %s" % (c, entry["figures"]["cpu_per_wall"]["values"], cpu))
want_settings = [{"FAKE_A": a, "FAKE_B": b} for a in ("1", "2") for b in ("x", "y z")]
if [e["settings"] for e in doc["combinations"]] != want_settings:
    bad.append("JSON settings %s" % [e["settings"] for e in doc["combinations"]])
if doc["sequence"] != [1, 2, 3, 4, 4, 3, 2, 1, 1, 2, 3, 4] or doc["schema"] != "clomp-sweep" or doc["replicates"] != 3:
    bad.append("JSON sequence %s" % doc["sequence"])
print("; ".join(bad) if bad else "ok")
PY
)
is "$check" ok "each combination's medians, min and max (no interval from 3 processes) equal those the test computes from the processes' own records, a measurement marked not valid left out; CPU/wall is (user + system) / wall of each record; the JSON keeps the values, settings and run order"

# Six processes give the 95% interval of the median: ranks 1 and 6 of six (coverage 1 - 2/64).
rm -f "$FAKE_COUNTER" "$FAKE_LOG"
drive --sweep FAKE_A=3 --side "$fake" --replicates 6 --out "$sweep_dir" --no-plots 2 1 16 100 32 1 1
is "$(python3 - "$sweep_dir/CLOMP_${host}_2_sweep.csv" <<'PY'
import csv, sys
r = [x for x in csv.DictReader(open(sys.argv[1])) if x["figure"] == "omp_parallel_median_us_per_loop"][0]
v = sorted(30 + c / 100 for c in range(1, 7))
ok = float(r["ci95_low"]) == v[0] and float(r["ci95_high"]) == v[5] and abs(float(r["ci_coverage"]) - (1 - 2 / 64)) < 1e-12
print("ok" if ok else r)
PY
)" ok "with 6 processes the interval of the median is the smallest and largest of them (coverage 1 - 2/64), as order statistics give"

# A process that fails (its record written all the same) is reported and left out; the rest still run.
rm -f "$FAKE_COUNTER" "$FAKE_LOG"
FAKE_FAIL_CALL=3 drive --sweep FAKE_A=1,2 --side "$fake" --replicates 3 --out "$sweep_dir" --no-plots 2 1 16 100 32 1 1
fstem=$sweep_dir/CLOMP_${host}_3_sweep
[ "$rc" -eq 1 ] && [ "$(grep -c . "$FAKE_LOG")" -eq 6 ] && [[ $err == *"combination 2 (process 2) failed with exit status 3"* ]]
ok $? "a failing process (call 3: combination 2, process 2) makes the sweep exit 1 after every process ran, naming it"
like "$out" "Process 2 of combination 2 FAILED \(exit status 3\)" "the report says which process failed"
is "$(awk -F, '$1 == 2 && $3 == "omp_parallel_median_us_per_loop" { print $4 }' "$fstem.csv"),$(awk -F, '$1 == 1 && $3 == "omp_parallel_median_us_per_loop" { print $4 }' "$fstem.csv")" \
    "2,3" "its figures are left out (2 processes for combination 2, 3 for combination 1)"

# ---- 3. hostile values: environment only, escaped in HTML, quoted in CSV -----------------
rm -f "$FAKE_COUNTER" "$FAKE_LOG"
# shellcheck disable=SC2016  # the command substitutions are the point: no shell may run them
hostile='<b>&"'"'"'$(touch '$root'/pwned)`touch '$root'/pwned2`'
drive --sweep "FAKE_B=$hostile" --side "$fake" --replicates 2 --out "$root/hostile" --no-plots 2 1 16 100 32 1 1
html=$root/hostile/CLOMP_${host}_1_sweep.html
is "$rc" 0 "a sweep of a hostile value runs"
is "$(cut -f3 "$FAKE_LOG" | sort -u)" "$hostile" "the value reaches the processes' environment byte for byte"
ok "$([ ! -e "$root/pwned" ] && [ ! -e "$root/pwned2" ]; echo $?)" "and no shell ever read it (no command in it ran)"
ok "$(! grep -q '<b>&' "$html"; echo $?)" "the HTML page never holds the value's markup raw"
like "$(cat "$html")" 'FAKE_B=&lt;b&gt;&amp;&quot;&#x27;\$\(touch' "the HTML page shows it escaped"
is "$(python3 -c 'import csv,sys; print(sorted({r["settings"] for r in csv.DictReader(open(sys.argv[1]))})[0])' \
    "$root/hostile/CLOMP_${host}_1_sweep.csv")" "FAKE_B=$hostile" "the CSV's settings cell reads back as the value (quoted)"

# ---- 4. the charts, where gnuplot is installed --------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
    rm -f "$FAKE_COUNTER" "$FAKE_LOG"
    drive --sweep FAKE_A=1,2 --side "$fake" --replicates 2 --out "$root/charts" 2 1 16 100 32 1 1
    page=$root/charts/CLOMP_${host}_1_sweep.html
    [ "$rc" -eq 0 ] && [ "$(grep -c '<svg' "$page")" -eq 5 ] && [ -f "$root/charts/CLOMP_${host}_1_sweep_charts/sweep_cpu_per_wall.png" ]
    ok $? "with gnuplot the page inlines one chart per figure (5) and the PNGs are beside it"
else
    skip "one chart per figure" "gnuplot is not installed"
fi

done_testing
