#!/usr/bin/env bash
# run_clomp.sh --replicates auto[,PCT[,CAP[,MINUTES]]] (docs/suite.md, docs/noise.md): bad values
# exit 2 with one line naming what is wrong; the plan starts with 6 target processes; in the full
# lane a fast suite adds target processes until the key figures are tight or the cap is reached,
# says which, and the between-process table agrees: as many processes as it says, and when it
# says tight, every key figure's interval within the width asked for.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
driver=$top/run_clomp.sh
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
export OMP_WAIT_POLICY=passive
fast=(--quick --no-plots --max-zone-scale 1)

drive() {
    "$driver" "$@" </dev/null >"$root/out" 2>"$root/err"
    rc=$?
    out=$(cat "$root/out")
    err=$(cat "$root/err")
}

for case in "auto,0|the width '0' must be a percentage above 0" "auto,-5|the width '-5'" \
    "auto,x|the width 'x'" "auto,10,1|the cap '1' must be a whole number of processes, at least 2" \
    "auto,10,0|the cap '0'" "auto,10,30,0|the time cap '0'" "auto,10,30,60,1|has more than PCT, CAP and MINUTES"; do
    value=${case%%|*} must=${case#*|}
    drive --dry-run "${fast[@]}" --replicates "$value" --out "$root/usage" "$CLOMP" 2
    ok "$([ "$rc" = 2 ] && [ -z "$out" ] && [ "$(line_count "$err")" = 1 ] && [[ $err == *"$must"* ]]; echo $?)" \
        "--replicates $value exits 2 with one line: ...$must"
done

drive --dry-run "${fast[@]}" --replicates auto --out "$root/usage" "$CLOMP" 2
is "$rc" 0 "--replicates auto is accepted"
is "$(grep -c '^\[[0-9]*/[0-9]*\] key  *[^ ]* 2 -1 64 100 32 1 1 ' <<<"$out")" 6 \
    "its plan starts with 6 target processes (the fewest with a 95% interval of the median)"
like "$out" "--replicates auto: 6 target processes first, then more until \+-10% \(or \+-0.1 us\), 30 processes or 60 min" \
    "and says how it goes on, with the defaults"
drive --dry-run "${fast[@]}" --replicates auto,20,4 --out "$root/usage" "$CLOMP" 2
is "$(grep -c '^\[[0-9]*/[0-9]*\] key  *[^ ]* 2 -1 64 100 32 1 1 ' <<<"$out")" 4 "a cap below 6 starts with the cap"

if skip_unless_full_lane "a fast suite with --replicates auto,50,7 stops tight or at its cap, and says so"; then
    drive "${fast[@]}" --replicates auto,50,7 --out "$root/run" "$CLOMP" 2
    is "$rc" 0 "a fast suite with --replicates auto,50,7 exits 0"
    stop=$(grep '^replicates auto: stopped after' <<<"$out")
    like "$stop" "^replicates auto: stopped after [67] processes: (every key figure's 95% interval is within \+-50%|cap of 7 processes reached)" \
        "it says how many processes ran and why it stopped"
    n=${stop#replicates auto: stopped after }
    n=${n%% *}
    base=$(ls "$root"/run/CLOMP_*_1.env)
    base=${base%.env}
    is "$(awk -F, 'NR > 1 && $6 " " $7 " " $8 " " $9 " " $10 " " $11 " " $12 == "2 -1 64 100 32 1 1"' "${base}_key.summary" | wc -l | tr -d ' ')" \
        "$n" "the key summary has that many target processes"
    is "$(grep -c '^replicates auto: one more target process' "$base.env")" "$((n - 6))" \
        "and <base>.env records each one added after the first 6"
    if [[ $stop == *"within"* ]]; then
        wide=$(awk -F, 'NR > 1 && $1 == "2 -1 64 100 32 1 1" && $3 ~ /^(omp_barrier_us_per_loop|static_omp_overhead_us|dynamic_omp_overhead_us|static_omp_speedup)$/ {
            m = $6; h = m - $9; if ($10 - m > h) h = $10 - m; a = (m < 0 ? -m : m) * 0.5
            if ($3 != "static_omp_speedup" && a < 0.1) a = 0.1
            if ($9 == "" || h > a + 1e-9) print $3 }' "${base}_key.processes.csv")
        is "$wide" "" "tight means every key figure's interval in the between-process table is within +-50% (or +-0.1 us)"
    else
        is "$n" 7 "stopped at the cap means 7 processes"
    fi
    # The HTML's key-runs table marks a Static overhead that cannot be told from 0, as the CSV flags it.
    is "$(python3 - "$base.csv" "$base.html" <<'PY'
import csv, re, sys
flag = {r["run"]: r["overhead_resolution"] for r in csv.DictReader(open(sys.argv[1])) if r["set"] == "key" and r["key"] == "static"}
html = open(sys.argv[2]).read()
table = html[html.index("<h3>Key runs</h3>"):]
table = table[:table.index("</table>")]
for run, res in sorted(flag.items()):
    row = re.search(r'<tr><td class="num">%s</td>.*?</tr>' % run, table)
    marked = row is not None and ("(no interval" in row.group(0) or "(interval contains 0)" in row.group(0))
    if marked != (res in ("no interval", "contains 0")):
        print("run %s: CSV says %r, HTML %s" % (run, res, "marks it" if marked else "does not"))
PY
)" "" "the HTML key-runs table marks every Static overhead the CSV flags as unresolved, and no other"
fi

done_testing
