#!/usr/bin/env bash
# What a suite leaves for people and for buyers: the suite's measurement
# table (<base>.csv) against the .summary rows, the gnuplot charts, the HTML
# report rendered in headless Chromium (headings, inline charts, a screenshot
# that is not blank), the submission bundle and ./clomp_validate: valid as
# made, invalid with a named reason after each kind of damage (one changed
# byte, a removed file, a run marked FAILED, a checksum that differs, a run
# record naming other inputs, a fast-math build, oversubscription, a
# construct row marked failed or the construct table removed), and "not a
# bundle" for other files; the construct runs' table (<base>.constructs.csv)
# against their own output, in the report and its charts, and resumed. One
# quick suite (--max-zone-scale 10: 13 runs of about 0.2 s); no timing is asserted.
# The quick lane cuts the headless Chromium checks and the resume of a suite whose
# last construct run did not finish (section 8; make check-all runs both).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out=''
top=$(cd "$(dirname "$0")/.." && pwd)
driver=$top/run_clomp.sh
validate=$top/clomp_validate
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$root"' EXIT

host=$(uname -n)
host=${host%%.*}
host=$(printf '%s' "$host" | tr -c 'A-Za-z0-9.-' '_')
# No more threads than cores, or the validator rightly calls the suite oversubscribed.
cores=$(lscpu -p=CORE,SOCKET 2>/dev/null | grep -v '^#' | sort -u | wc -l)
cpus=$(env -u OMP_NUM_THREADS nproc)
[ "$cores" -ge 1 ] && [ "$cores" -le "$cpus" ] || cores=$cpus
threads=$((cores < 2 ? cores : 2))
have_python=0
command -v python3 >/dev/null 2>&1 && have_python=1
have_gnuplot=0
command -v gnuplot >/dev/null 2>&1 && have_gnuplot=1

# ---- 1. a quick suite ---------------------------------------------------------------------
dir=$root/out
"$driver" --quick --max-zone-scale 10 --out "$dir" "$CLOMP" "$threads" </dev/null >"$root/suite.out" 2>"$root/suite.err"
is "$?" 0 "a quick suite ($threads threads) completes with exit 0"
base=$dir/CLOMP_${host}_1
plan=$(sed -n 's/^plan: //p' "$base.env" | tr ';' '\n' | grep '|')
runs=$(grep -c . <<<"$plan")
# The mesh runs (their rows in <base>.csv) and the construct runs (theirs in <base>.constructs.csv).
mesh_runs=$(awk -F'|' '$1 !~ /^constructs/ { print NR }' <<<"$plan" | paste -sd ' ')
construct_runs=$(awk -F'|' '$1 ~ /^constructs/ { print NR }' <<<"$plan" | paste -sd ' ')
like "$(cat "$root/suite.out")" "^Report: $base\\.html$" "stdout names the HTML report"
like "$(cat "$root/suite.out")" "^Submission bundle: $base\\.tar\\.gz " "stdout names the submission bundle"

# ---- 2. the suite's measurement table ---------------------------------------------------------
if [ "$have_python" = 1 ]; then
    check=$(python3 - "$base" "$mesh_runs" "$(schedule_list '' default 1 | paste -sd, -)" <<'PY'
import csv, glob, sys
base, mesh_runs = sys.argv[1], [int(k) for k in sys.argv[2].split()]
default_keys = sys.argv[3].split(",")   # the default sequence, from clomp --list-schedules
rows = list(csv.DictReader(open(base + ".csv", newline="")))
bad = []
per_run = {}
for r in rows:
    per_run.setdefault(int(r["run"]), []).append(r)
if sorted(per_run) != mesh_runs:
    bad.append("runs %s" % sorted(per_run))
for k, rs in per_run.items():
    keys = [r["key"] for r in rs]
    if keys != default_keys or keys[:9] != ["calc_deposit", "barrier", "serial", "bestcase", "static", "dynamic", "manual", "nested", "parallel"]:
        bad.append("run %d keys %s" % (k, keys))
# Every .summary cell is the table's value for that run and measurement.
names = {"calc_deposit": "calc_deposit", "barrier": "omp_barrier", "serial": "serial_ref", "bestcase": "bestcase_omp",
         "static": "static_omp", "dynamic": "dynamic_omp", "manual": "manual_omp", "nested": "nested_omp"}
cells = 0
for path in glob.glob(base + "_*.summary"):
    for s in csv.DictReader(open(path, newline="")):
        k = int(s["run"])
        by = {r["key"]: r for r in per_run.get(k, [])}
        for key, name in names.items():
            r = by.get(key, {})
            # CLOMP 1.2's figures, from Runtime, as the run's own summary prints them.
            for col, src in [("us_per_loop", "runtime_us_per_loop"), ("speedup", "runtime_speedup"),
                             ("efficacy_percent", "runtime_efficacy_percent"), ("overhead_us", "runtime_overhead_us")]:
                want = r.get(src, "")
                cells += 1
                if s[name + "_" + col] != want:
                    bad.append("run %d %s_%s: summary %r, table %r" % (k, name, col, s[name + "_" + col], want))
        if s["omp_parallel_us_per_loop"] != by.get("parallel", {}).get("runtime_us_per_loop", ""):
            bad.append("run %d omp_parallel" % k)
        for col in ["numThreads", "allocThreads", "numParts", "zonesPerPart", "zoneSize", "flopScale", "timeScale"]:
            if any(r[col] != s[col] for r in per_run.get(k, [])):
                bad.append("run %d %s" % (k, col))
        if any(r["run_status"] != s["status"] or r["set"] != s["set"] for r in per_run.get(k, [])):
            bad.append("run %d status/set" % k)
print("cells %d" % cells)
for b in bad:
    print(b)
PY
)
    is "$(sed 1d <<<"$check")" "" "every .summary cell (us/Loop, speedup, efficacy, overhead, inputs, status) is the suite table's value for that run (none for a construct run), and the table has all 9 measurements of every mesh run"
    like "$(head -n 1 <<<"$check")" "^cells $((runs * 32))\$" "the comparison covered 32 measurement cells per run"
else
    skip "the summaries against the suite's table" "python3 not installed"
    skip "the comparison covered every cell" "python3 not installed"
fi

