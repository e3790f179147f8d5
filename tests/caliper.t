#!/usr/bin/env bash
# clomp --caliper-json (issue 49, item 1): the Caliper json-split profile of
# a run, against the same process's JSON record (tests/python/test_profiles.py:
# the tree, every figure by what it means, the metadata, and the validator's
# check naming each forgery); the option's contract (standard output, one
# stream only, no empty name, nothing half-written on a failure); the suite
# writes one beside each record. Reading profiles with Hatchet itself is the
# full lane's (tests/hatchet.t).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT
# 1000 zones a part: clomp runs a fixed number of zone updates, so 10 would run a
# hundred times the parallel regions (4 s of system time on 2 cores) for the same profile.
input=(2 1 4 1000 32 1 1)
small=("--schedules=bestcase,static,barrier" "--constructs=barrier,static_n" "--construct-chunks=1,8" --construct-reps=3
    --construct-time=50 --construct-loop-delay=0.2 --limits --limits-reps=3 --limits-time=50 --limits-trips=64)
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

# ------------------------------------------------------------ the option
run_clomp --caliper-json= "${input[@]}"
ok "$([ "$rc" = 2 ] && [ "$(line_count "$err")" = 1 ] && [[ $err == *--caliper-json* ]]; echo $?)" \
    "--caliper-json= (no name): exit 2, one line naming the option (got $rc: $err)"
run_clomp --json=- --caliper-json=- "${input[@]}"
ok "$([ "$rc" = 2 ] && [[ $err == *"--json=- and --caliper-json=- cannot both use standard output"* ]]; echo $?)" \
    "--json=- with --caliper-json=-: refused, naming both (got $rc: $err)"
mkdir "$tmp/dir"
run_clomp --caliper-json="$tmp/dir" "${input[@]}"
ok "$([ "$rc" = 2 ] && [[ $err == "clomp: --caliper-json: cannot open '$tmp/dir': Is a directory" ]]; echo $?)" \
    "--caliper-json to a directory: exit 2 before anything runs, naming the option (the --json and --csv files' rules: tests/own_files.t)"
run_clomp --help
like "$out" '--caliper-json=FILE' "--help names --caliper-json=FILE"
run_clomp --version
like "$out" $'\ncommit: ([0-9a-f]{12}(-dirty)?|unknown)(\n|$)' "--version names the commit it was built from"

# --dry-run measures nothing: the profile on standard output is the tree of what would run, every figure null.
run_clomp --dry-run --caliper-json=- "${input[@]}"
dry=$(python3 -c '
import json, sys
p = json.loads(sys.stdin.read())
cells = [c for row in p["data"] for c in row[1:]]
print(p["nodes"][0]["label"], len(p["nodes"]), all(c is None for c in cells), p["status"])' <<<"$out" 2>&1)
like "$dry" '^clomp [0-9]+ True ok$' "--dry-run --caliper-json=-: the profile on stdout, the tree with no figure ($dry)"
like "$err" 'CORAL Benchmark Version 1.2' "... and the text report on stderr"

# ------------------------------------------------------------ a run against its record
run_clomp "${small[@]}" --json="$tmp/record.json" --caliper-json="$tmp/profile.cali.json" "${input[@]}"
is "$rc" 0 "a run with --constructs and --limits writes its profile (stderr: $err)"
if command -v python3 >/dev/null 2>&1; then
    # The Python tests' TAP lines, each one of this file's, then their runner's plan and exit status.
    relay_tap "the profile's Python tests all ran and their runner exited 0" \
        env -C "$top/tests/python" CLOMP_PROFILE_DIR="$tmp" python3 tap_runner.py test_profiles.py
else
    skip "the profile against its record" "python3 not installed"
fi

# ------------------------------------------------------------ a failed run
if [ -x "${CLOMP_FAULTS_BIN-}" ]; then
    CLOMP_FAULT=lost-update "$CLOMP_FAULTS_BIN" --schedules=static --caliper-json="$tmp/failed.cali.json" "${input[@]}" \
        </dev/null >/dev/null 2>&1
    failed=$?
    status=$(python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); print(p["status"], p["exit_status"])' \
        "$tmp/failed.cali.json" 2>&1)
    ok "$([ "$failed" != 0 ] && [ "$status" = "verification failed $failed" ]; echo $?)" \
        "a run that fails verification still writes its profile, saying so (exit $failed: $status)"
    ok "$(find "$tmp" -name '*.tmp.*' | grep -q . && echo 1 || echo 0)" "no temporary file is left behind"
else
    skip "a run that fails verification still writes its profile" "no clomp-faults (make clomp-faults)"
fi

done_testing
