#!/usr/bin/env bash
# run_clomp.sh: the CLOMP suite driver (after the CLOMP technical summary, 2007).
# Runs the key measurements first, then thread sweeps at every total zone size,
# and leaves <base>.env, <base>_key.full/.summary and <base>_<Z>zones.full/.summary
# in the output directory. See docs/suite.md.
set -u
if [ -z "${BASH_VERSINFO:-}" ] || [ "${BASH_VERSINFO[0]}" -lt 4 ] ||
    { [ "${BASH_VERSINFO[0]}" -eq 4 ] && [ "${BASH_VERSINFO[1]}" -lt 2 ]; }; then
    echo "run_clomp.sh: needs bash 4.2 or newer" >&2
    exit 2
fi

# The help text is its own file (suite/usage.txt): this driver stays readable top to bottom.
usage() { cat "$here/suite/usage.txt"; }

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=suite/common.sh
. "$here/suite/common.sh"
# shellcheck source=suite/slurm.sh
. "$here/suite/slurm.sh"
# --compare, --sweep, --ompt-tax and --grain: the results package's commands with clomp's arguments (python3
# for their reports: without it, one line and exit 2); --nodes: every node of a Slurm allocation, the results
# package's launcher (results/clomp_results/cluster/cluster_launch.py).
for word in "$@"; do
    case $word in
        --compare | --compare=* | --sweep | --sweep=* | --ompt-tax | --grain)
            word=${word%%=*}
            command -v python3 >/dev/null 2>&1 || die_usage "$word: needs python3 (3.8 or newer): it runs the processes and writes the report"
            exec python3 "$here/results/clomp-results" "${word#--}-driver" "$@" ;;
        --nodes | --nodes=*)
            for arg in "$@"; do case $arg in -h | --help) usage; exit 0 ;; esac; done
            command -v python3 >/dev/null 2>&1 || die_usage "--nodes: needs python3 (the nodes' summaries and the cluster report)"
            exec python3 "$here/results/clomp-results" nodes-driver "$@" ;;
    esac
done
# shellcheck source=suite/plan.sh
. "$here/suite/plan.sh"
# shellcheck source=suite/constructs.sh
. "$here/suite/constructs.sh"
# shellcheck source=suite/offload.sh
. "$here/suite/offload.sh"
# shellcheck source=suite/calibrate.sh
. "$here/suite/calibrate.sh"
# shellcheck source=suite/env_file.sh
. "$here/suite/env_file.sh"
# shellcheck source=suite/catalogue.sh
. "$here/suite/catalogue.sh"
# shellcheck source=suite/replicates.sh
. "$here/suite/replicates.sh"
# shellcheck source=suite/results.sh
. "$here/suite/results.sh"
# shellcheck source=suite/run_guard.sh
. "$here/suite/run_guard.sh"
# shellcheck source=suite/binding.sh
. "$here/suite/binding.sh"
# shellcheck source=suite/manifest.sh
. "$here/suite/manifest.sh"
orig_args=("$@")
quick=0 max_zone_scale=10000 zone_scale_factor=10 target_parts=64 target_zones=6400
out_dir=out env_preset='' launcher='' stop_on_slowdown=0 resume_id='' dry_run=0 numa=0 mpi_launcher=''
mpi_given=0
plots=auto bundle_only=0 bundle_id='' validate_path='' sign_key=''
max_zone_scale_set=0 replicates=3 constructs=1 offload=1 calibrate=auto run_timeout='' cores_given='' with_grain=auto
positional=()
# The options that take a value (OPTION VALUE; --replicates, --run-timeout and --cores also OPTION=VALUE), and
# the variable each sets; then the options that set a variable to a value.
declare -A option_value=([--max-zone-scale]=max_zone_scale [--zone-scale-factor]=zone_scale_factor
    [--target-parts]=target_parts [--target-zones]=target_zones [--out]=out_dir [--env]=env_preset
    [--launcher]=launcher [--mpi]=mpi_launcher [--resume]=resume_id [--replicates]=replicates
    [--run-timeout]=run_timeout [--cores]=cores_given [--validate]=validate_path [--sign]=sign_key)