# ---- 3. the charts ------------------------------------------------------------------------------
# A chart is drawn exactly when one of its series has a valid point, a series exactly when it has
# one (issue 35: an invalid measurement or an unresolved construct row is not a point). On a busy
# machine (make check runs two test files at a time) a live suite may have fewer; the expectation
# is read from the suite's own records by tests/python/expected_charts.py, independently of the
# renderer, so the checks are exact either way. The committed quiet suite (tests/golden/suite,
# section 3b) holds the full case and the omission case deterministically.
# drawn_series CHARTS_DIR: 'stem<TAB>series|...' per SVG chart, its legend titles sorted.
drawn_series() {
    local f
    for f in "$1"/*.svg; do
        [ -e "$f" ] || continue
        printf '%s\t%s\n' "$(basename "$f" .svg)" "$(grep -o '<title>[^<]*</title>' "$f" | sed 's/<[^>]*>//g' |
            grep -vE '^(Gnuplot|Produced by GNUPLOT)$' | grep -vx 'gnuplot_plot_[0-9]*' | LC_ALL=C sort | paste -sd '|')"
    done | LC_ALL=C sort
}
# expected_series BASE: the same, as the records say.
expected_series() { python3 "$top/tests/python/expected_charts.py" "$1" "$CLOMP" | LC_ALL=C sort; }
# without_circles: drawn_series less the legend entry of circled points (no interval), which marks
# points, not a series.
without_circles() { sed -E 's/\|?(no interval \(unresolved\)|unresolved)(\||$)/\2/; s/\t\|/\t/'; }
if [ "$have_gnuplot" = 1 ] && [ "$have_python" = 1 ]; then
    chart_want=$(expected_series "$base")
    want_charts=$(cut -f1 <<<"$chart_want" | paste -sd ' ')
    got=$(cd "${base}_charts" && find . -name '*.png' | sed 's|^\./||; s|\.png$||' | LC_ALL=C sort | paste -sd ' ')
    is "$got" "$want_charts" "charts: one PNG for each chart the records support (a series with a valid point): ${want_charts:-none}"
    bad=''
    for c in $want_charts; do
        [ "$(head -c 8 "${base}_charts/$c.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || bad+="$c.png "
        grep -q '<svg' "${base}_charts/$c.svg" 2>/dev/null || bad+="$c.svg "
    done
    is "$bad" "" "every chart is a PNG (by its signature) and an SVG"
    is "$(drawn_series "${base}_charts" | without_circles)" "$chart_want" \
        "every chart has a legend entry for each series with a valid point in the records, no other (and its ideal line)"
    if grep -q '^speedup_6400zones' <<<"$chart_want"; then
        # Speedup: Bestcase and each checked schedule (their roles in clomp --list-schedules) that has
        # a point; Nested OMP has none below 2x2 threads.
        roles=$(schedule_list '' default 1 | while read -r k; do "$CLOMP" --list-schedules | awk -F'\t' -v k="$k" '$1 == k && ($3 == "bestcase" || $3 == "checked") && $2 != "Nested OMP" { print $2 }'; done)
        left=$(sed -n 's/^speedup_6400zones\t//p' <<<"$chart_want" | tr '|' '\n' | grep -vxF -f <(printf '%s\nideal\n' "$roles"))
        is "$left" "" "(the records' speedup series are Bestcase and checked schedules only)"
    else
        skip "the speedup series are Bestcase and checked schedules" "no valid speedup in this run (busy machine)"
    fi
else
    for d in "the charts exist" "every chart is PNG and SVG" "every chart has its series" "the speedup series' roles"; do skip "$d" "gnuplot or python3 not installed"; done
    want_charts='' chart_want=''
fi

# ---- 3b. the charts of the committed quiet suite, whole and with invalid figures -------------------
# tests/golden/suite (a quiet run: every figure valid) is copied, then redrawn: every chart it
# supports (5: one zone size), with every series. Then a copy whose Static OMP figures are marked
# invalid in their JSON records and whose synchronisation constructs are unresolved loses
# exactly those: the Static OMP series, the synchronisation chart; the HTML says why.
fixture_charts="constructs_loops constructs_sync efficacy overhead_6400zones speedup_6400zones"
if [ "$have_gnuplot" = 1 ] && [ "$have_python" = 1 ]; then
    fx=$root/fixture
    cp -a "$top/tests/golden/suite" "$fx"
    rm -rf "$fx"/CLOMP_vm_1_charts "$fx/CLOMP_vm_1.html"
    make -s -C "$top" plots OUT="$fx" >/dev/null 2>&1
    is "$?:$(drawn_series "$fx/CLOMP_vm_1_charts" | cut -f1 | paste -sd ' ')" "0:$fixture_charts" \
        "make plots on the committed quiet suite draws all 5 charts it supports (one zone size): speedup, overhead, efficacy, the two construct charts"
    is "$(drawn_series "$fx/CLOMP_vm_1_charts" | without_circles)" "$(expected_series "$fx/CLOMP_vm_1")" \
        "each of them with every series of its records"
    is "$(sed -n 's/^speedup_6400zones\t//p' <(drawn_series "$fx/CLOMP_vm_1_charts"))" "Bestcase OMP|Dynamic OMP|Manual OMP|Static OMP|ideal" \
        "the quiet suite's speedup chart has Bestcase, Static, Dynamic and Manual OMP and the ideal line"
    is "$(grep -c '<svg' "$fx/CLOMP_vm_1.html")" 5 "its HTML inlines the 5 charts as SVG"
    is "$(grep -c 'invalid, not a result' "$fx/CLOMP_vm_1.html")" 0 "and marks no figure invalid"

    fi_=$root/fixture-invalid
    cp -a "$top/tests/golden/suite" "$fi_"
    rm -rf "$fi_"/CLOMP_vm_1_charts "$fi_/CLOMP_vm_1.html"
    python3 - "$fi_" "$CLOMP" <<'PY'
import glob, json, subprocess, sys
sync = {l.split("\t")[0] for l in subprocess.run([sys.argv[2], "--list-constructs"], stdout=subprocess.PIPE,
        universal_newlines=True).stdout.splitlines() if l.count("\t") > 2 and l.split("\t")[2] == "sync"}
for path in glob.glob(sys.argv[1] + "/CLOMP_vm_1_*.run*.json"):
    d = json.load(open(path))
    for m in d.get("measurements") or []:
        if m.get("key") == "static":
            m["valid"], m["invalid_reason"] = False, "Runtime mean and median chunk differ 3.1x (test)"
    for row in (d.get("constructs") or {}).get("rows", []):
        if row["construct"] in sync:
            row["level2_over_level1"] = None
            for lv in row["levels"]:
                if lv["status"] == "measured":
                    lv.update(status="unresolved", problem="the machine was busy (test)", overhead_us=None,
                              overhead_ci95_low_us=None, overhead_ci95_high_us=None, overhead_cycles=None)
    with open(path, "w") as f:
        json.dump(d, f)
PY
    make -s -C "$top" plots OUT="$fi_" >/dev/null 2>&1
    is "$?" 0 "make plots on the quiet suite with Static OMP invalid and the synchronisation constructs unresolved exits 0"
    whole=$(drawn_series "$fx/CLOMP_vm_1_charts")
    less=$(grep -v '^constructs_sync' <<<"$whole" | sed -E 's/\|?Static OMP(\||$)/\1/; s/\t\|/\t/')
    is "$(drawn_series "$fi_/CLOMP_vm_1_charts")" "$less" \
        "it loses exactly the Static OMP series (speedup, overhead, efficacy) and the synchronisation chart"
    is "$(drawn_series "$fi_/CLOMP_vm_1_charts" | without_circles)" "$(expected_series "$fi_/CLOMP_vm_1")" \
        "(as the records say)"
    is "$(grep -c '<svg' "$fi_/CLOMP_vm_1.html")" 4 "its HTML inlines the 4 charts left"
    like "$(cat "$fi_/CLOMP_vm_1.html")" "\\(invalid, not a result: Runtime mean and median chunk differ 3\\.1x \\(test\\)\\)" \
        "the HTML marks the Static OMP figures invalid, with the record's reason"
    like "$(sed -n '/<h2 id="constructs">/,/<h2 id="environment">/p' "$fi_/CLOMP_vm_1.html")" \
        '<td class="undecided">unresolved: the machine was busy \(test\)</td>' \
        "and the construct table says the synchronisation rows are unresolved, and why"
else
    for d in "the quiet suite's charts" "their series" "its speedup series" "its HTML's charts" "no figure invalid" \
        "make plots with invalid figures" "loses exactly them" "as the records say" "its HTML's 4 charts" "the reason" "unresolved rows"; do
        skip "$d" "gnuplot or python3 not installed"
    done
fi

# ---- 4. the HTML report in a real browser --------------------------------------------------------
html=$base.html
[ -s "$html" ]
ok $? "the suite wrote $(basename "$html")"
net=$(grep -oiE '(src|href)="(https?:)?//[^"]*"|<script|<link |@import' "$html" | sort -u | paste -sd ' ')
is "$net" "" "the HTML is self-contained: no script, no stylesheet link, nothing loaded from the network"
svgs=$(grep -c '<svg' "$html")
if [ "$have_gnuplot" = 1 ]; then
    is "$svgs" "$(wc -w <<<"$want_charts")" "the HTML inlines each chart drawn as SVG ($(wc -w <<<"$want_charts"))"
fi
ids=$(grep -oE "id=['\"][^'\"]+['\"]" "$html" | sort | uniq -d | head -n 3 | paste -sd ' ')
is "$ids" "" "no id is used twice in the page (each inline chart's ids have their own prefix)"

chromium=$(command -v chromium || command -v chromium-browser || true)
# Two headless Chromium starts: the full lane (make check-all).
if ! full_lane; then
    skip "the HTML in headless Chromium" "full lane only (make check-all)"
elif [ -n "$chromium" ] && [ "$have_python" = 1 ]; then
    flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
        --disable-component-update --disable-sync)
    timeout 120 "$chromium" "${flags[@]}" --user-data-dir="$root/chrome1" --dump-dom "file://$html" \
        >"$root/dom.html" 2>"$root/chrome.err"
    is "$?" 0 "headless Chromium loads the report (--dump-dom)"
    headings=$(python3 - "$root/dom.html" <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.cur = None; self.h2 = []; self.svg = 0; self.figures = 0; self.td = []
    def handle_starttag(self, tag, attrs):
        if tag == "h2": self.cur = ""
        if tag == "svg": self.svg += 1
        if tag == "figure": self.figures += 1
    def handle_endtag(self, tag):
        if tag == "h2": self.h2.append(self.cur.strip()); self.cur = None
    def handle_data(self, d):
        if self.cur is not None: self.cur += d
p = P(); p.feed(open(sys.argv[1]).read())
print("|".join(p.h2)); print(p.svg); print(p.figures)
PY
)
    # A full suite at MAX_THREADS = cores has the team-size cliff's run (issue 32, item 4); a build
    # without offload says in its Offload section why it has no offload runs (issue 34, item 5).
    # A "Busy runs" section (issue 43) follows Warnings only where the noise census found runs busy:
    # it depends on the machine's load during this suite, so it is left out of the comparison.
    # The node's limits (issue 48) follow the constructs: the suite's construct run measures them.
    is "$(sed -n 1p <<<"$headings" | sed 's/|Busy runs|/|/')" "Key results: the target input|Charts|Team-size cliff|OpenMP constructs|Node limits|Offload (OpenMP target)|Environment|Build|Warnings|Raw files" \
        "the rendered page has the headings: key results first, then charts, the team-size cliff, OpenMP constructs, node limits, offload, environment, build, warnings, raw files"
    if [ "$have_gnuplot" = 1 ]; then
        n=$(wc -w <<<"$want_charts")
        is "$(sed -n 2p <<<"$headings"):$(sed -n 3p <<<"$headings")" "$n:$n" "the rendered page has an SVG image for each chart drawn ($n), each in a figure"
    fi
    # On a busy machine a target's measurement can be invalid (issue 35): its verdict then reads "invalid"
    # (the full lane failed here once at load 11 with no other verdict on the page).
    # The judge's words (issue 44): OK, not met (...), unresolved: (...), invalid, unavailable (...).
    grep -Eq '<td class="(met|notmet|undecided|na)">(OK|met|not met|undecided|unresolved|invalid|unavailable)( \(|:|</td>)' "$root/dom.html"
    ok $? "the rendered key results give a verdict against LLNL's targets" ||
        diag "the LLNL verdict cells: $(grep -Eo '<td class="(met|notmet|undecided|na)">[^<]*</td>' "$root/dom.html" | sort | uniq -c | tr '\n' ';')"
    timeout 120 "$chromium" "${flags[@]}" --user-data-dir="$root/chrome2" --window-size=1100,1800 \
        --screenshot="$root/shot.png" "file://$html" >/dev/null 2>&1
    is "$?" 0 "headless Chromium takes a screenshot of the report"
    # A PNG decoder (zlib + the five scanline filters): how many colours the
    # screenshot has, and how much of it is not white.
    looks=$(python3 - "$root/shot.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
colours, inked = set(), 0
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, w, 2):
        px = bytes(line[x * bpp:x * bpp + 3])
        colours.add(px)
        if px != b"\xff\xff\xff": inked += 1
    prev = line
print(w, h, len(colours), round(100.0 * inked / (h * ((w + 1) // 2)), 1))
PY
)
    read -r sw sh ncolours inked <<<"$looks"
    is "${sw:-?}x${sh:-?}" "1100x1800" "the screenshot is 1100x1800 pixels"
    [ "${ncolours:-0}" -ge 50 ] && awk -v p="${inked:-0}" 'BEGIN { exit !(p >= 3) }'
    ok $? "the screenshot is not blank: ${ncolours:-?} colours, ${inked:-?}% of it not white (text, tables, charts)"
else
    skip "the HTML in headless Chromium" "${chromium:-chromium} not installed (apt-get install chromium) or no python3"
fi

# With replicates (3 by default) the headline is the target input's median over its
# processes (<base>_key.processes.csv), and says so; LLNL's verdicts are judged on them.
pcsv=${base}_key.processes.csv
between() { awk -F, -v f="$1" -v d="$2" 'NR > 1 && $3 == f && index(" " $5 " ", " 1 ") && $6 != "" { printf "%." d "f\n", $6 }' "$pcsv"; }
# (The processes the input ran as: a figure's own median may count fewer, those whose figure is valid.)
n=$(awk -F, 'NR > 1 && $3 == "static_omp_speedup" && index(" " $5 " ", " 1 ") { print split($5, r, " ") }' "$pcsv")
like "$(cat "$html")" "Figures: <b>the median over the processes of runs [0-9 ]+ \(--replicates\) that gave the figure" \
    "with replicates the headline says it is the median over the target input's processes that gave each figure"
# The headline's statistic and value cells of a median-chunk figure of Static OMP, worked out from the
# target input's records with json (the oracle, not the package): a process gives the figure when its
# census did not find the machine busy, Static OMP is not marked invalid and the member has a value; a
# median only from 3 or more processes and at least half of them (issue 43), else "no result (k of n
# processes gave one: <why>)".
headline_want() {  # headline_want MEMBER
    python3 - "$base" "$1" "$(awk -F, 'NR > 1 && index(" " $5 " ", " 1 ") { print $5; exit }' "$pcsv")" <<'PY'
import json, statistics, sys
base, member, runs = sys.argv[1], sys.argv[2], sys.argv[3].split()
values, why = [], {}
for r in runs:
    d = json.load(open("%s_key.run%s.json" % (base, r)))
    m = [x for x in d["measurements"] if x["key"] == "static"][0]
    reason = ("busy" if (d.get("noise_census") or {}).get("busy") is True else
              "invalid" if m.get("valid") is False else "not measured" if m.get(member) is None else None)
    if reason:
        why[reason] = why.get(reason, 0) + 1
    else:
        values.append(m[member])
k, n = len(values), len(runs)
said = ", ".join("%d %s" % (why[w], w) for w in ("busy", "invalid", "failed", "not measured") if w in why)
if k >= 3 and 2 * k >= n:
    print("median over %d of %d processes%s:%.4g" % (k, n, " (%s)" % said if said else "", statistics.median(values)))
else:
    print("median over processes:no result (%d of %d processes gave one%s)" % (
        k, n, ": " + said if said else "; a median needs 3"))
PY
}
cell() {  # cell LABEL: the headline row's statistic and value (its number, or the whole no-result text)
    sed -n "s|.*<td>$1</td><td>\([^<]*\)</td><td class=\"[a-z]*\">\([^<]*\)</td>.*|\1:\2|p" "$html" |
        sed -e 's/:\([-0-9.e+]*\) (.*/:\1/'
}
is "$(cell 'Static OMP speedup (median chunks)')" "$(headline_want speedup)" \
    "the headline's Static OMP speedup is the median over the processes that gave it, saying how many (or no result)"
