#!/usr/bin/env bash
# run_clomp.sh --replicates auto[,PCT[,CAP[,MINUTES]]] (docs/suite.md, docs/noise.md), two-stage
# (issue 31): bad values exit 2 with one line naming what is wrong; the plan starts with a pilot
# of 6 target processes; clomp-stats pilot-n refuses bad input. In the full lane a fast suite
# plans stage 2 from the pilot, runs that many fresh target processes spread through the runs
# after the key runs (where a plain re-computation of the spacing puts them), reports the
# interval from them alone (the between-process table's target row names stage 2's runs, not
# the pilot's), says whether it is tight by the smaller of the two widths (checked against the
# table), and a suite interrupted in stage 2 resumes to the same plan.

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
    "auto,10,0|the cap '0'" "auto,10,100000|the cap '100000' must be a whole number of processes, at least 2 and at most 1000" "auto,10,30,0|the time cap '0'" "auto,10,30,60,1|has more than PCT, CAP and MINUTES"; do
    value=${case%%|*} must=${case#*|}
    drive --dry-run "${fast[@]}" --replicates "$value" --out "$root/usage" "$CLOMP" 2
    ok "$([ "$rc" = 2 ] && [ -z "$out" ] && [ "$(line_count "$err")" = 1 ] && [[ $err == *"$must"* ]]; echo $?)" \
        "--replicates $value exits 2 with one line: ...$must"
done

drive --dry-run "${fast[@]}" --replicates auto --out "$root/usage" "$CLOMP" 2
is "$rc" 0 "--replicates auto is accepted"
is "$(grep -c '^\[[0-9]*/[0-9]*\] key  *[^ ]* 2 -1 64 100 32 1 1 ' <<<"$out")" 6 \
    "its plan starts with 6 target processes (the fewest with a 95% interval of the median)"
like "$out" "--replicates auto: a pilot of 6 target processes, then N fresh ones, N planned from the pilot \(each key figure's 95% interval within \+-10% and \+-0.1 us; at most 30 processes, 60 min\), spread through the runs after the key runs; the interval reported is from the N alone" \
    "and says how it goes on, with the defaults"
drive --dry-run "${fast[@]}" --replicates auto,20,4 --out "$root/usage" "$CLOMP" 2
is "$(grep -c '^\[[0-9]*/[0-9]*\] key  *[^ ]* 2 -1 64 100 32 1 1 ' <<<"$out")" 4 "a cap below 6 starts with the cap"

# clomp-stats pilot-n: the plan's arithmetic is tested in tests/unit/test_replication.c; here what the driver asks.
stats="${CLOMP_STATS:-$top/build/clomp-stats}"
stats_json=$("$stats" pilot-n --json 10 0.1 30 5 5 5 5 5 5 2>&1)
like "$stats_json" '"processes": 6, ' "a pilot without spread plans the fewest with an interval: 6 (clomp-stats pilot-n)"
for case in "0 0.1 30 1 2|the width '0'" "10 -1 30 1 2|the floor '-1'" "10 0.1 0 1 2|the cap '0'" "10 none 30 1 x|'x' is not a number" "10 none 30|usage"; do
    read -r -a words <<<"${case%%|*}"
    msg=$("$stats" pilot-n --json "${words[@]}" 2>&1 >/dev/null)
    rc=$?
    ok "$([ "$rc" = 2 ] && [ "$(line_count "$msg")" = 1 ] && [[ $msg == *"${case#*|}"* ]]; echo $?)" \
        "clomp-stats pilot-n ${case%%|*} exits 2 with one line: ...${case#*|}"
done

# stage2_at L TOTAL N: where stage 2's N processes go, re-computed from the spec (docs/noise.md):
# the k-th (k = 0..N-1) at run L + floor(k x R / N) + k + 1, R = TOTAL - L the runs after the key runs.
stage2_at() {
    local k out=''
    for ((k = 0; k < $3; k++)); do out+="$(($1 + k * ($2 - $1) / $3 + k + 1)) "; done
    echo "${out% }"
}

if skip_unless_full_lane "a fast suite with --replicates auto,50,7 runs a pilot, then stage 2 spread through the plan, and reports stage 2 alone"; then
    drive --dry-run "${fast[@]}" --replicates auto,50,7 --out "$root/run" "$CLOMP" 2
    planned=$(grep -c '^\[[0-9]*/[0-9]*\] ' <<<"$out") keys=$(grep -c '^\[[0-9]*/[0-9]*\] key ' <<<"$out")
    pilot=$(sed -n 's#^\[\([0-9]*\)/[0-9]*\] key  *[^ ]* 2 -1 64 100 32 1 1 .*#\1#p' <<<"$out" | tr '\n' ' ')
    drive "${fast[@]}" --replicates auto,50,7 --out "$root/run" "$CLOMP" 2
    is "$rc" 0 "a fast suite with --replicates auto,50,7 exits 0"
    decision=$(grep '^replicates auto: stage 2: ' <<<"$out")
    like "$decision" "^replicates auto: stage 2: [67] fresh target processes at runs [0-9 ]+; .*planned from the pilot's 6 processes \(runs 1-$keys\), which the interval reported leaves out" \
        "after the $keys key runs it says how many fresh target processes stage 2 runs (6 or 7: the fewest with an interval, the cap) and that the pilot is left out"
    n=${decision#replicates auto: stage 2: }
    n=${n%% *}
    at=${decision#* at runs }
    at=${at%%;*}
    is "$at" "$(stage2_at "$keys" "$planned" "$n")" "they are spread through the $((planned - keys)) runs after the key runs, the first right after them"
    base=$(ls "$root"/run/CLOMP_*_1.env)
    base=${base%.env}
    is "$(sed -n 's/^replicates auto: stage-2 process [0-9]* of [0-9]*: run //p' "$base.env" | tr '\n' ' ')" "$at " \
        "<base>.env records each stage-2 process with the run it is"
    is "$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["replicates"]; print(r["asked"], r["stage2_planned"])' "$base.suite.json")" \
        "auto $n" "the manifest's replicates say auto (not auto50) and stage 2's $n processes"
    is "$(awk -F, 'NR > 1 && $6 " " $7 " " $8 " " $9 " " $10 " " $11 " " $12 == "2 -1 64 100 32 1 1" { printf "%s ", $1 }' "${base}_key.summary")" \
        "$pilot$at " \
        "the key summary's target processes are the pilot's 6 among the key runs, then exactly those runs"
    stop=$(grep '^replicates auto: stopped after' <<<"$out")
    like "$stop" "^replicates auto: stopped after $n processes \(stage 2: runs $at; the pilot's left out\): (every key figure's 95% interval is within \+-50% and \+-0.1 us|still wide: )" \
        "it reports the interval from stage 2's $n processes, and whether it is tight"
    is "$(awk -F, 'NR > 1 && $1 == "2 -1 64 100 32 1 1" { print $5 }' "${base}_key.processes.csv" | sort -u)" "$at" \
        "the between-process table's target row is stage 2's runs alone"
    like "$out" "--replicates auto: stage 2's fresh processes alone; the pilot's 6, runs" "and the table says so"
    # Tight by the SMALLER width: +-50% of the median and +-0.1 us for the figures in us (not the speedup);
    # a key figure no stage-2 process gave (not a result in each, on a busy machine) is not tight either.
    wide=$(awk -F, 'NR > 1 && $1 == "2 -1 64 100 32 1 1" && $3 ~ /^(omp_barrier_us_per_loop|static_omp_overhead_us|dynamic_omp_overhead_us|static_omp_speedup)$/ {
        seen[$3]; m = $6; h = m - $9; if ($10 - m > h) h = $10 - m; a = (m < 0 ? -m : m) * 0.5
        if ($3 != "static_omp_speedup" && a > 0.1) a = 0.1
        if ($9 == "" || h > a + 1e-9) print $3 }
        END { split("omp_barrier_us_per_loop static_omp_overhead_us dynamic_omp_overhead_us static_omp_speedup", k, " ")
              for (i = 1; i <= 4; i++) if (!(k[i] in seen)) print k[i] " (no process)" }' "${base}_key.processes.csv")
    if [[ $stop == *"within"* ]]; then
        is "$wide" "" "tight means every key figure's interval in the between-process table is within +-50% and +-0.1 us"
    else
        isnt_empty=$([ -n "$wide" ]; echo $?)
        ok "$isnt_empty" "still wide means the between-process table has a key figure wider than +-50% or +-0.1 us ($(tr '\n' ' ' <<<"$wide"))"
    fi
    # The HTML's key-runs table marks a Static overhead that cannot be told from 0, as the CSV flags it.
    # The checker's own failure (no such table, no key rows) is a failure too: its exit status is compared.
    is "$(python3 - "$base.csv" "$base.html" <<'PY'
import csv, re, sys
flag = {r["run"]: r["overhead_resolution"] for r in csv.DictReader(open(sys.argv[1])) if r["set"] == "key" and r["key"] == "static"}
if not flag:
    sys.exit("the CSV has no key run with a Static overhead")
html = open(sys.argv[2]).read()
table = html[html.index('<h3 id="key-runs">Key runs</h3>'):]
table = table[:table.index("</table>")]
for run, res in sorted(flag.items()):
    row = re.search(r'<tr><td class="num">%s</td>.*?</tr>' % run, table)
    if row is None:
        print("run %s: not in the HTML's key-runs table" % run)
        continue
    marked = "(no interval" in row.group(0) or "(interval contains 0)" in row.group(0)
    if marked != (res in ("no interval", "contains 0")):
        print("run %s: CSV says %r, HTML %s" % (run, res, "marks it" if marked else "does not"))
PY
echo "exit $?")" "exit 0" "the HTML key-runs table marks every Static overhead the CSV flags as unresolved, and no other"

    # Interrupted in stage 2, resumed: the same plan (the driver's and the loader's: a disagreement exits 3).
    "$driver" "${fast[@]}" --replicates auto,50,7 --out "$root/resume" "$CLOMP" 2 </dev/null >"$root/r1.out" 2>&1 &
    pid=$!
    for ((t = 0; t < 1200; t++)); do
        grep -qs '^replicates auto: stage-2 process 2 of' "$root"/resume/CLOMP_*_1.env && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -TERM "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    is "$rc" 130 "a suite interrupted in stage 2 exits 130"
    [ "$rc" = 130 ] || diag "its output ended: $(tail -n 3 "$root/r1.out")"
    rbase=$(ls "$root"/resume/CLOMP_*_1.env)
    rbase=${rbase%.env}
    decided=$(grep '^replicates auto: stage 2: ' "$rbase.env")
    drive "${fast[@]}" --replicates auto,50,7 --out "$root/resume" "$CLOMP" 2 --resume 1
    is "$rc" 0 "--resume completes it (exit 0: the driver's plan and the loader's agree)"
    is "$(grep -c '^replicates auto: stage 2: ' "$rbase.env") $(grep '^replicates auto: stage 2: ' "$rbase.env")" "1 $decided" \
        "the resumed suite keeps the recorded decision"
    rat=${decided#* at runs }
    rat=${rat%%;*}
    is "$(sed -n 's/^replicates auto: stage-2 process [0-9]* of [0-9]*: run //p' "$rbase.env" | tr '\n' ' ')" "$rat " \
        "each stage-2 process is recorded once, at the run the decision named"
    rn=${decided#replicates auto: stage 2: }
    rn=${rn%% *}
    is "$(LC_ALL=C sort -n "$rbase.done" | tr '\n' ' ')" "$(seq -s ' ' 1 $((planned + rn))) " \
        "every run of the plan and its $rn stage-2 processes ran once"
    is "$(awk -F, 'NR > 1 && $1 == "2 -1 64 100 32 1 1" { print $5 }' "${rbase}_key.processes.csv" | sort -u)" "$rat" \
        "and the between-process table is stage 2's"
fi

done_testing
