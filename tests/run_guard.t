#!/usr/bin/env bash
# The suite driver's guards in C (clomp-write reason, write-failed, journal, undo: write/run_reason.c,
# write/record_journal.c) give what the shell functions they replaced gave (kept below, verbatim, as
# the oracle) on a grid of inputs: a failed run's reason from every kind of stderr, exit status and
# signal; a failed write's reason; the record journal of present, absent and linked files; and
# --resume's undo of a cut record over good and forged journals (the files, the message, the status).
# --resume's rerun of runs marked done without their line in .runs.csv (drop-unrecorded:
# write/done_runs.c) against the shell's over a grid of .done and .runs.csv files.
# --resume's lock (lock: write/suite_lock.c) refuses, with the shell's message and status, or takes
# the lock, over a grid of holder notes (absent, forged, a link; a driver alive or gone on this node or
# another, its run's group alive or gone) with the lock held by another driver or free.
# The process group's end and the watchdog (end-group, watch: write/run_group.c): the whole group
# goes, TERM first; the watchdog writes the limit and ends the group at --run-timeout, ends it when
# the driver is gone, leaves it alone otherwise, and takes the TERM that stops it even when started
# with TERM ignored (as the worker starts it).
# The quick lane asks each stderr of every exit status without a timeout marker and with one a sixth
# of the time (turn about),
# the signals of exit statuses 129..166, 190..194 and 255 (every named one, glibc's 32 and 33, the
# first and last real-time ones, past the last) and half the .done x .runs.csv grid (turn about);
# the full lane asks the whole grids.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

# shellcheck source-path=SCRIPTDIR source=lib/writer.sh
. "$(dirname "$0")/lib/writer.sh"
bg_pids=()
# shellcheck disable=SC2317  # run by the EXIT trap: lib/writer.sh's, and the processes started here
cleanup() {
    local p
    exec 2>/dev/null   # no job notices for what is killed here
    for p in ${bg_pids[@]+"${bg_pids[@]}"}; do kill -KILL -- "-$p" "$p" 2>/dev/null; done
    rm -rf "$root"
}
trap cleanup EXIT