is "$(cell 'Static OMP overhead us/Loop (median chunks)')" "$(headline_want overhead_us_per_loop)" \
    "the headline's overhead, the project's, is the median over the processes that gave it, saying how many (or no result)"
got=$(sed -n 's|.*<td>Barrier latency (OMP Barrier)</td><td class="num">\([^<]*\)</td>.*|\1|p' "$html" | sed 's/ (.*//')
want=$(between omp_barrier_llnl_target_cycles 0)
if [ -n "$want" ]; then
    is "$got" "$want" "LLNL's barrier verdict counts the median of the processes' barrier cycles"
elif [ -n "$(awk -F, 'NR > 1 && $3 == "omp_barrier_llnl_target_cycles" && index(" " $5 " ", " 1 ")' "$pcsv")" ]; then
    is "$got" "no result" "too few processes gave the barrier's cycles: the targets table says no result, and judges nothing"
else
    skip "LLNL's barrier verdict counts the median over processes" "no cycle rate on this machine"
fi
# Which clock the verdicts count, from run 1's CSV row (clomp's own columns).
read -r clock ghz cmin cmax < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
    NR > 1 && $c["run"] == 1 && $c["key"] == "barrier" { printf "%s %.3f %.2f %.2f\n", ($c["cycle_clock"] == "nominal TSC cycles" ? "tsc" : "other"), $c["ghz"], $c["core_clock_min_ghz"], $c["core_clock_max_ghz"] }' \
    "$base.csv")
