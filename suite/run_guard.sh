# shellcheck shell=bash
# What keeps a suite honest about its runs (docs/suite.md, "Locks, timeouts
# and failures"): one driver at a time per suite ID (flock on <base>.env),
# the runs' process groups ended when the driver dies or a run outlives its
# --run-timeout (a watchdog), the reason a run FAILED recorded when it ends,
# and the runs whose files are incomplete found again on --resume; what is
# not launching or signals is build/clomp-write's (write/run_guard.h).
# Sourced by run_clomp.sh; sets lock_fd, holder_file, holding (lock_suite), watchdog (start_watchdog).
# Read here; run_clomp.sh assigns them before any function below runs:
declare -g writer base id out_dir host resume_id stop_flag run set_name status rc reason seconds policy tmp full summary run_csv total_runs
declare -ga orig_args cmd

# Who holds a suite: "PID HOST SINCE PGID" (PGID: the run in progress, or -), beside the
# suite's files but hidden, so no bundle picks it up; for lock_suite's message and a later
# --resume's check (note_run_group). It goes on exit (release_suite; the lock goes with the descriptor).
holder_line() { printf '%s %s %s %s\n' "$$" "$(uname -n)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1"; }  # holder_line PGID
note_run_group() { holder_line "$1" | put_file "$holder_file" 2>/dev/null || true; }  # note_run_group PGID
release_suite() { [ -z "${holding:-}" ] || rm -f -- "$holder_file"; }

# lock_suite: holds an exclusive flock on <base>.env for as long as this
# driver (and the runs it starts, which inherit the descriptor) lives. A
# second driver on the same suite ID exits 2 naming the holder; so does a
# --resume while a run of a driver that died still runs (write/suite_lock.c).
lock_suite() {
    local why
    holder_file="$out_dir/.CLOMP_${host}_${id}.driver"
    exec {lock_fd}<"$base.env" || die_usage "cannot open $base.env to lock suite $id"
    why=$("$writer" lock "$lock_fd" "$holder_file" "$id") || die_usage "$why"
    rm -f -- "$holder_file"   # the lock is ours: so is the note's name (whatever was planted there goes)
    holder_line - | put_file "$holder_file" 2>/dev/null || true   # who holds it: for the message above only
    holding=1
    trap release_suite EXIT
}

# end_run_group PGID: TERM, then KILL after 10 s (a launcher's wrappers included: write/run_group.c).
end_run_group() { "$writer" end-group "$1"; }

# stop_asked: a signal came to the supervisor (its flag, $stop_flag, is there), or the
# supervisor is gone (a SIGKILL: the watchdog ended the run in progress). In the worker
# (run_clomp.sh, "running"), $$ is the supervisor.
stop_asked() { [ -e "$stop_flag" ] || ! kill -0 "$$" 2>/dev/null; }

# relay_stop: the supervisor's trap. The flag first, then the run in progress (the worker
# notes its group, then checks the flag: one of the two sees the other).
# shellcheck disable=SC2317  # called by the trap
relay_stop() {
    local _pid _host _since pg=''
    : >"$stop_flag"
    read -r _pid _host _since pg 2>/dev/null <"$holder_file"
    [[ ! $pg =~ ^[0-9]{1,9}$ ]] || end_run_group "$pg"
}

# exec_run COMMAND...: execs COMMAND (the run; in the background its PID stays $!)
# with TERM and HUP back to their default: the worker that starts it ignores
# them (run_clomp.sh, "running").
exec_run() {
    trap - TERM HUP
    # A stop asked while this child still ignored TERM (between the fork and the line
    # above) sent it a TERM that was lost: the flag, written before any TERM, says so.
    ! stop_asked || exit 143
    exec "$@"
}

# start_watchdog PGID LIMIT MARKER: in the background, ends the run's process group when this
# driver is gone, the supervisor or its worker, even by SIGKILL, or when LIMIT seconds have passed
# (0: never), writing LIMIT to MARKER then (write/run_group.c). Not with the lock: after the
# driver is gone only its run may hold the suite.
start_watchdog() {
    "$writer" watch "$1" "$2" "$3" "$$" "$BASHPID" {lock_fd}>&- </dev/null >/dev/null 2>&1 &
    watchdog=$!
}

