#!/usr/bin/env bash
# run_clomp.sh --compare A,B, black box: bad specifications are refused with
# one line and exit 2 before anything runs; a stand-in clomp whose figures the
# test chooses shows the statistics end to end (a 2x difference is detected
# with the interval and p-value worked out here from the exact U
# distribution, a +4% one reads 1.04x with its interval; two interleaved
# samples are not flagged), sides run in the order A B B A A B B A ..., as
# the .txt and .json record, and settings reach only their side; who set the threads' placement
# (a side, the environment, or no one: the driver adds none) is recorded; the real clomp compared with
# itself reports no difference; the files (.txt, .csv, .json, .full, .env)
# share one new ID; the runtime library of each side is the one ldd resolves.
# Every run is tiny (timeScale 1, few processes). No timing is asserted.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
top=$(cd "$(dirname "$0")/.." && pwd)
driver=$top/run_clomp.sh
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
host=$(uname -n)
host=${host%%.*}
# The placement each side ran with is recorded: start from none set.
unset OMP_PROC_BIND OMP_PLACES GOMP_CPU_AFFINITY KMP_AFFINITY

root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$root"' EXIT

drive() {  # drive ARGS...: sets rc, out, err
    "$driver" "$@" </dev/null >"$root/drive.out" 2>"$root/drive.err"
    rc=$?
    out=$(cat "$root/drive.out")
    err=$(cat "$root/drive.err")
}

have_python=0
command -v python3 >/dev/null 2>&1 && have_python=1

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
refuse "an unknown preset" "unknown preset 'nosuch'" --compare nosuch,"$CLOMP" --quick
refuse "a missing binary" "side B: '\./no/such/clomp' is not an executable file" --compare "$CLOMP",./no/such/clomp --quick
refuse "a preset without a buildable binary (intel)" "preset 'intel' has no binary" --compare intel,"$CLOMP" --quick
refuse "a setting that is not VAR=VALUE" "'OMP_WAIT_POLICY' is not VAR=VALUE" --compare "$CLOMP"+OMP_WAIT_POLICY,"$CLOMP" --quick
refuse "three sides" "is not A,B" --compare "$CLOMP","$CLOMP","$CLOMP" --quick
refuse "one side" "is not A,B" --compare "$CLOMP" --quick
refuse "--replicates 1" "--replicates: '1' must be a whole number of at least 2" --compare "$CLOMP","$CLOMP" --replicates 1
refuse "six clomp numbers" "all seven clomp numbers or none \(got 6\)" --compare "$CLOMP","$CLOMP" 2 1 16 100 32 1
refuse "a clomp argument clomp refuses" "clomp refuses the arguments: .*trials" --compare "$CLOMP","$CLOMP" --quick --trials=0
refuse "--json (the driver writes its own)" "--json is the driver's own" --compare "$CLOMP","$CLOMP" --json=x.json
refuse "--csv (the driver reads its own)" "--csv is the driver's own" --compare "$CLOMP","$CLOMP" --csv=x.csv

drive --compare --help
[ "$rc" -eq 0 ] && [[ $out == *'A side is BASE[+VAR=VALUE...]'* ]] && [[ $out == *libomp* ]]
ok $? "--compare --help explains the side specification and exits 0"