if [ "$clock" = tsc ]; then
    like "$(cat "$html")" "Cycles are nominal TSC cycles at $ghz GHz; LLNL's targets are core cycles" \
        "the report says its verdicts count nominal TSC cycles, at the run's rate"
    like "$(tr '\n' ' ' <"$html")" "judged over the cores' clock range, $cmin to $cmax GHz" \
        "and that they are judged over the cores' clock range the run recorded ($cmin to $cmax GHz)"
else
    skip "the report says which clock its verdicts count" "no TSC count on this machine"
fi

# ---- 4b. the construct runs: their table, against their own output, in the report -----------------
ccsv=$base.constructs.csv
key_construct=$(awk -F'|' '$1 == "constructs" { split($3, a, " "); print a[1] }' <<<"$plan")
sweep=$(awk -F'|' '$1 ~ /^constructs_outer/ { split($3, a, " "); printf "%s ", a[1] }' <<<"$plan")
is "$key_construct" "$threads" "the plan has a construct run at the suite's $threads threads"
like "$sweep" "^2 4 " "and a sweep of inner teams 2, 4, ... under 2 outer threads"
"$CLOMP" --dry-run --constructs --csv="$root/construct-columns.csv" 2 1 4 10 32 1 1 >/dev/null 2>&1
is "$(head -n 1 "$ccsv" 2>/dev/null)" "run,set,run_status,run_exit_code,run_seconds,$(head -n 1 "$root/construct-columns.csv")" \
    "<base>.constructs.csv's header is the suite's run columns, then clomp's own construct table columns"
