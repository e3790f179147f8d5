#!/usr/bin/env bash
# The runs never need Python (issue 29): on a node whose python3 does not run
# the results package, a quick suite still records every run (its JSON record,
# .full section, .done mark, .runs.csv line and .csv rows), says at its start
# and end where the tables and report must be made, and exits 0 (a suite whose
# runs FAILED ends with exit 1 and its last line names the first failure and
# why, from the driver's records); afterwards,
# on a machine with Python, `make plots`'s first step and --bundle make the
# .summary tables from those records (the same rows the re-render gives) and
# a bundle that validates (valid; a quick suite is not submission-grade).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3 to make the report afterwards"; exit 0; }
root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$root"' EXIT
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

# A python3 first on PATH that cannot run anything: this node has "no Python".
mkdir "$root/bin"
printf '#!/bin/sh\necho "python3: not here" >&2\nexit 127\n' >"$root/bin/python3"
chmod +x "$root/bin/python3"
out=$root/out
PATH=$root/bin:$PATH "$top/run_clomp.sh" --quick --max-zone-scale 1 --replicates 2 --no-constructs --no-plots \
    --out "$out" "$CLOMP" 1 </dev/null >"$root/suite.out" 2>"$root/suite.err"
is "$?" 0 "a quick suite on a node without Python completes with exit 0"
base=$(find "$out" -maxdepth 1 -name 'CLOMP_*.env' | head -n 1)
base=${base%.env}
runs=$(sed -n 's/^plan: //p' "$base.env" | tr ';' '\n' | grep -c '|')
is "$(wc -l <"$base.done" | tr -d ' ')" "$runs" "every one of its $runs runs is marked done"
is "$(find "$out" -maxdepth 1 -name "$(basename "$base")_*.run*.json" ! -name '*.cali.json' | wc -l | tr -d ' ')" "$runs" "every run left its JSON record"
is "$(find "$out" -maxdepth 1 -name "$(basename "$base")_*.run*.cali.json" | wc -l | tr -d ' ')" "$runs" "and its Caliper profile"
is "$(($(wc -l <"$base.runs.csv") - 1))" "$runs" "and its line in .runs.csv"
is "$(grep -c '^=== end of run ' "$base"_*.full | awk -F: '{ n += $2 } END { print n }')" "$runs" "and its .full section"
is "$(find "$out" -maxdepth 1 -name '*.summary' | wc -l | tr -d ' ')" 0 "no .summary is made without Python"
like "$(cat "$root/suite.err")" "no python3 \(3\.8\+\) on this node: every run is recorded, but the tables, report and bundle must be made on a machine with Python: make plots OUT=" \
    "the suite says where the report must be made"
# The estimate is the results package's: without it the progress lines have no ETA, and the dry
# run lists the same plan's runs with no estimate (~?s) and says the estimate needs python3.
is "$(grep -c '^\[[0-9]*/[0-9]*\] .*  elapsed [0-9]*:[0-9]*  eta ?$' "$root/suite.err")" "$runs" "each run's progress line says its ETA is unknown (eta ?)"
like "$(cat "$root/suite.err")" "warning: no estimate \(no python3 .*\): runs have no default --run-timeout" \
    "and the suite warns, before its runs, that they have no default --run-timeout"
dry=$(PATH=$root/bin:$PATH "$top/run_clomp.sh" --dry-run --quick --max-zone-scale 1 --replicates 2 --no-constructs --out "$root/dry" "$CLOMP" 1 </dev/null 2>&1)
like "$dry" "^Plan: $runs runs of " "a dry run without Python counts the same $runs runs"
like "$dry" "^Estimated total: unknown: no python3 \(3\.8\+\) on this node: the estimate is the results package's; nothing was run\.$" \
    "and says the estimate needs python3"
# The listing is the same as with Python (a compute node's user checks commands and memory there),
# its estimates unknown: the package's lines with ~Ns made ~?s.
with=$("$top/run_clomp.sh" --dry-run --quick --max-zone-scale 1 --replicates 2 --no-constructs --out "$root/dry" "$CLOMP" 1 </dev/null 2>&1)
is "$(grep '^\[' <<<"$dry")" "$(grep '^\[' <<<"$with" | sed 's/  ~[0-9]*s  /  ~?s  /')" \
    "a dry run without Python lists every run with its command and memory as one with Python does, its estimate ~?s"

# A run that FAILED is said without Python too: the last line comes from the
# driver's own records (.runs.csv by column name, the reason in .env), no .summary.
fail=$root/failing
# shellcheck disable=SC2016  # the stand-in's own $1
printf '#!/bin/sh\ncase "$1" in --list-*) exec "%s" "$1" ;; --version) echo "failing stand-in"; exit 0 ;; --help) echo "  --csv=FILE"; exit 0 ;; esac\necho "failing on purpose" >&2\nexit 7\n' "$CLOMP" >"$fail"
chmod +x "$fail"
PATH=$root/bin:$PATH "$top/run_clomp.sh" --quick --max-zone-scale 1 --replicates 1 --no-constructs --no-plots \
    --calibrate=off --out "$root/failed" "$fail" 1 </dev/null >"$root/failed.out" 2>&1
failed_rc=$?
failed_runs=$(sed -n 's/^plan: //p' "$root"/failed/CLOMP_*.env | tr ';' '\n' | grep -c '|')
is "$failed_rc:$(tail -n 1 "$root/failed.out")" \
    "1:Suite FAILED: $failed_runs of $failed_runs runs FAILED; first: run 1 (key, exit status 7): failing on purpose" \
    "a suite whose runs FAILED, on a node without Python, ends with exit 1 naming the first failure and its reason"

# Afterwards, with Python: the tables and the bundle from the records.
python3 "$top/results/clomp-results" tables "$out" --write
is "$?" 0 "clomp-results tables --write (make plots' first step) writes the tables from the records"
check=$(python3 "$top/results/clomp-results" tables "$out" --check | tail -n 1)
like "$check" "^[1-9][0-9]* files re-rendered from the records, 0 differences$" "and they are what the records give"
is "$(cat "$base"_*.summary | grep -vc '^run,')" "$runs" "one .summary row per run"
"$top/run_clomp.sh" --out "$out" --bundle >/dev/null 2>&1
is "$?" 0 "run_clomp.sh --bundle on a machine with Python writes the report and the bundle"
like "$(head -n 1 "${base}_key.processes.csv" 2>/dev/null)" "^input,numa,figure,processes," "and the between-process summary of the target input's 2 processes"
"$top/clomp_validate" "$base.tar.gz" >"$root/validate.out" 2>&1
is "$?" 3 "the bundle is valid (a quick suite: not submission-grade)"
done_testing