# ---- 2. a stand-in clomp with chosen figures ------------------------------------------
# Each call takes the next number c from $FAKE_COUNTER, logs "c FAKE_SCALE" to
# $FAKE_LOG and writes, as clomp's --json does, a record with figures (1 + c/FAKE_STEP) x
# FAKE_SCALE (defaults 100 and 1), so that in the order A B B A A B B A ... A
# gets calls 1 4 5 8 9 12 and B 2 3 6 7 10 11: two interleaved samples. The report reads
# the record by member name: here the members are in another order than clomp's, with
# one clomp does not have, a measurement not selected, and the second measurement's
# name holds a comma (as clomp names its optional schedule "Static,1 OMP").
fake=$root/fakeclomp
cat >"$fake" <<'FAKE'
#!/usr/bin/env bash
json=''
for a in "$@"; do
    case $a in --dry-run) exit 0 ;; --json=*) json=${a#--json=} ;; esac
done
c=$(( $(cat "$FAKE_COUNTER" 2>/dev/null || echo 0) + 1 ))
echo "$c" >"$FAKE_COUNTER"
scale=${FAKE_SCALE:-1}
echo "$c $scale ${OMP_PROC_BIND-unset} ${OMP_PLACES-unset}" >>"$FAKE_LOG"
v=$(awk -v c="$c" -v d="${FAKE_STEP:-100}" -v s="$scale" 'BEGIN { printf "%.10g", (1 + c / d) * s }')
echo "fake clomp, call $c"
cat >"$json" <<JSON
{"not_a_clomp_member": 99, "schema": "clomp-result", "schema_version": 1,
 "measurements": [
  {"us_per_loop": $v, "name": "OMP Barrier", "key": "barrier", "selected": true, "overhead_us_per_loop": null, "statistics": {"median_ci_95": [99, 99]}},
  {"name": "Static,1 OMP", "overhead_us_per_loop": $v, "selected": true, "key": "static_1", "us_per_loop": $v},
  {"name": "Nested OMP", "selected": false, "key": "nested", "us_per_loop": null}],
 "process_cost": {"system_cpu_seconds": 0, "user_cpu_seconds": $v},
 "constructs": null}
JSON
FAKE
chmod +x "$fake"
export FAKE_COUNTER=$root/counter FAKE_LOG=$root/fake.log

# The statistics helper, wrapped to log its commands and keep what comparison-json writes.
real_stats=${CLOMP_STATS:-$top/build/clomp-stats}
cat >"$root/stats-wrapper" <<WRAP
#!/usr/bin/env bash
echo "\$1" >>"$root/stats.log"
if [ "\$1" = comparison-json ]; then "$real_stats" "\$@" | tee "$root/stats-json.out"; exit "\${PIPESTATUS[0]}"; fi
exec "$real_stats" "\$@"
WRAP
chmod +x "$root/stats-wrapper"

rm -f "$FAKE_COUNTER" "$FAKE_LOG"
fake_dir=$root/fake
CLOMP_STATS=$root/stats-wrapper drive --compare "$fake","$fake"+FAKE_SCALE=2 --replicates 6 --out "$fake_dir" 2 1 16 100 32 1 1
is "$rc" 0 "stand-in A against A x 2, 6 processes each: exit 0"
is "$(awk '{ printf "%s%s", s, $2; s = " " }' "$FAKE_LOG")" "1 2 2 1 1 2 2 1 1 2 2 1" \
    "the sides run A B B A A B B A ..., and +FAKE_SCALE=2 reaches B's processes only"
like "$out" "Processes: 6 per side, in the order A B B A A B B A A B B A \(ABBA\)" "the .txt records the order the processes ran in"
stem=$fake_dir/CLOMP_${host}_1_compare
ok "$([ -f "$stem.txt" ] && [ -f "$stem.csv" ] && [ -f "$stem.json" ] && [ -f "$stem.full" ] && [ -f "$fake_dir/CLOMP_${host}_1.env" ]; echo $?)" \
    "the comparison leaves .txt, .csv, .json, .full and .env under one new ID (1)"
is "$(grep -c '^=== process [0-9]*/12: side [AB], replicate [1-6]: ' "$stem.full")" 12 ".full holds all 12 processes' output, each marked with its side"
[ "$(grep -c '^comparison-json$' "$root/stats.log")" -eq 1 ] && [ -s "$stem.json" ] && cmp -s "$root/stats-json.out" "$stem.json"
ok $? "the .json is the document clomp-stats comparison-json wrote (once), byte for byte"
# Five figures (the interval's and the unknown column's 99 are none): Barrier, Static,1 us/Loop,
# Static,1 overhead, user CPU, system CPU: m = 5, so each is judged at 0.05/5 = 0.01 with a 99% interval. 6 against 6:
# C(12,6) = 924 arrangements with U = 0, 1, 2, 3 counted 1 1 2 3: P(U <= 2) = 4/924 <= 0.005 <
# P(U <= 3) = 7/924, so k = 3: ranks 3 and 34 of the 36 ratios. B above A everywhere: U = 36,
# p = 2/924.
like "$out" "each of the 5 figures is judged at p < 0.05/5" "the text says the table has 5 figures, each judged at 0.05/5"
like "$out" "B's OMP Barrier us/Loop is 2\.[0-9]{2}x A's \([0-9]\.[0-9]{2}\.\.[0-9]\.[0-9]{2}\)" \
    "the verdict for a doubled figure gives the ratio and its interval to 3 significant digits ('2.00x A's (1.87..2.13)')"
like "$out" "p-values: exact \(the permutation distribution of U\) for all 5 figures" "the .txt says which test gave the p-values"
if [ "$have_python" -eq 1 ]; then
    check=$(python3 - "$stem.csv" "$stem.json" <<'PY'
import csv, json, math, sys
rows = {r["figure"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))}
doc = json.load(open(sys.argv[2]))
a = [1 + c / 100 for c in (1, 4, 5, 8, 9, 12)]
b = [2 * (1 + c / 100) for c in (2, 3, 6, 7, 10, 11)]
ratios = sorted(y / x for x in a for y in b)
k = 3
want = {"estimate": math.sqrt(ratios[17] * ratios[18]), "ci95_low": ratios[k - 1], "ci95_high": ratios[36 - k]}
bad = []
for fig in ("OMP Barrier us/Loop", "Static,1 OMP us/Loop", "Static,1 OMP overhead us/Loop", "user CPU seconds"):
    r = rows.get(fig)
    if r is None:
        bad.append("no row " + fig); continue
    for col, w in want.items():
        if abs(float(r[col]) - w) > 1e-9 * w:
            bad.append("%s %s %s != %s" % (fig, col, r[col], w))
    if r["detected"] != "1" or abs(float(r["p"]) - 2 / 924) > 1e-12 or r["test"] != "exact" or float(r["u"]) != 36:
        bad.append("%s: detected %s p %s test %s u %s" % (fig, r["detected"], r["p"], r["test"], r["u"]))
    if abs(float(r["ci_coverage"]) - (1 - 8 / 924)) > 1e-12:
        bad.append("%s coverage %s" % (fig, r["ci_coverage"]))
s = rows.get("system CPU seconds")
if s is None or s["detected"] != "0" or float(s["p"]) != 1 or s["scale"] != "difference":
    bad.append("system CPU seconds (all 0): %s" % s)
if len(rows) != 5:
    bad.append("rows: %s" % sorted(rows))
j = {f["figure"]: f for f in doc["figures"]}
if sorted(j["OMP Barrier us/Loop"]["a"]) != sorted(a) or sorted(j["OMP Barrier us/Loop"]["b"]) != sorted(b):
    bad.append("JSON process values differ from the stand-in's")
if doc["figures_compared"] != 5 or abs(doc["interval_coverage_each"] - 0.99) > 1e-9 or doc["replicates"] != 6:
    bad.append("JSON level/replicates")
if doc["sides"][0]["settings"] != {} or doc["sides"][1]["settings"] != {"FAKE_SCALE": "2"} \
        or any(not x["placement"].startswith("not set: the threads may migrate") for x in doc["sides"]):
    bad.append("JSON settings %s" % [s["settings"] for s in doc["sides"]])
keys = ["schema", "schema_version", "date", "host", "arguments", "replicates", "order", "sequence", "interval", "figures_compared",
        "familywise_level", "interval_coverage_each", "sides", "figures"]
if list(doc) != keys or doc["schema"] != "clomp-comparison" or doc["schema_version"] != 1 or doc["order"] != "ABBA" \
        or doc["sequence"] != "ABBAABBAABBA":
    bad.append("JSON members %s" % list(doc))
side_keys = ["side", "spec", "what", "binary", "ld_library_path_first", "runtime_library", "settings", "placement"]
if [list(x) for x in doc["sides"]] != [side_keys, side_keys] or [x["side"] for x in doc["sides"]] != ["A", "B"]:
    bad.append("JSON side members %s" % [list(x) for x in doc["sides"]])
fig_keys = ["figure", "scale", "a", "b", "median_a", "median_b", "estimate", "ci_95", "ci_coverage", "u", "p", "test",
            "detected", "verdict"]
if sorted(j) != sorted(rows):
    bad.append("JSON figures %s, CSV rows %s" % (sorted(j), sorted(rows)))
for name, f in j.items():
    r = rows.get(name, {})
    if list(f) != fig_keys:
        bad.append("%s: JSON members %s" % (name, list(f)))
        continue
    close = lambda x, y: (x is None and y == "") or (x is not None and y != "" and abs(x - float(y)) <= 1e-12 * max(1, abs(x)))
    lo, hi = f["ci_95"] if f["ci_95"] is not None else (None, None)
    pairs = [(f["median_a"], r.get("median_a")), (f["median_b"], r.get("median_b")), (f["estimate"], r.get("estimate")),
             (lo, r.get("ci95_low")), (hi, r.get("ci95_high")), (f["ci_coverage"], r.get("ci_coverage")), (f["u"], r.get("u")),
             (f["p"], r.get("p"))]
    if not all(close(x, y) for x, y in pairs) or f["scale"] != r.get("scale") or f["test"] != r.get("test") \
            or f["detected"] != (r.get("detected") == "1") or f["verdict"] != r.get("verdict"):
        bad.append("%s: JSON %s against CSV %s" % (name, f, r))
print("; ".join(bad) if bad else "ok")
PY
)
    is "$check" ok "the CSV and JSON give, for each doubled figure, the median pairwise ratio, ranks 3 and 34 of the 36 ratios as its interval (coverage 1 - 8/924), U = 36, exact p = 2/924; all-zero system CPU is not flagged; the JSON keeps every process's value and each side's settings, has the documented members in order, and gives every figure's statistics and verdict as the CSV does"
