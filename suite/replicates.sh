# shellcheck shell=bash
# --replicates auto[,PCT[,CAP[,MINUTES]]]: two-stage replication (issue 31,
# docs/noise.md). Stage 1, the pilot: the target input's first AUTO_START
# processes, interleaved with the other key runs as a fixed count is. From
# them clomp-stats (pilot-n) plans, per key figure, the fresh processes whose
# 95% interval of the median is expected within the SMALLER of +-PCT% of the
# median and +-0.1 us (figures in us); stage 2 runs the most any figure needs,
# at most CAP, spread through the runs after the key runs. The interval
# reported (the stop record, the between-process table) comes from the stage-2
# processes alone: their number is fixed before they run, so it covers as an
# interval of that many processes does, which a rule that stops on the interval
# it reports does not. MINUTES since the suite (or its resume) started stops
# stage 2 early, and says so. The decision, each stage-2 process (with its run
# number) and the stop are said in <base>.env (the log) and recorded in the
# manifest's replicates member (suite/manifest.sh), which --resume reads back
# to replay the same plan (and the results package's loader rebuilds it).
# Sourced by run_clomp.sh; reads its settings, declared here and assigned there
# before any function below runs:
#   reads: base, plan, total_runs, last_key_run, start_epoch (run_clomp.sh); stats_helper, writer, add_to_file (suite/common.sh);
#          figure_rows (suite/catalogue.sh); manifest_path (suite/manifest.sh); stop_unrecorded, write_failed (suite/run_guard.sh)
#   sets:  replicates, auto_pct, auto_cap, auto_minutes (parse_replicates); auto_n, auto_at,
#          auto_replayed, auto_stop, auto_decided (auto_resume); plan, total_runs, auto_inserted, auto_finished (auto_replicates_step)
declare -g base last_key_run start_epoch writer

AUTO_START=6            # the pilot: the fewest processes with a 95% interval of the median
AUTO_FLOOR=0.1          # us: the widest interval wanted for a figure in us
auto_pct='' auto_cap='' auto_minutes='' auto_inserted=0 auto_n=0 auto_finished=0 auto_at=() auto_stop='' auto_replayed=0 auto_decided=0

# auto_figures: the figures that must be tight, one "measurement key|clomp CSV column|label|floor" a
# line (the 0.1 us floor for a figure in us, none for another unit): the catalogue's replicates set
# (CLOMP 1.2's Runtime figures the key summary shows).
auto_figures() {
    local key col label unit
    figure_rows replicates measurement csv label unit | while IFS='|' read -r key col label unit; do
        printf '%s|%s|%s|%s\n' "$key" "$col" "$label" "$([ "$unit" = us ] && echo "$AUTO_FLOOR" || echo none)"
    done
}

