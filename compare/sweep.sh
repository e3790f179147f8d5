#!/usr/bin/env bash
# run_clomp.sh --sweep SPEC...: the OpenMP runtime's settings swept (issue 32,
# item 3; docs/settings.md). Every combination of the values given runs as N
# separate processes, interleaved as --compare interleaves its two sides (the
# combinations forward, then backward: 1 2 .. K K .. 2 1 1 2 ..), each writing
# its JSON record; the results package reads the records and writes the text,
# CSV, JSON and HTML (results/clomp_results/sweep_report.py), the statistics by
# clomp-stats. run_clomp.sh hands every --sweep command line to this script.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# The side (binary, preset, LD_LIBRARY_PATH) and its command are
# --compare's: compare/compare.sh, sourced for its functions (it runs nothing when sourced).
# shellcheck source=compare/compare.sh
. "$here/compare/compare.sh"

# compare.sh's messages name --compare and side A: here they are the sweep's --side.
die_usage() {
    local m=${1//--compare: side A: /--sweep: --side: }
    printf 'run_clomp.sh: %s\n' "${m//--compare:/--sweep:}" >&2
    exit 2
}

# The help text is its own file: this script stays readable top to bottom.
sweep_usage() { cat "$here/compare/sweep_usage.txt"; }

sweep_main() {
    local specs=() side='' n=6 quick=0 out=out clomp_args=() numbers=0 plots=auto arg in_specs=0
    for arg in "$@"; do
        case $arg in -h | --help) sweep_usage; return 0 ;; --) break ;; esac
    done
    while [ $# -gt 0 ]; do
        case $1 in
            --sweep | --side | --replicates | --out) [ $# -ge 2 ] || die_usage "$1: needs a value (see --sweep --help)" ;;
        esac
        # The words after --sweep that are neither options nor numbers are its specifications.
        if [ "$in_specs" = 1 ] && [[ $1 != -* && ! $1 =~ ^[0-9]+$ ]]; then specs+=("$1"); shift; continue; fi
        in_specs=0
        case $1 in
            --sweep) specs+=("$2"); in_specs=1; shift ;;
            --sweep=*) specs+=("${1#*=}"); in_specs=1 ;;
            --side) side=$2; shift ;;
            --side=*) side=${1#*=} ;;
            --replicates) n=$2; shift ;;
            --replicates=*) n=${1#*=} ;;
            --quick) quick=1 ;;
            --out) out=$2; shift ;;
            --out=*) out=${1#*=} ;;
            --no-plots) plots=no ;;
            --compare | --compare=* | --ompt-tax) die_usage "--sweep: one command at a time (--sweep with $1)" ;;
            --json | --json=* | --csv | --csv=*) die_usage "--sweep: clomp's ${1%%=*} is the driver's own (the results go to --out)" ;;
            --) shift; clomp_args+=("$@"); break ;;
            -*) clomp_args+=("$1") ;;
            *) clomp_args+=("$1"); numbers=$((numbers + 1)) ;;
        esac
        shift
    done
    if ! is_count "$n" || [ "$n" -lt 2 ]; then die_usage "--replicates: '$n' must be a whole number of at least 2"; fi
    [ "$numbers" -eq 0 ] || [ "$numbers" -eq 7 ] || die_usage "--sweep: give all seven clomp numbers or none (got $numbers)"
    # The target input on every core, its parts following the team (suite/common.sh team_shape).
    local cores shape
    cores=$(count_cores)
    read -r -a shape <<<"$(team_shape "$cores" 6400 64)"
    [ "$numbers" -eq 7 ] || clomp_args+=("$cores" 1 "${shape[@]}" 32 1 "$([ "$quick" = 1 ] && echo 1 || echo 100)")
    if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 8))' 2>/dev/null; then
        die_usage "--sweep: needs python3 (3.8 or newer) for its report"
    fi
    local results=("python3" "$here/results/clomp-results")
    # The specifications' syntax, before anything is built or run (one line, exit 2).
    "${results[@]}" sweep-plan --check "${specs[@]}" || exit 2
    [[ $side != *,* ]] || die_usage "--sweep: --side '$side' is one side (no comma)"
    [ -n "$side" ] || { [ -x "$here/clomp" ] || compare_build "./clomp" clomp; side=$here/clomp; }

    compare_tmp=$(mktemp -d) || { echo "run_clomp.sh: mktemp failed" >&2; exit 3; }
    # shellcheck disable=SC2064  # the directory is fixed now
    trap "rm -rf '$compare_tmp'" EXIT
    resolve_side 0 "$side"
    side_command 0
    # The arguments checked once, and the runtime the process loads read from a dry run's record.
    local check lib ver plan
    check=$("${cmd[@]}" --dry-run "${clomp_args[@]}" --json="$compare_tmp/dry.json" 2>&1 >/dev/null) ||
        die_usage "--sweep: clomp refuses the arguments: ${check#clomp: }"
    IFS=$'\t' read -r lib ver < <("${cmd[@]:0:${#cmd[@]}-1}" "${results[@]}" runtime-library "${side_bin[0]}")
    lib=${lib:-unknown} ver=${ver:-unknown}   # the package said nothing: say so, as before
    plan=$("${results[@]}" sweep-plan --library "$([ "$lib" = unknown ] || printf '%s' "$lib")" \
        "$([ -s "$compare_tmp/dry.json" ] && printf '%s' "$compare_tmp/dry.json" || echo -)" "${specs[@]}") || exit 2
    local combos=() line k
    while IFS= read -r line; do
        [[ $line == combination$'\t'* ]] || continue
        k=${line#combination$'\t'}
        combos+=("${k#*$'\t'}")
    done <<<"$plan"

    make_out_dir "$out"   # suite/common.sh
    find_writer   # suite/common.sh
    claim_new_id "$out" "$(file_host_name)"
    local stem="${base}_sweep" load_before
    load_before=$(cat /proc/loadavg 2>/dev/null || echo 'not available')
    {
        echo "date: $(date)"
        echo "uname: $(uname -a)"
        echo "sweep: $stem (.txt .csv .json .html .full; each process's record ${stem}_c<combination>r<replicate>.json)"
        echo "---- CPU (lscpu)"
        lscpu 2>/dev/null || echo "not available"
        echo "---- load average: $load_before"
    } | add_to_file "$base.env"

    # Combinations 1..K, then K..1, and again: a drift linear over two rounds hits each alike.
    local r c i rc total=$((n * ${#combos[@]})) done_runs=0 sequence='' failed='' settings
    for ((r = 1; r <= n; r++)); do
        for ((i = 0; i < ${#combos[@]}; i++)); do
            if [ $((r % 2)) = 1 ]; then c=$((i + 1)); else c=$((${#combos[@]} - i)); fi
            IFS=$'\t' read -r -a settings <<<"${combos[c - 1]}"
            side_command 0
            cmd=("${cmd[@]:0:${#cmd[@]}-1}" "${settings[@]}" "${cmd[${#cmd[@]}-1]}")
            done_runs=$((done_runs + 1)) sequence+="${sequence:+ }$c"
            printf '[%d/%d] combination %d: %s\n' "$done_runs" "$total" "$c" "${cmd[*]} ${clomp_args[*]}" >&2
            run_process "combination $c, replicate $r" "${stem}_c${c}r$r.json"   # compare/compare.sh
            if [ "$rc" -ne 0 ]; then
                echo "run_clomp.sh: --sweep: combination $c (process $r) failed with exit status $rc; its output is in $stem.full" >&2
                failed+="failed"$'\t'"$c"$'\t'"$r"$'\t'"$rc"$'\n'
            fi
        done
    done

    local helper records="$compare_tmp/records"
    helper=$(stats_helper) || { echo "run_clomp.sh: --sweep: clomp-stats could not be built" >&2; exit 3; }
    {
        printf 'date\t%s\nhost\t%s\narguments\t%s\nreplicates\t%s\norder\tforward, then backward\nsequence\t%s\n' \
            "$(date)" "$(uname -n)" "${clomp_args[*]}" "$n" "$sequence"
        printf 'load_before\t%s\nload_after\t%s\n' "$load_before" "$(cat /proc/loadavg 2>/dev/null || echo 'not available')"
        printf 'side\t%s\t%s\t%s\t%s\t%s\t%s\n' "${side_spec[0]}" "${side_what[0]}" "${side_bin[0]}" \
            "${side_libpath[0]-}" "$lib" "$ver"   # and its placement: sweep_report.read_header
        while IFS= read -r line; do [ -z "$line" ] || printf 'setting\t%s\t%s\n' "${line%%=*}" "${line#*=}"; done <<<"${side_settings[0]}"
        grep -v '^combination'$'\t' <<<"$plan"
        grep '^combination'$'\t' <<<"$plan"
        printf '%s' "$failed"
    } >"$records"
    local chart_opt=--charts
    [ "$plots" = auto ] || chart_opt=--no-charts
    "${results[@]}" sweep-report "$chart_opt" "$stem" "$records" "$helper" || exit 3
    echo "Files: $stem.txt $stem.csv $stem.json $stem.html $stem.full $base.env"
    [ -z "$failed" ] || return 1
    return 0
}

sweep_main "$@"