else
    skip "the CSV and JSON hold the worked-out statistics" "no python3"
fi

is "$(awk '{ print $3, $4 }' "$FAKE_LOG" | sort -u)" "unset unset" \
    "no side sets a placement variable: the driver adds none (OMP_PROC_BIND and OMP_PLACES unset in every process)"
[ "$(grep -c '^ *placement: not set: the threads may migrate' "$stem.txt")" -eq 2 ]
ok $? "the .txt says, for each side, that no placement was set"

# A side's placement reaches its processes only, and is recorded; so is a driver's environment's.
rm -f "$FAKE_COUNTER" "$FAKE_LOG"
drive --compare "$fake","$fake"+OMP_PROC_BIND=false --replicates 2 --out "$root/placement" 2 1 16 100 32 1 1
is "$(awk '{ print ($1 == 1 || $1 == 4) ? "A" : "B", $3, $4 }' "$FAKE_LOG" | sort -u | tr '\n' ';')" "A unset unset;B false unset;" \
    "+OMP_PROC_BIND=false on B: B's processes get it, A's get nothing"
like "$out" "placement: set by the side \(OMP_PROC_BIND\)" "and the .txt says B set its own placement"
rm -f "$FAKE_COUNTER" "$FAKE_LOG"
OMP_PLACES=threads drive --compare "$fake","$fake" --replicates 2 --out "$root/placement" 2 1 16 100 32 1 1
is "$(awk '{ print $3, $4 }' "$FAKE_LOG" | sort -u)" "unset threads" \
    "OMP_PLACES=threads in the driver's environment: the processes run with it and nothing is added"