if [ "$have_python" = 1 ]; then
    check=$(python3 - "$base" "$construct_runs" "$plan" <<'PY'
import csv, glob, math, re, sys
base, runs, plan = sys.argv[1], sys.argv[2].split(), sys.argv[3].splitlines()
rows = list(csv.DictReader(open(base + ".constructs.csv", newline="")))
header = open(base + ".constructs.csv").readline().strip().split(",")
bad, compared = [], 0
if any(len(r) != len(header) or None in r for r in rows):
    bad.append("a row's field count differs from the header's")
if sorted({r["run"] for r in rows}, key=int) != runs:
    bad.append("runs %s, plan's construct runs %s" % (sorted({r["run"] for r in rows}), runs))
full = "".join(open(f).read() for f in glob.glob(base + "_constructs*.full"))
def tolerance(text):  # half a unit of the last digit printed
    if "." in text:
        return 0.5 * 10 ** -len(text.split(".")[1])
    return 0.5 * 10 ** (len(text) - len(text.rstrip("0")))
for r in rows:
    k = int(r["run"])
    if r["set"] != plan[k - 1].split("|")[0] or r["run_status"] != "OK":
        bad.append("run %d: set %s status %s" % (k, r["set"], r["run_status"]))
    if r["status"] not in ("measured", "serialized by the runtime", "fewer threads than asked", "not run", "unresolved") or \
            (r["status"] in ("not run", "unresolved") and r["problem"] == ""):
        bad.append("run %d %s level %s: status %r problem %r" % (k, r["construct_name"], r["level"], r["status"], r["problem"]))
    if r["status"] not in ("measured", "unresolved"):
        continue
    sec = re.search(r"^=== run %d/.*?^=== end of run %d:" % (k, k), full, re.S | re.M).group(0)
    team = "%sx%s" % (r["outer_threads"], r["inner_threads"])
    if r["status"] == "unresolved":   # no overhead (a busy machine, ...): its output line says why
        if r["overhead_us"] != "" or not re.search(r"^%s +%s +%s +.*unresolved: %s$" % (re.escape(r["construct_name"]), r["level"], team,
                                                                                        re.escape(r["problem"])), sec, re.M):
            bad.append("run %d %s level %s %s: unresolved, overhead %r, no line saying why" % (k, r["construct_name"], r["level"], team, r["overhead_us"]))
        else:
            compared += 1
        continue
    m = re.search(r"^%s +%s +%s +(\S+) +(?:\[[^]]*\] +)?(\d+) +(\d+) (\d+)\.\.(\d+) lvl (\d+) *(\S*)$"
                  % (re.escape(r["construct_name"]), r["level"], team), sec, re.M)
    if m is None:
        bad.append("run %d %s level %s %s: no line in its output" % (k, r["construct_name"], r["level"], team))
        continue
    compared += 1
    printed, cycles, innerreps, tmin, tmax, level, ratio = m.groups()
    if abs(float(printed) - float(r["overhead_us"])) > tolerance(printed) + 1e-12 or \
            cycles != "%.0f" % float(r["overhead_cycles"]) or innerreps != r["innerreps"] or \
            (tmin, tmax, level) != (r["team_threads_min"], r["team_threads_max"], r["level_seen"]) or \
            ratio != ("%.2f" % float(r["level2_over_level1"]) if r["level2_over_level1"] else ""):
        bad.append("run %d %s level %s: output %s, csv %s" % (k, r["construct_name"], r["level"], m.groups(),
                   [r[c] for c in ("overhead_us", "overhead_cycles", "innerreps", "team_threads_min", "team_threads_max", "level_seen", "level2_over_level1")]))
print("compared %d" % compared)
for b in bad:
    print(b)
PY
)
    is "$(sed 1d <<<"$check")" "" "every construct row belongs to a planned construct run of its set, has a status clomp gives (not run or unresolved with a reason), and a measured row is its run's own output line: overhead to the digits printed, cycles, innerreps, teams seen, L2/L1 (an unresolved one: no overhead, its line says why)"
    like "$(head -n 1 <<<"$check")" "^compared [1-9]" "(the comparison found the runs' output lines)"
    check=$(python3 - "$base" <<'PY'
import csv, html, re, sys
base = sys.argv[1]
rows = list(csv.DictReader(open(base + ".constructs.csv", newline="")))
page = open(base + ".html").read()
sec = page[page.index('<h2 id="constructs">'):]
# The section's tables, one per construct kind (sync, then loop), up to the next section.
table = sec[:sec.index("<h2 id=", 1)]
bad = []
names = list(dict.fromkeys(r["construct_name"] for r in rows))
# (a long inner-team sweep continues in tables of its own: a construct's row again, counted once)
got = list(dict.fromkeys(html.unescape(n) for n in re.findall(r"<tr><td>([^<]*)</td>", table)))
if got != names:
    bad.append("table rows %s, constructs %s" % (got, names))
def first_number(cell):
    m = re.match(r'<td class="num">(-?[0-9.]+)', cell)
    return float(m.group(1)) if m else None
for name in names:
    found = re.findall(r"<tr><td>%s</td>(.*?)</tr>" % re.escape(html.escape(name, quote=False)), table)
    cells = re.findall(r"<td[^>]*>.*?</td>", found[0]) if found else []
    l1 = next((r for r in rows if r["set"] == "constructs" and r["construct_name"] == name and r["level"] == "1"), None)
    sweep = [r for r in rows if r["set"].startswith("constructs_outer") and r["construct_name"] == name and r["level"] == "2"]
    if l1 and l1["status"] == "measured":
        v, want = first_number(cells[0]) if cells else None, float(l1["overhead_us"])
        if v is None or abs(v - want) > (0.5 if abs(want) >= 100 else 0.005 * abs(want) + 1e-12):
            bad.append("%s level 1: html %s, csv %s" % (name, v, want))
    elif l1 and (not cells or l1["status"] not in cells[0]):
        bad.append("%s level 1 %s not said" % (name, l1["status"]))
    for r in sweep:
        if r["level2_over_level1"] and ("L2/L1 %.2f" % float(r["level2_over_level1"])) not in "".join(found):
            bad.append("%s run %s: L2/L1 %s not in the row" % (name, r["run"], r["level2_over_level1"]))
print("\n".join(bad))
PY
)
    is "$check" "" "the report's construct table has a row per construct of <base>.constructs.csv, in its order, with the level-1 overhead (3 significant digits) or why there is none, and every sweep run's L2/L1"
    if [ "$have_gnuplot" = 1 ]; then
        legend=$(python3 - "$base" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + ".constructs.csv", newline="")))
drawn = [r for r in rows if r["set"].startswith("constructs_outer") and r["level"] == "2" and r["status"] == "measured"
         and float(r["overhead_us"]) > 0 and r["chunk"] == "" and r["construct"] != "static"]
