#!/usr/bin/env bash
# --replicates auto's decisions, made by clomp-stats replicates (stats/replicates_answer.c,
# stats/replicates_recorded.c) for suite/replicates.sh, against the oracle they replaced: the
# driver's own shell functions as they were before the move (kept below, word for word but for
# their names and the helpers they called), on a grid of inputs. The option parsed (every
# message), the stage-2 decision and the stop (their numbers and texts, from tables of pilot and
# stage-2 figures with spreads from none to wide, runs that failed, figures marked not a result,
# empty cells), and what --resume reads back (the manifest's replicates member, or .env's lines).
# The quick lane gives each of the 7 pilot tables one of its two spreads (7 pilots, every optional
# part of the texts still reached); the full lane both (14).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
stats=${CLOMP_STATS:-$top/build/clomp-stats}
writer=${CLOMP_WRITE:-$top/build/clomp-write}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
target="2 -1 64 100 32 1 1"

# ---- the oracle: suite/replicates.sh's functions before the move (f7843a9) ------------------------
AUTO_START=6
AUTO_FLOOR=0.1
old_die_usage() { printf 'run_clomp.sh: %s\n' "$1" >&2; exit 2; }
old_figures() {
    local key col label unit
    figure_rows replicates measurement csv label unit | while IFS='|' read -r key col label unit; do
        printf '%s|%s|%s|%s\n' "$key" "$col" "$label" "$([ "$unit" = us ] && echo "$AUTO_FLOOR" || echo none)"
    done
}
old_parse() {
    local value=$1 rest extra
    if [[ $value != auto && $value != auto,* ]]; then
        is_count "$value" || old_die_usage "--replicates: '$value' is not a whole number > 0 or auto[,PCT[,CAP[,MINUTES]]]"
        return 0
    fi
    rest=${value#auto}
    rest=${rest#,}
    IFS=, read -r auto_pct auto_cap auto_minutes extra <<<"$rest"
    [ -z "${extra-}" ] || old_die_usage "--replicates: '$value' has more than PCT, CAP and MINUTES after auto"
    auto_pct=${auto_pct:-10} auto_cap=${auto_cap:-30} auto_minutes=${auto_minutes:-60}
    if ! [[ $auto_pct =~ ^[0-9]*\.?[0-9]+$ ]] || ! awk -v p="$auto_pct" 'BEGIN { exit !(p > 0) }'; then
        old_die_usage "--replicates auto: the width '$auto_pct' must be a percentage above 0 (e.g. auto,10)"
    fi
    if ! [[ $auto_cap =~ ^[0-9]{1,4}$ ]] || [ "$auto_cap" -lt 2 ] || [ "$auto_cap" -gt 1000 ]; then
        old_die_usage "--replicates auto: the cap '$auto_cap' must be a whole number of processes, at least 2 and at most 1000"
    fi
    is_count "$auto_minutes" || old_die_usage "--replicates auto: the time cap '$auto_minutes' must be whole minutes > 0"
    replicates=$((auto_cap < AUTO_START ? auto_cap : AUTO_START))
}
old_plan_line() {
    [ -n "$auto_pct" ] || return 0
    echo "--replicates auto: a pilot of $replicates target processes, then N fresh ones, N planned from the pilot" \
        "(each key figure's 95% interval within +-$auto_pct% and +-$AUTO_FLOOR us; at most $auto_cap processes," \
        "$auto_minutes min), spread through the runs after the key runs; the interval reported is from the N alone"
}
old_answer() {
    "$helper" pilot-n --json "$auto_pct" "$4" "$auto_cap" --table "$base.csv" "${plan[0]##*|} first-touch" "$1" "$2" "$3"
}
old_field() {
    [[ $1 =~ \"$2\":\ ([^,}]*) ]] && printf '%s\n' "${BASH_REMATCH[1]}"
}
old_decide() {
    local i=$1 helper figure key col label floor json n pilot rest k how lines=''
    auto_n=0 pilot=$replicates
    local -a figures=()
    helper=$stats
    mapfile -t figures < <(old_figures)
    for figure in ${figures[@]+"${figures[@]}"}; do
        IFS='|' read -r key col label floor <<<"$figure"
        json=$(old_answer "$(seq -s ' ' 1 "$i")" "$key" "$col" "$floor") || continue
        pilot=$(old_field "$json" runs) n=$(old_field "$json" processes)
        [ "$(old_field "$json" n)" != 0 ] || { lines+=$(printf '  %-40s no pilot process gave a result: not planned for' "$label")$'\n'; continue; }
        [ "$n" -le "$auto_n" ] || auto_n=$n
        lines+=$(awk -v l="$label" -v k="$(old_field "$json" n)" -v m="$(old_field "$json" median)" \
            -v s="$(old_field "$json" scale)" -v w="$(old_field "$json" wanted)" -v n="$n" \
            -v u="$(old_field "$json" planning_scale)" -v runs="$(old_field "$json" runs)" \
            -v need="$(old_field "$json" needed)" -v e="$(old_field "$json" expected_half_width)" 'BEGIN {
            printf "  %-40s pilot median %.4g, spread %.3g (1.4826 x MAD) from %d", l, m, s, k
            if (runs != "" && runs + 0 > k + 0) printf " of %d (%d not a result)", runs, runs - k
            printf ", planned on %.3g (its 80%% upper bound): %d processes for +-%.3g", u, n, w
            if (e != "null") printf " (expected +-%.3g)", e
            if (need == "null" || need + 0 > n + 0) printf "; it would need %s", need == "null" ? "a spread of 0" : need " processes"
            printf "\n" }')$'\n'
    done
    [ "$auto_n" -gt 0 ] || auto_n=$((auto_cap < AUTO_START ? auto_cap : AUTO_START))
    rest=$((total_runs - i))
    auto_at=()
    for ((k = 0; k < auto_n; k++)); do auto_at+=($((i + k * rest / auto_n + k + 1))); done
    if [ "$rest" = 0 ]; then how="back to back: no runs follow the key runs"
    elif [ "$rest" -lt "$auto_n" ]; then how="spread through the $rest runs after the key runs, some back to back"
    else how="interleaved with the $rest runs after the key runs"
    fi
    printf '%s' "replicates auto: stage 2: $auto_n fresh target processes at runs ${auto_at[*]}; $how; planned from the pilot's $pilot processes (runs 1-$i), which the interval reported leaves out"$'\n'"$lines"
}
old_finish() {
    local why=$1 runs helper figure key col label floor json processes=$auto_inserted lines='' wide='' judged=0
    local -a figures=()
    runs=${auto_at[*]:0:auto_inserted}
    helper=$stats
    mapfile -t figures < <(old_figures)
    for figure in ${figures[@]+"${figures[@]}"}; do
        IFS='|' read -r key col label floor <<<"$figure"
        json=$(old_answer "$runs" "$key" "$col" "$floor") || continue
        processes=$(old_field "$json" runs) judged=1
        [ "$(old_field "$json" within)" = 1 ] || wide+="${wide:+, }$label"
        [ "$(old_field "$json" n)" != 0 ] || { lines+=$(printf '  %-40s no stage-2 process gave a result' "$label")$'\n'; continue; }
        lines+=$(awk -v l="$label" -v n="$(old_field "$json" n)" -v m="$(old_field "$json" median)" \
            -v h="$(old_field "$json" half_width)" -v w="$(old_field "$json" wanted)" -v runs="$processes" 'BEGIN {
            printf "  %-40s median %.4g, 95%% interval %s (wanted +-%.4g) from %d processes", l, m, h == "null" ? "none" : sprintf("+-%.4g", h), w, n
            if (runs + 0 > n + 0) printf " of %d: %d dropped as not a result (their runs say why), so its coverage is that of the %d left, not of a number fixed in advance", runs, runs - n, n
            printf "\n" }')$'\n'
    done
    if [ "$processes" -lt "$auto_n" ]; then
        lines+="  stage 2 ran $processes of the $auto_n processes planned: every interval above is of those that ran (the plan's coverage claim is for $auto_n fixed in advance)"$'\n'
    fi
    if [ "$judged" = 0 ]; then why="${why:+$why; }no key figure to judge"
    elif [ -z "$wide" ]; then why="${why:+$why; }every key figure's 95% interval is within +-${auto_pct}% and +-$AUTO_FLOOR us"
    else why="${why:+$why; }still wide: $wide"
    fi
    auto_stop="replicates auto: stopped after $processes processes (stage 2: runs ${runs:-none}; the pilot's left out): $why"$'\n'$lines
    printf '%s' "$auto_stop"
}
old_recorded() {
    local file at line
    local -a ran
    file=$(manifest_path)
    if at=$("$writer" get "$file" replicates.stage2_at 2>/dev/null); then
        [ "$at" != '[]' ] || return 1
        auto_n=$("$writer" get "$file" replicates.stage2_planned) line=$("$writer" get "$file" replicates.stage2_runs)
        line=${line//[][,]/} auto_stop=$("$writer" get "$file" replicates.stop)
        read -r -a auto_at <<<"${at//[][,]/}"
        read -r -a ran <<<"$line"
        auto_replayed=${#ran[@]} line="$file's replicates member"
    else
        line=$(grep -m 1 '^replicates auto: stage 2: ' "$base.env") || return 1
        auto_n=${line#replicates auto: stage 2: } at=${line#* at runs }
        auto_n=${auto_n%% *}
        read -r -a auto_at <<<"${at%%;*}"
        auto_replayed=$(grep -c '^replicates auto: stage-2 process ' "$base.env")
        auto_stop=$(sed -n '/^replicates auto: stopped/,/^[^ ]/p' "$base.env" | grep -v '^---- ')
        line="$base.env's 'replicates auto: stage 2:' line"
    fi
    [[ $auto_n =~ ^[0-9]{1,4}$ && ${#auto_at[@]} = "$auto_n" && " ${auto_at[*]} " =~ ^(\ [0-9]{1,9})*\ $ ]] ||
        old_die_usage "--resume: $line is not N processes at N run numbers"
}

# ---- what both need: the driver's helpers, stood in for ------------------------------------------
is_count() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
die_usage() { printf 'run_clomp.sh: %s\n' "$1" >&2; exit 2; }
stats_helper() { printf '%s\n' "$stats"; }
manifest_path() { printf '%s\n' "$base.suite.json"; }
figure_rows() {  # the catalogue's replicates set as figure_rows gives it: two figures in us, one without a unit
    printf '%s\n' "barrier|barrier_us|Barrier overhead (us)|us" "static|static_us|Static overhead, per loop|us" "speedup|speedup|Static speedup|x"
}
# shellcheck source=../suite/replicates.sh
. "$top/suite/replicates.sh"

# ---- the option ----------------------------------------------------------------------------------
# shellcheck disable=SC2054  # the values hold commas
grid=(auto auto, auto,10 auto,5.5 auto,.5 auto,0.0 auto,00.01 auto,1. auto,x auto,-5 auto,0 "auto, 10" auto,,4 auto,10,1
    auto,10,2 auto,10,5 auto,10,6 auto,10,7 auto,10,1000 auto,10,1001 auto,10,10000 auto,10,0x5 auto,10,,5 auto,,,0
    auto,10,30,01 auto,10,30,9999 auto,10,30,60, auto,10,30,60,, auto,10,30,60,,, auto,10,30,60,1 "auto,10,30,60,1,"
    auto,10,30,60,,1 "auto,10	,30" auto,1e3 auto,10,3e1)
same=0 differ=''
for value in "${grid[@]}"; do
    want=$(auto_pct='' replicates=''; old_parse "$value" 2>&1 && echo "$auto_pct $auto_cap $auto_minutes $replicates" && old_plan_line; echo "exit $?")
    got=$(auto_pct='' replicates=''; parse_replicates "$value" 2>&1 && echo "$auto_pct $auto_cap $auto_minutes $replicates" && auto_plan_line; echo "exit $?")
    if [ "$got" = "$want" ]; then same=$((same + 1)); else differ+=" '$value'"; fi
done
is "$same${differ:+ (differ:$differ)}" "${#grid[@]}" \
    "--replicates VALUE: the words the driver sets, the dry run's line and every refusal (exit 2, one line) are as before, for ${#grid[@]} values"

# ---- the decision and the stop -------------------------------------------------------------------
# table SEED RUNS MEDIAN SPREAD: <base>.csv of RUNS runs: odd runs and those after the key runs of the
# target input, the others of another; 1 in 12 FAILED, 1 in 10 figures marked not a result (valid 0),
# 1 in 20 cells empty; values MEDIAN + SPREAD x (a normal deviate), the speedup 40 x that (MEDIAN 0:
# 0 or +-SPREAD, so that the median is 0 itself and no width is within 0% of it).
table() {
    awk -v seed="$1" -v runs="$2" -v m="$3" -v s="$4" -v keys="$5" -v t="$target" 'BEGIN {
        srand(seed)
        print "run,run_status,key,valid,numThreads,allocThreads,numParts,zonesPerPart,zoneSize,flopScale,timeScale,numa,barrier_us,static_us,speedup"
        split("barrier static speedup", k, " ")
        for (r = 1; r <= runs; r++) {
            input = (r % 2 == 1 || r > keys) ? t : "4 -1 64 100 32 1 1"
            gsub(/ /, ",", input)
            status = rand() < 1 / 12 ? "FAILED" : "OK"
            for (j = 1; j <= 3; j++) {
                z = sqrt(-2 * log(rand() + 1e-12)) * cos(6.283185307 * rand())
                v = (j == 3 ? 40 : 1) * (m + s * z)
                if (m == 0) v = rand() < 0.3 ? (rand() < 0.5 ? -s : s) : 0   # a median of 0 itself, with a spread
                cell = rand() < 0.05 ? "" : sprintf("%.6g", v)
                printf "%d,%s,%s,%d,%s,first-touch,%s,%s,%s\n", r, status, k[j], rand() < 0.1 ? 0 : 1, input,
                    j == 1 ? cell : "", j == 2 ? cell : "", j == 3 ? cell : ""
            }
        }
    }' >"$base.csv"
}

base=$root/CLOMP_node_1 auto_helper=$stats
plan=("key|first-touch|$target")
said='' cases=0 same_decision=0 same_stop=0 differ='' stop_differ=''
for seed in 1 2 3 4 5 6 7; do   # 14 pilots (the quick lane 7), each spread with two medians and settings
    spreads=(0 0.0004 0.01 0.2 3)
    pilot_spreads=("${spreads[seed % 5]}" "${spreads[(seed + 2) % 5]}")
    full_lane || pilot_spreads=("${pilot_spreads[(seed + 1) % 2]}")
    for spread in "${pilot_spreads[@]}"; do
        median=$(awk -v s="$seed" 'BEGIN { split("0.02 0.9 0 14 0.3 250 0.05", m, " "); print m[s] }')
        keys=$((3 + seed * 2)) total=$((keys + (seed * 9) % 21))
        auto_pct=$(awk -v s="$seed" 'BEGIN { split("10 50 2.5 .5 10 25 1", p, " "); print p[s] }')
        auto_cap=$(awk -v s="$spread" -v d="$seed" 'BEGIN { print (s == 3 ? 1000 : (d % 3 == 0 ? 3 : 30)) }')
        replicates=$((auto_cap < 6 ? auto_cap : 6)) total_runs=$total
        table "$seed$spread" $((total + 40)) "$median" "$spread" "$keys"
        want=$(old_decide "$keys"; echo "n=$auto_n at=${auto_at[*]}")
        said+=$want
        out=$(auto_ask decide "$auto_pct" "$auto_cap" "$replicates" "$keys" "$total")
        read -r -a at <<<"${out%%$'\n'*}"
        got="${out#*$'\n'}"$'\n'"n=${at[0]} at=${at[*]:1}"
        cases=$((cases + 1))
        if [ "$got" = "$want" ]; then same_decision=$((same_decision + 1)); else differ+=" $seed/$spread"; fi
        # The stop, after every count of stage-2 processes from none to all, with and without a reason.
        read -r -a auto_at <<<"${want##*at=}"
        auto_n=${#auto_at[@]}
        for auto_inserted in 0 $((auto_n / 2)) "$auto_n"; do
            why=$([ $((auto_inserted % 2)) = 0 ] || echo "time cap of 5 min reached after $auto_inserted of $auto_n stage-2 processes")
            want=$(old_finish "$why")
            said+=$want
            got=$(auto_ask stop "$auto_pct" "$auto_cap" "$auto_n" "${auto_at[*]:0:auto_inserted}" "$why")
            if [ "$got" = "$want" ]; then same_stop=$((same_stop + 1)); else stop_differ+=" $seed/$spread/$auto_inserted"; fi
        done
    done
done
is "$same_decision" "$cases" "stage 2's size, its runs and the decision's text are the old driver's for $cases pilots (PCT, CAP, spreads, key runs)${differ:+; differ:$differ}"
stops=$same_stop
ok "$([ -z "$stop_differ" ] && [ "$stops" -ge $((3 * cases)) ]; echo $?)" \
    "the stop's text is the old driver's for $stops stage-2 counts of those pilots, with and without a reason${stop_differ:+; differ:$stop_differ}"
missed=''
for part in "not a result)" "it would need 6 processes" "it would need a spread of 0" "(expected +-" "back to back: no runs follow" "some back to back" \
    "interleaved with" "no stage-2 process gave a result" "dropped as not a result" "interval none" "interval +-" "within +-" "still wide: " \
    "stage 2 ran 0 of" "): time cap of 5 min reached after" "(stage 2: runs none;"; do
    [[ $said == *"$part"* ]] || missed+=" '$part'"
done
is "${missed:-none}" none "the grid reaches every optional part of the two texts (figures not a result, plans past the cap, each spacing, tight and wide)"

# ---- what --resume reads back --------------------------------------------------------------------
# recorded CASE MANIFEST ENV: the old reading and the new (auto_resume) of a suite with that manifest
# (none: no file) and .env; each: the status, or the variables set, and any message.
resumed() {
    local -a auto_at=()
    local auto_n=0 auto_replayed=0 auto_stop='' auto_decided=0 rc
    if [ "$1" = old ]; then { ! old_recorded || auto_decided=1; } 2>&1; else auto_pct=10 auto_resume 2>&1; fi
    rc=$?
    printf 'status %s decided=%s n=%s at=%s replayed=%s stop=[%s]\n' "$rc" "$auto_decided" "$auto_n" "${auto_at[*]}" "$auto_replayed" "$auto_stop"
}
recorded_cases=0 recorded_same=0 differ=''
check_recorded() {  # check_recorded NAME MANIFEST ENV
    rm -f "$base.suite.json" "$base.env"
    [ "$2" = none ] || printf '%s\n' "$2" >"$base.suite.json"
    printf '%s' "$3" >"$base.env"
    recorded_cases=$((recorded_cases + 1))
    local want got
    want=$( (resumed old) ) got=$( (resumed new) )
    if [ "$got" = "$want" ]; then recorded_same=$((recorded_same + 1)); else differ+=" $1"; diag "$1: old [$want] new [$got]"; fi
}
decision='replicates auto: stage 2: 3 fresh target processes at runs 12 15 18; interleaved with the 9 runs after the key runs; planned from the pilot'"'"'s 6 processes (runs 1-11), which the interval reported leaves out
  Barrier overhead (us)                     pilot median 1, spread 0.1 (1.4826 x MAD) from 6, planned on 0.2 (its 80% upper bound): 3 processes for +-0.1
'
stop='replicates auto: stopped after 2 processes (stage 2: runs 12 15; the pilot'"'"'s left out): still wide: Static speedup
  Barrier overhead (us)                     median 1, 95% interval none (wanted +-0.1) from 2 processes
  stage 2 ran 2 of the 3 processes planned
'
member() { printf '{"schema": "clomp-suite-manifest/1.1", "replicates": {"asked": "auto", "planned": 6, "stage2_planned": %s, "stage2_runs": %s, "stage2_at": %s, "stop": %s}}' "$@"; }
check_recorded "nothing decided" "$(member 0 '[]' '[]' null)" ''
check_recorded "decided, none ran" "$(member 3 '[]' '[12, 15, 18]' null)" "$decision"
check_recorded "two ran" "$(member 3 '[12, 15]' '[12, 15, 18]' null)" "$decision"
check_recorded "stopped" "$(member 3 '[12, 15]' '[12, 15, 18]' '"replicates auto: stopped after 2 processes\n  a line \"quoted\"\n"')" "$decision$stop"
check_recorded "a count that is not the runs'" "$(member 2 '[]' '[12, 15, 18]' null)" ''
check_recorded "a run that is not a number" "$(member 3 '[]' '[12, "x", 18]' null)" ''
check_recorded "a count of 07" "$(member '"07"' '[]' '[1, 2, 3, 4, 5, 6, 7]' null)" ''
check_recorded "no count" '{"replicates": {"stage2_at": [4]}}' ''
check_recorded "a manifest from before stage2_at, nothing said" '{"replicates": {"asked": "auto"}}' 'replicates auto: stage 1\n'
check_recorded "no manifest, .env decided" none "$decision"
check_recorded "no manifest, .env decided and ran" none "$decision"'replicates auto: stage-2 process 1 of 3: run 12
replicates auto: stage-2 process 2 of 3: run 15
'
check_recorded "no manifest, .env stopped, the suite's line after" none "$decision"'replicates auto: stage-2 process 1 of 3: run 12
'"$stop"'
  still the block

---- suite interrupted
later line
'
check_recorded "no manifest, .env stopped, another line after" none "$decision$stop"'replicates auto: else
replicates auto: stopped again
---- x
'
check_recorded "not a JSON document, .env decided" '{"replicates": ' "$decision"
check_recorded "no manifest, a .env line of 2 numbers for 3" none 'replicates auto: stage 2: 3 fresh target processes at runs 12 15; x
'
check_recorded "no manifest, a .env line without runs" none 'replicates auto: stage 2: 3 fresh
'
check_recorded "no manifest, a .env run in brackets" none 'replicates auto: stage 2: 1 fresh target processes at runs [12]; x
'
is "$recorded_same" "$recorded_cases" "--resume reads back what the old driver read, for $recorded_cases manifests and .env files${differ:+; differ:$differ}"

done_testing
