#!/usr/bin/env bash
# run_clomp.sh --compare A,B: an A/B comparison of two set-ups (binaries,
# OpenMP runtimes, environment settings) in one command. run_clomp.sh hands
# every --compare command line to this script. See docs/compare.md.
#
# A and B run as N adjacent pairs of separate processes (A then B or B then A,
# at random within each pair), on the same clomp arguments; the primary figure
# is decided by the exact signed-rank test on the pair differences, the others
# under Holm's procedure (results/clomp_results/compare_report.py asks
# clomp-stats; docs/compare.md). --until adds pairs until the primary figure
# is decided, at a group-sequential level that keeps alpha.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=suite/common.sh
. "$here/suite/common.sh"

# ---- sides ------------------------------------------------------------------------------
# Per side (index 0 = A, 1 = B): the spec, binary, a short description, the
# environment settings (newline-separated VAR=VALUE), and LD_LIBRARY_PATH to put first.
side_spec=() side_bin=() side_what=() side_settings=() side_libpath=()

# The runtime profiles (env/runtimes/*.tsv): each names its sides, how clomp is built against it
# and its preset's settings (env/runtime.sh reads them; nothing in them is evaluated).
# shellcheck source=env/runtime.sh
. "$here/env/runtime.sh" --functions

compare_build() {  # compare_build WHAT MAKE_ARGS...: builds, or exits 3 with one line
    local what=$1 log
    shift
    log=$(make -C "$here" --no-print-directory "$@" 2>&1) || {
        printf 'run_clomp.sh: --compare: could not build %s: %s\n' "$what" "$(printf '%s\n' "$log" | grep -m1 -iE 'error|not found' || printf '%s\n' "$log" | tail -n 1)" >&2
        exit 3
    }
}

# The binary built against runtime profile P (its build, binary, build_needs and compiler
# fields), made now: with a compiler named, an existing binary is used as it is (a make there
# would rebuild it with the default flags over whatever the user built) but must be that
# compiler's; else make brings it up to date. Prints its path.
profile_binary() {  # profile_binary PROFILE LABEL SIDE
    local p=$1 bin need hint compiler build=()
    bin=$(runtime_value "$p" binary) || bin=clomp
    IFS=$'\t' read -r -a build < <(runtime_lines "$p" build | head -n 1)
    IFS=$'\t' read -r need hint < <(runtime_lines "$p" build_needs | head -n 1)
    [ -z "$need" ] || command -v "$need" >/dev/null 2>&1 || die_usage "--compare: side $2: $3 needs $need (${hint:-install it})"
    compiler=$(runtime_value "$p" compiler) || compiler=''
    if [ -z "$compiler" ] || [ ! -x "$here/$bin" ]; then
        compare_build "./$bin ($(runtime_value "$p" build_describes || echo "$p"))" "${build[@]}"
    fi
    if [ -n "$compiler" ] && ! "$here/$bin" --version 2>/dev/null | grep -q "^compiler: $compiler"; then
        die_usage "--compare: side $2: $3 needs ./$bin built by $compiler, not '$("$here/$bin" --version 2>/dev/null | sed -n 's/^compiler: //p')'"
    fi
    printf '%s\n' "$here/$bin"
}