names = list(dict.fromkeys(r["construct_name"] for r in drawn))
if any(r["overhead_ci95_low_us"] == "" or float(r["overhead_ci95_low_us"]) <= 0 for r in drawn):
    names.append("unresolved")
print("|".join(sorted(names)))
PY
)
        got=$(sed -n 's|.*<title>\([^<]*\)</title>.*|\1|p' "${base}_charts/constructs_sync.svg" 2>/dev/null | grep -v '^Gnuplot$\|^gnuplot_plot_' | LC_ALL=C sort | paste -sd '|')
        is "$got" "$(tr '|' '\n' <<<"$legend" | LC_ALL=C sort | paste -sd '|')" \
            "the sweep's construct chart has a legend entry for every synchronisation construct with a level-2 point (and 'unresolved' when one has no interval above 0), no other"
    fi
else
    skip "the construct rows against the runs' output" "python3 not installed"
fi
if [ "$have_gnuplot" = 1 ] && [ "$have_python" = 1 ]; then
    # The sweep's chart is there exactly when the records support it (not when every row is unresolved).
    held=$(sed -n '/<h2 id="constructs">/,/<h2 id="environment">/p' "$base.html" | grep -c '<h3>Construct overhead vs inner team size</h3>')
    is "$held" "$(grep -c '^constructs_sync' <<<"$chart_want")" "the report's construct section holds the sweep's chart when the records give it a point"
    held=$(sed -n '/<h2 id="constructs">/,/<h2 id="environment">/p' "$fi_/CLOMP_vm_1.html" | grep -c '<h3>Construct overhead vs inner team size</h3>')
    is "$held:$(sed -n '/<h2 id="constructs">/,/<h2 id="environment">/p' "$fx/CLOMP_vm_1.html" | grep -c '<h3>Construct overhead vs inner team size</h3>')" "0:1" \
        "(the quiet suite's report holds it; with its synchronisation rows unresolved, not)"
fi

# ---- 5. the bundle ------------------------------------------------------------------------------
bundle=$base.tar.gz
listing=$(tar -tzf "$bundle" 2>/dev/null)
name=CLOMP_${host}_1
bad=''
for f in "$name/MANIFEST" "$name/$name.env" "$name/$name.done" "$name/$name.csv" "$name/$name.html" \
    "$name/${name}_key.full" "$name/${name}_key.summary" "$name/${name}_6400zones.full" "$name/${name}_64000zones.summary" \
    "$name/${name}_machine/lscpu.txt" "$name/${name}_machine/numactl-H.txt" "$name/${name}_machine/lstopo.txt" \
    "$name/${name}_machine/kernel.txt" "$name/${name}_machine/governor.txt" "$name/${name}_machine/build.txt"; do
    grep -Fxq "$f" <<<"$listing" || bad+="$f "
done
is "$bad" "" "the bundle holds the suite's files, the HTML, the machine description (lscpu, numactl -H, lstopo, kernel, governor, build) and a MANIFEST"
ids_in=$(grep -v '/$' <<<"$listing" | grep -vc "^$name/")
is "$ids_in" 0 "everything in the bundle is under one directory named after the suite"
mkdir "$root/unpacked"
tar -xzf "$bundle" -C "$root/unpacked"
(cd "$root/unpacked/$name" && sha256sum --quiet -c MANIFEST >/dev/null 2>&1)
ok $? "sha256sum -c MANIFEST (an independent check) accepts the bundle"
listed=$(wc -l <"$root/unpacked/$name/MANIFEST")
files=$(cd "$root/unpacked/$name" && find . -type f ! -name MANIFEST | wc -l)
is "$listed" "$files" "the MANIFEST lists every other file of the bundle ($files)"

# ---- 6. the validator ---------------------------------------------------------------------------
# validate_it BUNDLE: sets rc and out.
validate_it() {
    out=$("$validate" "$1" 2>&1)
    rc=$?
}
validate_it "$bundle"
# A --quick suite runs at timeScale 1: valid, never fit to submit (issue 35, item 9).
is "$rc" 3 "clomp_validate accepts the bundle as made, but a quick suite is not submission-grade (exit 3)"
like "$out" ": VALID, NOT SUBMISSION-GRADE: $runs runs" "and says VALID, NOT SUBMISSION-GRADE with the number of runs"
like "$out" "  - timeScale 1, not the submitted 100 \\(runs " "and gives the reason: the timeScale"
"$driver" --validate "$bundle" >/dev/null 2>&1
is "$?" 3 "run_clomp.sh --validate BUNDLE is the same check"
# Issue 43, item 5: a default suite binds its threads; its construct sweep beyond the cores
# (2x2 and 2x4 on a node of fewer than 4 cores) is named, not graded; the report rule is said once.
if [ -z "${OMP_PROC_BIND:-}${OMP_PLACES:-}${GOMP_CPU_AFFINITY:-}${KMP_AFFINITY:-}" ]; then
    if grep -q 'threads not bound' <<<"$out"; then bad=1; else bad=0; fi
    ok "$bad" "a default quick suite's bundle is not flagged 'threads not bound'"
else
    skip "a default quick suite's bundle is not flagged 'threads not bound'" "the environment sets a binding"
fi
if [ "$cores" -lt 4 ]; then
    like "$out" "  note: runs [0-9]+ [0-9]+ are oversubscribed by design \\(run [0-9]+: the construct sweep's 2x2 .*2x4 " \
        "the construct sweep's 2x2 and 2x4 on $cores cores are named oversubscribed by design"
    if grep -Eq '^  - oversubscribed' <<<"$out"; then bad=1; else bad=0; fi
    ok "$bad" "and they are no reason against the grade"
else
    skip "the construct sweep's points beyond the cores are named, not graded" "$cores cores hold 2x4"
fi
is "$(grep -c '^  rule: the records are what is checked' <<<"$out") $(grep -c 'not trusted' <<<"$out")" "1 0" \
    "the validator states the regenerate-the-report rule once, and distrusts no bundle"
validate_it "$root/unpacked/$name"
is "$rc" 3 "an unpacked bundle (its directory) validates too"

# damaged NAME EDIT [remanifest]: a copy of the unpacked bundle with EDIT (shell
# code run in its directory) applied; with remanifest the MANIFEST is rewritten,
# so that only the other checks can catch the damage. Prints the copy's directory:
# the validator reads a directory as it reads an archive once unpacked (archives:
# the bundle as made, the first damage repacked, the gzip trailer's CRC below),
# so the other damages are not repacked.
damaged() {
    local d=$root/damaged-$1
    rm -rf "$d"
    mkdir -p "$d"
    cp -a "$root/unpacked/$name" "$d/$name"
    (cd "$d/$name" && eval "$2")
    if [ "${3-}" = remanifest ]; then
        (cd "$d/$name" && find . -type f ! -name MANIFEST | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum >"$d.manifest" && mv "$d.manifest" MANIFEST)
    fi
    echo "$d/$name"
}
# repacked DIR: DIR (a damaged copy) as a bundle, DIR's parent .tar.gz. Prints it.
repacked() {
    tar -czf "${1%/*}.tar.gz" -C "${1%/*}" "$name"
    echo "${1%/*}.tar.gz"
}