like "$out" "placement: set in the driver's environment \(OMP_PLACES=threads\)" "and the .txt says so"

rm -f "$FAKE_COUNTER" "$FAKE_LOG"
drive --compare "$fake","$fake" --replicates 6 --out "$fake_dir" 2 1 16 100 32 1 1
# Interleaved samples: U_B = 1 + 1 + 3 + 3 + 5 + 5 = 18 = mn/2, p = 1 for every figure.
[ "$rc" -eq 0 ] && [ "$(grep -c 'no difference detectable with 6 runs; smallest detectable: ' <<<"$out")" -eq 5 ] &&
    [[ $out == *'Verdict: no difference detectable with 6 runs in any figure.'* ]]
ok $? "two interleaved samples (U = mn/2) are flagged in none of the 5 figures, with 6 processes each"
# What the comparison could have detected, recomputed from the CSV's interval of each figure: the
# half-width on the log scale (ratios) or the plain half-width (differences), and the runs a side
# 5% needs if the width narrows as 1/sqrt(runs).
if [ "$have_python" -eq 1 ]; then
    is "$(python3 - "$fake_dir/CLOMP_${host}_2_compare.csv" <<'PY'
import csv, math, re, sys
bad = []
for r in csv.DictReader(open(sys.argv[1])):
    if r["ci95_low"] == "":
        continue
    lo, hi, n, a = float(r["ci95_low"]), float(r["ci95_high"]), int(r["n_a"]), float(r["median_a"])
    if r["scale"] == "ratio":
        h = (math.log(hi) - math.log(lo)) / 2
        want = "%.3gx" % math.exp(h)
        runs = math.ceil(n * (h / math.log(1.05)) ** 2)
    else:
        h = (hi - lo) / 2
        want = "+-%.3g" % h
        runs = math.ceil(n * (h / (0.05 * abs(a))) ** 2) if a != 0 else None
    m = re.search(r"smallest detectable: (\S+?)(?: \(|,| )", r["verdict"])
    k = re.search(r"about (\d+) runs a side", r["verdict"])
    if m is None or not m.group(1).startswith(want) or (runs is not None and (k is None or int(k.group(1)) != runs)):
        bad.append("%s: %r, want %s and %s runs" % (r["figure"], r["verdict"], want, runs))