# The library file of runtime profile P: the last file its library patterns find (relative ones
# under the tree), else the loader's cache's file of its soname; nothing when neither.
profile_library() {  # profile_library PROFILE
    local p=$1 lib='' pattern candidate soname patterns=()
    IFS=$'\t' read -r -a patterns < <(runtime_lines "$p" library | head -n 1)
    for pattern in "${patterns[@]}"; do
        [[ $pattern == /* ]] || pattern=$here/$pattern
        for candidate in $pattern; do [ ! -f "$candidate" ] || lib=$candidate; done
    done
    soname=$(runtime_value "$p" soname) || soname=''
    [ -n "$lib" ] || [ -z "$soname" ] || lib=$(ldconfig -p 2>/dev/null | awk -v s="$soname" '$1 == s { print $NF; exit }')
    printf '%s\n' "$lib"
}

# A directory of this comparison's holding SONAME -> LIBRARY: a build that loads SONAME loads it.
library_as() {  # library_as LIBRARY SONAME
    local dir
    dir=$compare_tmp/as-$(printf '%s' "$2" | tr -c 'A-Za-z0-9._-' _)-$RANDOM
    mkdir -p "$dir" && ln -sf "$1" "$dir/$2" && printf '%s\n' "$dir"
}

resolve_side() {  # resolve_side INDEX SPEC
    local k=$1 spec=$2 label setting settings='' base p mode of lib
    label=$([ "$k" = 0 ] && echo A || echo B)
    IFS='+' read -r -a parts <<<"$spec"
    base=${parts[0]-}
    [ -n "$base" ] || die_usage "--compare: side $label is empty (give A,B; see --compare --help)"
    if [[ $base == */* ]]; then
        if [ ! -f "$base" ] || [ ! -x "$base" ]; then die_usage "--compare: side $label: '$base' is not an executable file"; fi
        side_bin[k]=$base side_what[k]="binary $base"
    elif p=$(runtime_named side "$base"); then
        IFS=$'\t' read -r _ mode of < <(runtime_lines "$p" side | awk -F '\t' -v s="$base" '$1 == s { print; exit }')
        lib=$(profile_library "$p")
        case $mode in
            build | library)   # its own build; library: its library's directory first in LD_LIBRARY_PATH
                side_bin[k]=$(profile_binary "$p" "$label" "$base") || exit
                side_what[k]="$(runtime_value "$p" build_describes) ($(runtime_value "$p" describes))"
                if [ "$mode" = library ]; then
                    [ -n "$lib" ] || die_usage "--compare: side $label: $base: $(profile_missing "$p")"
                    side_libpath[k]=$(dirname "$lib") side_what[k]+=", $lib"
                fi ;;
            as)   # runtime OF's build, this runtime's library loaded in place of OF's
                [ -n "$lib" ] || die_usage "--compare: side $label: $base: $(profile_missing "$p")"
                side_bin[k]=$(profile_binary "$of" "$label" "$base") || exit
                side_what[k]="$(runtime_value "$of" build_describes) run on $(runtime_value "$p" describes) ($(runtime_value "$of" soname) -> $lib)"
                side_libpath[k]=$(library_as "$lib" "$(runtime_value "$of" soname)") ;;
            *) die_usage "--compare: side $label: $base: its profile $p.tsv has no side mode '$mode' (build, library, as PROFILE)" ;;
        esac
        side_what[k]+=", env/runtimes/$p.tsv"
        settings=$(runtime_settings "$p")
    elif p=$(runtime_named preset "$base"); then
        die_usage "--compare: side $label: preset '$base' has no binary this driver can build (use PATH+VAR=VALUE; have $(runtime_sides))"
    else
        die_usage "--compare: side $label: unknown preset '$base' (a binary path with a '/', or $(runtime_sides))"
    fi
    for setting in "${parts[@]:1}"; do
        [[ $setting =~ ^[A-Za-z_][A-Za-z0-9_]*=.*$ ]] ||
            die_usage "--compare: side $label: '$setting' is not VAR=VALUE"
        settings+=${settings:+$'\n'}$setting
    done
    side_spec[k]=$spec side_settings[k]=$settings
}

# Why runtime profile P's library is not here: its unpack field says how to get it.
profile_missing() {  # profile_missing PROFILE
    local pkg
    pkg=$(runtime_value "$1" unpack) || pkg=''
    if [ -n "$pkg" ]; then
        printf 'its library (%s) is not unpacked: make runtimes (apt-get download %s, never installed)' "$(runtime_lines "$1" library | head -n 1)" "$pkg"
    else
        printf 'no %s found (install %s)' "$(runtime_value "$1" soname)" "$(runtime_value "$1" package || echo "its package")"
    fi
}

# Every profile's sides, comma-separated: what --compare and --sweep's --side take besides a path.
runtime_sides() {
    local p
    for p in $(runtime_names); do runtime_lines "$p" side | cut -f1; done | paste -sd, - | sed 's/,/, /g'
}

