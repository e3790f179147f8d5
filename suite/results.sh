# shellcheck shell=bash
# What the run loop records of each run, and where the suite's tables and
# reports are made: every one of them (.summary, the between-process table,
# the construct table, charts, HTML, bundle) by one entry point of the results
# package, `clomp-results render` (results/clomp_results/suite/render.py), from the
# manifest and the runs' records: after each run (--progress), after the key
# runs (--between) and at the end (--final). Sourced by run_clomp.sh.
#   reads: here (the source tree), plots (yes, no, auto: run_clomp.sh's setting), sign_key (--sign KEY)
#   sets:  have_python (1 when python3 runs the results package here), python_exe (its interpreter)
declare -g here plots sign_key   # assigned before any function below runs
# The runs never need Python: without it every run is still recorded (its
# .full section, JSON record, .done mark, <base>.runs.csv line and its rows in
# <base>.csv), and the tables and report are made elsewhere (make plots OUT=...).

# The interpreter python3 runs, found once (sys.executable): a launcher shim
# on PATH (pyenv's, asdf's) costs more at each start than a run's table row.
# Started with -S (no site module): the results package is the standard
# library only, and a site-packages' .pth hooks run at every start otherwise
# (one that imports certifi took 42 ms of CPU a start, 80% of the bare
# interpreter's, on the 2026-11-29 test machine: docs/notes/test-cost.md).
have_python=0 python_exe=python3
if command -v python3 >/dev/null 2>&1 &&
    found=$(python3 -S -c 'import sys; print(sys.executable) if sys.version_info >= (3, 8) else sys.exit(1)' 2>/dev/null); then
    have_python=1
    [ ! -x "$found" ] || python_exe=$found
fi
clomp_results() { "$python_exe" -S "$here/results/clomp-results" "$@"; }
no_python_notice() {  # no_python_notice BASE
    echo "run_clomp.sh: notice: no python3 (3.8+) on this node: every run is recorded, but the tables, report and bundle must be made on a machine with Python: make plots OUT=$1 / ./run_clomp.sh --bundle --out $(dirname "$1")" >&2
}

# render STAGE BASE: the results package's render at STAGE (--progress,
# --between); nothing without Python.
render() {
    [ "$have_python" = 0 ] || clomp_results render "$1" "$2"
}

# record_tables BASE RUN SET POLICY STATUS RC SECONDS RUN_CSV TABLE: the
# driver's record of the run (<base>.runs.csv, read by name), clomp's CSV rows
# of it appended to TABLE (<base>.csv, or <base>.constructs.csv for a
# construct run) after the run's facts, header first when TABLE is new (a run
# that left no CSV adds no row), and, with Python, the .summary tables rendered
# from the records (render --progress: its set's file gains its row). Returns
# 1 when a write fails (record_run, suite/run_guard.sh, then takes every file back).
record_tables() {
    local base=$1 prefix="$2,$3,$5,$6,$7" csv=$8 table=$9
    if [ ! -s "$base.runs.csv" ]; then echo 'run,set,numa,status,exit_code,seconds' | add_to_file "$base.runs.csv" || return 1; fi
    printf '%s,%s,%s,%s,%s,%s\n' "$2" "$3" "${4:-first-touch}" "$5" "$6" "$7" | add_to_file "$base.runs.csv" || return 1
    if [ -s "$csv" ]; then
        if [ ! -s "$table" ]; then printf 'run,set,run_status,run_exit_code,run_seconds,%s\n' "$(head -n 1 "$csv")" | add_to_file "$table" || return 1; fi
        tail -n +2 "$csv" | sed "s/^/$prefix,/" | add_to_file "$table" || return 1
    fi
    render --progress "$base"
}

# Charts need gnuplot: --plots (yes) draws them, --no-plots not, and by
# default (auto) the report draws them where gnuplot is installed and says
# so where it is not (report.py).
write_results() {  # write_results BASE: tables, charts, <base>.html, <base>.tar.gz
    local -a chart_opt=()
    if [ "$have_python" = 0 ]; then
        no_python_notice "$1"
        return 1
    fi
    case $plots in yes) chart_opt=(--charts) ;; no) chart_opt=(--no-charts) ;; esac
    clomp_results render --final ${chart_opt[@]+"${chart_opt[@]}"} ${sign_key:+--sign "$sign_key"} "$1"
}

# --bundle [ID]: rewrites the results of the suite of that ID in DIR and
# exits: this host's, or the only one of that ID (results copied from a
# compute node); without an ID, the highest (the results package's find-suite).
rewrite_results() {  # rewrite_results DIR ID HOST
    local base
    [ "$have_python" = 1 ] || { no_python_notice "$1/CLOMP_$3_${2:-ID}"; exit 1; }
    base=$(clomp_results find-suite "$@") || exit 2   # refused too when a run was cut while it was recorded
    write_results "$base" || exit 1
    exit 0
}
