#!/usr/bin/env bash
# run_clomp.sh --compare, --sweep, --ompt-tax and --grain as the results package runs them: without python3
# each is refused in one line, exit 2, nothing written; under TERM, HUP and INT
# (results/clomp_results/core/driver_guard.py) a signal to the driver while a process runs stops that
# process (it gets the same signal), leaves neither that process's half-written record nor a report
# nor the driver's temporary directory, and the driver dies of the signal (status 128 + N to its
# caller). A stand-in clomp writes half a record, says it started, and waits until a signal comes.
# No timing is asserted (the waits are bounds).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3 (the drivers need it)"; exit 0; }
# shellcheck source-path=SCRIPTDIR source=lib/driver.sh
. "$(dirname "$0")/lib/driver.sh"   # top, driver, host, root

# The shell's rules kept in Python, against the shell itself as the oracle: CLOMP_COMPARE_SEED orders
# the pairs as bash's $RANDOM did (seeds 0 to 40 and two large ones, 50 draws each), and --sweep's
# default input has suite/common.sh's team_shape at 1 to 300 threads.
seeds=$(seq 0 40; echo 4294967295 123459876)
# shellcheck disable=SC2034  # RANDOM is bash's generator, seeded
bash_draws=$(for seed in $seeds; do RANDOM=$seed; for ((i = 0; i < 50; i++)); do printf '%s ' "$RANDOM"; done; echo; done)
# shellcheck disable=SC2086  # the seeds, one word each
python_draws=$(cd "$top/results" && python3 - $seeds <<'PY'
import sys
from clomp_results.compare.compare_driver import BashRandom
for seed in sys.argv[1:]:
    r = BashRandom(seed)
    print("".join("%d " % r.next() for _ in range(50)))
PY
)
is "$python_draws" "$bash_draws" "a seed draws the same numbers as bash's \$RANDOM did (43 seeds, 50 draws each)"
bash_shapes=$(cd "$top" && for ((t = 1; t <= 300; t++)); do bash -c '. suite/common.sh && team_shape "$1" 6400 64' _ "$t" 2>&1; done)
python_shapes=$(cd "$top/results" && python3 -c '
from clomp_results.core.driver_files import team_shape
for t in range(1, 301):
    print(*team_shape(t, 6400, 64))' 2>&1)
is "$python_shapes" "$bash_shapes" "--sweep's default input: the shape suite/common.sh's team_shape gives, 1 to 300 threads"
# --grain's shell rules: the cost model's constants as sourcing suite/calibrate.sh sets them, and the
# thread binding (suite/binding.sh's choose_binding, its construct-run tail aside) in five environments.
bash_model=$(cd "$top" && bash -c '. suite/calibrate.sh && for n in ZONE_NS_CACHED ZONE_NS_MEMORY MEMORY_SPEEDUP REGION_US PROBE_US BUILD_NS_PER_BYTE SETUP_NS_PER_BYTE PROCESS_SECONDS; do printf "%s=%s\n" "$n" "${!n}"; done')
python_model=$(cd "$top/results" && python3 -c '
from clomp_results.grain.grain_driver import model_constants
for k, v in model_constants().items():
    print("%s=%s" % (k, v))')
numbers() { awk -F= '{ printf "%s=%s\n", $1, $2 + 0 }'; }   # 1.0 and 1 alike
is "$(numbers <<<"$python_model")" "$(numbers <<<"$bash_model")" "--grain's model constants are suite/calibrate.sh's"
binding_envs=("" "OMP_PROC_BIND=spread" "OMP_PLACES=threads OMP_PROC_BIND=false" "GOMP_CPU_AFFINITY=0-1" "KMP_AFFINITY=compact OMP_PLACES=cores")
bash_bindings='' python_bindings=''
# shellcheck disable=SC2016  # the inner shell's own variables
for envs in "${binding_envs[@]}"; do
    read -r -a assigns <<<"$envs"
    bash_bindings+=$(cd "$top" && env -u OMP_PROC_BIND -u OMP_PLACES -u GOMP_CPU_AFFINITY -u KMP_AFFINITY ${assigns[@]+"${assigns[@]}"} \
        bash -c '. suite/binding.sh && choose_binding && echo "${suite_binding%%; the construct runs*}|$OMP_PROC_BIND|${OMP_PLACES-}"')$'\n'
    python_bindings+=$(cd "$top/results" && env -u OMP_PROC_BIND -u OMP_PLACES -u GOMP_CPU_AFFINITY -u KMP_AFFINITY ${assigns[@]+"${assigns[@]}"} \
        python3 -c 'import os
from clomp_results.grain.grain_driver import choose_binding
print("%s|%s|%s" % (choose_binding(), os.environ.get("OMP_PROC_BIND", ""), os.environ.get("OMP_PLACES", "")))')$'\n'
done
limited=$(cd "$top/results" && python3 -c '
from clomp_results.core.driver_guard import Guard
guard = Guard()
print(guard.run(["sleep", "30"], None, limit=0.3))
guard.close()')
is "$limited" 124 "a process past its time limit (--grain's, ten times its estimate) gets SIGTERM and exit status 124, as timeout(1) gave"
is "$python_bindings" "$bash_bindings" "--grain's thread binding and its line are suite/binding.sh's (${#binding_envs[@]} environments)"

# A PATH without python3: the few commands run_clomp.sh needs before it hands the command line on.
mkdir "$root/no-python"
for tool in bash dirname env cat sed; do ln -s "$(command -v "$tool")" "$root/no-python/$tool"; done
for command in "--compare ./a,./b" "--sweep=wait" "--ompt-tax" "--grain"; do
    read -r -a words <<<"$command"
    PATH=$root/no-python "$driver" "${words[@]}" --out "$bad_dir" </dev/null >"$root/nopy.out" 2>"$root/nopy.err"
    rc=$?
    is "$rc:$(wc -l <"$root/nopy.err"):$(wc -c <"$root/nopy.out"):$([ -e "$bad_dir" ] && echo written)" "2:1:0:" \
        "${words[0]%%=*} without python3: exit 2, one line, nothing written"
    like "$(cat "$root/nopy.err")" "^run_clomp.sh: ${words[0]%%=*}: needs python3 \(3.8 or newer\)" "and the line says python3 is needed"
done

# A side whose runtime is unpacked privately (make runtimes) and is not there: refused in one line
# before anything is built, naming make runtimes, never run on the installed release of the same
# soname (a scratch profile, so that no machine has its library).
cp -R "$top/env/runtimes" "$root/runtimes"
printf 'runtime\tlibomp99\ninherits\tlibomp\ndescribes\tLLVM libomp 99\nlibrary\tbuild/runtimes/libomp99/libomp.so.5\nunpack\tlibomp5-99\nside\tlibomp99\tlibrary\n' \
    >"$root/runtimes/libomp99.tsv"
CLOMP_RUNTIME_DIR=$root/runtimes refuse "a side whose private library is not unpacked" \
    "--compare: side A: libomp99: its library \(build/runtimes/libomp99/libomp.so.5\) is not unpacked: make runtimes" \
    --compare libomp99,"$CLOMP" --quick

fake=$root/fakeclomp
cat >"$fake" <<'FAKE'
#!/usr/bin/env bash
case " $* " in *" --dry-run "*) exit 0 ;; esac
json=$(printf '%s\n' "$@" | sed -n 's/^--json=//p')
printf '{"schema": "clomp-result", ' >"$json"   # half a record, as a process stopped midway leaves it
for sig in TERM HUP INT; do
    # shellcheck disable=SC2064  # the signal's name is fixed now
    trap "echo got $sig >>'$FAKE_LOG'; kill \$! 2>/dev/null; exit 99" "$sig"
done
echo started >>"$FAKE_LOG"
sleep 60 &
wait $!
echo "not stopped" >>"$FAKE_LOG"
FAKE
chmod +x "$fake"

# until_started: waits (at most 20 s) for the stand-in's "started".
until_started() {
    local i
    for ((i = 0; i < 200; i++)); do
        grep -q started "$FAKE_LOG" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# stop_driver SIGNAL ARGS...: run_clomp.sh ARGS in the background (INT restored to its default: a
# background job starts with it ignored), SIGNAL sent to it once its first process runs; sets rc.
stop_driver() {
    local sig=$1 pid
    shift
    python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
        "$driver" "$@" </dev/null >"$root/stop.out" 2>"$root/stop.err" &
    pid=$!
    until_started || diag "the stand-in never started: $(cat "$root/stop.err")"
    kill -s "$sig" "$pid"
    { wait "$pid"; } 2>/dev/null   # without the shell's note of how the job ended
    rc=$?
}

export FAKE_LOG
for sig in TERM HUP INT; do
    FAKE_LOG=$root/$sig.log
    export TMPDIR=$root/tmp-$sig
    mkdir -p "$TMPDIR"
    out_dir=$root/compare-$sig
    stop_driver "$sig" --compare "$fake","$fake" --replicates 6 --out "$out_dir" 2 1 16 100 32 1 1
    number=$(kill -l "$sig")
    is "$rc" "$((128 + number))" "--compare: SIG$sig to the driver: it dies of SIG$sig (status $((128 + number)))"
    is "$(tr '\n' ';' <"$FAKE_LOG")" "started;got $sig;" "the running process got SIG$sig and ended"
    stem=$out_dir/CLOMP_${host}_1_compare
    ok "$( [ ! -e "${stem}_A1.json" ] && [ ! -e "${stem}_B1.json" ] && [ ! -e "$stem.txt" ] && [ ! -e "$stem.json" ]; echo $?)" \
        "neither the stopped process's half record nor a report is left"
    is "$(find "$TMPDIR" -mindepth 1 | wc -l)" 0 "the driver's temporary directory is gone"
done

FAKE_LOG=$root/sweep.log
export TMPDIR=$root/tmp-sweep
mkdir -p "$TMPDIR"
stop_driver TERM --sweep FAKE_A=1,2 --side "$fake" --replicates 2 --no-plots --out "$root/sweep" 2 1 16 100 32 1 1
is "$rc" 143 "--sweep: SIGTERM to the driver: it dies of SIGTERM (143)"
stem=$root/sweep/CLOMP_${host}_1_sweep
ok "$(grep -q '^got TERM$' "$FAKE_LOG" && [ ! -e "${stem}_c1r1.json" ] && [ ! -e "$stem.txt" ] &&
    [ "$(find "$TMPDIR" -mindepth 1 | wc -l)" -eq 0 ]; echo $?)" \
    "its running process got SIGTERM; no half record, no report, no temporary directory is left"

# --grain: TERM while a stage's first process runs. That process's record, .full section and .runs line
# are all absent (the stage's lines are written only once its process has ended), and no report is made.
FAKE_LOG=$root/grain.log
export TMPDIR=$root/tmp-grain
mkdir -p "$TMPDIR"
stop_driver TERM --grain --teams 2 --replicates 4 --out "$root/grain" "$fake"
is "$rc" 143 "--grain: SIGTERM to the driver: it dies of SIGTERM (143)"
is "$(tr '\n' ';' <"$FAKE_LOG")" "started;got TERM;" "the running clomp got SIGTERM and ended"
stem=$root/grain/CLOMP_${host}_1_grain
ok "$( [ -s "$stem.plan" ] && [ -z "$(find "$root/grain" -name '*_grain_t*.json')" ] && [ ! -s "$stem.runs" ] &&
    ! grep -qs '^=== process' "$stem.full" && [ ! -e "$stem.txt" ] && [ ! -e "$stem.json" ]; echo $?)" \
    "its plan stays; no half record, no .full section or .runs line of the stopped process, no report"
is "$(find "$TMPDIR" -mindepth 1 | wc -l)" 0 "the driver's temporary directory is gone"

done_testing