# parse_replicates VALUE: sets replicates (the processes planned first: the pilot) and,
# for auto, auto_pct, auto_cap, auto_minutes; exits 2 with one line on bad input.
parse_replicates() {
    local value=$1 rest extra
    if [[ $value != auto && $value != auto,* ]]; then
        is_count "$value" || die_usage "--replicates: '$value' is not a whole number > 0 or auto[,PCT[,CAP[,MINUTES]]]"
        return 0
    fi
    rest=${value#auto}
    rest=${rest#,}
    IFS=, read -r auto_pct auto_cap auto_minutes extra <<<"$rest"
    [ -z "${extra-}" ] || die_usage "--replicates: '$value' has more than PCT, CAP and MINUTES after auto"
    auto_pct=${auto_pct:-10} auto_cap=${auto_cap:-30} auto_minutes=${auto_minutes:-60}
    if ! [[ $auto_pct =~ ^[0-9]*\.?[0-9]+$ ]] || ! awk -v p="$auto_pct" 'BEGIN { exit !(p > 0) }'; then
        die_usage "--replicates auto: the width '$auto_pct' must be a percentage above 0 (e.g. auto,10)"
    fi
    if ! [[ $auto_cap =~ ^[0-9]{1,4}$ ]] || [ "$auto_cap" -lt 2 ] || [ "$auto_cap" -gt 1000 ]; then
        die_usage "--replicates auto: the cap '$auto_cap' must be a whole number of processes, at least 2 and at most 1000"
    fi
    is_count "$auto_minutes" || die_usage "--replicates auto: the time cap '$auto_minutes' must be whole minutes > 0"
    # shellcheck disable=SC2034  # read by build_plan (suite/plan.sh)
    replicates=$((auto_cap < AUTO_START ? auto_cap : AUTO_START))
}

# auto_plan_line: what a dry run says of --replicates auto.
auto_plan_line() {
    [ -n "$auto_pct" ] || return 0
    echo "--replicates auto: a pilot of $replicates target processes, then N fresh ones, N planned from the pilot" \
        "(each key figure's 95% interval within +-$auto_pct% and +-$AUTO_FLOOR us; at most $auto_cap processes," \
        "$auto_minutes min), spread through the runs after the key runs; the interval reported is from the N alone"
}

# auto_answer RUNS KEY COLUMN FLOOR: clomp-stats pilot-n's JSON answer (one line, read by member
# name: stats_field) for one key figure, its values read by clomp-stats from <base>.csv by column
# name (stats/suite_table.c): those of the OK target runs numbered in RUNS (space-separated), a
# measurement its run marked not a result (valid 0, issue 35) giving none, as the between-process
# table leaves it out. runs: the target processes among RUNS, whatever their figures; n 0 alone:
# no value. Else the plan from the values, and their own 95% interval's half_width (the larger
# side; null without one) and whether it is within the smaller of PCT% of |median| and FLOOR.
# Uses the caller's helper.
auto_answer() {
    "$helper" pilot-n --json "$auto_pct" "$4" "$auto_cap" --table "$base.csv" "${plan[0]##*|} first-touch" "$1" "$2" "$3"
}

# stats_field JSON NAME: the member NAME of clomp-stats' one-line JSON object (numbers and null).
stats_field() {
    [[ $1 =~ \"$2\":\ ([^,}]*) ]] && printf '%s\n' "${BASH_REMATCH[1]}"
}

# auto_recorded: what the suite recorded before a --resume, read from the manifest's replicates
# member by its JSON (clomp-write get): stage 2's size and runs (auto_n, auto_at), how many of them
# ran (auto_replayed) and the stop said (auto_stop). A manifest from before stage2_at (1.0, or
# converted from an old suite) has them only in .env's lines, read as they were. Returns 1 when
# nothing was decided yet.
auto_recorded() {
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
        die_usage "--resume: $line is not N processes at N run numbers"
}
# auto_resume: on --resume, before the manifest is written again, the decision recorded.
auto_resume() { [ -z "$auto_pct" ] || ! auto_recorded || auto_decided=1; }

# auto_decide I: at the end of the key runs (I = last_key_run): stage 2's size from the pilot
# (the target runs numbered <= I), and where its processes go: spread through the runs after
# the key runs, the first right after them. Said, and recorded (<base>.env, the manifest); a
# resumed suite has read the recorded decision instead (auto_resume).
auto_decide() {
    local i=$1 helper figure key col label floor json n pilot rest k how lines=''
    [ "$auto_decided" = 0 ] || return 0
    auto_n=0 pilot=$replicates   # the pilot planned, where clomp-stats cannot count it
    local -a figures=()
    if helper=$(stats_helper); then
        mapfile -t figures < <(auto_figures)
        for figure in ${figures[@]+"${figures[@]}"}; do
            IFS='|' read -r key col label floor <<<"$figure"
            json=$(auto_answer "$(seq -s ' ' 1 "$i")" "$key" "$col" "$floor") || continue
            pilot=$(stats_field "$json" runs) n=$(stats_field "$json" processes)
            [ "$(stats_field "$json" n)" != 0 ] || { lines+=$(printf '  %-40s no pilot process gave a result: not planned for' "$label")$'\n'; continue; }
            [ "$n" -le "$auto_n" ] || auto_n=$n
            lines+=$(awk -v l="$label" -v k="$(stats_field "$json" n)" -v m="$(stats_field "$json" median)" \
                -v s="$(stats_field "$json" scale)" -v w="$(stats_field "$json" wanted)" -v n="$n" \
                -v u="$(stats_field "$json" planning_scale)" -v runs="$(stats_field "$json" runs)" \
                -v need="$(stats_field "$json" needed)" -v e="$(stats_field "$json" expected_half_width)" 'BEGIN {
                printf "  %-40s pilot median %.4g, spread %.3g (1.4826 x MAD) from %d", l, m, s, k
                if (runs != "" && runs + 0 > k + 0) printf " of %d (%d not a result)", runs, runs - k
                printf ", planned on %.3g (its 80%% upper bound): %d processes for +-%.3g", u, n, w
                if (e != "null") printf " (expected +-%.3g)", e
                if (need == "null" || need + 0 > n + 0) printf "; it would need %s", need == "null" ? "a spread of 0" : need " processes"
                printf "\n" }')$'\n'
        done
    else
        echo "run_clomp.sh: warning: clomp-stats could not be built: --replicates auto's stage 2 runs the fewest processes" >&2
    fi
    [ "$auto_n" -gt 0 ] || auto_n=$((auto_cap < AUTO_START ? auto_cap : AUTO_START))
    rest=$((total_runs - i))
    auto_at=()
    for ((k = 0; k < auto_n; k++)); do auto_at+=($((i + k * rest / auto_n + k + 1))); done
    if [ "$rest" = 0 ]; then how="back to back: no runs follow the key runs"
    elif [ "$rest" -lt "$auto_n" ]; then how="spread through the $rest runs after the key runs, some back to back"
    else how="interleaved with the $rest runs after the key runs"
    fi
    auto_record "--replicates auto's stage-2 decision" \
        "replicates auto: stage 2: $auto_n fresh target processes at runs ${auto_at[*]}; $how; planned from the pilot's $pilot processes (runs 1-$i), which the interval reported leaves out"$'\n'"$lines"
}

# auto_record WHAT TEXT: TEXT said, and appended to <base>.env through the writer (add_to_file: never
# through a link); when it cannot be, the suite stops (stop_unrecorded, exit 3), to be resumed from there.
auto_record() {
    local werr
    printf '%s' "$2"
    werr=$(printf '%s' "$2" | add_to_file "$base.env" 2>&1) || stop_unrecorded "$1" "$(write_failed "$werr")"
}

auto_insert() {  # auto_insert I: a stage-2 target process at plan index I
    plan=("${plan[@]:0:$1}" "${plan[0]}" "${plan[@]:$1}")
    total_runs=$((total_runs + 1)) auto_inserted=$((auto_inserted + 1))
}

# auto_finish WHY: the interval reported, from the stage-2 processes alone; said and recorded.
auto_finish() {
    local why=$1 runs helper figure key col label floor json processes=$auto_inserted lines='' wide='' judged=0
    local -a figures=()
    auto_finished=1
    runs=${auto_at[*]:0:auto_inserted}   # the stage-2 processes inserted so far
    helper=$(stats_helper) || { echo "run_clomp.sh: warning: clomp-stats could not be built: no interval to report" >&2; helper=false; }
    mapfile -t figures < <(auto_figures)
    for figure in ${figures[@]+"${figures[@]}"}; do
        IFS='|' read -r key col label floor <<<"$figure"
        json=$(auto_answer "$runs" "$key" "$col" "$floor") || continue
        processes=$(stats_field "$json" runs) judged=1
        # A figure no process gave (issue 35: not a result in each) is still wide, never tight.
        [ "$(stats_field "$json" within)" = 1 ] || wide+="${wide:+, }$label"
        [ "$(stats_field "$json" n)" != 0 ] || { lines+=$(printf '  %-40s no stage-2 process gave a result' "$label")$'\n'; continue; }
        # Processes that gave no result are left out: the interval is then of those that gave one, a
        # number the plan did not fix (issue 44), and said so with why the others gave none.
        lines+=$(awk -v l="$label" -v n="$(stats_field "$json" n)" -v m="$(stats_field "$json" median)" \
            -v h="$(stats_field "$json" half_width)" -v w="$(stats_field "$json" wanted)" -v runs="$processes" 'BEGIN {
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
    auto_record "--replicates auto's stop" "$auto_stop"
}

# auto_replicates_step I: called at every plan index I from the end of the key runs on
# (I = last_key_run) up to the end; returns 1 when the between-process table is due now
# (without auto: at I = last_key_run). With auto: the decision at I = last_key_run; a
# stage-2 process inserted at I where one is planned (returns 0); the stop after the
# last one ran, or when the time cap is reached (returns 1). --resume replays what
# the suite recorded (auto_recorded): the decision, the processes inserted, the stop.
auto_replicates_step() {
    local i=$1 werr
    if [ -z "$auto_pct" ]; then
        [ "$i" -ne "$last_key_run" ]
        return
    fi
    [ "$auto_finished" = 0 ] || return 0
    [ "$i" -ne "$last_key_run" ] || auto_decide "$i"
    if [ "$auto_inserted" -lt "$auto_n" ] && [ $((i + 1)) -eq "${auto_at[auto_inserted]}" ]; then
        if [ "$auto_inserted" -lt "$auto_replayed" ]; then
            auto_insert "$i"
        elif [ -n "$auto_stop" ]; then
            auto_replay_stop
            return 1
        elif [ $(($(date +%s) - start_epoch)) -ge $((auto_minutes * 60)) ]; then
            auto_finish "time cap of $auto_minutes min reached after $auto_inserted of $auto_n stage-2 processes"
            return 1
        else
            auto_insert "$i"
            werr=$(echo "replicates auto: stage-2 process $auto_inserted of $auto_n: run $((i + 1))" | add_to_file "$base.env" 2>&1) ||
                stop_unrecorded "--replicates auto's stage-2 process $auto_inserted" "$(write_failed "$werr")"
        fi
        return 0
    fi
    [ "$auto_inserted" -eq "$auto_n" ] && [ "$i" -eq "${auto_at[auto_n - 1]}" ] || return 0
    if [ -n "$auto_stop" ]; then auto_replay_stop; else auto_finish ''; fi
    return 1
}

auto_replay_stop() {  # the stop a resumed suite recorded before, said again
    auto_finished=1
    printf '%s\n' "${auto_stop%$'\n'}"
}
