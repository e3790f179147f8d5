# shellcheck shell=bash
# --with-grain: run_clomp.sh --grain's search, coarse, after the suite's runs, into the suite's own files
# (<base>_grain.*: its report, and the METG(50%) the buyer's table reads; docs/grain.md, "In the suite").
# Coarse: 4 processes per loop size, loop sizes x16 apart (64, 1024, 16384, 262144, 1 M zones), no
# bisection, timeScale 1; every team size of the node. Opt-in: by the suite's cost model it adds 4% to a
# full suite on this 2-core VM and 11% on a 128-core node, but that model has never been checked against
# a real full suite with the search, and on a busy machine the small loops cost far more than it says
# (docs/notes/grain.md). Not with --quick or --mpi. Sourced by suite/plan.sh; run_clomp.sh declares with_grain.
declare -g with_grain quick mpi_given exe out_dir base here
SUITE_GRAIN_OPTIONS=(--grain --replicates 4 --factor 16 --bisections 0 --time-scale 1)

check_with_grain() {
    [ "$with_grain" = 1 ] || return 0
    [ "$quick" = 0 ] || die_usage "--with-grain: not with --quick (the search's small loops need the full suite's time)"
    [ "$mpi_given" = 0 ] || die_usage "--with-grain: not with --mpi (the search runs one process on one node)"
}

# The dry run's line: the search's plan estimate (the same model), beside the suite's.
grain_plan_line() {
    [ "$with_grain" = 1 ] || return 0
    local line
    line=$("$here/suite/grain.sh" "${SUITE_GRAIN_OPTIONS[@]}" --dry-run "$exe" 2>&1 | tail -n 1)
    echo "With --with-grain, after the runs: ${line#Estimated total: }"
}

# After the runs: the search into <base>_grain.*; once (--resume keeps a finished one). A failed search
# is said, and leaves the suite's own runs and status as they are.
run_suite_grain() {
    [ "$with_grain" = 1 ] || return 0
    [ ! -s "${base}_grain.json" ] || { echo "Grain: ${base}_grain.json is there already (kept)"; return 0; }
    echo "=== the grain search (--with-grain: ${SUITE_GRAIN_OPTIONS[*]:1})"
    CLOMP_GRAIN_SUITE_BASE=$base "$here/suite/grain.sh" "${SUITE_GRAIN_OPTIONS[@]}" --out "$out_dir" "$exe" ||
        echo "run_clomp.sh: --with-grain: the grain search ended with status $? (the suite's runs are complete; see ${base}_grain.full)" >&2
}