stop_watchdog() {
    [ -n "${watchdog:-}" ] || return 0
    kill "$watchdog" 2>/dev/null
    wait "$watchdog" 2>/dev/null
    watchdog=''
}

# default_run_timeout ESTIMATE: --run-timeout's default for a run the dry
# run estimates at ESTIMATE seconds: 10 times that, at least 300 s (a
# launcher's start-up, a loaded node); none (0) without an estimate (?: no python3).
RUN_TIMEOUT_FACTOR=10 RUN_TIMEOUT_FLOOR=300
default_run_timeout() {
    local t=0
    [[ ! $1 =~ ^[0-9]+$ ]] || t=$(($1 * RUN_TIMEOUT_FACTOR > RUN_TIMEOUT_FLOOR ? $1 * RUN_TIMEOUT_FACTOR : RUN_TIMEOUT_FLOOR))
    echo "$t"
}

# failure_reason RC STDERR MARKER: one line, why a run FAILED, from what the driver saw when it
# ended: its timeout, else the run's last line on stderr (clomp's one-line error), else its exit
# status or signal; write_failed ERRORS: why a write failed, from the tools' messages (write/run_reason.c).
failure_reason() { "$writer" reason "$1" "$2" "$3"; }
write_failed() { printf '%s\n' "$1" | "$writer" write-failed; }

# mark_done RUN: the run's number appended to <base>.done through a new
# copy (its mode kept), synced, renamed over it, and the directory synced
# (put_file, suite/common.sh): a run is done only once every file of it is on disk.
mark_done() {
    local runs
    runs=$(cat -- "$base.done") && printf '%s\n' ${runs:+"$runs"} "$1" | put_file "$base.done"
}

# The record's undo journal, hidden beside the files and never bundled (write/record_journal.c):
# the run's number and the size of each file record_run appends to, written before it appends;
# gone once the run is marked done. undo_record puts a cut record's files back (sizes, never
# text), or exits 2 (--resume stops: nothing is run on a half record).
journal_path() { printf '%s/.%s.recording\n' "$out_dir" "${base##*/}"; }
write_journal() { "$writer" journal "$base" "$@" | put_file "$(journal_path)"; }  # write_journal RUN SUFFIX...
undo_record() {
    local why
    why=$("$writer" undo "$base" "$(journal_path)") || die_usage "--resume: $why"
}

# drop_incomplete_done_runs: --resume: a run marked done that has no line in <base>.runs.csv (by
# its run column) is no longer done, and runs again (write/done_runs.c); its rows in the tables go
# with it (drop_unfinished_runs, suite/common.sh); a .full section of it stays (never read back).
drop_incomplete_done_runs() {
    local kept rc=0
    kept=$(table_rows "$base.runs.csv" '{ print col("run") }' | "$writer" drop-unrecorded "$base.done") || rc=$?
    [ "$rc" != 3 ] || die_usage "--resume: $base.done holds a line that is not a run number: refused"
    [ "$rc" = 1 ] || return 0
    if ! { [ -z "$kept" ] || printf '%s\n' "$kept"; } | put_file "$base.done"; then
        die_usage "--resume: cannot rewrite $base.done"
    fi
}