print("; ".join(bad) if bad else "ok")
PY
)" ok "'no difference detectable' comes with the smallest difference the runs could detect and the runs a side 5% needs"
else
    skip "'no difference detectable' comes with what the runs could detect" "no python3"
fi
ok "$([ -f "$fake_dir/CLOMP_${host}_2_compare.txt" ]; echo $?)" "a second comparison takes the next free ID (2)"

# A +4% change, every B above every A: values 1 + c/1000, B's times 1.04. Of the 36 ratios
# 1.04 (1000 + b)/(1000 + a), the three smallest are 1.04 times 1002/1012, 1003/1012, 1002/1009 and
# the three largest 1011/1001, 1010/1001, 1011/1004, so ranks 3 and 34 (k = 3, as above) are
# 1.04 * 1002/1009 = 1.0328 and 1.04 * 1011/1004 = 1.0473; the median ratio is 1.04 (the calls are
# symmetric about 6.5): "1.04x A's (1.03..1.05)", which two significant digits wrote "1.0x A's (1.0..1.1)".
rm -f "$FAKE_COUNTER" "$FAKE_LOG"
FAKE_STEP=1000 drive --compare "$fake","$fake"+FAKE_SCALE=1.04 --replicates 6 --out "$fake_dir" 2 1 16 100 32 1 1
like "$out" "OMP Barrier us/Loop .* 1\.04 \(1\.03\.\.1\.05\) .* B's OMP Barrier us/Loop is 1\.04x A's \(1\.03\.\.1\.05\)$" \
    "a +4% change reads '1.04 (1.03..1.05)' in the table and '1.04x A's (1.03..1.05)' in the verdict"
