# shellcheck shell=bash
# The full suite's grain search (issue 48, item 1; docs/grain.md, "In the suite": what, its cost, why on by
# default): run_clomp.sh --grain's search, coarse, after the suite's runs, into the suite's own files
# (<base>_grain.*). --no-grain leaves it out; not with --quick, --mpi or without python3 (the default leaves
# it out there; --with-grain, asking for it there, is refused). The choice is the manifest's
# settings.grain_search (coarse or none), which --resume keeps. Sourced by suite/plan.sh; run_clomp.sh
# declares with_grain (auto, 1 or 0).
declare -g with_grain quick mpi_given exe out_dir base here total_runs id writer
SUITE_GRAIN_OPTIONS=(--grain --replicates 4 --factor 16 --bisections 0 --time-scale 1)
grain_asked=auto   # the option given (auto: neither --with-grain nor --no-grain), before check_with_grain

check_with_grain() {
    grain_asked=$with_grain
    if [ "$with_grain" = auto ]; then   # (the search's plan and report are the results package's: python3)
        with_grain=1
        [ "$quick" = 0 ] && [ "$mpi_given" = 0 ] && command -v python3 >/dev/null 2>&1 || with_grain=0
    fi
    [ "$with_grain" = 1 ] || return 0
    [ "$quick" = 0 ] || die_usage "--with-grain: not with --quick (the search's small loops need the full suite's time)"
    [ "$mpi_given" = 0 ] || die_usage "--with-grain: not with --mpi (the search runs one process on one node)"
}

# grain_setting: the manifest's settings.grain_search: the choice the suite started with.
grain_setting() { if [ "$with_grain" = 1 ]; then echo coarse; else echo none; fi; }

# resume_grain: on --resume, the grain search as the suite started (its manifest's settings.grain_search,
# read by its JSON), whatever the default is now: a suite started with --no-grain does not run it on a
# resume that leaves the option out. An option that says otherwise is refused (exit 2, one line); a
# manifest from before 1.2 (or converted from an old suite) has no such member: the options decide.
resume_grain() {
    local recorded want
    recorded=$("$writer" get "$(manifest_path)" settings.grain_search 2>&1) || {
        [ $? = 1 ] || die_usage "--resume: ${recorded#clomp-write: }"
        return 0
    }
    case $recorded in
        coarse) want=1 ;;
        none) want=0 ;;
        *) die_usage "--resume: the manifest's settings.grain_search is neither coarse nor none (see $base.suite.json)" ;;
    esac
    [ "$grain_asked" = auto ] || [ "$grain_asked" = "$want" ] ||
        die_usage "--resume: suite $id was started $([ "$want" = 1 ] && echo with the grain search || echo with --no-grain) (see $base.suite.json); resume without $([ "$want" = 1 ] && echo --no-grain || echo --with-grain)"
    with_grain=$want
}

# The dry run's line: the search's plan estimate (the same model), beside the suite's, and its share of it.
grain_plan_line() {
    [ "$with_grain" = 1 ] || return 0
    local line mm ss i estimate suite=0
    line=$("$here/suite/grain.sh" "${SUITE_GRAIN_OPTIONS[@]}" --dry-run "$exe" 2>&1 | tail -n 1)
    line=${line#Estimated total: }
    for ((i = 0; i < total_runs; i++)); do estimate_at "$i"; suite=$((suite + estimate)); done
    if [[ $line =~ ~([0-9]+):([0-9]+) ]] && [ "$suite" -gt 0 ]; then
        mm=${BASH_REMATCH[1]} ss=${BASH_REMATCH[2]}
        line="${line%; nothing was run.}, $((((10#$mm * 60 + 10#$ss) * 100 + suite / 2) / suite))% of the suite's runs; nothing was run."
    fi
    echo "Grain search, after the runs (coarse; --no-grain leaves it out): $line"
}

# After the runs: the search into <base>_grain.*; once (--resume keeps a finished one). A failed search
# is said, and leaves the suite's own runs and status as they are.
run_suite_grain() {
    [ "$with_grain" = 1 ] || return 0
    [ ! -s "${base}_grain.json" ] || { echo "Grain: ${base}_grain.json is there already (kept)"; return 0; }
    echo "=== the grain search (coarse: ${SUITE_GRAIN_OPTIONS[*]:1}; --no-grain leaves it out)"
    CLOMP_GRAIN_SUITE_BASE=$base "$here/suite/grain.sh" "${SUITE_GRAIN_OPTIONS[@]}" --out "$out_dir" "$exe" ||
        echo "run_clomp.sh: the grain search ended with status $? (the suite's runs are complete; see ${base}_grain.full)" >&2
}