# record_run: the run that just ended (the run loop's variables), recorded: its undo journal,
# its failure's reason (in .env), output (.full: stdout, then stderr), then its tables
# (record_tables), every write checked, each file synced; then the done mark, and the journal
# goes. A write that fails (a full disk) takes the files back to their sizes before the run
# (undo_record), leaves the reason in $tmp.why and returns 1.
record_run() {
    local f werr table suffixes
    # A construct run's CSV is its construct table: rows in <base>.constructs.csv.
    # The oversubscribed run's are apart: its files never go into the bundle (suite/cliff.sh).
    if is_construct_set "$set_name"; then table=.constructs.csv
    elif [ "$set_name" = offload_probes ]; then table=.target_constructs.csv   # suite/offload.sh
    elif [ "$set_name" = "$OVERSUBSCRIBED_SET" ]; then table=.oversubscribed.csv
    else table=.csv; fi
    suffixes=(.env "${full#"$base"}" "${summary#"$base"}" "$table" .runs.csv)
    if ! werr=$({
        write_journal "$run" "${suffixes[@]}" || exit 1
        [ "$status" = OK ] || printf -- '---- run %s FAILED (%s, exit status %s): %s\n' "$run" "$set_name" "$rc" "$reason" | add_to_file "$base.env" || exit 1
        {
            echo "=== run $run/$total_runs: ${cmd[*]}"
            cat "$tmp" "$tmp.err"
            echo "=== end of run $run: exit status $rc ($status)"
        } | add_to_file "$full" || exit 1
        record_tables "$base" "$run" "$set_name" "$policy" "$status" "$rc" "$seconds" "$run_csv" "$base$table" || exit 1
        for f in "${suffixes[@]}"; do [ ! -e "$base$f" ] || sync -- "$base$f" || exit 1; done
        mark_done "$run" || exit 1
        rm -f -- "$(journal_path)"
    } 2>&1 >/dev/null); then
        (undo_record) 2>/dev/null
        write_failed "$werr" >"$tmp.why"
        return 1
    fi
}

# first_failure: nothing when no run FAILED, else "F of N runs FAILED; first: run K (SET, exit
# status RC): REASON", from <base>.runs.csv (by column name) and the run's reason in the manifest
# (read by its JSON: .env is a log, never read back).
first_failure() {
    local failed run set_name rc reason
    failed=$(table_rows "$base.runs.csv" 'col("status") == "FAILED" { print col("run") "\t" col("set") "\t" col("exit_code") }' | sort -n)
    [ -n "$failed" ] || return 0
    IFS=$'\t' read -r run set_name rc <<<"$(head -n 1 <<<"$failed")"
    reason=$("$writer" get "$(manifest_path)" "runs.run=$run.reason" 2>/dev/null)
    # The files may have come from elsewhere (--resume of a copied suite): no control character reaches the terminal.
    printf '%s of %s runs FAILED; first: run %s (%s, exit status %s): %s\n' "$(grep -c . <<<"$failed")" "$total_runs" \
        "$run" "$set_name" "$rc" "${reason:-no reason recorded (a suite from a driver that did not record reasons)}" | printable
}

# resume_command: the command line that resumes this suite.
resume_command() {
    local again
    again=$(printf '%q ' "$0" ${orig_args[@]+"${orig_args[@]}"})
    [ -n "$resume_id" ] || again="$again--resume $id"
    printf '%s\n' "$again"
}

# mark_incomplete: a signal stopped the suite: noted in .env, the resume command said, exit 130.
mark_incomplete() {
    local again
    again=$(resume_command)
    note_suite_status "interrupted $(date)${SLURM_JOB_ID:+ in Slurm job $SLURM_JOB_ID}: incomplete; resume with: $again" interrupted ||
        echo "run_clomp.sh: could not note the interruption in $base.env" >&2
    echo "run_clomp.sh: interrupted; every finished run is saved. Resume with: $again" >&2
    exit 130
}

# A write of the suite's own files failed (a full disk): what is recorded
# stays consistent, and the last line says why the suite stopped (exit 3).
stop_unrecorded() {  # stop_unrecorded WHAT REASON
    note_suite_status "stopped $(date): $1 could not be recorded: $2" stopped 2>/dev/null
    rm -f "${tmp:-}" "${tmp:+$tmp.err}" "${tmp:+$tmp.why}" "${tmp:+$tmp.timeout}" "$run_csv"
    echo "Suite FAILED: $1 could not be recorded: $2; every run before it is saved; free space, then resume with: $(resume_command)"
    exit 3
}
