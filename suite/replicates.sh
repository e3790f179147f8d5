# shellcheck shell=bash
# --replicates auto[,PCT[,CAP[,MINUTES]]]: two-stage replication (issue 31, docs/noise.md): a pilot of
# target processes among the key runs, then stage 2's fresh ones spread through the runs after them,
# the interval reported from stage 2 alone. clomp-stats replicates (stats/replicates_answer.c) makes
# each decision and its text; the driver asks when one is due and inserts the runs. What is decided
# is said in <base>.env and recorded in the manifest's replicates member (suite/manifest.sh), which
# --resume replays. Sourced by run_clomp.sh, whose settings are assigned before these functions run;
#   reads: base, plan, total_runs, last_key_run, start_epoch, and helpers of suite/common.sh, catalogue.sh, manifest.sh, run_guard.sh
#   sets:  replicates, auto_pct, auto_cap, auto_minutes (parse_replicates); auto_n, auto_at,
#          auto_replayed, auto_stop, auto_decided (auto_resume); plan, total_runs, auto_inserted, auto_finished (auto_replicates_step)
declare -g base last_key_run start_epoch writer
auto_pct='' auto_cap='' auto_minutes='' auto_inserted=0 auto_n=0 auto_finished=0 auto_at=() auto_stop='' auto_replayed=0 auto_decided=0 auto_helper='' auto_said=''

# parse_replicates VALUE: sets replicates (the processes planned first: the pilot) and, for auto,
# auto_pct, auto_cap, auto_minutes; exits 2 with one line on bad input.
parse_replicates() {
    if [[ $1 != auto && $1 != auto,* ]]; then
        is_count "$1" || die_usage "--replicates: '$1' is not a whole number > 0 or auto[,PCT[,CAP[,MINUTES]]]"
        return 0
    fi
    auto_helper=$(stats_helper) || die_usage "--replicates auto: clomp-stats, which plans stage 2, could not be built (make clomp-stats)"
    auto_said=$("$auto_helper" replicates parse "$1" 2>&1) || die_usage "$auto_said"
    read -r auto_pct auto_cap auto_minutes replicates <<<"$auto_said"
    auto_said=${auto_said#*$'\n'}   # what a dry run says of it
}

auto_plan_line() { [ -z "$auto_pct" ] || printf '%s\n' "$auto_said"; }

# auto_ask ACTION ARGS...: clomp-stats replicates' answer from <base>.csv's target runs over the
# key figures (the catalogue's replicates set: CLOMP 1.2's Runtime figures the key summary shows).
auto_ask() {
    figure_rows replicates measurement csv label unit | "$auto_helper" replicates "$@" "$base.csv" "${plan[0]##*|} first-touch"
}

# auto_resume: on --resume, before the manifest is written again, the decision recorded: the manifest's
# replicates member (read by its JSON), else (no stage2_at: a manifest from before it) .env's lines.
auto_resume() {
    local file out name member=()
    [ -n "$auto_pct" ] || return 0
    file=$(manifest_path)
    for name in stage2_at stage2_planned stage2_runs stop; do member+=("$("$writer" get "$file" "replicates.$name" 2>/dev/null)"); done
    out=$("$auto_helper" replicates recorded "$base.env" "$file" "${member[@]}" 2>&1) ||
        { [ $? = 1 ] && return 0; die_usage "$out"; }   # 1: nothing decided yet
    read -r -a auto_at <<<"${out%%$'\n'*}"
    auto_n=${auto_at[0]} auto_replayed=${auto_at[1]} auto_at=("${auto_at[@]:2}") auto_decided=1
    [[ $out != *$'\n'* ]] || auto_stop=${out#*$'\n'}
}

# auto_record WHAT TEXT: TEXT said, and appended to <base>.env through the writer (add_to_file: never
# through a link); when it cannot be, the suite stops (stop_unrecorded, exit 3), to be resumed from there.
auto_record() {
    local werr
    printf '%s' "$2"
    werr=$(printf '%s' "$2" | add_to_file "$base.env" 2>&1) || stop_unrecorded "$1" "$(write_failed "$werr")"
}

# auto_finish WHY: the stop, the interval from stage 2 alone, said and recorded (or said again: resumed).
auto_finish() {
    auto_finished=1
    [ -z "$auto_stop" ] || { printf '%s\n' "${auto_stop%$'\n'}"; return; }
    auto_stop=$(auto_ask stop "$auto_pct" "$auto_cap" "$auto_n" "${auto_at[*]:0:auto_inserted}" "$1")$'\n' ||
        stop_unrecorded "--replicates auto's stop" "clomp-stats replicates stop failed"
    auto_record "--replicates auto's stop" "$auto_stop"
}

# auto_replicates_step I: at every plan index I from the end of the key runs on; 1 when the between-process
# table is due (without auto: at I = last_key_run). With auto: the decision at I = last_key_run, a stage-2
# process inserted where one is planned (0), the stop after the last or at the time cap (1).
auto_replicates_step() {
    local i=$1 out werr
    if [ -z "$auto_pct" ]; then
        [ "$i" -ne "$last_key_run" ]
        return
    fi
    [ "$auto_finished" = 0 ] || return 0
    if [ "$i" -eq "$last_key_run" ] && [ "$auto_decided" = 0 ]; then
        out=$(auto_ask decide "$auto_pct" "$auto_cap" "$replicates" "$i" "$total_runs") ||
            stop_unrecorded "--replicates auto's stage-2 decision" "clomp-stats replicates decide failed"
        read -r -a auto_at <<<"${out%%$'\n'*}"
        auto_n=${auto_at[0]} auto_at=("${auto_at[@]:1}")
        auto_record "--replicates auto's stage-2 decision" "${out#*$'\n'}"$'\n'
    fi
    if [ "$auto_inserted" -lt "$auto_n" ] && [ $((i + 1)) -eq "${auto_at[auto_inserted]}" ]; then
        # Replayed as recorded; else inserted unless a recorded stop or the time cap comes first.
        if [ "$auto_inserted" -lt "$auto_replayed" ] || { [ -z "$auto_stop" ] && [ $(($(date +%s) - start_epoch)) -lt $((auto_minutes * 60)) ]; }; then
            plan=("${plan[@]:0:i}" "${plan[0]}" "${plan[@]:i}")   # a stage-2 target process at plan index I
            total_runs=$((total_runs + 1)) auto_inserted=$((auto_inserted + 1))
            [ "$auto_inserted" -le "$auto_replayed" ] ||
                werr=$(echo "replicates auto: stage-2 process $auto_inserted of $auto_n: run $((i + 1))" | add_to_file "$base.env" 2>&1) ||
                stop_unrecorded "--replicates auto's stage-2 process $auto_inserted" "$(write_failed "$werr")"
            return 0
        fi
        auto_finish "time cap of $auto_minutes min reached after $auto_inserted of $auto_n stage-2 processes"
        return 1
    fi
    [ "$auto_inserted" -eq "$auto_n" ] && [ "$i" -eq "${auto_at[auto_n - 1]}" ] || return 0
    auto_finish ''
    return 1
}
