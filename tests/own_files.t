#!/usr/bin/env bash
# clomp's own --csv and --json files against hostile or unusual targets: a
# device node is written in place and never replaced by a regular file
# (a full device is a one-line error, exit 3), --csv=/dev/stdout and a FIFO
# (tested through a link of the test's own to /proc/self/fd/1) receive the table, a symbolic link planted at the old temporary name
# (FILE.tmp.PID) is never followed, an existing file keeps its mode, and a
# directory is refused with exit 2. Every file lives in the test's own
# temporary directory, and a canary beside it must stay untouched.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' err=''
export OMP_WAIT_POLICY=passive
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT
args=(--schedules=static 2 -1 16 50 40 1 1)   # about 10 ms: one schedule, the file is what is at stake
header=$("$CLOMP" --csv=- "${args[@]}" 2>/dev/null </dev/null | head -n 1)
canary=$tmp/canary
mkdir "$canary"
echo untouched >"$canary/file"

# A character device like /dev/full (1,7), made here: the real one is never at stake.
if mknod "$tmp/full" c 1 7 2>/dev/null; then
    run_clomp --csv="$tmp/full" "${args[@]}"
    is "$rc" 3 "--csv to a full device: exit 3 (a resource failure)"
    like "$err" "could not write the csv report to '$tmp/full': No space left on device" \
        "the error names the file and the system's reason"
    [ -c "$tmp/full" ]
    ok $? "the device node is still a character device, not replaced by a regular file"
    run_clomp --json="$tmp/full" "${args[@]}"
    [ "$rc" = 3 ] && [ -c "$tmp/full" ]
    ok $? "--json to the same device: exit 3, and the node stays a device"
else
    skip "a device node as --csv (4 tests)" "mknod not permitted (not root)"
fi

# --csv=/dev/stdout, through a link of our own just like it (a clomp that
# replaced the target would replace this link, not the system's /dev/stdout):
# the table goes down the pipe, after the summary.
stdout_link=$tmp/stdout
ln -s /proc/self/fd/1 "$stdout_link"
got=$("$CLOMP" --quiet --csv="$stdout_link" "${args[@]}" </dev/null 2>"$tmp/stdout.err")
rc=$?
is "$rc:$(grep -A 100 -x "$header" <<<"$got" | grep -c '^[a-z_0-9]*,')" "0:$(grep -c . <<<"$("$CLOMP" --csv=- "${args[@]}" 2>/dev/null </dev/null)")" \
    "--csv=/dev/stdout on a pipe writes the whole table there (exit 0)"

# Redirected to a file that the same run's --csv also names (through /dev/stdout):
# appended, not renamed away from under the report.
rm -f "$stdout_link"
ln -s /proc/self/fd/1 "$stdout_link"
"$CLOMP" --csv="$stdout_link" "${args[@]}" </dev/null >"$tmp/both.out" 2>/dev/null
rc=$?
[ "$rc" = 0 ] && grep -q '^CORAL RFP' "$tmp/both.out" && grep -qx "$header" "$tmp/both.out"
ok $? "--csv=/dev/stdout redirected to a file: the report and the table both end up in it"

mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/fifo.read" &
reader=$!
run_clomp --csv="$tmp/fifo" "${args[@]}"
for _ in $(seq 20); do kill -0 "$reader" 2>/dev/null || break; sleep 0.1; done
kill "$reader" 2>/dev/null   # the FIFO was never written (replaced instead): no reader waits forever
wait "$reader"
[ "$rc" = 0 ] && [ -p "$tmp/fifo" ] && [ "$(head -n 1 "$tmp/fifo.read")" = "$header" ]
ok $? "a FIFO as --csv receives the table and stays a FIFO"

# The old temporary name, FILE.tmp.PID, planted as a link to the canary:
# bash execs clomp in the subshell, so the PID is known before it starts.
(
    ln -s "$canary/file" "$tmp/planted.csv.tmp.$BASHPID"
    ln -s "$canary/file" "$tmp/planted.json.tmp.$BASHPID"
    exec "$CLOMP" --csv="$tmp/planted.csv" --json="$tmp/planted.json" "${args[@]}" </dev/null >/dev/null 2>&1
)
rc=$?
is "$rc:$(cat "$canary/file")" "0:untouched" "a link planted at the temporary name is not followed: the canary is untouched"
[ -f "$tmp/planted.csv" ] && [ ! -L "$tmp/planted.csv" ] && [ "$(head -n 1 "$tmp/planted.csv")" = "$header" ]
ok $? "and the CSV is written where it was asked for"
is "$(find "$tmp" -name '*.tmp.*' ! -type l | wc -l | tr -d ' ')" 0 "no temporary file is left behind"

# An existing file is replaced with its own mode, not mkstemp's 0600.
echo old >"$tmp/mode.csv"
chmod 0644 "$tmp/mode.csv"
run_clomp --csv="$tmp/mode.csv" "${args[@]}"
is "$rc:$(stat -c %a "$tmp/mode.csv")" "0:644" "a replaced CSV keeps its mode (0644)"
rm -f "$tmp/new.csv"
run_clomp --csv="$tmp/new.csv" "${args[@]}"
is "$(stat -c %a "$tmp/new.csv")" "$(printf '%o' $((0666 & ~$(umask))))" "a new CSV gets 0666 less the umask"

mkdir "$tmp/dir.csv"
run_clomp --csv="$tmp/dir.csv" "${args[@]}"
like "$rc:$err" "^2:clomp: --csv: cannot open '$tmp/dir.csv': " "a directory as --csv is refused with exit 2, naming it"

is "$(find "$canary" -type f | wc -l | tr -d ' '):$(cat "$canary/file")" "1:untouched" "the canary directory holds only its own file"

done_testing
