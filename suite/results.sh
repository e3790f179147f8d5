# shellcheck shell=bash
# What the run loop records of each run, and the suite's results: its tables,
# the between-process summary, charts, the HTML report and the submission
# bundle, made by the Python results package (results/clomp_results/).
# Sourced by run_clomp.sh.
#   reads: here (the source tree), plots (yes, no, auto: run_clomp.sh's setting)
#   sets:  have_python (1 when python3 runs the results package here)
# The runs never need Python: without it every run is still recorded (its
# .full section, JSON record, .done mark, <base>.runs.csv line and its rows in
# <base>.csv), and the tables and report are made elsewhere (make plots OUT=...).

have_python=0
if command -v python3 >/dev/null 2>&1 && python3 -c 'import sys; sys.exit(sys.version_info < (3, 8))' 2>/dev/null; then
    have_python=1
fi
# shellcheck disable=SC2154  # here: run_clomp.sh's (see the top)
clomp_results() { python3 "$here/results/clomp-results" "$@"; }
no_python_notice() {  # no_python_notice BASE
    echo "run_clomp.sh: notice: no python3 (3.8+) on this node: every run is recorded, but the tables, report and bundle must be made on a machine with Python: make plots OUT=$1 / ./run_clomp.sh --bundle --out $(dirname "$1")" >&2
}

# record_tables BASE RUN SET POLICY STATUS RC SECONDS RUN_CSV TABLE: the
# driver's record of the run (<base>.runs.csv, read by name), clomp's CSV rows
# of it appended to TABLE (<base>.csv, or <base>.constructs.csv for a
# construct run) after the run's facts, header first when TABLE is new (a run
# that left no CSV adds no row), and, with Python, its .summary row from its
# JSON record. Returns 1 when a write fails (record_run, suite/run_guard.sh,
# then takes every file back).
record_tables() {
    local base=$1 prefix="$2,$3,$5,$6,$7" csv=$8 table=$9
    if [ ! -s "$base.runs.csv" ]; then echo 'run,set,numa,status,exit_code,seconds' >>"$base.runs.csv" || return 1; fi
    printf '%s,%s,%s,%s,%s,%s\n' "$2" "$3" "${4:-first-touch}" "$5" "$6" "$7" >>"$base.runs.csv" || return 1
    if [ -s "$csv" ]; then
        if [ ! -s "$table" ]; then printf 'run,set,run_status,run_exit_code,run_seconds,%s\n' "$(head -n 1 "$csv")" >>"$table" || return 1; fi
        tail -n +2 "$csv" | sed "s/^/$prefix,/" >>"$table" || return 1
    fi
    [ "$have_python" = 0 ] || clomp_results tables --append-summary-row "$base" "$2" || return 1
}

# The key inputs that ran as several processes, summarised between processes.
key_between_processes() {  # key_between_processes BASE
    [ "$have_python" = 1 ] || return 0
    clomp_results between "$1"
}

# static_speedup RUN_CSV: Static OMP's speedup (CLOMP 1.2's, from Runtime: the
# run's Speedup line) from clomp's CSV, read by column name (quote-aware), or empty.
static_speedup() {
    awk -F, -f "$here/results/csv_columns.awk" -f <(echo 'col("key") == "static" { print col("runtime_speedup") }') "$1" 2>/dev/null
}

# Charts need gnuplot: --plots (yes) draws them, --no-plots not, and by
# default (auto) the report draws them where gnuplot is installed and says
# so where it is not (report.py).
# shellcheck disable=SC2154  # plots: run_clomp.sh's (see the top)
write_results() {  # write_results BASE: tables, charts, <base>.html, <base>.tar.gz
    local -a chart_opt=()
    if [ "$have_python" = 0 ]; then
        no_python_notice "$1"
        return 1
    fi
    case $plots in yes) chart_opt=(--charts) ;; no) chart_opt=(--no-charts) ;; esac
    clomp_results tables "$1" --write || return 1
    clomp_results between "$1" >/dev/null || return 1
    clomp_results report ${chart_opt[@]+"${chart_opt[@]}"} "$1" || return 1
    clomp_results bundle "$1"
}

# --bundle [ID]: rewrites the results of the suite of that ID in DIR and
# exits: this host's, or the only one of that ID (results copied from a
# compute node); without an ID, the highest (the results package's find-suite).
rewrite_results() {  # rewrite_results DIR ID HOST
    local base
    [ "$have_python" = 1 ] || { no_python_notice "$1/CLOMP_$3_${2:-ID}"; exit 1; }
    base=$(clomp_results find-suite "$@") || exit 2
    write_results "$base" || exit 1
    exit 0
}
