# shellcheck shell=bash
# The oracle of tests/manifest_writer.t: suite/manifest.sh as it was before the manifest's JSON moved into C
# (write/manifest_writer.c), kept verbatim below this header: its write_manifest and manifest_plan --launch
# are what clomp-write manifest must write, byte for byte. Not product code: only that test sources it.
# The suite manifest, <base>.suite.json (schema clomp-suite-manifest,
# docs/suite-manifest.md): the plan, the settings and each run's status in
# one JSON document, the one the reports, --resume, the bundle and the
# validator read (.env stays the human-readable log: nothing parses it back).
# Written by plain shell, so a node without python3 leaves it too, and
# always whole: a new copy renamed over the old (put_file, suite/common.sh),
# after the suite's settings are taken, before and after every run and at
# every status line. One member per line, one run per line. Read back by its
# JSON, whatever its layout (clomp-write get/entries/head, write/manifest_reader.c):
# --resume keeps the settings as the suite started and the done runs' entries.
# Sourced by run_clomp.sh.
#   reads: base, exe, max_threads, time_scale, env_preset, suite_binding, launcher, mpi_launcher,
#          replicates, auto_pct, auto_cap, auto_minutes, auto_n, auto_at, auto_inserted, auto_replayed, auto_stop (suite/replicates.sh),
#          plan, total_runs, preflight, env_sections, env_slurm_lines, env_offload_line (suite/env_file.sh),
#          calibration_note (suite/calibrate.sh), have_python (suite/results.sh)
#   uses:  plan_signature, mpi_launcher_for, construct_options, is_construct_set, is_offload_set, put_file, table_rows,
#          writer (suite/common.sh find_writer), grain_setting (suite/suite_grain.sh)
declare -g writer base id exe max_threads time_scale env_preset suite_binding launcher mpi_launcher replicates
declare -g auto_pct auto_cap auto_minutes auto_n auto_inserted auto_replayed auto_stop total_runs OVERSUBSCRIBED_SET
declare -g calibration_note env_slurm_lines env_offload_line have_python mpi_given
declare -ga plan preflight auto_at env_sections launcher_words

MANIFEST_SCHEMA=clomp-suite-manifest MANIFEST_MAJOR=1 MANIFEST_MINOR=2
manifest_path() { printf '%s.suite.json\n' "$base"; }

# json_str_in VAR TEXT: VAR set to TEXT as a JSON string (RFC 8259: quote, backslash
# and every control character escaped; other bytes as they are, for the reader's UTF-8).
# The *_in forms set a variable, not print: the manifest is rewritten twice a run with
# every plan entry's strings, and a $( ) is a fork each (some 500 forks a run of an
# 8-run plan, most of the driver's CPU a run, before them).
json_str_in() {
    local -n _js_var=$1
    local _js_s=$2 _js_out='' _js_c _js_k
    _js_s=${_js_s//\\/\\\\} _js_s=${_js_s//\"/\\\"} _js_s=${_js_s//$'\n'/\\n} _js_s=${_js_s//$'\t'/\\t} _js_s=${_js_s//$'\r'/\\r}
    if [[ $_js_s == *[$'\x01'-$'\x1f'$'\x7f']* ]]; then
        local LC_ALL=C
        for ((_js_k = 0; _js_k < ${#_js_s}; _js_k++)); do
            _js_c=${_js_s:_js_k:1}
            case $_js_c in [$'\x01'-$'\x1f'$'\x7f']) printf -v _js_c '\\u%04x' "'$_js_c" ;; esac
            _js_out+=$_js_c
        done
        _js_s=$_js_out
    fi
    _js_var="\"$_js_s\""
}
# json_str TEXT: the same, printed.
json_str() { local _j; json_str_in _j "$1"; printf '%s' "$_j"; }
# json_strs_in VAR WORD...: VAR set to a JSON array of strings; json_strs WORD...: printed.
json_strs_in() {
    local -n _jl_var=$1
    local _jl_w _jl_j _jl_sep='' _jl_out='['
    shift
    for _jl_w in "$@"; do json_str_in _jl_j "$_jl_w"; _jl_out+="$_jl_sep$_jl_j" _jl_sep=', '; done
    _jl_var="$_jl_out]"
}
json_strs() { local _j; json_strs_in _j "$@"; printf '%s' "$_j"; }
# json_num_in VAR TEXT: VAR set to TEXT when it is a plain decimal number, else null; json_num TEXT: printed.
json_num_in() {
    local -n _jn_var=$1
    if [[ $2 =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; then _jn_var=$2; else _jn_var=null; fi
}
json_num() { local _j; json_num_in _j "$1"; printf '%s' "$_j"; }

# The run's role in the suite's report: what the plan says it is for.
run_role() {  # run_role SET
    case $1 in
        key) echo key ;;
        packed*) echo packed ;;
        "$OVERSUBSCRIBED_SET") echo oversubscribed ;;
        *zones) echo sweep ;;
        *) if is_construct_set "$1"; then echo constructs; elif is_offload_set "$1"; then echo offload; else echo other; fi ;;
    esac
}