verdicts=$(awk -F'"' '/^OMP Barrier us\/Loop,/ { print $2 }' "$fake_dir/CLOMP_${host}_3_compare.csv")
is "$verdicts" "B's OMP Barrier us/Loop is 1.04x A's (1.03..1.05)" "the CSV's verdict field reads the same"
if [ "$have_python" -eq 1 ]; then
    is "$(python3 -c 'import json, sys; print([f["verdict"] for f in json.load(open(sys.argv[1]))["figures"]][0])' \
        "$fake_dir/CLOMP_${host}_3_compare.json" 2>&1)" "B's OMP Barrier us/Loop is 1.04x A's (1.03..1.05)" "and so does the JSON's"
else
    skip "the JSON's verdict field reads the same" "no python3"
fi

# ---- 3. the real clomp against itself ---------------------------------------------------
self_dir=$root/self
drive --compare "$CLOMP","$CLOMP" --replicates 5 --quick --out "$self_dir"
is "$rc" 0 "--compare CLOMP,CLOMP --replicates 5 --quick exits 0"
figures=$(sed -n '/^figure /,/^$/p' <<<"$out" | sed '1d;$d')
flagged=$(grep -vc 'no difference detectable' <<<"$figures")
# 13 figures on 2 threads: 8 us/Loop (Nested OMP is N/A below 2x2), 3 overheads, 2 CPU times;
# an overhead that is not a result (issue 35: empty in a process's CSV) is not compared: at least 10.
[ "$(line_count "$figures")" -ge 10 ] && [ "$flagged" -eq 0 ] && [[ $out == *'Verdict: no difference detectable with 5 runs in any figure.'* ]]
ok $? "a binary compared with itself: every figure (us/Loop of each measurement, overheads, CPU seconds) says no difference detectable"
like "$out" "Arguments: [0-9]+ 1 64 100 32 1 1" "--quick compares the target input at timeScale 1"
if [ "$have_python" -eq 1 ]; then
    json_figures=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["figures"]))' \
        "$self_dir/CLOMP_${host}_1_compare.json" 2>&1)
    is "$json_figures" "$(line_count "$figures")" "its .json parses and holds every figure of the table"
else
    skip "its .json parses and holds every figure of the table" "no python3"
fi
want_lib=$(readlink -f "$(ldd "$CLOMP" | awk '/libgomp\.so|libomp\.so/ { print $3; exit }')")
like "$out" "runtime library: $want_lib " "each side records the runtime library ldd resolves for it ($want_lib)"

# ---- 4. the libomp side: the same gcc binary on LLVM's runtime ---------------------------
libomp=''
for candidate in /usr/lib/llvm-*/lib/libomp.so.5; do [ ! -e "$candidate" ] || libomp=$candidate; done
# Not under the sanitizers (make asan): their runtime would have to load LLVM's libomp as well.
if [ -n "$libomp" ] && [ "$CLOMP" = "$top/clomp" ] && [ -z "${CLOMP_SANITIZED-}" ] && "$CLOMP" --version | grep -q '^compiler: GCC'; then
    drive --compare "$CLOMP",libomp --replicates 2 --quick --out "$root/libomp" --schedules=barrier
    is "$rc" 0 "--compare CLOMP,libomp runs the gcc build on libomp (2 processes each)"
    b_lib=$(awk '/^ *Side B: libomp: / { getline; print; exit }' <<<"$out")
    like "$b_lib" "^ *runtime library: $(readlink -f "$libomp") " \
        "side libomp resolves libgomp.so.1 to LLVM's $(readlink -f "$libomp")"
    like "$out" "settings: .*KMP_BLOCKTIME=infinite" "and carries env/llvm.sh's settings"
    [ "$(grep -c '^=== end of process [0-9]*: exit status 0$' "$root/libomp/CLOMP_${host}_1_compare.full")" -eq 4 ]
    ok $? "every process on libomp verified and exited 0"
else
    skip "--compare CLOMP,libomp" "no libomp.so.5 (libomp-dev), a sanitized build, or CLOMP is not this tree's gcc-built ./clomp"
fi

done_testing