# ---- the oracle: suite/run_guard.sh's functions before the move (commit f7843a9) ----------------
old_failure_reason() {
    local rc=$1 line
    if [ -s "$3" ]; then
        echo "no result after $(cat "$3") s: ended by --run-timeout $(cat "$3")"
        return
    fi
    line=$(grep -v '^[[:space:]]*$' "$2" 2>/dev/null | tail -n 1 | tr -d '\000-\037\177' | cut -c1-300)
    if [ -n "$line" ]; then
        printf '%s\n' "$line"
    elif [ "$rc" -gt 128 ]; then
        echo "killed by signal $(kill -l "$((rc - 128))" 2>/dev/null || echo $((rc - 128)))"
    else
        echo "exit status $rc, nothing on stderr"
    fi
}
old_write_failed() {
    local why
    if grep -q 'No space left on device' <<<"$1"; then
        why='No space left on device'
    else
        why=$(grep -v '^[[:space:]]*$' <<<"$1" | tail -n 1 | tr -d '\000-\037\177' | cut -c1-200)
    fi
    printf '%s\n' "${why:-write error}"
}
old_journal_text() {  # write_journal's text, before put_file
    local f
    echo "run $1"
    shift
    for f; do echo "$(stat -c %s -- "$base$f" 2>/dev/null || echo -) $f"; done
}
old_run_group_alive() {
    kill -0 -- "-$1" 2>/dev/null || kill -0 "$1" 2>/dev/null
}
old_lock_suite() {
    local pid='' h='' since='' pg=''
    holder_file="$out_dir/.CLOMP_${host}_${id}.driver"
    exec {lock_fd}<"$base.env" || die_usage "cannot open $base.env to lock suite $id"
    # The note may be anyone's (a shared directory): only its words in plain characters are used.
    [ ! -f "$holder_file" ] || [ -L "$holder_file" ] || read -r pid h since pg <"$holder_file"
    [[ $pid =~ ^[0-9]{1,9}$ ]] || pid=''
    [[ $pg =~ ^[0-9]{1,9}$ ]] || pg=''
    h=${h//[^A-Za-z0-9._-]/?} since=${since//[^0-9A-Z:-]/?}
    if ! flock -n "$lock_fd"; then
        if [ -n "$pid" ] && [ "$h" = "$(uname -n)" ] && ! kill -0 "$pid" 2>/dev/null && [ -n "$pg" ] && [ "$pg" != - ]; then
            die_usage "suite $id: its driver (pid $pid on $h) is gone, but its run (process group $pg) still runs; wait for it to end or stop it (kill -- -$pg), then resume"
        fi
        [ -n "$pid" ] || die_usage "suite $id is in use by another run_clomp.sh (which did not note its pid); one driver at a time"
        die_usage "suite $id is in use by run_clomp.sh (pid $pid on $h since $since); one driver at a time"
    fi
    # The lock is free, yet a run the dead driver started may have let go of it.
    if [ -n "$pg" ] && [ "$pg" != - ] && [ "$h" = "$(uname -n)" ] && old_run_group_alive "$pg"; then
        die_usage "suite $id: a run of its previous driver (pid $pid, process group $pg) still runs; wait for it to end or stop it (kill -- -$pg), then resume"
    fi
    rm -f -- "$holder_file"   # the lock is ours: so is the note's name (whatever was planted there goes)
    holder_line - | put_file "$holder_file" 2>/dev/null || true   # who holds it: for the message above only
    holding=1
    trap release_suite EXIT
}
old_drop_incomplete_done_runs() {
    local run keep=() dropped=() recorded
    recorded=$(table_rows "$base.runs.csv" '{ print col("run") }')
    while read -r run; do
        [ -n "$run" ] || continue
        [[ $run =~ ^[0-9]{1,9}$ ]] || die_usage "--resume: $base.done holds a line that is not a run number: refused"
        if grep -qx "$run" <<<"$recorded"; then keep+=("$run"); else dropped+=("$run"); fi
    done <"$base.done"
    [ ${#dropped[@]} -gt 0 ] || return 0
    echo "run_clomp.sh: --resume: run(s) ${dropped[*]} marked done but with incomplete files: running them again" >&2
    if ! { [ ${#keep[@]} -eq 0 ] || printf '%s\n' "${keep[@]}"; } | put_file "$base.done"; then
        die_usage "--resume: cannot rewrite $base.done"
    fi
}
old_undo_record() {
    local j word run size suffix
    j=$(journal_path)
    [ -e "$j" ] || return 0
    { read -r word run && [ "$word" = run ] && [[ $run =~ ^[0-9]{1,9}$ ]]; } <"$j" ||
        die_usage "--resume: $j is not a record journal; remove it if no run is being recorded"
    if ! grep -qx "$run" "$base.done"; then
        while read -r size suffix; do
            [[ $suffix =~ ^[A-Za-z0-9_.]+$ ]] || continue
            if [ "$size" = - ]; then rm -f -- "$base$suffix"
            else truncate -s "$size" -- "$base$suffix" || die_usage "--resume: cannot put $base$suffix back as it was before run $run"
            fi
        done < <(tail -n +2 "$j")
    fi
    rm -f -- "$j"
}

# The driver's functions now (undo_record, journal_path, write_journal), as run_clomp.sh has them.
die_usage() {
    printf 'run_clomp.sh: %s\n' "$1" >&2
    exit 2
}
put_file() { "$writer" replace "$1"; }
here=$top
table_rows() { [ ! -e "$1" ] || awk -F, -f "$here/results/csv_columns.awk" -f <(printf '%s\n' "$2") "$1"; }  # suite/common.sh's
# shellcheck source=../suite/run_guard.sh
. "$top/suite/run_guard.sh"

# ---- a failed run's reason ------------------------------------------------------------------
long=$(printf 'x%.0s' {1..290})
stderrs=(
    ''                                                  # nothing on stderr
    $'\n\n  \n\t\r\n'                                   # blank lines only
    $'clomp: cannot allocate the mesh\n'                # clomp's one-line error
    $'first line\nclomp: the last line\n\n   \n'        # blank lines after it
    $'no newline at the end'
    $'\e[31mred\e[0m and \x01\x7f controls\n'           # control characters go
    $'\x01\x02\n'                                       # a line of controls only: nothing left
    "${long}ééé  the cut falls inside a multibyte character and past 300 bytes"
    $'   indented, with trailing blanks   \n'
)
cells=0 differ=() turn=0
for e in "${!stderrs[@]}"; do
    printf '%s' "${stderrs[e]}" >"$root/err"
    for rc in 1 7 127 128 137 143; do
        for marker in '' $'2\n' $'0002\n'; do
            turn=$((turn + 1))
            full_lane || [ -z "$marker" ] || [ $(((turn + e) % 6)) = 0 ] || continue
            printf '%s' "$marker" >"$root/marker"
            old=$(old_failure_reason "$rc" "$root/err" "$root/marker")
            new=$("$writer" reason "$rc" "$root/err" "$root/marker")
            cells=$((cells + 1))
            [ "$old" = "$new" ] || differ+=("stderr $e, rc $rc, marker '${marker%$'\n'}': '$old' vs '$new'")
        done
    done
done
is "${#differ[@]}" 0 "clomp-write reason gives the shell's reason in each of $cells cells (stderr x exit status x timeout marker)"
for d in ${differ[@]+"${differ[@]}"}; do diag "$d"; done
old=$(old_failure_reason 3 "$root/absent" "$root/absent.timeout")
is "$("$writer" reason 3 "$root/absent" "$root/absent.timeout")" "$old" "and with no stderr file and no marker: '$old'"

# Every signal a run can die of, by its exit status 129..255 with nothing on stderr; bash names
# 32 and 33 (glibc's own) with nothing at all ("killed by signal "), clomp-write by their number.
: >"$root/err"
differ=()
for ((rc = 129; rc <= 255; rc++)); do
    full_lane || [ "$rc" -le 166 ] || { [ "$rc" -ge 190 ] && [ "$rc" -le 194 ]; } || [ "$rc" = 255 ] || continue
    old=$(old_failure_reason "$rc" "$root/err" "$root/absent")
    new=$("$writer" reason "$rc" "$root/err" "$root/absent")
    [ "$old" = "$new" ] || [ "$old:$new" = "killed by signal :killed by signal $((rc - 128))" ] || differ+=("rc $rc: '$old' vs '$new'")
done
is "${#differ[@]}" 0 "the signal of every exit status from 129 to 255 is named as bash's kill -l names it"
for d in ${differ[@]+"${differ[@]}"}; do diag "$d"; done
is "$("$writer" reason 160 "$root/err" "$root/absent")" "killed by signal 32" "a signal without a name is given by its number"

# ---- a failed write's reason ----------------------------------------------------------------
messages=(
    ''
    $'\n'
    'clomp-write: /o/CLOMP_n_1.env: No space left on device'
    $'cat: write error: No space left on device\nclomp-write: /o/x: Input/output error'
    $'clomp-write: /o/x: Permission denied\n\n'
    $'a\n\e]0;title\a and more\n  '
    "$long$long"
    'write error'
)
differ=()
for m in "${!messages[@]}"; do
    old=$(old_write_failed "${messages[m]}")
    new=$(write_failed "${messages[m]}")
    [ "$old" = "$new" ] || differ+=("message $m: '$old' vs '$new'")
done
is "${#differ[@]}" 0 "write_failed (clomp-write write-failed) gives the shell's reason for each of ${#messages[@]} tools' messages"
for d in ${differ[@]+"${differ[@]}"}; do diag "$d"; done

# ---- the record journal ---------------------------------------------------------------------
out_dir=$root/suite base=$out_dir/CLOMP_n_1
mkdir "$out_dir"
printf 'a,b\n1,2\n' >"$base.csv"
: >"$base.env"
ln -s "$base.csv" "$base.runs.csv"
suffixes=(.env _key.full _key.summary .csv .runs.csv)
is "$("$writer" journal "$base" 7 "${suffixes[@]}")" "$(old_journal_text 7 "${suffixes[@]}")" \
    "clomp-write journal gives the shell's journal: sizes of present, empty and linked files, '-' for absent ones"
write_journal 7 "${suffixes[@]}"
is "$(cat "$(journal_path)")" "$(old_journal_text 7 "${suffixes[@]}")" "and write_journal puts it in place"
rm -f "$(journal_path)" "$base.runs.csv"

# undo over a grid of journals: each applied by the old function to one copy of a suite, by the
# new to another; the files (names, sizes, bytes), the message and the exit status compared.
suite_state() { (cd "$1" && find . -mindepth 1 -printf '%P %s\n' | LC_ALL=C sort && cat ./* 2>/dev/null | cksum); }
make_suite() {  # make_suite DIR: a suite whose record of run 3 was cut
    rm -rf "$1"
    mkdir "$1"
    printf '1\n2\n' >"$1/CLOMP_n_1.done"
    printf 'settings\n---- run 3\n' >"$1/CLOMP_n_1.env"
    printf 'run,set\n1,key\n2,key\n3,key\n' >"$1/CLOMP_n_1.runs.csv"
    printf '=== run 3\n' >"$1/CLOMP_n_1_key.full"
    printf 'x\n' >"$1/CLOMP_n_1_600zones.summary"
}
journals=(
    $'run 3\n9 .env\n14 .runs.csv\n- _key.full\n2 _600zones.summary\n'   # a cut record
    $'run 2\n9 .env\n14 .runs.csv\n- _key.full\n'                         # its run is done: nothing undone
    $'  run   3  \n9\t.env\n  - _key.full  \n'                            # blanks around the words
    $'run 3\n9 .env\n- ../outside\n- _key full\n3 _600zones.summary'       # bad suffixes passed over; a last line without its newline too
    $'run 3\n0 .csv\n'                                                    # a file gone is made again, empty
    ''                                                                    # not a journal: empty
    $'run 3'                                                              # nor a first line without its newline
    $'walk 3\n- .env\n'
    $'run x\n- .env\n'
    $'run 1234567890\n- .env\n'
    $'run 3 4\n- .env\n'
)
differ=()
for k in "${!journals[@]}"; do
    for side in old new; do
        make_suite "$root/$side"
        out_dir=$root/$side base=$root/$side/CLOMP_n_1
        printf '%s' "${journals[k]}" >"$(journal_path)"
        if [ "$side" = old ]; then msg=$( (old_undo_record) 2>&1); else msg=$( (undo_record) 2>&1); fi
        printf '%s\n' "$? ${msg//$root\/$side/DIR}" >"$root/$side.result"
        suite_state "$root/$side" >>"$root/$side.result"
    done
    cmp -s "$root/old.result" "$root/new.result" || differ+=("journal $k: $(tr '\n' '|' <"$root/old.result") vs $(tr '\n' '|' <"$root/new.result")")
done
is "${#differ[@]}" 0 "undo_record (clomp-write undo) leaves the files, the message and the status the shell's left, for each of ${#journals[@]} journals"
for d in ${differ[@]+"${differ[@]}"}; do diag "$d"; done
make_suite "$root/new"
printf '%s' $'run 3\n9 .env\n- _key.full\n' >"$(journal_path)"
rm -f "$base.done"
(undo_record) 2>/dev/null
is "$?:$(find "$root/new" -name '*.recording' | grep -c .):$(wc -c <"$base.env"):$([ -e "${base}_key.full" ] && echo kept || echo gone)" "0:0:9:gone" \
    "without a .done the run is not done: its files are put back and the journal goes"

# Where the two differ on purpose: a size that is not a plain number (truncate's 1K, +5) and a
# link in a file's place are refused (exit 2, the journal kept) instead of followed.
for bad in '1K .env' '9 .lnk'; do
    make_suite "$root/new"
    ln -s "$root/new/CLOMP_n_1.runs.csv" "$base.lnk"
    printf 'run 3\n%s\n' "$bad" >"$(journal_path)"
    msg=$( (undo_record) 2>&1)
    is "$?:$msg:$(wc -c <"$base.runs.csv"):$(wc -c <"$base.env"):$(find "$root/new" -name '*.recording' | grep -c .)" \
        "2:run_clomp.sh: --resume: cannot put $base${bad#* } back as it was before run 3:26:20:1" \
        "a journal line '$bad' is refused (exit 2, one line), nothing changed, the journal kept"
done

# ---- the runs marked done without their record -----------------------------------------------
dones=($'1\n2\n3\n' $'1\n2\n3\n4\n' $'1\n\n4\n5\n3\n' $' 2 \n\t4\n' $'1\nx\n4\n' $'1\n4' '' $'12345678901\n' $'3\n2\n1\n10\n')
tables=($'run,set,status\n1,key,OK\n2,key,OK\n3,"a,b",OK\n' $'set,run\n"x ""y""",1\nkey,10\n' $'run\n' absent)
differ=() cells=0
for d in "${!dones[@]}"; do
    for t in "${!tables[@]}"; do
        full_lane || [ $(((d + t) % 2)) = 0 ] || continue
        for side in old new; do
            out_dir=$root/done.$side base=$out_dir/CLOMP_n_1
            rm -rf "$out_dir"
            mkdir "$out_dir"
            printf '%s' "${dones[d]}" >"$base.done"
            [ "${tables[t]}" = absent ] || printf '%s' "${tables[t]}" >"$base.runs.csv"
            if [ "$side" = old ]; then msg=$( (old_drop_incomplete_done_runs) 2>&1); else msg=$( (drop_incomplete_done_runs) 2>&1); fi
            printf '%s\n' "$? ${msg//done.$side/DIR}" >"$root/$side.result"
            cat "$base.done" >>"$root/$side.result"
        done
        cells=$((cells + 1))
        cmp -s "$root/old.result" "$root/new.result" || differ+=("done $d, table $t: $(tr '\n' '|' <"$root/old.result") vs $(tr '\n' '|' <"$root/new.result")")
    done
done
is "${#differ[@]}" 0 "drop_incomplete_done_runs (clomp-write drop-unrecorded) gives the shell's message, status and .done for each of $cells .done and .runs.csv files"
for d in ${differ[@]+"${differ[@]}"}; do diag "$d"; done

# wait_for_lock FILE: up to 30 s until another process holds FILE's lock.
wait_for_lock() {
    local n
    for ((n = 0; n < 300; n++)); do flock -n "$1" true || return 0; sleep 0.1; done
    return 1
}

# ---- the lock ------------------------------------------------------------------------------
if command -v flock >/dev/null 2>&1; then
    setsid sleep 300 </dev/null >/dev/null 2>&1 &
    live_group=$!
    bg_pids+=("$live_group")
    sleep 0 &
    gone_pid=$!
    wait "$gone_pid"
    me=$(uname -n)
    notes=(
        ''
        "$$ $me 2026-11-29T10:00:00Z -"
        "$$ $me 2026-11-29T10:00:00Z $live_group"
        "$gone_pid $me 2026-11-29T10:00:00Z $live_group"
        "$gone_pid $me 2026-11-29T10:00:00Z $gone_pid"
        "$gone_pid other.node 2026-11-29T10:00:00Z $live_group"
        "$gone_pid $me since-lower $live_group extra"
        $'12 h\e[2Jst\x01 2026<b>x -\n'
        'x1 y z 1234567890'
        '   7    node    now   '
        "link"
    )
    differ=() seen=''
    for k in "${!notes[@]}"; do
        for held in free held; do
            for side in old new; do
                out_dir=$root/lock.$side host=h id=1 base=$out_dir/CLOMP_h_1
                rm -rf "$out_dir"
                mkdir "$out_dir"
                : >"$base.env"
                if [ "${notes[k]}" = link ]; then
                    printf '%s\n' "$gone_pid $me T $live_group" >"$out_dir/target"
                    ln -s "$out_dir/target" "$out_dir/.CLOMP_h_1.driver"
                elif [ -n "${notes[k]}" ]; then
                    printf '%s\n' "${notes[k]}" >"$out_dir/.CLOMP_h_1.driver"
                fi
                holder=''
                if [ "$held" = held ]; then
                    (exec {fd}<"$base.env" && flock "$fd" && exec sleep 30) &   # waits while wait_for_lock looks
                    holder=$!
                    wait_for_lock "$base.env"
                fi
                if [ "$side" = old ]; then msg=$( (old_lock_suite && flock -n "$base.env" true || echo locked) 2>&1); else
                    msg=$( (lock_suite && flock -n "$base.env" true || echo locked) 2>&1)
                fi
                status=$?
                [ -z "$holder" ] || { kill "$holder"; wait "$holder"; } 2>/dev/null
                printf '%s\n' "$status ${msg//lock.$side/DIR}" "$(sed 's/ [0-9TZ:-]* -$/ SINCE -/' "$out_dir/.CLOMP_h_1.driver" 2>/dev/null)" >"$root/$side.result"
            done
            seen+=$(head -n 1 "$root/old.result")$'\n'
            cmp -s "$root/old.result" "$root/new.result" || differ+=("note $k, lock $held: $(tr '\n' '|' <"$root/old.result") vs $(tr '\n' '|' <"$root/new.result")")
        done
    done
    is "${#differ[@]}" 0 "lock_suite (clomp-write lock) refuses or locks as the shell did, with its message and status, for each of $((${#notes[@]} * 2)) notes and locks"
    for d in ${differ[@]+"${differ[@]}"}; do diag "$d"; done
    is "$(for w in 'locked' 'in use by run_clomp.sh (pid' 'did not note its pid' 'is gone, but its run' 'a run of its previous driver'; do
        grep -cF -- "$w" <<<"$seen" | sed 's/^[1-9][0-9]*$/some/'; done | tr '\n' ' ')" "some some some some some " \
        "and the grid meets each answer: locked, in use, in use without a pid, its driver gone, its run still running"
else
    skip "lock_suite locks as the shell did" "no flock(1) to run the shell's version"
    skip "and the grid meets each answer" "no flock(1)"
fi

# ---- the run's process group and the watchdog -----------------------------------------------
group() {  # group NAME: a run of two processes in its own group; its PGID in $pg
    setsid sh -c 'sleep 120 & exec sleep 120' </dev/null >/dev/null 2>&1 &
    pg=$!
    bg_pids+=("$pg")
    wait_for_group_of 2 "$pg"
}
wait_until() {  # wait_until COMMAND...: up to 30 s until COMMAND succeeds
    local n
    for ((n = 0; n < 300; n++)); do "$@" && return 0; sleep 0.1; done
    return 1
}
members() { ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/' | grep -c .; }  # zombies are gone
wait_for_group_of() {
    local n
    for ((n = 0; n < 100; n++)); do [ "$(members "$2")" -ge "$1" ] && return 0; sleep 0.1; done
    return 1
}
wait_gone() {
    local n
    for ((n = 0; n < ${2:-100}; n++)); do [ "$(members "$1")" = 0 ] && return 0; sleep 0.1; done
    return 1
}

group
"$writer" end-group "$pg"
is "$?:$(members "$pg")" "0:0" "end-group ends every process of the run's group, not only its leader"

group
: >"$root/wd.timeout"
"$writer" watch "$pg" 1 "$root/wd.timeout" "$$" "$$" &
wd=$!
wait_gone "$pg" 300
is "$?:$(cat "$root/wd.timeout")" "0:1" "watch ends the group at its limit (1 s) and writes the limit to the marker"
wait "$wd"
is "$?" 0 "and exits 0"

group
sleep 300 &
driver=$!
bg_pids+=("$driver")
rm -f "$root/wd.timeout"
"$writer" watch "$pg" 0 "$root/wd.timeout" "$driver" "$$" &
wd=$!
sleep 1.5
alive_before=$(members "$pg")
{ kill -KILL "$driver"; wait "$driver"; } 2>/dev/null
wait_gone "$pg" 300
is "$?:$alive_before:$([ -e "$root/wd.timeout" ] && echo marker || echo none)" "0:2:none" \
    "without a limit watch leaves the group alone while the driver lives, and ends it once the driver is gone (no marker)"
wait "$wd"

group
(trap '' INT TERM HUP; exec "$writer" watch "$pg" 0 "$root/wd.timeout" "$$" "$$") &
wd=$!
# shellcheck disable=SC2317  # called through wait_until
takes_term() { [ "$(cat "/proc/$1/comm" 2>/dev/null)" = clomp-write ] && (((0x$(sed -n 's/^SigIgn:\t//p' "/proc/$1/status") & 0x4000) == 0)); }
if wait_until takes_term "$wd"; then kill -TERM "$wd"; else kill -KILL "$wd"; fi   # never a hung test
wait "$wd"
is "$?:$(members "$pg")" "143:2" "a watchdog started with TERM ignored (as the worker starts it) is stopped by TERM, the run left alone"
"$writer" end-group "$pg"

group
(sleep 1; kill -TERM "$pg" "-$pg") 2>/dev/null &
"$writer" watch "$pg" 0 "$root/wd.timeout" "$$" "$$"
is "$?" 0 "watch exits 0 once the run's group has ended by itself"

is "$("$writer" watch 12 x m 1 2 2>&1; echo "rc $?")" $'usage: clomp-write watch PGID LIMIT MARKER DRIVER WORKER   (LIMIT: whole seconds, 0: none)\nrc 2' \
    "a limit that is not a whole number is a usage error (exit 2)"

if skip_unless_full_lane "a group that ignores TERM is KILLed after 10 s (1 test, 10 s)"; then
    setsid sh -c 'trap "" TERM; sleep 120 & sleep 120' </dev/null >/dev/null 2>&1 &
    pg=$!
    bg_pids+=("$pg")
    wait_for_group_of 2 "$pg"
    start=$(now)
    "$writer" end-group "$pg"
    took=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')
    is "$(members "$pg"):$took" "0:10" "end-group KILLs a group that outlives its TERM by 10 s"
fi

done_testing