# manifest_head: the members fixed when the suite started (schema, settings,
# the machine description's sections in .env's order: env_sections, HEADING
# then its text, from write_env), one per line, up to the plan.
manifest_head() {
    local k var sep='' env_members='' sections=''
    for var in $(compgen -e | grep -E '^(OMP_|GOMP_|KMP_|XLSMPOPTS|BG_|OMPI_|SLURM_)' | sort); do
        env_members+="$sep$(json_str "$var"): $(json_str "${!var}")" sep=', '
    done
    sep=''
    for ((k = 0; k + 1 < ${#env_sections[@]}; k += 2)); do
        local -a lines=()
        [ -z "${env_sections[k + 1]}" ] || mapfile -t lines <<<"${env_sections[k + 1]}"
        sections+="$sep{\"heading\": $(json_str "${env_sections[k]}"), \"lines\": $(json_strs ${lines[@]+"${lines[@]}"})}" sep=', '
    done
    printf '{\n'
    printf '  "schema": "%s",\n  "schema_major": %d,\n  "schema_minor": %d,\n' "$MANIFEST_SCHEMA" "$MANIFEST_MAJOR" "$MANIFEST_MINOR"
    printf '  "suite": %s,\n' "$(json_str "${base##*/}")"
    printf '  "plan_signature": %s,\n' "$(json_str "$(plan_signature)")"
    printf '  "settings": {"date": %s, "host": %s, "uname": %s, "executable": %s, "max_threads": %s, "time_scale": %s, ' \
        "$(json_str "$(date)")" "$(json_str "$(uname -n)")" "$(json_str "$(uname -a)")" "$(json_str "$exe")" \
        "$(json_num "$max_threads")" "$(json_num "$time_scale")"
    printf '"env_preset": %s, "thread_binding": %s, "launcher": %s, "mpi_launcher": %s, "replicates_asked": %s, ' \
        "$(json_str "${env_preset:-none}")" "$(json_str "$suite_binding")" "$(json_str "${launcher:-none}")" \
        "$(json_str "${mpi_launcher:-none}")" "$(json_str "${auto_pct:+auto,$auto_pct,$auto_cap,$auto_minutes}${auto_pct:-$replicates}")"
    printf '"grain_search": "%s", ' "$(grain_setting)"   # suite/suite_grain.sh: --resume keeps it
    printf '"model": %s, "slurm_job": %s, "offload_device": %s, ' "$(json_str "${calibration_note-}")" \
        "$(json_str "$(sed -n '1s/^slurm job: //p' <<<"$env_slurm_lines")")" "$(json_str "${env_offload_line#offload device: }")"
    printf '"openmp_environment": {%s}, "preflight_warnings": %s},\n' "$env_members" "$(json_strs ${preflight[@]+"${preflight[@]}"})"
    printf '  "machine": [%s],\n' "$sections"
}

# manifest_runs OLD RUNNING: each run's status line: done (its .runs.csv row OK) or failed
# (FAILED, with its reason: the run just recorded's, else the entry OLD, the manifest before,
# had for it: "RUN<tab>ENTRY" lines, clomp-write entries), running (RUNNING) or planned.
manifest_runs() {
    local old=$1 k line st rc secs why record state rc_j secs_j
    local -A is_done=() old_line=() row=()
    while read -r k; do [ -z "$k" ] || is_done[$k]=1; done <"$base.done"
    while IFS=$'\t' read -r k line; do [[ ! $k =~ ^[0-9]+$ ]] || old_line[$k]=$line; done <<<"$old"
    while read -r k line; do [ -z "$k" ] || row[$k]=$line; done < <(table_rows "$base.runs.csv" '{ print col("run"), col("status"), col("exit_code"), col("seconds") }')
    for ((k = 1; k <= total_runs; k++)); do
        record=null why=null
        if [ -n "${is_done[$k]-}" ] && [ -n "${old_line[$k]-}" ] && [ "$k" != "${run:-}" ]; then
            printf '    %s' "${old_line[$k]}"
        elif [ -n "${is_done[$k]-}" ]; then
            read -r st rc secs <<<"${row[$k]-}"
            state="done"
            [ "${st-}" != FAILED ] || state=failed
            [ "$state" != failed ] || [ "$k" != "${run:-}" ] || [ -z "${reason:-}" ] || json_str_in why "$reason"
            line=${plan[k - 1]%%|*}
            [ ! -e "${base}_$line.run$k.json" ] || json_str_in record "${base##*/}_$line.run$k.json"
            json_num_in rc_j "${rc-}"
            json_num_in secs_j "${secs-}"
            printf '    {"run": %d, "status": "%s", "exit_code": %s, "seconds": %s, "reason": %s, "record": %s}' "$k" "$state" \
                "$rc_j" "$secs_j" "$why" "$record"
        else
            state=planned
            [ "$k" != "$2" ] || state=running
            printf '    {"run": %d, "status": "%s", "exit_code": null, "seconds": null, "reason": null, "record": null}' "$k" "$state"
        fi
        [ "$k" -eq "$total_runs" ] && echo || echo ,
    done
}

# manifest_plan record|--launch: the plan's entries, one a line, as the manifest holds them; with
# --launch each also with the words its command has before its clomp options (the MPI launcher of
# its set, --launcher's, the executable): the dry run's and the ETA's estimate reads them
# (results/clomp_results/core/estimate.py, suite/calibrate.sh ask_estimate).
manifest_plan() {
    local k set_name policy args launch='' set_j numa_j args_j opts_j threads_j scale_j
    local -a a opts words
    for ((k = 0; k < total_runs; k++)); do
        IFS='|' read -r set_name policy args <<<"${plan[k]}"
        read -r -a a <<<"$args"
        read -r -a opts <<<"${policy:+--numa=$policy} $(construct_options "$set_name" "${a[0]}")"
        if [ "${1-}" = --launch ]; then
            words=()
            [ "$mpi_given" = 0 ] || read -r -a words <<<"$(mpi_launcher_for "$set_name")"   # suite/plan.sh
            json_strs_in launch ${words[@]+"${words[@]}"} ${launcher_words[@]+"${launcher_words[@]}"} "$exe"
            launch=", \"launch\": $launch"
        fi
        json_str_in set_j "$set_name"
        json_str_in numa_j "${policy:-first-touch}"
        json_strs_in args_j "${a[@]}"
        json_strs_in opts_j ${opts[@]+"${opts[@]}"}
        json_num_in threads_j "${a[0]}"
        json_num_in scale_j "${a[6]-}"
        printf '    {"run": %d, "set": %s, "numa": %s, "args": %s, "options": %s, "threads": %s, "time_scale": %s, "role": "%s"%s}' \
            $((k + 1)) "$set_j" "$numa_j" "$args_j" "$opts_j" "$threads_j" "$scale_j" "$(run_role "$set_name")" "$launch"
        [ $((k + 1)) -eq "$total_runs" ] && echo || echo ,
    done
}

# manifest_plan_cached: manifest_plan record's lines, made again only when the plan has changed
# (--replicates auto's stage 2 adds runs): every write of the manifest holds them, and making them
# costs a few subshells an entry (a 16-run suite's 34 writes once took 5,700 json_str calls).
# Called in the run loop (the worker's own shell); a write in a subshell before it makes its own.
manifest_plan_cached() {
    [ "${manifest_plan_runs-}" = "$total_runs" ] && [ "${manifest_plan_of-}" = "${plan[*]}" ] && return 0
    manifest_plan_lines=$(manifest_plan record) manifest_plan_runs=$total_runs manifest_plan_of=${plan[*]}
}

# write_manifest [RUNNING [STATUS [HISTORY_LINE]]]: the manifest rewritten whole: the head as the
# suite started (the file's own, once there is one), the plan as it is now (--replicates auto adds
# to it), each run's status (RUNNING: the run in progress), --replicates' decision, the status
# lines so far (+ HISTORY_LINE) and the suite's status (STATUS, default running). Returns 1
# when the write fails (put_file's message on stderr).
write_manifest() {
    local file old='' head k status=${2:-running} history='' sep='' stop=null
    file=$(manifest_path)
    if [ -f "$file" ] && [ ! -L "$file" ]; then   # read by its JSON (write/manifest_reader.c)
        head=$("$writer" head "$file") || return 1
        old=$("$writer" entries "$file" runs run)
        history=$("$writer" get "$file" history) history=${history#[} history=${history%]}
    else
        head=$(manifest_head)
    fi
    [ -z "${3:-}" ] || history+="${history:+, }$(json_str "$3")"
    [ -z "${auto_stop-}" ] || stop=$(json_str "$auto_stop")   # suite/replicates.sh: the stop it said
    manifest_plan_cached
    {
        printf '%s\n  "plan": [\n%s\n' "$head" "$manifest_plan_lines"
        printf '  ],\n  "runs": [\n'
        manifest_runs "$old" "${1:-}"
        printf '  ],\n  "replicates": {"asked": "%s", "planned": %s, "stage2_planned": %s, "stage2_runs": [' \
            "$([ -n "${auto_pct:-}" ] && echo auto || echo fixed)" "$(json_num "$replicates")" "$(json_num "${auto_n:-0}")"
        # Those inserted, or on --resume those the suite had inserted before, until replayed.
        for ((k = 0; k < (auto_inserted > auto_replayed ? auto_inserted : auto_replayed); k++)); do printf '%s%s' "$sep" "${auto_at[k]}"; sep=', '; done
        printf '], "stage2_at": ['
        sep=''
        for k in ${auto_at[@]+"${auto_at[@]}"}; do printf '%s%s' "$sep" "$k"; sep=', '; done
        printf '], "stop": %s},\n' "$stop"
        printf '  "history": [%s],\n  "status": "%s"\n}\n' "$history" "$status"
    } | put_file "$file"
}

# note_suite_status LINE [STATUS]: "---- LINE" appended to .env (the log) and the manifest
# rewritten with LINE in its history and STATUS (running, complete, failed, interrupted, stopped).
note_suite_status() {
    printf -- '---- %s\n' "$1" | add_to_file "$base.env" || return 1
    write_manifest '' "${2:-running}" "$1"
}

# check_resume_plan: --resume only with the plan (and binary and launcher) the suite started with:
# the signature its manifest holds (built first for a suite from before it: resume_manifest), read
# by its JSON; else exit 2 with one line.
check_resume_plan() {
    local signature
    resume_manifest
    signature=$("$writer" get "$(manifest_path)" plan_signature 2>&1) || [ $? = 1 ] || die_usage "--resume: ${signature#clomp-write: }"
    [ "$signature" = "$(plan_signature)" ] ||
        die_usage "--resume: suite $id was started with other parameters (see $base.suite.json); give the same ones"
}

# resume_manifest: --resume of a suite from before the manifest: one built by the results
# package's converter from what the suite carries (clomp-results manifest --write); without
# python3, refused (exit 2) with the version it needs.
resume_manifest() {
    local file
    file=$(manifest_path)
    [ ! -e "$file" ] || return 0
    [ "$have_python" = 1 ] ||   # suite/results.sh
        die_usage "--resume: $base has no manifest (suite made before $MANIFEST_SCHEMA $MANIFEST_MAJOR.0): convert it where python3 runs (results/clomp-results manifest --write $base), then resume"
    clomp_results manifest --write "$base" >/dev/null || die_usage "--resume: could not build $file from the suite's files"
}