# One changed byte: the 100th byte of the key runs' output, made 'X', or 'Y'
# where it already is an 'X' (the line holds a random temporary path); in an archive.
b=$(repacked "$(damaged byte "c=\$(dd if=${name}_key.full bs=1 skip=99 count=1 2>/dev/null); [ \"\$c\" = X ] && c=Y || c=X
    printf '%s' \"\$c\" | dd of=${name}_key.full bs=1 seek=99 conv=notrunc 2>/dev/null")")
validate_it "$b"
is "$rc" 1 "one changed byte in a file: invalid (exit 1)"
like "$out" "MANIFEST: ${name}_key\\.full has changed" "the reason names the changed file"
cmp -s "$root/unpacked/$name/${name}_key.full" "$root/damaged-byte/$name/${name}_key.full"
[ $? = 1 ]
ok $? "(the damaged copy really differs from the original)"

b=$(damaged removed "rm ${name}_64000zones.summary")
validate_it "$b"
is "$rc" 1 "one file removed: invalid (exit 1)"
like "$out" "MANIFEST: ${name}_64000zones\\.summary is listed but missing" "the reason names the missing file"
like "$out" "run [0-9]+ \\(64000zones: [^)]*\\) has no row in any \\.summary file" "and the runs it held are reported missing"

b=$(damaged failed "sed -i 's/^3,\\([^,]*\\),OK,0,/3,\\1,FAILED,1,/' ${name}_*.summary" remanifest)
validate_it "$b"
is "$rc" 1 "a run marked FAILED (MANIFEST rewritten to match): invalid (exit 1)"
like "$out" "run 3 \\([^)]*\\) is marked FAILED \\(exit status 1\\)" "the reason names run 3 and FAILED"

b=$(damaged unverified "sed -i 's/,passed,/,failed,/' $name.csv" remanifest)
validate_it "$b"
is "$rc" 1 "a measurement whose verification failed: invalid"
like "$out" "run [0-9]+: Static OMP verification is 'failed'" "the reason names the run and the schedule"

# A different checksum for one measurement of the last run (the same input ran at another thread count).
last=$(awk -F, 'NR > 1 { r = $1 } END { print r }' "$base.csv")
b=$(damaged checksum "awk -F, -v OFS=, -v r=$last 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"checksum_total\") c = i }
    NR > 1 && \$1 == r && \$6 == \"dynamic\" { \$c = \$c + 1 } 1' $name.csv >t && mv t $name.csv" remanifest)
validate_it "$b"
is "$rc" 1 "a checksum that differs across thread counts or schedules of one input: invalid"
like "$out" "input [0-9 ]+: checksum sum [^ ]+, residue [^ ]+, total [^ ]+ in run $last Dynamic OMP" "the reason names the input, the run and the schedule"

# The Static OMP Sum of the last run edited in the table and in its JSON record (the conserved
# Total left alone): every checksum field is compared, not only the total, in both.
b=$(damaged sum "awk -F, -v OFS=, -v r=$last 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"checksum_sum\") c = i }
    NR > 1 && \$1 == r && \$6 == \"static\" { \$c = \$c + 1 } 1' $name.csv >t && mv t $name.csv
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for m in d[\"measurements\"]:
    if m[\"key\"] == \"static\": m[\"checksum\"][\"sum\"] += 1
json.dump(d, open(sys.argv[1], \"w\"))' ${name}_*.run$last.json" remanifest)
validate_it "$b"
is "$rc" 1 "a Static OMP Sum edited in the .csv and the run's JSON record (MANIFEST rewritten, Total unchanged): invalid"
like "$out" "input [0-9 ]+: checksum sum [^ ]+, residue .* in run $last Static OMP" "the reason names the table's differing sum, the run and the schedule"
like "$out" "input [0-9 ]+: checksum sum [^ ]+, residue .* in run $last Static OMP \\([0-9]+ threads; its record\\)" "and the record's"

b=$(damaged inputs "python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d[\"inputs\"][\"numParts\"] += 1; json.dump(d, open(sys.argv[1], \"w\"))' ${name}_key.run1.json" remanifest)
validate_it "$b"
is "$rc" 1 "a run whose JSON record names other inputs than the plan's: invalid"
like "$out" "run 1 \\([^)]*\\): its record names the inputs" "the reason names run 1's record"

b=$(damaged fastmath "sed -i 's/\"CFLAGS: /\"CFLAGS: -ffast-math /' $name.suite.json" remanifest)
validate_it "$b"
is "$rc" 1 "a fast-math build: invalid"
like "$out" "a fast-math build \\(-ffast-math\\)" "the reason names the flag"

b=$(damaged oversubscribed "sed -i 's/\"max_threads\": [0-9]*/\"max_threads\": $((cores + 1))/' $name.suite.json" remanifest)
validate_it "$b"
is "$rc" 1 "more threads than cores: invalid"
like "$out" "oversubscribed: runs with $((cores + 1)) threads on $cores cores" "the reason gives threads and cores"

# The construct table: a row marked failed (as clomp marks a construct measured outside it),
# a not-run row without its reason, the table removed.
# set_cells N CELL=VALUE...: awk that sets the named cells of line N (an unquoted line: plain commas).
set_cells() {
    local n=$1 sets=''
    shift
    for kv in "$@"; do sets+=" \$c[\"${kv%%=*}\"] = \"${kv#*=}\";"; done
    printf "awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i } NR == %s {%s } 1' %s >t && mv t %s" \
        "$n" "$sets" "$name.constructs.csv" "$name.constructs.csv"
}
# first_row STATUS: the line number of the first unquoted construct row with that status.
first_row() {
    awk -F, -v s="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } index($0, "\"") == 0 && $c["status"] == s { print NR; exit }' \
        "$base.constructs.csv"
}
# A measured row, or on a busy machine (every row unresolved) an unresolved one.
crow=$(first_row measured)
[ -n "$crow" ] || crow=$(first_row unresolved)
cwhat=$(awk -F, -v n="$crow" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == n { print "run " $c["run"] " " $c["construct_name"] " level " $c["level"] }' "$base.constructs.csv")
b=$(damaged construct-failed "$(set_cells "$crow" status=failed "problem=measured outside its construct")" remanifest)
validate_it "$b"
is "$rc" 1 "a construct row marked failed (MANIFEST rewritten to match): invalid (exit 1)"
like "$out" "$name\\.constructs\\.csv: $cwhat is 'failed': measured outside its construct" "the reason names the run, the construct, the level and the problem"
nrow=$(first_row "not run")
if [ -n "$nrow" ]; then
    b=$(damaged construct-reason "$(set_cells "$nrow" problem=)" remanifest)
    validate_it "$b"
    is "$rc:$(grep -c 'is not run and gives no reason' <<<"$out")" "1:1" "a construct row not run without its reason: invalid, and says so"
else
    skip "a construct row not run without its reason is invalid" "every construct row of this suite was measured"
fi
b=$(damaged construct-removed "rm $name.constructs.csv" remanifest)
validate_it "$b"
is "$rc" 1 "the construct table removed (MANIFEST rewritten to match): invalid (exit 1)"
like "$out" "$name\\.constructs\\.csv \\(the construct table of runs ${construct_runs}\\) is missing" "the reason names the file and the construct runs it held"
b=$(damaged construct-header "sed -i '1s/^run,set,/set,run,/' $name.constructs.csv" remanifest)
validate_it "$b"
is "$rc:$(grep -c 'its header does not start with run,set,' <<<"$out")" "1:1" "a construct table whose header is not the suite's: invalid, and says so"

b=$(damaged several "rm ${name}.done; sed -i 's/\"CFLAGS: /\"CFLAGS: -Ofast /' $name.suite.json")
validate_it "$b"
reasons=$(grep -c '^  - ' <<<"$out")
[ "$reasons" -ge 3 ] && grep -q 'is listed but missing' <<<"$out" && grep -q 'has changed' <<<"$out" && grep -q 'fast-math' <<<"$out"
ok $? "with several kinds of damage every reason is printed ($reasons reasons)"

# The archive itself: one changed byte in the gzip trailer (its CRC).
cp "$bundle" "$root/crc.tar.gz"
size=$(wc -c <"$bundle")
printf '\x55' | dd of="$root/crc.tar.gz" bs=1 seek=$((size - 6)) conv=notrunc 2>/dev/null
cmp -s "$bundle" "$root/crc.tar.gz" || {
    validate_it "$root/crc.tar.gz"
    is "$rc" 1 "one changed byte in the archive's own checksum: invalid (exit 1)"
    like "$out" "the archive is damaged" "the reason says the archive is damaged"
}

# Not bundles at all.
printf 'hello\n' >"$root/text.tar.gz"
validate_it "$root/text.tar.gz"
is "$rc" 2 "a text file is not a bundle (exit 2)"
like "$out" "not a CLOMP bundle: not a gzip-compressed tar file" "and says so"
mkdir -p "$root/other/stuff" && echo x >"$root/other/stuff/file"
tar -czf "$root/other.tar.gz" -C "$root/other" stuff
validate_it "$root/other.tar.gz"
is "$rc" 2 "a tar.gz without a CLOMP_<host>_<id> directory is not a bundle (exit 2)"
validate_it "$root/no-such-file"
is "$rc" 2 "a missing file is not a bundle (exit 2)"
"$validate" >/dev/null 2>&1
is "$?" 2 "clomp_validate without an argument: usage, exit 2"

# ---- 7. regenerating: make plots, run_clomp.sh --bundle --------------------------------------------
rm -rf "${base}_charts" "$html"
make -s -C "$top" plots OUT="$dir" >/dev/null 2>&1
rc=$?
if [ "$have_gnuplot" = 1 ]; then
    is "$rc:$(drawn_series "${base}_charts" | without_circles)" "0:$chart_want" "make plots OUT=DIR redraws the charts of the latest suite in DIR, each with its series"
    [ -s "$html" ]
    ok $? "make plots OUT=DIR rewrites the HTML report"
else
    is "$rc" 2 "make plots without gnuplot fails (exit 2 from clomp-results report)"
    [ ! -e "$html" ]
    ok $? "and writes no HTML report: the charts it was asked for could not be drawn"
fi
rm -f "$bundle"
"$driver" --out "$dir" --bundle 1 >/dev/null 2>&1
is "$?" 0 "run_clomp.sh --bundle 1 exits 0"
validate_it "$bundle"
is "$rc" 3 "the bundle it rewrites validates (a quick suite: not submission-grade)"
"$driver" --out "$dir" --bundle 7 >/dev/null 2>&1
is "$?" 2 "run_clomp.sh --bundle of a suite that does not exist: exit 2"

# ---- 8. resuming a suite whose last construct run did not finish ------------------------------------
# A copy of the suite without the last run's done mark and no record journal, as
# a driver from before the journal left a suite interrupted after it wrote that
# run's rows and output (a cut record of this driver is taken back whole by its
# journal: tests/suite_safety.t): --resume drops its rows by their run column
# and runs it again; the old .full section stays before the new one (.full is
# never parsed). The full lane only (make check-all): the quick lane resumes a
# suite end to end in tests/manifest.t (a manifest-era suite and one from before
# it), and the rows of runs not in .done leave every table, the construct table's
# among them, in tests/resume_drop.t.
if skip_unless_full_lane "--resume of a suite whose last construct run did not finish (4 tests)"; then
last_c=${construct_runs##* }
cp -a "$dir" "$root/resume"
rbase=$root/resume/CLOMP_${host}_1
sed -i "/^$last_c\$/d" "$rbase.done"
rows_of() { awk -F, -v k="$1" 'NR > 1 && $1 == k' "$2" | wc -l | tr -d ' '; }
before=$(rows_of "$last_c" "$base.constructs.csv")
"$driver" --quick --max-zone-scale 10 --out "$root/resume" --resume 1 "$CLOMP" "$threads" </dev/null >"$root/resume.out" 2>&1
is "$?" 0 "--resume of a suite whose last construct run is not marked done completes (exit 0)"
is "$(grep -c "^\[$last_c/$runs\] " "$root/resume.out")" 1 "it runs that construct run again, and only it"
is "$(rows_of "$last_c" "$rbase.constructs.csv"):$(rows_of "$last_c" "$rbase.runs.csv"):$(cat "$rbase"_constructs*.full | grep -c "^=== end of run $last_c: exit status 0 (OK)")" "$before:1:2" \
    "the run's rows are in <base>.constructs.csv once (as many as before: $before), its line in .runs.csv once, and .full gains its new section"
validate_it "$rbase.tar.gz"
is "$rc" 3 "and the resumed suite's bundle validates (a quick suite: not submission-grade)"
fi

done_testing
