#!/usr/bin/env bash
# run_clomp.sh --grain: the smallest loop worth threading, per team size (issue 48,
# item 1; docs/grain.md). This script only launches: the results package checks the
# options, estimates the plan, chooses each stage's processes from the records of the
# ones before (results/clomp_results/grain/grain_plan.py: geometric steps, then the
# brackets bisected) and writes the report (grain_report.py). Each process is clomp
# with Serial Ref and Static OMP (and --schedules' extras) at one team and loop size;
# it leaves its JSON record STEM_t<T>z<Z>r<R>.json and a line in STEM.runs.
# run_clomp.sh hands every --grain command line to this script.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=suite/common.sh
. "$here/suite/common.sh"

# The cost model's constants (the 2-core VM's, not calibrated): suite/calibrate.sh's (sourced for them).
# shellcheck source=suite/calibrate.sh
. "$here/suite/calibrate.sh"
# shellcheck source=suite/binding.sh
. "$here/suite/binding.sh"
model_constants() {
    printf '%s\n' "ZONE_NS_CACHED=$ZONE_NS_CACHED" "ZONE_NS_MEMORY=$ZONE_NS_MEMORY" "MEMORY_SPEEDUP=$MEMORY_SPEEDUP" \
        "REGION_US=$REGION_US" "PROBE_US=$PROBE_US" "BUILD_NS_PER_BYTE=$BUILD_NS_PER_BYTE" \
        "SETUP_NS_PER_BYTE=$SETUP_NS_PER_BYTE" "PROCESS_SECONDS=$PROCESS_SECONDS"
}

grain_main() {
    local arg cores out='' dry_run=0 name value
    for arg in "$@"; do
        case $arg in -h | --help) cat "$here/suite/grain_usage.txt"; return 0 ;; esac
    done
    command -v python3 >/dev/null 2>&1 || die_usage "--grain: needs python3 (3.8 or newer): it plans the search and writes the report"
    local results=(python3 "$here/results/clomp-results")
    cores=$(count_cores)
    exe=''
    while IFS=$'\t' read -r name value; do
        case $name in out) out=$value ;; exe) exe=$value ;; dry_run) dry_run=$value ;; esac
    done < <("${results[@]}" grain-plan options "$cores" "$@" || echo "failed")
    [ -n "$exe" ] || exit 2
    local -a constants
    mapfile -t constants < <(model_constants)
    if [ "$dry_run" = 1 ]; then
        "${results[@]}" grain-plan dry-run "$cores" "${constants[@]}" -- "$@"
        return
    fi
    # A bare name is a file here if there is one, else a command on PATH (as the suite's EXE).
    case $exe in */*) ;; *) if [ -e "./$exe" ]; then exe=./$exe; else exe=$(command -v -- "$exe" || echo "./$exe"); fi ;; esac
    if [ ! -x "$exe" ] && [ "$exe" = ./clomp ] && [ "$(pwd -P)" = "$(cd "$here" && pwd -P)" ]; then
        make clomp >&2 || { echo "run_clomp.sh: could not build ./clomp" >&2; exit 2; }
    fi
    [ -x "$exe" ] || die_usage "--grain: EXE: '$exe' is not an executable file"
    local helper
    helper=$(stats_helper) || { echo "run_clomp.sh: --grain: clomp-stats could not be built" >&2; exit 3; }

    choose_binding   # suite/binding.sh: threads bound as make run binds them, unless the environment chose
    local binding=${suite_binding%%; the construct runs*}
    if [ -n "${CLOMP_GRAIN_SUITE_BASE-}" ]; then
        find_writer
        base=$CLOMP_GRAIN_SUITE_BASE   # run_clomp.sh --with-grain (suite/suite_grain.sh): the suite's own files and ID
    else
        make_out_dir "$out"   # suite/common.sh
        find_writer
        claim_new_id "$out" "$(file_host_name)"
    fi
    local stem="${base}_grain"
    [ -n "${CLOMP_GRAIN_SUITE_BASE-}" ] || {
        echo "date: $(date)"
        echo "uname: $(uname -a)"
        echo "grain: $stem (.txt .csv .json .html .full; each process's record ${stem}_t<T>z<Z>r<R>.json)"
        echo "---- CPU (lscpu)"
        lscpu 2>/dev/null || echo "not available"
        echo "---- load average: $(cat /proc/loadavg 2>/dev/null || echo 'not available')"
        echo "---- thread binding: $binding"
    } | add_to_file "$base.env"
    CLOMP_GRAIN_MODEL="${constants[*]}" CLOMP_GRAIN_BINDING=$binding "${results[@]}" grain-plan start "$stem" "$cores" "$@" || exit 2

    # Stages until the plan has none left; within one, nothing starts after the time cap's deadline.
    local -a limit_cmd=() words
    command -v timeout >/dev/null 2>&1 && limit_cmd=(timeout)
    local batch tag limit json rc start failed=0 done_runs=0 deadline=''
    while :; do
        batch=$("${results[@]}" grain-plan next "$stem" "$helper") || { echo "run_clomp.sh: --grain: the plan failed" >&2; exit 3; }
        [ -n "$batch" ] || break
        while IFS=$'\t' read -r -a words; do
            tag=${words[0]}
            if [ "$tag" = deadline ]; then deadline=${words[1]}; continue; fi
            [ -z "$deadline" ] || [ "$(date +%s)" -lt "$deadline" ] || break
            limit=${words[1]} json=${words[2]}
            done_runs=$((done_runs + 1))
            printf '[%d] %s\n' "$done_runs" "$exe ${words[*]:3} --json=$json" >&2
            start=$(date +%s.%N)
            ${limit_cmd[@]+"${limit_cmd[@]}" "$limit"} "$exe" "${words[@]:3}" --json="$json" </dev/null >"$stem.out" 2>&1
            rc=$?
            [ "$rc" = 0 ] || failed=$((failed + 1))
            {
                echo "=== process $done_runs: $exe ${words[*]:3} --json=$json"
                cat "$stem.out"
                echo "=== end of process $done_runs: exit status $rc"
            } | add_to_file "$stem.full"
            printf '%s\t%s\t%s\n' "$json" "$rc" "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')" |
                add_to_file "$stem.runs"
        done <<<"$batch"
    done
    rm -f "$stem.out"
    "${results[@]}" grain-report "$stem" "$helper" || exit 3
    echo "Files: $stem.txt $stem.csv $stem.json $stem.html $stem.full $base.env"
    [ "$failed" = 0 ] || { echo "run_clomp.sh: --grain: $failed process(es) failed (left out of the figures; their output is in $stem.full)" >&2; return 1; }
    return 0
}

grain_main "$@"
