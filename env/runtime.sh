# shellcheck shell=bash
# The OpenMP runtime profiles (env/runtimes/<name>.tsv, env/runtimes/README.md)
# read from bash: one file per runtime, FIELD<TAB>VALUE[<TAB>VALUE...] per line.
# Nothing in a profile is ever evaluated: values are read as data, a
# setting becomes one `export VAR=VALUE` word (VAR checked to be a name).
#
#   . env/runtime.sh gnu     exports --env gnu's settings (the libgomp profile's
#                            `set` lines) into this shell
#   . env/runtime.sh --functions   only defines the functions below (run_clomp.sh
#                            --env; --compare's sides read the profiles from Python): a script sources it
#                            so, since a bare `.` would hand it the script's own arguments
#
# CLOMP_RUNTIME_DIR names another directory of profiles (tests use a scratch copy).

runtime_dir() {
    printf '%s\n' "${CLOMP_RUNTIME_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/runtimes}"
}

# runtime_lines NAME FIELD: every value list of FIELD in profile NAME, one per
# line, tab-separated; a field NAME's profile does not give comes from the
# profile it `inherits` (its runtime, preset, side and files lines never do).
runtime_lines() {
    local dir file
    dir=$(runtime_dir)
    file=$dir/$1.tsv
    [[ $1 =~ ^[a-z0-9][a-z0-9_-]*$ ]] && [ -f "$file" ] || return 1
    awk -F '\t' -v field="$2" -v dir="$dir" '
        function own(path, parent,    line, n, cells) {
            found = 0; parent = ""
            while ((getline line < path) > 0) {
                if (line ~ /^#/ || line == "") continue
                n = split(line, cells, "\t")
                if (cells[1] == "inherits") parent = cells[2]
                if (cells[1] == field) { print substr(line, length(field) + 2); found = 1 }
            }
            close(path)
            return parent
        }
        BEGIN {
            parent = own(ARGV[1])
            if (!found && parent ~ /^[a-z0-9][a-z0-9_-]*$/ && field !~ /^(runtime|preset|side|files)$/) own(dir "/" parent ".tsv")
            exit
        }' "$file"
}

# runtime_value NAME FIELD: the first value of FIELD's first line; status 1 when it has none.
runtime_value() {
    local line
    line=$(runtime_lines "$1" "$2" | head -n 1)
    [ -n "${line%%$'\t'*}" ] || return 1
    printf '%s\n' "${line%%$'\t'*}"
}

# runtime_names: every profile's name, sorted.
runtime_names() {
    local f
    for f in "$(runtime_dir)"/*.tsv; do [ ! -f "$f" ] || basename "$f" .tsv; done | LC_ALL=C sort
}

# runtime_named FIELD VALUE: the profile whose FIELD line begins with VALUE
# (a preset's or a side's name); nothing when none.
runtime_named() {
    local name line
    for name in $(runtime_names); do
        while IFS= read -r line; do
            if [ "${line%%$'\t'*}" = "$2" ]; then printf '%s\n' "$name"; return 0; fi
        done < <(runtime_lines "$name" "$1")
    done
    return 1
}

# runtime_settings NAME: the profile's preset settings, VAR=VALUE lines, sorted.
runtime_settings() {
    local line
    runtime_lines "$1" set | while IFS= read -r line; do
        [[ $line =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] && printf '%s\n' "$line"
    done | LC_ALL=C sort
}

# runtime_export_preset PRESET: exports the settings of the profile whose preset is PRESET.
runtime_export_preset() {
    local name line
    name=$(runtime_named preset "$1") || return 1
    while IFS= read -r line; do export "${line?}"; done < <(runtime_settings "$name")
}

# runtime_presets: every preset's name, space-separated.
runtime_presets() {
    local name
    for name in $(runtime_names); do runtime_value "$name" preset; done | LC_ALL=C sort | paste -sd ' ' -
}

if [ $# -gt 0 ] && [ "$1" != --functions ]; then   # sourced with a preset's name: export it
    runtime_export_preset "$1" || { printf 'env/runtime.sh: no preset %s (have: %s)\n' "$1" "$(runtime_presets)" >&2; return 2; }
fi
