#!/usr/bin/env bash
# The suite manifest, <base>.suite.json (issue 46, items 1 and 7): a quick suite
# leaves one whose plan is the plan the driver logged and whose run states are
# what .done, .runs.csv and the records say (each read here on its own, with
# python's json and csv); the reports, --resume and the validator read the
# manifest, so a .env whose plan line is garbage changes no byte of them; a
# manifest of a newer major version is refused in one line. A suite from
# before the manifest (the golden suite) gets one built by the converter:
# the validator and the buyer's table read its bundle, and --resume of it
# runs what is left (without python3: refused in one line naming the version).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3 (the reports are the results package's)"; exit 0; }
root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$root"' EXIT
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
results() { python3 "$top/results/clomp-results" "$@"; }
host=$(uname -n | tr -c 'A-Za-z0-9.\n-' '_')
host=${host%%.*}

out=$root/out
quick=(--quick --max-zone-scale 1 --replicates 2 --no-constructs --no-plots --calibrate=off)
"$top/run_clomp.sh" "${quick[@]}" --out "$out" "$CLOMP" 2 1 </dev/null >"$root/suite.out" 2>"$root/suite.err"
is "$?" 0 "a quick suite completes"
base=$out/CLOMP_${host}_1
ok "$([ -f "$base.suite.json" ]; echo $?)" "it leaves its manifest, $(basename "$base").suite.json"
is "$(find "$out" -maxdepth 1 -name ".*suite.json*" | wc -l | tr -d ' ')" 0 "and no temporary copy of it (each write is a new file renamed over the old)"
is "$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["replicates"]; print(r["asked"], r["planned"])' "$base.suite.json")" \
    "fixed 2" "its replicates say what was asked: fixed, 2 processes (docs/suite-manifest.md: fixed or auto, never auto10)"

# The oracle: the manifest, the .env's plan line, .done, .runs.csv and the records, each read on its own.
check_manifest() {
    python3 - "$1" <<'PY'
import csv, json, os, sys
base = sys.argv[1]
m = json.load(open(base + ".suite.json"))
env_plan = [line[len("plan: "):] for line in open(base + ".env") if line.startswith("plan: ")][0]
logged = [p.split("|") for p in env_plan.split(";") if "|" in p]
done = [int(x) for x in open(base + ".done").read().split()]
rows = {int(r["run"]): r for r in csv.DictReader(open(base + ".runs.csv"))}
said = []
said.append("schema %s %d.%d, %s" % (m["schema"], m["schema_major"], m["schema_minor"], m["status"]))
said.append("plan %s" % ("as logged" if [[e["set"], "" if e["numa"] == "first-touch" else e["numa"], " ".join(e["args"])]
                                       for e in m["plan"]] == logged else "differs"))
bad = []
for e, r in zip(m["plan"], m["runs"]):
    rec = json.load(open(os.path.join(os.path.dirname(base), r["record"])))
    inputs = [str(rec["inputs"][k]) for k in ("numThreads", "allocThreads", "numParts", "zonesPerPart", "zoneSize", "flopScale", "timeScale")]
    if r["run"] != e["run"] or r["status"] != "done" or e["run"] not in done or inputs != e["args"] \
            or rows[e["run"]]["status"] != "OK" or float(rows[e["run"]]["seconds"]) != r["seconds"] \
            or e["threads"] != int(e["args"][0]) or e["time_scale"] != int(e["args"][6]):
        bad.append(e["run"])
said.append("runs %s" % ("agree" if not bad and len(m["runs"]) == len(done) else "differ: %s" % bad))
print("; ".join(said))
PY
}
is "$(check_manifest "$base")" "schema clomp-suite-manifest 1.2, complete; plan as logged; runs agree" \
    "the manifest's plan is the one the driver logged, and each run is done, with its record, exit status and seconds"

