# shellcheck shell=bash
# The suite manifest, <base>.suite.json (docs/suite-manifest.md), the document the reports, --resume, the bundle and
# the validator read: written whole by the writer from this shell's facts (clomp-write manifest, write/manifest_writer.c:
# no python3, never through a link) once the settings are taken, around every run and at every status line.
declare -g writer base id exe max_threads time_scale env_preset suite_binding launcher mpi_launcher replicates auto_pct auto_cap
declare -g auto_minutes auto_n auto_inserted auto_replayed auto_stop total_runs calibration_note env_slurm_lines env_offload_line
declare -g have_python mpi_given OVERSUBSCRIBED_SET
declare -ga plan preflight auto_at env_sections launcher_words manifest_plan_lines

manifest_path() { printf '%s.suite.json\n' "$base"; }

# manifest_plan_cached: manifest_plan_lines, the plan's entries as the writer's facts, made again only when the plan has
# changed (--replicates auto adds runs): each costs a subshell, and every write holds them. --launch: made anew with each
# command's words before its options, and printed, one a line, for the estimate (suite/calibrate.sh ask_estimate).
manifest_plan_cached() {
    local k set_name policy args role a=() opts=() words=()
    if [ "${1-}" = --launch ]; then
        local manifest_plan_runs manifest_plan_of manifest_plan_lines=()   # its own: the manifest's stay as they are
        [ -n "${writer-}" ] || find_writer   # suite/common.sh: the dry run asks before the output files are set up
    elif [ "${manifest_plan_runs-}" = "$total_runs" ] && [ "${manifest_plan_of-}" = "${plan[*]}" ]; then
        return 0
    fi
    manifest_plan_lines=("oversubscribed	$OVERSUBSCRIBED_SET") manifest_plan_runs=$total_runs manifest_plan_of=${plan[*]}
    for ((k = 0; k < total_runs; k++)); do
        IFS='|' read -r set_name policy args <<<"${plan[k]}"
        read -r -a a <<<"$args"
        read -r -a opts <<<"${policy:+--numa=$policy} $(construct_options "$set_name" "${a[0]}")"
        role=other
        ! is_construct_set "$set_name" || role=constructs
        ! is_offload_set "$set_name" || role=offload
        words=()
        [ "${1-}" != --launch ] || [ "$mpi_given" = 0 ] || read -r -a words <<<"$(mpi_launcher_for "$set_name")"   # suite/plan.sh
        [ "${1-}" != --launch ] || words+=(${launcher_words[@]+"${launcher_words[@]}"} "$exe")
        manifest_plan_lines+=("plan	$set_name" "numa	$policy" "role	$role" "${a[@]/#/arg	}" ${opts[@]+"${opts[@]/#/option	}"} ${words[@]+"${words[@]/#/launch	}"})
    done
    [ "${1-}" != --launch ] || printf '%s\0' "${manifest_plan_lines[@]}" | "$writer" manifest --plan
}
manifest_plan() { manifest_plan_cached "$@"; }   # suite/calibrate.sh's name for it

# write_manifest [RUNNING [STATUS [HISTORY_LINE]]]: the manifest rewritten whole (RUNNING: the run in progress; STATUS,
# default running); the head's facts only for a suite with no manifest yet. 1 when the write fails (said on stderr).
write_manifest() {
    local file=$base.suite.json k
    manifest_plan_cached
    {
        if [ ! -f "$file" ] || [ -L "$file" ]; then
            printf '%s\t%s\0' plan_signature "$(plan_signature)" date "$(date)" host "$(uname -n)" uname "$(uname -a)" executable "$exe" \
                max_threads "$max_threads" time_scale "$time_scale" env_preset "${env_preset-}" thread_binding "$suite_binding" \
                launcher "${launcher-}" mpi_launcher "${mpi_launcher-}" auto_cap "${auto_cap-}" auto_minutes "${auto_minutes-}" \
                grain_search "$(grain_setting)" model "${calibration_note-}" slurm_lines "$env_slurm_lines" offload_line "$env_offload_line"
            [ ${#preflight[@]} = 0 ] || printf 'preflight\t%s\0' "${preflight[@]}"
            for ((k = 0; k + 1 < ${#env_sections[@]}; k += 2)); do printf 'heading\t%s\0lines\t%s\0' "${env_sections[@]:k:2}"; done
        fi
        printf '%s\t%s\0' base "$base" running "${1:-}" status "${2:-running}" history "${3:-}" run "${run:-}" \
            reason "${reason:-}" replicates "$replicates" auto_pct "${auto_pct:-}" auto_n "${auto_n:-0}" \
            auto_inserted "${auto_inserted:-0}" auto_replayed "${auto_replayed:-0}" stop "${auto_stop-}"
        [ ${#auto_at[@]} = 0 ] || printf 'auto_at\t%s\0' "${auto_at[@]}"
        printf '%s\0' ${manifest_plan_lines[@]+"${manifest_plan_lines[@]}"}
    } | "$writer" manifest "$file"
}

# note_suite_status LINE [STATUS]: "---- LINE" appended to .env (the log), and to the manifest's history with
# STATUS (running, complete, failed, interrupted, stopped).
note_suite_status() {
    printf -- '---- %s\n' "$1" | add_to_file "$base.env" || return 1
    write_manifest '' "${2:-running}" "$1"
}

# check_resume_plan: --resume only with the plan, binary and launcher the suite started with (its manifest's signature;
# a suite from before the manifest gets one first from the results package's converter, not without python3); else exit 2.
check_resume_plan() {
    local signature
    [ -e "$base.suite.json" ] || [ "$have_python" = 1 ] ||   # suite/results.sh
        die_usage "--resume: $base has no manifest (suite made before clomp-suite-manifest 1.0): convert it where python3 runs (results/clomp-results manifest --write $base), then resume"
    [ -e "$base.suite.json" ] || clomp_results manifest --write "$base" >/dev/null ||
        die_usage "--resume: could not build $base.suite.json from the suite's files"
    signature=$("$writer" get "$(manifest_path)" plan_signature 2>&1) || [ $? = 1 ] || die_usage "--resume: ${signature#clomp-write: }"
    [ "$signature" = "$(plan_signature)" ] ||
        die_usage "--resume: suite $id was started with other parameters (see $base.suite.json); give the same ones"
}
