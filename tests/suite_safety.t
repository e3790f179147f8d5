#!/usr/bin/env bash
# The suite driver cannot lie about its runs: a hung run ends at its
# --run-timeout as FAILED with that reason; a second driver on the same
# suite ID exits 2 naming the holder; after a SIGKILL of the driver its run
# is ended for it, and --resume refuses while that run still goes, then
# reruns it; a disk that fills mid-suite stops it with "No space left on
# device" as the last line's reason (never an output line that happens to
# contain "Error"), every run marked done complete, and --resume after
# freeing space finishes it with the files' modes kept; a run marked done
# with incomplete files runs again on --resume; the runs' .summary rows are
# rendered after each run, no Python process living beside the runs. Stand-in executables
# (below); each suite is the quick plan of one zone size at MAX_THREADS 2 (4 runs); the full
# lane's two the 8 of two sizes, as before (the full disk's 160 kB fill before its last run; the
# killed driver's --resume, refused within its run's 4 s of TERM, was refused 1 time in 4 with 4
# runs at load 25-30, 2 in 2 with 8: not understood, 2026-11-29).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
top=$(cd "$(dirname "$0")/.." && pwd)
driver=$top/run_clomp.sh
quick=(--quick --max-zone-scale 1 --replicates 1 --no-constructs --no-plots --calibrate=off)   # calibration would run the stand-in
total=4
eight=(--quick --max-zone-scale 10 --replicates 1 --no-constructs --no-plots --calibrate=off)   # the full lane's suites
host=$(uname -n)
host=${host%%.*}