# One process of a comparison (and of --sweep, compare/sweep.sh): the side's
# command with the clomp arguments and its JSON record, its output appended to
# $stem.full between the markers; rc its exit status.
run_process() {  # run_process WHAT JSON
    "${cmd[@]}" "${clomp_args[@]}" --json="$2" >"$compare_tmp/out" 2>&1 </dev/null
    rc=$?
    {
        echo "=== process $done_runs/$total: $1: ${cmd[*]} ${clomp_args[*]}"
        cat "$compare_tmp/out"
        echo "=== end of process $done_runs: exit status $rc"
    } | add_to_file "$stem.full"   # suite/common.sh: never through a link
}

# The command of side K, as an array: env VAR=VALUE... BINARY.
side_command() {  # side_command K -> sets cmd
    local k=$1 line
    cmd=(env)
    [ -z "${side_libpath[k]-}" ] || cmd+=("LD_LIBRARY_PATH=${side_libpath[k]}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
    while IFS= read -r line; do [ -z "$line" ] || cmd+=("$line"); done <<<"${side_settings[k]}"
    cmd+=("${side_bin[k]}")
}

# ---- the comparison ---------------------------------------------------------------------
compare_main() {
    local parsed cell spec n looks primary primary_given list_figures out clomp_args arg check helper k
    for arg in "$@"; do   # the help text is its own file: this script stays readable top to bottom
        case $arg in -h | --help) cat "$here/compare/compare_usage.txt"; return 0 ;; --) break ;; esac
    done
    # The options, checked by the results package before anything runs (compare_options.py; one line
    # and exit 2 when refused): the sides, the pairs (--until's planned looks, its last the most),
    # --primary, --list-figures, --out, then clomp's arguments, its seven numbers by default.
    command -v python3 >/dev/null 2>&1 || die_usage "--compare: needs python3 (3.8 or newer): it reads the options and writes the report"
    # NUL-separated cells, read one by one: mapfile has no -d before bash 4.4 (run_clomp.sh takes 4.2).
    parsed=()
    while IFS= read -r -d '' cell; do parsed+=("$cell"); done < <("$here/results/clomp-results" compare-options --parse "$(count_cores)" "$@")
    [ "${#parsed[@]}" -ge 7 ] || exit 2
    spec=${parsed[0]} n=${parsed[1]} looks=${parsed[2]} primary=${parsed[3]} primary_given=${parsed[4]}
    list_figures=${parsed[5]} out=${parsed[6]} clomp_args=("${parsed[@]:7}")

    compare_tmp=$(mktemp -d) || { echo "run_clomp.sh: mktemp failed" >&2; exit 3; }
    # shellcheck disable=SC2064  # the directory is fixed now
    trap "rm -rf '$compare_tmp'" EXIT
    resolve_side 0 "${spec%%,*}"
    resolve_side 1 "${spec#*,}"
    # A nonexistent clomp option or a bad number is refused once, before anything runs.
    side_command 0
    check=$("${cmd[@]}" --dry-run "${clomp_args[@]}" 2>&1 >/dev/null) ||
        die_usage "--compare: clomp refuses the arguments: ${check#clomp: }"
    # --primary KEY, checked as far as the names allow: its form, its figure, and (a measurement's
    # figure) that side A's clomp has it; a construct's KEY is checked against the first pair's records.
    if [ "$primary_given" = 1 ]; then
        "${cmd[@]}" --list-schedules 2>/dev/null | "$here/results/clomp-results" compare-options --primary "$primary" || exit 2
    fi
    if [ "$list_figures" = 1 ]; then
        "${cmd[@]}" "${clomp_args[@]}" --json="$compare_tmp/list.json" >"$compare_tmp/out" 2>&1 </dev/null ||
            { echo "run_clomp.sh: --list-figures: side A's process failed: $(tail -n 1 "$compare_tmp/out")" >&2; exit 1; }
        "$here/results/clomp-results" compare-report --list-figures "$compare_tmp/list.json" || exit 3
        return 0
    fi
    helper=$(stats_helper) || { echo "run_clomp.sh: --compare: clomp-stats could not be built" >&2; exit 3; }

    make_out_dir "$out"   # suite/common.sh
    find_writer   # suite/common.sh
    claim_new_id "$out" "$(file_host_name)"
    local stem="${base}_compare"
    {
        echo "date: $(date)"
        echo "uname: $(uname -a)"
        echo "comparison: $stem (.txt .csv .json .full; each process's record ${stem}_<side><pair>.json)"
        echo "---- CPU (lscpu)"
        lscpu 2>/dev/null || echo "not available"
        echo "---- load average: $(cat /proc/loadavg 2>/dev/null || echo 'not available')"
    } | add_to_file "$base.env"

    # Adjacent pairs, A and B in random order within each (CLOMP_COMPARE_SEED makes the order
    # reproducible): a drift of the machine slower than a pair hits both of its processes alike,
    # and neither side always runs first.
    [ -z "${CLOMP_COMPARE_SEED-}" ] || RANDOM=$CLOMP_COMPARE_SEED
    local r rc label total=$((2 * n)) done_runs=0 sequence='' pairs=0 order
    for ((r = 1; r <= n; r++)); do
        # Drawn here, not in a $(...): bash reseeds RANDOM in each subshell, so the seed would not hold.
        if [ $((RANDOM % 2)) = 0 ]; then order='0 1'; else order='1 0'; fi
        for k in $order; do
            label=$([ "$k" = 0 ] && echo A || echo B)
            side_command "$k"
            done_runs=$((done_runs + 1)) sequence+=$label
            printf '[%d/%d] %s: %s\n' "$done_runs" "$total" "$label" "${cmd[*]} ${clomp_args[*]}" >&2
            run_process "side $label, pair $r" "${stem}_$label$r.json"
            if [ "$rc" -ne 0 ]; then
                echo "run_clomp.sh: --compare: side $label (pair $r) failed with exit status $rc; its output is in $stem.full" >&2
                return 1
            fi
        done
        pairs=$r
        # A named primary figure must be one of these processes' figures (a construct's KEY is first
        # checkable here); with --until, each planned look asks whether the question is decided.
        if { [ "$r" = 1 ] && [ "$primary_given" = 1 ]; } || [[ ,$looks, == *,$r,* ]]; then
            "$here/results/clomp-results" compare-report --look "$stem" "$r" "$helper" "$primary" \
                "$([[ ,$looks, == *,$r,* ]] && echo "$looks" || echo -)"
            case $? in
                0) [[ ,$looks, != *,$r,* ]] || break ;;
                1) ;;
                2) exit 2 ;;
                *) exit 3 ;;
            esac
        fi
    done

    # The header records (clomp-stats comparison-json's format); the results package reads every
    # process's JSON record, compares the figures with clomp-stats, writes .txt, .csv and .json and
    # says the files' names.
    local records="$compare_tmp/records" line
    {
        printf 'date\t%s\nhost\t%s\narguments\t%s\nreplicates\t%s\norder\tpairs, random order within each\nsequence\t%s\nlooks\t%s\n' \
            "$(date)" "$(uname -n)" "${clomp_args[*]}" "$pairs" "$sequence" "${looks:-NA}"
        for k in 0 1; do
            label=$([ "$k" = 0 ] && echo A || echo B)
            # The results package adds the runtime the side's binary loads and where its threads
            # run (compare_report.with_runtime).
            printf 'side\t%s\t%s\t%s\t%s\t%s\n' "$label" "${side_spec[k]}" "${side_what[k]}" "${side_bin[k]}" "${side_libpath[k]-}"
            while IFS= read -r line; do
                [ -z "$line" ] || printf 'setting\t%s\t%s\t%s\n' "$label" "${line%%=*}" "${line#*=}"
            done <<<"${side_settings[k]}"
        done
    } >"$records"
    "$here/results/clomp-results" compare-report "$stem" "$records" "$helper" "$primary" || exit 3
}

# Sourced (compare/sweep.sh uses its sides), it only defines its functions.
[ "${BASH_SOURCE[0]}" != "$0" ] || compare_main "$@"