# The reports from the manifest: .env's plan line (and max threads) made garbage, they are the same bytes.
saved=$root/saved
mkdir "$saved"
results tables "$base" --write >/dev/null && results between "$base" >/dev/null && results report --no-charts "$base" >/dev/null
cp "$base"_*.summary "$base.csv" "$base"_key.processes.* "$base.html" "$saved/"
results validate "$base" >"$saved/verdict" 2>&1
sed -i -e 's/^plan: .*/plan: exe=garbage;key||9 9 9;nothing|at|all;/' -e '/^max threads: /d' "$base.env"
results tables "$base" --write >/dev/null && results between "$base" >/dev/null && results report --no-charts "$base" >/dev/null
# same_html A B: two renders of a page agree but for the .env's line in its list of raw files (it gives
# each one's size: the .env's is the log's, edited here) and the line stamping when it was made (to the
# minute: two renders may straddle one), exactly that line.
stamp='^<p class="na">Made by run_clomp\.sh (results/clomp_results) on [0-9]\{4\}-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9] UTC\. Self-contained: no scripts, no network\.</p>$'
same_html() { cmp -s <(grep -v -e '\.env">' -e "$stamp" "$1") <(grep -v -e '\.env">' -e "$stamp" "$2"); }
same=0
for f in "$saved"/*; do
    case ${f##*/} in
        verdict) ;;
        *.html) same_html "$f" "$out/${f##*/}" || { same=1; diag "${f##*/} differs"; } ;;
        *) cmp -s "$f" "$out/${f##*/}" || { same=1; diag "${f##*/} differs"; } ;;
    esac
done
ok "$same" "with .env's plan line garbage, the tables, the between-process summary and the HTML report (but the .env's size in its list of files and the minute it was made) are byte for byte the same"
page=$(basename "$base").html
sed 's/ on [0-9-]* [0-9:]* UTC\. Self-contained/ on 1999-12-31 23:59 UTC. Self-contained/' "$saved/$page" >"$root/restamped.html"
sed 's/Self-contained: no scripts/Self-contained: some scripts/' "$saved/$page" >"$root/reworded.html"
ok "$( ! cmp -s "$saved/$page" "$root/restamped.html" && same_html "$saved/$page" "$root/restamped.html" &&
      ! same_html "$saved/$page" "$root/reworded.html"; echo $?)" \
    "(the comparison leaves out the time the page was made, and nothing else on that line)"
results validate "$base" >"$root/verdict" 2>&1
ok "$(cmp -s "$saved/verdict" "$root/verdict"; echo $?)" "and so is the validator's verdict"

# --resume reads the manifest's plan signature, not .env's (garbage now).
sed -i '$d' "$base.done"
"$top/run_clomp.sh" "${quick[@]}" --out "$out" --resume 1 "$CLOMP" 2 1 </dev/null >"$root/resume.out" 2>&1
is "$?" 0 "--resume of a suite whose .env plan line is garbage runs what is left (the manifest's plan)"
is "$(check_manifest "$base")" "schema clomp-suite-manifest 1.2, complete; plan differs; runs agree" \
    "and the manifest says every run done again (its plan is not the garbage .env says)"
like "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["history"])' "$base.suite.json")" "'resumed .*'complete " \
    "its history has the resume, then the end"
"$top/run_clomp.sh" "${quick[@]}" --out "$out" --resume 1 "$CLOMP" 2 2 </dev/null >"$root/other.out" 2>&1
is "$?:$(tail -n 1 "$root/other.out")" "2:run_clomp.sh: --resume: suite 1 was started with other parameters (see $base.suite.json); give the same ones" \
    "--resume with other parameters is refused, naming the manifest"

# A manifest of a major version this reader does not know: one line, exit 1.
sed -i 's/^  "schema_major": 1,$/  "schema_major": 2,/' "$base.suite.json"
results load "$base" >"$root/major.out" 2>&1
is "$?:$(wc -l <"$root/major.out" | tr -d ' ')" "1:1" "a manifest of schema_major 2 is refused in one line (exit 1)"
like "$(cat "$root/major.out")" "clomp-suite-manifest 2 needs a newer reader \\(this one reads 1\\.x\\)" "which names the version it needs"