declare -A option_sets=([--quick]=quick=1 [--stop-on-slowdown]=stop_on_slowdown=1 [--numa]=numa=1
    [--no-constructs]=constructs=0 [--no-offload]=offload=0 [--constructs=epcc4]=constructs=epcc4
    [--calibrate=auto]=calibrate=auto [--calibrate=off]=calibrate=off [--dry-run]=dry_run=1 [--plots]=plots=yes
    [--no-plots]=plots=no)

while [ $# -gt 0 ]; do
    # (a key is looked up only when it is an option's shape: an empty or odd word is no array subscript)
    if [[ $1 =~ ^--[a-z-]+$ ]] && [ -n "${option_value[$1]-}" ]; then
        [ $# -ge 2 ] || die_usage "$1: needs a value (see --help)"
        printf -v "${option_value[$1]}" '%s' "$2"
        [ "$1" != --max-zone-scale ] || max_zone_scale_set=1
        [ "$1" != --mpi ] || mpi_given=1
        shift
    elif [[ $1 =~ ^--(replicates|run-timeout|cores)= ]]; then
        printf -v "${option_value[${1%%=*}]}" '%s' "${1#*=}"
    elif [[ $1 =~ ^--[a-z-]+(=[a-z0-9]+)?$ ]] && [ -n "${option_sets[$1]-}" ]; then
        printf -v "${option_sets[$1]%%=*}" '%s' "${option_sets[$1]#*=}"
    else
        case $1 in
            --with-grain | --no-grain) [ "$with_grain" = auto ] || die_usage "--with-grain, --no-grain: one of them, once"
                with_grain=$([ "$1" = --with-grain ] && echo 1 || echo 0) ;;
            --bundle)
                bundle_only=1
                if [[ ${2-} =~ ^[0-9]+$ ]]; then bundle_id=$2; shift; fi ;;
            -h | --help) usage; exit 0 ;;
            --) shift; positional+=("$@"); break ;;
            -*) die_usage "unknown option '$1' (see --help)" ;;
            *) positional+=("$1") ;;
        esac
    fi
    shift
