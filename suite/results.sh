# shellcheck shell=bash
# What the run loop records of each run, and the suite's results: its tables,
# the between-process summary, charts, the HTML report and the submission
# bundle, made by the Python results package (results/clomp_results/).
# Sourced by run_clomp.sh.
#   reads: here (the source tree), plots (yes, no, auto: run_clomp.sh's setting), sign_key (--sign KEY),
#          lock_fd (suite/run_guard.sh's: only the driver and its runs hold the suite)
#   sets:  have_python (1 when python3 runs the results package here), python_exe (its interpreter)
declare -g here plots lock_fd sign_key   # assigned before any function below runs
# The runs never need Python: without it every run is still recorded (its
# .full section, JSON record, .done mark, <base>.runs.csv line and its rows in
# <base>.csv), and the tables and report are made elsewhere (make plots OUT=...).

# The interpreter python3 runs, found once (sys.executable): a launcher shim
# on PATH (pyenv's, asdf's) costs more at each start than a run's table row.
have_python=0 python_exe=python3
if command -v python3 >/dev/null 2>&1 &&
    found=$(python3 -c 'import sys; print(sys.executable) if sys.version_info >= (3, 8) else sys.exit(1)' 2>/dev/null); then
    have_python=1
    [ ! -x "$found" ] || python_exe=$found
fi
clomp_results() { "$python_exe" "$here/results/clomp-results" "$@"; }
no_python_notice() {  # no_python_notice BASE
    echo "run_clomp.sh: notice: no python3 (3.8+) on this node: every run is recorded, but the tables, report and bundle must be made on a machine with Python: make plots OUT=$1 / ./run_clomp.sh --bundle --out $(dirname "$1")" >&2
}

# The .summary rows' writer: one Python process for the whole suite
# (tables --summary-rows BASE), asked for each run's row by record_tables: the
# run's number on a line in, "ok" (the row appended, the file closed) or
# "error: WHY" out. It ignores the signals that stop a suite (a row is never
# cut) and ends when the driver does (the end of its input). Where it could
# not start, or goes away, each row is one Python start (--append-summary-row),
# as before: the writer saves the start, it changes nothing that is written.
row_writer_in='' row_writer_out=''
start_row_writer() {  # start_row_writer BASE
    local fifos
    [ "$have_python" = 1 ] || return 0
    fifos=$(mktemp -d) || return 0
    if mkfifo -m 600 "$fifos/in" "$fifos/out"; then
        # Not a child of the driver (the subshell around it ends at once): a
        # `wait` for a run that already ended waits for any child to change,
        # and a writer that lives as long as the driver would never change.
        ( (
            trap '' INT TERM HUP
            [ -z "${lock_fd:-}" ] || exec {lock_fd}>&-
            exec "$python_exe" "$here/results/clomp-results" tables --summary-rows "$1" <"$fifos/in" >"$fifos/out"
        ) & )
        # Each open waits for the writer's: in first, then out, as it opens them.
        exec {row_writer_in}>"$fifos/in" {row_writer_out}<"$fifos/out"
    fi
    rm -rf -- "$fifos"
}

# close_row_writer: the writer's pipes closed in this (sub)shell. A run and its
# watchdog close them: a process a run leaves outside its process group (a
# launcher's daemon) would otherwise keep the writer, and the driver's stderr
# it holds, alive after the driver ends.
close_row_writer() {
    [ -z "$row_writer_in" ] || exec {row_writer_in}>&- {row_writer_out}<&-
}

# without_row_writer COMMAND...: execs COMMAND without the writer's pipes (the
# run; in the background its PID stays $!), and with TERM and HUP back to their
# default: the worker that starts it ignores them (run_clomp.sh, "running").
without_row_writer() {
    close_row_writer
    trap - TERM HUP
    # A stop asked while this child still ignored TERM (between the fork and the line
    # above) sent it a TERM that was lost: the flag, written before any TERM, says so.
    ! stop_asked || exit 143   # run_clomp.sh
    exec "$@"
}

# summary_row_from_writer RUN SUMMARY: 0 when the writer appended RUN's row;
# 1 when it could not be asked (SUMMARY is then as it was before, for the
# one-process way); 2 when it answered an error (said on stderr).
summary_row_from_writer() {
    local reply='' size
    [ -n "$row_writer_in" ] || return 1
    size=$(stat -c %s -- "$2" 2>/dev/null || echo -)
    trap '' PIPE   # a writer gone: the write fails (EPIPE) instead of ending the record
    if printf '%s\n' "$1" 1>&"$row_writer_in" 2>/dev/null && IFS= read -r reply <&"$row_writer_out" && [ -n "$reply" ]; then
        [ "$reply" = ok ] && return 0
        printf 'clomp-results tables: %s\n' "${reply#error: }" >&2
        return 2
    fi
    # Gone mid-row: whatever it wrote of this row goes.
    if [ "$size" = - ]; then rm -f -- "$2"; else truncate -s "$size" -- "$2"; fi
    return 1
}

# record_tables BASE RUN SET POLICY STATUS RC SECONDS RUN_CSV TABLE: the
# driver's record of the run (<base>.runs.csv, read by name), clomp's CSV rows
# of it appended to TABLE (<base>.csv, or <base>.constructs.csv for a
# construct run) after the run's facts, header first when TABLE is new (a run
# that left no CSV adds no row), and, with Python, its .summary row from its
# JSON record (the row writer's, else its own Python process). Returns 1 when
# a write fails (record_run, suite/run_guard.sh, then takes every file back).
record_tables() {
    local base=$1 prefix="$2,$3,$5,$6,$7" csv=$8 table=$9 asked
    if [ ! -s "$base.runs.csv" ]; then echo 'run,set,numa,status,exit_code,seconds' | add_to_file "$base.runs.csv" || return 1; fi
    printf '%s,%s,%s,%s,%s,%s\n' "$2" "$3" "${4:-first-touch}" "$5" "$6" "$7" | add_to_file "$base.runs.csv" || return 1
    if [ -s "$csv" ]; then
        if [ ! -s "$table" ]; then printf 'run,set,run_status,run_exit_code,run_seconds,%s\n' "$(head -n 1 "$csv")" | add_to_file "$table" || return 1; fi
        tail -n +2 "$csv" | sed "s/^/$prefix,/" | add_to_file "$table" || return 1
    fi
    [ "$have_python" = 1 ] || return 0
    summary_row_from_writer "$2" "${base}_$3.summary"
    asked=$?
    [ "$asked" = 0 ] && return 0
    [ "$asked" = 1 ] || return 1
    clomp_results tables --append-summary-row "$base" "$2" || return 1
}

# The key inputs that ran as several processes, summarised between processes.
key_between_processes() {  # key_between_processes BASE
    [ "$have_python" = 1 ] || return 0
    clomp_results between "$1"
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
    # tables --write, between, report, bundle (and its signature): in one process (results/clomp_results/finish.py).
    clomp_results finish ${chart_opt[@]+"${chart_opt[@]}"} ${sign_key:+--sign "$sign_key"} "$1"
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