# ---- item 7: the golden suite, made before the manifest, under this host's name -------------
old=$root/old
mkdir "$old"
for f in "$top"/tests/golden/suite/CLOMP_vm_1*; do cp -r "$f" "$old/CLOMP_${host}_1${f##*/CLOMP_vm_1}"; done
obase=$old/CLOMP_${host}_1
results manifest "$obase" >"$root/converted.json"
like "$(python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); print(m["converted"], len(m["plan"]), [r["status"] for r in m["runs"]].count("done"), m["status"])' "$root/converted.json")" \
    "^built from the .env .* 8 8 complete$" "the converter builds an old suite's manifest: 8 runs planned, 8 done, complete"
results bundle "$obase" >/dev/null
is "$(tar -tzf "$obase.tar.gz" | grep -c "/CLOMP_${host}_1.suite.json$")" 1 "its bundle carries the manifest built from what it carries"
"$top/clomp_validate" "$obase.tar.gz" >"$root/old.verdict" 2>&1
is "$?" 3 "the validator reads the old bundle: valid, not submission-grade (a quick suite)"
"$top/clomp_compare" --out "$root/buyer" "$obase.tar.gz" "$top/tests/golden/suite" >"$root/buyer.out" 2>&1
is "$?" 0 "the buyer's table reads the old bundle beside the old suite's directory"

# --resume of the old suite: run 5 taken back, the converter's manifest, the run again.
if [ "$("$top/run_clomp.sh" --quick --max-zone-scale 1 --replicates 2 --dry-run ./clomp 2 1 2>/dev/null | grep -c '^\[')" != 8 ]; then
    for k in 1 2 3 4; do skip "--resume of the golden suite ($k)" "this node plans other runs for its arguments (cores: the team-size cliff)"; done
else
    rm -f "$obase.tar.gz" "$obase.html"
    sed -i '/^5$/d' "$obase.done"   # run 5 (6400 zones, 2 threads): the cheapest to run again
    mkdir "$root/bin"
    printf '#!/bin/sh\necho "python3: not here" >&2\nexit 127\n' >"$root/bin/python3"
    chmod +x "$root/bin/python3"
    (cd "$top" && PATH=$root/bin:$PATH ./run_clomp.sh --quick --max-zone-scale 1 --replicates 2 --no-plots --out "$old" --resume 1 ./clomp 2 1 \
        </dev/null >"$root/oldnopy.out" 2>&1)
    is "$?:$(tail -n 1 "$root/oldnopy.out")" "2:run_clomp.sh: --resume: $obase has no manifest (suite made before clomp-suite-manifest 1.0): convert it where python3 runs (results/clomp-results manifest --write $obase), then resume" \
        "without python3, --resume of an old suite is refused in one line naming the version it needs"
    (cd "$top" && ./run_clomp.sh --quick --max-zone-scale 1 --replicates 2 --no-plots --out "$old" --resume 1 ./clomp 2 1 </dev/null >"$root/oldresume.out" 2>&1)
    is "$?" 0 "--resume of the old suite exits 0"
    like "$(python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); print(m["converted"].startswith("built from the .env"), [r["status"] for r in m["runs"]].count("done"), m["status"])' "$obase.suite.json")" \
        "^True 8 complete$" "with the manifest built from its .env, every run done and the suite complete"
    # A suite from before .runs.csv has no record of its runs: each runs again (docs/suite.md,
    # "--resume"), so the resumed suite is made whole by one binary, and its bundle is valid.
    is "$(cut -d, -f1 "$obase.runs.csv" | tr '\n' ' ')" "run 1 2 3 4 5 6 7 8 " "every run of it ran again (the driver's .runs.csv holds each)"
fi
done_testing