done
[ ${#positional[@]} -le 3 ] || die_usage "too many arguments: '${positional[3]}' (see --help)"
[ -z "$validate_path" ] || exec "$here/clomp_validate" "$validate_path"

if [ "$mpi_given" = 1 ]; then exe=${positional[0]-./clomp_mpi}; else exe=${positional[0]-./clomp}; fi
max_threads=${positional[1]-}   # default: the cores, counted once the binary is known (below)
time_scale=${positional[2]-100}
if [ "$quick" = 1 ]; then
    [ ${#positional[@]} -ge 3 ] || time_scale=1
    [ "$max_zone_scale_set" = 1 ] || max_zone_scale=100
fi

for pair in "--cores:${cores_given:-1}" "MAX_THREADS:${max_threads:-1}" "TIME_SCALE:$time_scale" "--max-zone-scale:$max_zone_scale" \
    "--zone-scale-factor:$zone_scale_factor" "--target-parts:$target_parts" "--target-zones:$target_zones"; do
    is_count "${pair#*:}" || die_usage "${pair%%:*}: '${pair#*:}' is not a whole number from 1 to 999999999"
done
parse_replicates "$replicates"
check_with_grain   # suite/suite_grain.sh
[ "$zone_scale_factor" -ge 2 ] || die_usage "--zone-scale-factor: '$zone_scale_factor' must be at least 2"
[ -z "$resume_id" ] || is_count "$resume_id" || die_usage "--resume: '$resume_id' is not a suite ID"
[ -z "$run_timeout" ] || [[ $run_timeout =~ ^[0-9]+$ ]] || die_usage "--run-timeout: '$run_timeout' is not a whole number of seconds (0: none)"
command -v flock >/dev/null 2>&1 || [ "$dry_run" = 1 ] || die_usage "flock (util-linux) is not installed: it keeps a second driver off a suite"
[ -n "$out_dir" ] || die_usage "--out: needs a directory"
# --sign KEY: the bundle signed at the end (results/clomp_results/bundle/sign.py): checked before anything runs.
[ -z "$sign_key" ] || [ -r "$sign_key" ] || die_usage "--sign: '$sign_key' is not a readable key file"
[ -z "$sign_key" ] || command -v ssh-keygen >/dev/null 2>&1 || die_usage "--sign: ssh-keygen is not installed (apt-get install openssh-client)"
if [ -n "$env_preset" ]; then   # a runtime profile's preset (env/runtimes/*.tsv, read by env/runtime.sh)
    # shellcheck source=env/runtime.sh
    . "$here/env/runtime.sh" --functions
    runtime_export_preset "$env_preset" || die_usage "--env: no preset '$env_preset' (have: $(runtime_presets))"
fi
choose_binding   # suite/binding.sh: threads bound as make run binds them, unless the environment chose
read -r -a launcher_words <<<"$launcher"
[ "$mpi_given" = 0 ] || [ -n "${mpi_launcher// /}" ] || die_usage "--mpi: needs the launcher command, e.g. \"mpirun -np 4\""

# The host name goes into file names: keep it to safe characters.
host=$(file_host_name)

[ "$bundle_only" = 0 ] || rewrite_results "$out_dir" "$bundle_id" "$host"
check_mpi_root
check_srun_launcher

[ "$plots" != yes ] || command -v gnuplot >/dev/null 2>&1 || die_usage "--plots: gnuplot is not installed (apt-get install gnuplot-nox)"

# A bare name is a file here if there is one, else a command on PATH: the
# binary checked must be the binary run.
case $exe in
    */*) ;;
    *) if [ -e "./$exe" ]; then exe=./$exe; else exe=$(command -v -- "$exe" || echo "./$exe"); fi ;;
esac
# The ./clomp or ./clomp_mpi of this tree is built when missing, except by a dry run, which builds
# nothing but accepts them as a real run would build them.
buildable=0
[[ $exe != ./clomp && $exe != ./clomp_mpi ]] || [ "$(pwd -P)" != "$(cd "$here" && pwd -P)" ] || buildable=1
if [ ! -x "$exe" ] && [ "$buildable" = 1 ] && [ "$dry_run" = 0 ]; then
    case $exe in
        ./clomp) make clomp >&2 || { echo "run_clomp.sh: could not build ./clomp" >&2; exit 2; } ;;
        *) make MPI=1 clomp_mpi >&2 || { echo "run_clomp.sh: could not build ./clomp_mpi (make MPI=1)" >&2; exit 2; } ;;
    esac
fi
[ -x "$exe" ] || { [ "$buildable" = 1 ] && [ "$dry_run" = 1 ]; } || die_usage "EXE: '$exe' is not an executable file"

# Every run writes its own CSV (--csv); a binary without it cannot be run by this driver.
# And its Caliper profile (--caliper-json), where the binary writes one (docs/harnesses.md).
exe_help=''
if [ "$dry_run" = 0 ]; then
    exe_help=$("$exe" --help 2>&1)
    [[ $exe_help == *--csv=* ]] || die_usage "EXE: $exe has no --csv option (built from older sources? rebuild with make)"
    [ "$mpi_given" = 0 ] || "$exe" --version 2>/dev/null | grep -q '^mpi: yes' ||
        die_usage "--mpi: $exe is not an MPI build (make MPI=1 builds ./clomp_mpi)"
    [ "$numa" = 0 ] || "$exe" --version 2>/dev/null | grep -q '^libnuma: yes' ||
        die_usage "--numa: $exe was built without libnuma (install libnuma-dev and rebuild)"
fi

# The cores as the binary counts them (suite/common.sh), the default MAX_THREADS.
read_topology
read_mpi_ranks
[ -n "$max_threads" ] || max_threads=$(count_cores)
cores_line="Cores: $(count_cores) ($(topology_note))"

# ---- the plan: every run, in order (suite/plan.sh) ------------------------------------
probe_offload   # suite/offload.sh: the offload runs need a binary whose device opens
build_plan
calibrate_model   # suite/calibrate.sh: the estimate's constants, from this node
estimate_plan     # suite/calibrate.sh: every run's, counting EXE's own tables
if [ "$dry_run" = 1 ]; then
    echo "$cores_line"
    echo "Parts: $parts_rule"
    echo "Model: $calibration_note"
    echo "Binding: $suite_binding"
    offload_plan_line
    print_plan
    grain_plan_line  # suite/suite_grain.sh
    auto_plan_line   # suite/replicates.sh
    exit 0
fi   # (an expansion error in a listing abandons the block above: a dry run must never go on to run)
[ "$dry_run" = 0 ] || { echo "run_clomp.sh: --dry-run: the listing failed (a fault of the driver's)" >&2; exit 3; }
[ -n "$run_timeout" ] || [ -z "$estimate_why" ] ||
    echo "run_clomp.sh: warning: no estimate ($estimate_why): runs have no default --run-timeout; a hung run waits until stopped (give --run-timeout SECONDS)" >&2

# ---- output files --------------------------------------------------------------------
find_writer   # suite/common.sh: every file below is written through it, never through a link
make_out_dir "$out_dir"   # suite/common.sh

if [ -n "$resume_id" ]; then
    id=$resume_id
    base="$out_dir/CLOMP_${host}_${id}"
    if [ ! -f "$base.env" ] || [ ! -f "$base.done" ]; then die_usage "--resume: no suite $id in $out_dir"; fi
    refuse_links "$out_dir" "CLOMP_${host}_${id}"   # suite/common.sh
    lock_suite
    check_resume_plan   # suite/manifest.sh: the plan the suite started with, as its manifest says
    auto_resume   # suite/replicates.sh: --replicates auto's decision as recorded, before the manifest is written again
    resume_grain  # suite/suite_grain.sh: the grain search as the suite started (--no-grain kept)
else
    claim_new_id "$out_dir" "$host"
    lock_suite
fi

start_epoch=$(date +%s)
run_csv="$out_dir/.CLOMP_${host}_${id}.run.csv"
if [ -z "$resume_id" ]; then
    check_preflight
    take_env_sections   # suite/env_file.sh: the machine as the suite starts, for .env and the manifest
    werr=$(write_env 2>&1 >/dev/null)   # its own tools' messages go to .env; a write error comes here
    if grep -Eq 'write error|No space left on device|^clomp-write: ' <<<"$werr"; then
        echo "Suite FAILED: cannot write $base.env: $(write_failed "$werr"); nothing was run"
        exit 3
    fi
    "$here/results/machine.sh" "${base}_machine" "$exe"
    (set -o noclobber; : >"$base.done") || { echo "run_clomp.sh: $base.done already exists" >&2; exit 2; }
    if ! werr=$(write_manifest 2>&1); then   # suite/manifest.sh: every run planned
        echo "Suite FAILED: cannot write $(manifest_path): $(write_failed "$werr"); nothing was run"
        exit 3
    fi
else
    undo_record                 # suite/run_guard.sh: a record cut short, taken back first
    note_suite_status "resumed $(date)${SLURM_JOB_ID:+ in Slurm job $SLURM_JOB_ID}" ||
        die_usage "--resume: cannot write $base.env and $base.suite.json"
    drop_incomplete_done_runs   # suite/run_guard.sh
    drop_unfinished_runs        # suite/common.sh
fi

cat <<EOF
CLOMP suite $base
       Start date: $(date)
       Executable: $exe${launcher:+ (launcher: $launcher)}${mpi_launcher:+ (MPI: $mpi_launcher)}
      Max threads: $max_threads
       Time scale: $time_scale
 Output base name: $base
     Target parts: $target_parts ($parts_rule)
            Cores: ${cores_line#Cores: }
     Target zones: $target_zones
 Max zone scaling: $max_zone_scale (factor $zone_scale_factor)
             Runs: $total_runs${resume_id:+ (resuming: $(wc -l <"$base.done") already done)}
   Thread binding: $suite_binding
EOF
offload_plan_line   # suite/offload.sh
for w in ${preflight[@]+"${preflight[@]}"}; do echo "WARNING: $w"; done
[ "$have_python" = 1 ] || no_python_notice "$base"

# ---- running ---------------------------------------------------------------------------
# The suite runs in a worker process (run_suite, below). This process, the one a user, a test
# or a batch system signals, only waits for it and relays a signal (the end of this file).
# Why: bash 5.2 runs a trap that is pending when it expands a `$( )` from inside the parser
# of that substitution, where the trap's own text then fails to parse ("trap: line 2:
# unexpected EOF while looking for matching `)'"): the signal is lost, and the shell may go
# on with the interrupted command's redirections in place. A driver that expands `$( )` all
# the time lost a SIGTERM so in 3 of 63 suites beside three busy loops (2026-11-27: it went
# on with its output gone, and exited 0; docs/suite.md); this process does nothing but
# wait, so its trap always runs. The worker ignores INT, TERM and HUP (its runs get them
# back: exec_run) and stops at its next check once the supervisor's flag is
# there (stop_asked and relay_stop, suite/run_guard.sh).
child='' watchdog=''
# The child runs in its own process group (setsid), so a launcher's wrapper
# processes are stopped with it; KILL follows if TERM is not enough. Whatever
# way the driver exits, its run goes with it (a watchdog sees to it even
# after a SIGKILL: suite/run_guard.sh).
stop_child() { [ -z "$child" ] || end_run_group "$child"; }
suite_ctl=$(mktemp -d) || stop_unrecorded "the suite's first run" "mktemp -d failed (TMPDIR full or not writable)"
stop_flag=$suite_ctl/stop

run_suite() {
own_group=()   # setsid, where there is one
command -v setsid >/dev/null 2>&1 && own_group=(setsid)

for ((i = 0; ; i++)); do
    run=$((i + 1))
    # From the end of the key runs on: --replicates auto's stage 2 adds target processes (suite/replicates.sh).
    [ "$i" -lt "$last_key_run" ] || auto_replicates_step "$i" || render --between "$base"
    manifest_plan_cached   # suite/manifest.sh: the plan's manifest entries, made again only when it changed
    [ "$i" -lt "$total_runs" ] || break
    grep -qx "$run" "$base.done" && continue
    IFS='|' read -r set_name policy args <<<"${plan[i]}"
    full="${base}_${set_name}.full" summary="${base}_${set_name}.summary"
    read -r -a a <<<"$args"
    cmd=()
    [ "$mpi_given" = 0 ] || read -r -a cmd <<<"$(mpi_launcher_for "$set_name")"
    read -r -a benv <<<"$(run_binding "$set_name")"   # suite/binding.sh
    [ ${#benv[@]} -eq 0 ] || cmd+=(env "${benv[@]}")
    cmd+=(${launcher_words[@]+"${launcher_words[@]}"} "$exe")
    [ -z "$policy" ] || cmd+=("--numa=$policy")
    read -r -a copts <<<"$(construct_options "$set_name" "${a[0]}")"   # suite/constructs.sh
    cmd+=(${copts[@]+"${copts[@]}"})
    # clomp's own CSV of the run: the source of the suite's .csv rows (the
    # .summary row comes from the JSON record). In the output directory, which a launcher's node also sees.
    # And its JSON record (docs/json-schema.md), kept beside .full: the source
    # every report of the suite reads (results/clomp_results/).
    run_json="${base}_${set_name}.run${run}.json" run_profile="${base}_${set_name}.run${run}.cali.json"
    rm -f "$run_csv" "$run_json" "$run_profile"
    cmd+=("--csv=$run_csv" "--json=$run_json")
    [[ $exe_help != *--caliper-json=* ]] || cmd+=("--caliper-json=$run_profile")   # Hatchet, Thicket
    cmd+=("${a[@]}")

    now=$(date +%s)
    elapsed=$((now - start_epoch))
    eta=$(eta_seconds "$i" "$base.done")   # the estimates left, scaled by the runs measured (suite/calibrate.sh)
    printf '[%d/%d] %s  elapsed %s  eta %s\n' "$run" "$total_runs" "${cmd[*]}" "$(mmss "$elapsed")" "$(mmss "$eta")" >&2

    # A signal that came after the previous record ends the suite here, before a run starts.
    ! stop_asked || mark_incomplete
    werr=$(write_manifest "$run" 2>&1) || stop_unrecorded "run $run ($set_name)" "$(write_failed "$werr")"   # suite/manifest.sh: running
    tmp=$suite_ctl/run   # the run's output: in the worker's private directory (no name others can plant)
    run_limit=$run_timeout
    [ -n "$run_limit" ] || run_limit=$(default_run_timeout "${estimate_of[${plan[i]}]-?}")
    run_start=$(date +%s.%N)
    # stdout and stderr apart: the last line on stderr is a failed run's reason.
    exec_run ${own_group[@]+"${own_group[@]}"} "${cmd[@]}" >"$tmp" 2>"$tmp.err" </dev/null &   # suite/run_guard.sh
    child=$!
    note_run_group "$child"
    start_watchdog "$child" "$run_limit" "$tmp.timeout"
    ! stop_asked || stop_child   # it came while the run was being started
    wait "$child"   # never cut short: the worker has no trap
    rc=$?
    stop_watchdog
    # A run ended by the signal that stops the suite (a batch system signals
    # every process) is unfinished, not failed: it runs again on --resume.
    # One the watchdog ended for its --run-timeout FAILED.
    if [ ! -s "$tmp.timeout" ] && { stop_asked || [ "$rc" -eq 129 ] || [ "$rc" -eq 130 ] || [ "$rc" -eq 143 ]; }; then
        stop_child
        wait "$child" 2>/dev/null
        child=''
        rm -f "$tmp" "$tmp.err" "$tmp.timeout" "$run_csv" "$run_json" "$run_profile"
        mark_incomplete
    fi
    stop_child   # anything the run left in its process group
    child=''
    note_run_group -
    seconds=$(awk -v a="$run_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    reason=''
    if [ "$rc" -eq 0 ] && [ ! -s "$tmp.timeout" ]; then status=OK; else status=FAILED; reason=$(failure_reason "$rc" "$tmp.err" "$tmp.timeout"); fi

    # Record the run (record_run, suite/run_guard.sh) in a subshell: like the
    # worker, it and the tools it runs ignore INT, TERM and HUP, so a record is
    # never cut; a stop asked meanwhile is seen once it is complete (below).
    ( record_run )
    recorded=$?
    [ "$recorded" = 0 ] || stop_unrecorded "run $run ($set_name)" "$(cat "$tmp.why" 2>/dev/null || echo 'write error')"
    werr=$(write_manifest 2>&1) || stop_unrecorded "run $run ($set_name)" "$(write_failed "$werr")"   # its status in the manifest
    eta_note_run "$i" "$seconds"

    if [ "$set_name" = key ] || [[ $set_name == packed* ]]; then
        echo "=== $run/$total_runs: ${cmd[*]} -> $status"
        key_report "$tmp"
        if [ "$run" = 1 ] && [ "$stop_on_slowdown" = 1 ]; then
            # Static OMP's speedup (CLOMP 1.2's: the run's Speedup line) from clomp's CSV, by column name.
            speedup=$(table_rows "$run_csv" 'col("key") == "static" { print col("runtime_speedup") }' 2>/dev/null)   # suite/common.sh
            if [ -z "$speedup" ] || awk -v s="$speedup" 'BEGIN { exit !(s < 1) }'; then
                rm -f "$tmp" "$run_csv"
                note_suite_status "stopped: target input Static OMP speedup '${speedup:-none}' < 1" stopped
                # The advice is its own file (suite/slowdown.txt), like the help text.
                advice=$(<"$here/suite/slowdown.txt")
                printf '%s\n' "${advice//@SPEEDUP@/${speedup:-unknown}}" >&2
                exit 4
            fi
        fi
    fi
    rm -f "$tmp" "$tmp.err" "$tmp.timeout" "$run_csv"
    ! stop_asked || mark_incomplete
done

stop_asked || run_suite_grain   # suite/suite_grain.sh: the coarse grain search, after the runs
replicates_files=''
[ ! -f "${base}_key.processes.csv" ] || replicates_files=" ${base}_key.processes.csv ${base}_key.processes.txt"
failures=$(first_failure)   # suite/run_guard.sh
if ! werr=$(note_suite_status "complete $(date)${failures:+: $failures}" "$([ -z "$failures" ] && echo complete || echo failed)" 2>&1); then
    stop_unrecorded "the suite's end (every run is recorded)" "$(write_failed "$werr")"
fi
files="Files: $base.env ${base}_key.full ${base}_key.summary${replicates_files} ${base}_<Z>zones.* $base.csv"
[ ! -f "$base.constructs.csv" ] || files="$files ${base}_constructs*.* $base.constructs.csv"
[ ! -f "$base.target_constructs.csv" ] || files="$files ${base}_offload*.* $base.target_constructs.csv"
if [ -z "$failures" ]; then echo "Suite complete: $total_runs runs. $files"; else echo "Suite ended. $files"; fi
if [ "$have_python" = 0 ]; then
    no_python_notice "$base"   # a choice of this node, not a failure: the runs are complete
elif made=$(write_results "$base"); then
    echo "Report: $(grep '\.html$' <<<"$made")"
    echo "Submission bundle: $(grep '\.tar\.gz$' <<<"$made") (check it with ./clomp_validate)"
    [ -z "$sign_key" ] || echo "Signature: $(grep '\.sig$' <<<"$made") (./clomp_validate --signers ALLOWED_SIGNERS checks it)"
else
    echo "run_clomp.sh: the HTML report or the bundle could not be written (the results are complete)" >&2
    # The last line says so too: every run is recorded, the report is not.
    [ -n "$failures" ] || { echo "Report and bundle NOT written (every run is recorded; see above): make them with --bundle $id"; exit 3; }
fi
# Never "complete" with failed runs: the last line says so, and the status is 1.
[ -z "$failures" ] || { echo "Suite FAILED: $failures"; exit 1; }
}

# ---- the supervisor: waits for the worker, relays a signal, exits with the worker's status
trap relay_stop INT TERM HUP
trap 'release_suite; rm -rf -- "$suite_ctl"' EXIT
(
    trap '' INT TERM HUP
    # The supervisor's leftovers too when it is gone (a SIGKILL): its EXIT trap never ran.
    trap 'stop_child; stop_watchdog; kill -0 "$$" 2>/dev/null || { release_suite; rm -rf -- "$suite_ctl"; }' EXIT
    run_suite
) 0<&0 &
worker=$!
# A trapped signal ends `wait` early: wait again while the worker lives; then its status.
while kill -0 "$worker" 2>/dev/null; do wait "$worker"; done
wait "$worker"
exit $?