root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
bg_pids=() mounted=''
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
    local p
    for p in ${bg_pids[@]+"${bg_pids[@]}"}; do kill -KILL "$p" 2>/dev/null; done
    for p in "$root"/*.pid; do [ ! -s "$p" ] || kill -KILL -- "-$(head -n 1 "$p")" "$(head -n 1 "$p")" 2>/dev/null; done
    [ -z "$mounted" ] || umount "$mounted" 2>/dev/null || umount -l "$mounted" 2>/dev/null
    rm -rf "$root"
}
trap cleanup EXIT

drive() {
    "$driver" "$@" </dev/null >"$root/drive.out" 2>"$root/drive.err"
    rc=$?
    out=$(cat "$root/drive.out")
    err=$(cat "$root/drive.err")
}

# shellcheck disable=SC2317  # called through wait_for
gone() { ! kill -0 "$1" 2>/dev/null; }

# wait_for COMMAND...: up to 30 s until COMMAND succeeds.
wait_for() {
    local n
    for ((n = 0; n < 300; n++)); do
        "$@" && return 0
        sleep 0.1
    done
    return 1
}

# A stand-in for clomp (the figures of tests/suite.t's). Its first run (when
# FAKE_HANG_FILE does not exist yet: it creates it) writes its PID there and
# sleeps FAKE_HANG seconds; with FAKE_TERM_LINGER it answers a TERM by going
# on for that many seconds more (a run slow to stop), writing "TERM" to the
# file. It prints FAKE_FILLER filler lines and an ordinary line containing
# "Error"; its CSV write failing is clomp's one-line error and exit 3.
fake=$root/fakeclomp
cat >"$fake" <<'FAKE'
#!/usr/bin/env bash
case ${1-} in
    --version) echo "fake clomp 0.0 (a test stand-in)"; exit 0 ;;
    --help) echo "  --csv=FILE  (a test stand-in)"; exit 0 ;;
esac
csv=''
for a in "$@"; do case $a in --csv=*) csv=${a#--csv=} ;; esac; done
if [ -n "${FAKE_HANG_FILE-}" ] && (set -o noclobber; echo "$$" >"$FAKE_HANG_FILE") 2>/dev/null; then
    [ -z "${FAKE_TERM_LINGER-}" ] || trap 'echo TERM >>"$FAKE_HANG_FILE"; sleep "$FAKE_TERM_LINGER"; exit 143' TERM
    sleep "${FAKE_HANG:-600}" &
    wait $!
fi
# With FAKE_DAEMON_FILE, the first run leaves a process outside its process group
# (as a launcher's daemon may), holding what the run inherited; its PID in that file.
if [ -n "${FAKE_DAEMON_FILE-}" ] && [ ! -e "$FAKE_DAEMON_FILE" ]; then
    setsid sleep 120 </dev/null >/dev/null 2>&1 &
    echo "$!" >"$FAKE_DAEMON_FILE"
fi
echo "fake clomp $*"
[ -z "${FAKE_FILLER-}" ] || yes 'filler output line' | head -n "$FAKE_FILLER"
echo "      Max Error bound: 3.2e-07"
echo "----------- Comma-delimited summary ----------"
echo "fake $*, calc_deposit, OMP Barrier, Serial Ref, Bestcase OMP, Static OMP, Dynamic OMP, Manual OMP, Nested OMP"
[ -z "$csv" ] && exit 0
[ -z "${FAKE_CSV_FILLER-}" ] || trap 'yes "filler,filler row,,,," | head -n "$FAKE_CSV_FILLER" >>"$csv"' EXIT
cat >"$csv" <<CSV || { echo "clomp: could not write the csv report to '$csv': No space left on device" >&2; exit 3; }
key,name,runtime_us_per_loop,runtime_speedup,runtime_efficacy_percent,runtime_overhead_us
calc_deposit,calc_deposit,0.00,N/A,N/A,N/A
barrier,OMP Barrier,6.98,N/A,N/A,N/A
serial,Serial Ref,11.79,1.0,N/A,N/A
bestcase,Bestcase OMP,5.92,1.9,100.0,0.00
static,Static OMP,21.57,1.9,27.4,15.66
dynamic,Dynamic OMP,13.55,0.4,43.7,7.63
manual,Manual OMP,22.46,0.6,26.3,16.55
nested,Nested OMP,24.05,0.5,24.6,18.13
CSV
FAKE
# The suite's estimate counts the measurements and constructs in the executable's own tables, and
# its cores are the executable's count (--topology, issue 47): the stand-in answers with the real
# clomp's, so that its first run is the suite's first run.
sed -i "1a [[ \${1-} != --list-* && \${1-} != --topology ]] || exec \"$CLOMP\" \"\$@\"" "$fake"
chmod +x "$fake"

# complete_runs BASE: "ok" when every run in BASE.done has its .full end line and .summary row, else the first that lacks one.
complete_runs() {
    local run set
    while read -r run; do
        set=$(awk -F, -v r="$run" '$1 == r { print $2 }' "$1"_*.summary | head -n 1)
        if [ -z "$set" ] || ! grep -q "^=== end of run $run: exit status " "$1_$set.full"; then
            echo "run $run incomplete"
            return
        fi
    done <"$1.done"
    echo ok
}

# rows_of_run CSV RUN: how many rows of CSV are run RUN's (its first column, the driver's).
rows_of_run() { awk -F, -v r="$2" 'FNR > 1 && $1 == r' "$1" | grep -c .; }

# ---- a hung run ends at --run-timeout, FAILED with that reason --------------------------
# (The same suite shows where its .summary rows are made: below, "rendered after each run".)
hung=$root/hung
FAKE_HANG_FILE=$root/hung.pid FAKE_HANG=600 FAKE_DAEMON_FILE=$root/hung.daemon "$driver" "${quick[@]}" --run-timeout 2 \
    --out "$hung" "$fake" 2 </dev/null >"$root/drive.out" 2>"$root/drive.err" &
suite_pid=$!
bg_pids+=("$suite_pid")
wait_for test -s "$root/hung.pid"   # run 1 under way (it hangs)
renders_during=$(pgrep -f -- "clomp-results .*$hung" | grep -c .)
wait "$suite_pid"
rc=$?
bg_pids=()
out=$(cat "$root/drive.out")
err=$(cat "$root/drive.err")
hb=$hung/CLOMP_${host}_1
renders_rows=$(awk -F, 'FNR > 1 { n[$1]++ } END { for (r in n) if (n[r] == 1) ok++; print ok + 0 }' "$hb"_*.summary 2>/dev/null)
renders_complete=$(complete_runs "$hb")
# shellcheck disable=SC2317  # called through wait_for
renders_gone() { ! pgrep -f -- "clomp-results .*$hung" >/dev/null; }
wait_for renders_gone
renders_left=$?
daemon_left=$(kill -0 "$(cat "$root/hung.daemon" 2>/dev/null)" 2>/dev/null && echo yes || echo no)
# The daemon holds the suite's lock (inherited): it goes before the --resume below.
kill "$(cat "$root/hung.daemon" 2>/dev/null)" 2>/dev/null
is "$rc" 1 "a run that hangs: the suite goes on and ends with exit 1"
is "$(tail -n 1 <<<"$out")" "Suite FAILED: 1 of $total runs FAILED; first: run 1 (key, exit status 143): no result after 2 s: ended by --run-timeout 2" \
    "the last line names the hung run and its timeout"
pid=$(head -n 1 "$root/hung.pid" 2>/dev/null)
[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null
ok $? "the hung process is gone"
is "$(wc -l <"$hung/CLOMP_${host}_1.done" | tr -d ' ')" "$total" "every run is recorded"

# ---- a run marked done whose files are incomplete runs again on --resume -----------------
# (a suite of a driver from before the record journal, on a full disk): the
# driver's record of the run (its <base>.runs.csv line) is missing.
last_set=$(awk -F, -v r="$total" '$1 == r { print $2 }' "$hb"_*.summary)
sed -i "/^$total,/d" "$hb.runs.csv"
chmod 0640 "$hb.runs.csv" "${hb}_${last_set}.summary"
FAKE_HANG_FILE=$root/hung.pid drive "${quick[@]}" --run-timeout 2 --resume 1 --out "$hung" "$fake" 2
like "$err" "run\\(s\\) $total marked done but with incomplete files: running them again" "--resume finds the run marked done without its line in .runs.csv"
is "$(complete_runs "$hb"):$(rows_of_run "$hb.runs.csv" "$total"):$(rows_of_run "${hb}_${last_set}.summary" "$total")" "ok:1:1" \
    "and runs it again: every run complete, that one with one line in .runs.csv and one .summary row"
is "$(stat -c %a "$hb.runs.csv"):$(stat -c %a "${hb}_${last_set}.summary")" 640:640 "the rewritten tables keep their modes"
is "$(tail -n 1 <<<"$out")" "Suite FAILED: 1 of $total runs FAILED; first: run 1 (key, exit status 143): no result after 2 s: ended by --run-timeout 2" \
    "the failed run's recorded reason survives the resume"

# ---- a driver killed while it records a run: --resume takes the half record back --------
# SIGKILL of the driver's whole process group (the recorder with it, as a
# power loss would) once the run's .full section is written, while its
# 300,000 extra CSV rows are being copied into <base>.csv: no done mark, a
# half record. --resume puts every file back as it was before the run (the
# record journal), then runs it again: one .full section, one line and row.
cut=$root/cut
cb=$cut/CLOMP_${host}_1
FAKE_CSV_FILLER=300000 setsid "$driver" "${quick[@]}" --out "$cut" "$fake" 2 </dev/null >"$root/cut.out" 2>&1 &
victim=$!
bg_pids+=("$victim")
wait_for grep -qs '^=== end of run 1:' "${cb}_key.full"
kill -KILL -- "-$victim"
wait "$victim" 2>/dev/null
bg_pids=()
if grep -qx 1 "$cb.done"; then cut_state="after the record (run 1 done)"; else cut_state="inside the record (run 1 not done)"; fi
note "the driver was killed $cut_state; record journal there: $(find "$cut" -maxdepth 1 -name '*.recording' | grep -c .)"
drive "${quick[@]}" --resume 1 --out "$cut" "$fake" 2
is "$rc:$(grep -c "^Suite complete: $total runs" <<<"$out")" "0:1" "--resume after a driver killed inside a record completes the suite"
is "$(grep -c '^=== run 1/' "${cb}_key.full"):$(rows_of_run "$cb.runs.csv" 1):$(rows_of_run "${cb}_key.summary" 1):$(awk -F, '$1 == 1' "$cb.csv" | grep -vc filler)" \
    "1:1:1:8" "the run cut in its record appears once: one .full section, one .runs.csv line, one .summary row, its 8 CSV rows"
is "$(complete_runs "$cb")" ok "every run complete"
is "$(find "$cut" -maxdepth 1 -name '*.recording*' | grep -c .)" 0 "no record journal is left"
# --bundle re-renders the tables that a pending record's undo would cut back: refused while a journal is there.
touch "$cut/.CLOMP_${host}_1.recording"
drive --bundle 1 --out "$cut"
is "$rc:$(grep -c 'was cut while it was recorded: finish the suite with --resume first' <<<"$err")" "2:1" \
    "--bundle refuses a suite with a run cut while it was recorded (exit 2, one line)"
rm -f "$cut/.CLOMP_${host}_1.recording"

# ---- a second driver on the same suite ID exits 2, naming the holder ---------------------
two=$root/two
FAKE_HANG_FILE=$root/two.pid FAKE_HANG=600 "$driver" "${quick[@]}" --out "$two" "$fake" 2 </dev/null >"$root/two.out" 2>&1 &
first=$!
bg_pids+=("$first")
wait_for test -s "$root/two.pid"
drive "${quick[@]}" --resume 1 --out "$two" "$fake" 2
is "$rc" 2 "--resume of a suite another driver is running: exit 2"
like "$err" "suite 1 is in use by run_clomp.sh \\(pid $first on $(uname -n) since [0-9T:Z-]+\\); one driver at a time" \
    "and it names the holder's pid and host"
is "$(wc -l <"$two/CLOMP_${host}_1.done" | tr -d ' ')" 0 "and runs nothing"
term_at=$(now)
kill -TERM "$first"
wait "$first"
is "$?" 130 "the first driver, interrupted, ends as before (exit 130)"
# Its run hangs for 600 s: only the supervisor's relay ends it (else the worker waits for the
# run, until --run-timeout's default of 300 s); 60 s is a margin for a loaded machine.
took=$(awk -v a="$term_at" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
ok "$(awk -v t="$took" 'BEGIN { exit !(t < 60) }'; echo $?)" "and it ends the hung run at once, not at its timeout ($took s after the TERM)"

# ---- the .summary rows: rendered after each run, no Python process beside the runs -------------
# Each run's record ends with `clomp-results render --progress` (its set's .summary gains its row);
# nothing of the results package lives through a run: while run 1 of the hung run's suite (the
# first section's) hangs, none runs for that suite, and that suite, whose run 2 left a daemon
# behind, ended (its run 1 FAILED) with every run's row, once (read before the --resume above).
if command -v python3 >/dev/null 2>&1 && command -v pgrep >/dev/null 2>&1; then
    is "$renders_during:$renders_complete:$renders_rows" "0:ok:$total" \
        "no results-package process runs beside a run; the suite ends and every run has its .summary row, once"
    ok "$renders_left" "a suite whose run left a daemon behind (still there: $daemon_left) leaves no results-package process after it ends"
else
    skip "no results-package process runs beside a run; every run has its .summary row, once" "no python3 or pgrep"
    skip "a suite whose run left a daemon behind leaves no results-package process" "no python3 or pgrep"
fi

# ---- SIGKILL of the driver: its run is ended for it; --resume waits for it ---------------
if skip_unless_full_lane "SIGKILL of the driver, then --resume (5 tests)"; then
    quick=("${eight[@]}") total=8
    killed=$root/killed
    FAKE_HANG_FILE=$root/killed.pid FAKE_HANG=600 FAKE_TERM_LINGER=4 setsid "$driver" "${quick[@]}" --out "$killed" "$fake" 2 \
        </dev/null >"$root/killed.out" 2>&1 &
    victim=$!
    bg_pids+=("$victim")
    wait_for test -s "$root/killed.pid"
    run_pid=$(head -n 1 "$root/killed.pid")
    kill -KILL "$victim"
    wait "$victim" 2>/dev/null
    drive "${quick[@]}" --resume 1 --out "$killed" "$fake" 2
    like "$rc:$err" "^2:run_clomp.sh: suite 1: .*(still runs|in use)" "--resume while the dead driver's run still goes: exit 2"
    note "resume while the run goes: exit $rc: $err"
    wait_for gone "$run_pid"
    ok $? "the run ends without the driver (it was sent TERM)"
    grep -qx TERM "$root/killed.pid"
    ok $? "by a TERM from the driver's watchdog"
    drive "${quick[@]}" --resume 1 --out "$killed" "$fake" 2
    is "$rc:$(grep -c "^Suite complete: $total runs" <<<"$out")" "0:1" "then --resume reruns the interrupted run and completes the suite"
    is "$(awk -F, 'FNR > 1 { n[$1]++ } END { for (r in n) if (n[r] != 1) bad++; print bad + 0 }' "$killed/CLOMP_${host}_1"_*.summary)" 0 \
        "every run has exactly one row"
fi

# ---- a disk that fills mid-suite -----------------------------------------------------------
if skip_unless_full_lane "a disk that fills mid-suite (7 tests)"; then
    full=$root/full
    mkdir "$full"
    if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=160k tmpfs "$full" 2>/dev/null; then
        mounted=$full
        quick=("${eight[@]}") total=8
        FAKE_FILLER=1500 drive "${quick[@]}" --out "$full" "$fake" 2
        b=$full/CLOMP_${host}_1
        last=$(tail -n 1 <<<"$out")
        note "disk full: exit $rc, last line: $last"
        like "$rc:$last" "^[13]:Suite FAILED: .*No space left on device" "the suite ends FAILED, its last line saying 'No space left on device'"
        [[ $last != *"Error bound"* ]]
        ok $? "not an output line that happens to contain 'Error'"
        done_before=$(wc -l <"$b.done" | tr -d ' ')
        ok "$([ "$done_before" -lt "$total" ] && echo 0 || echo 1)" "not every run is marked done ($done_before of $total)"
        is "$(complete_runs "$b")" ok "every run marked done has complete files"
        chmod 0644 "$b"_key.summary
        mount -o remount,size=4m "$full"
        drive "${quick[@]}" --resume 1 --out "$full" "$fake" 2
        is "$rc:$(grep -c "^Suite complete: $total runs" <<<"$out")" "0:1" "after freeing space, --resume completes the suite"
        note "resume after freeing: exit $rc: $(tail -n 3 <<<"$out$err")"
        is "$(complete_runs "$b"):$(wc -l <"$b.done" | tr -d ' ')" "ok:$total" "with every run complete"
        is "$(stat -c %a "$b"_key.summary)" 644 "and the files' modes kept (not 0600)"
        umount "$full" && mounted=''
    else
        skip "a disk that fills mid-suite (7 tests)" "mounting a tmpfs is not permitted here (needs root)"
    fi
fi

done_testing
