#!/usr/bin/env bash
# A level-1 construct row whose team took turns on one CPU is not the
# construct's cost between CPUs: clomp reads each team thread's CPU in the
# untimed region before every timed test and, where more than half the
# repetitions began with two threads on one CPU, withholds the figure
# ("unresolved") and says why. The oracle is the placement itself: both
# threads bound to one CPU (OMP_PLACES names one place) must share it at every
# repetition, and two threads bound to two CPUs never can. No timing is
# asserted. Bound to one CPU the noise census finds the machine busy too (a
# thread loses half its time to the other), so this shows the detection, the
# line and that it comes first; that the rule withholds a row otherwise
# resolved is tests/unit/test_constructs.c's. Needs two CPUs: on one, a team
# of two can only share it, and clomp watches only teams no larger than the
# CPUs.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out=''
command -v python3 >/dev/null 2>&1 || { printf '1..0 # SKIP python3 not installed\n'; exit 0; }
mapfile -t cpus < <(python3 -c 'import os; print("\n".join(str(c) for c in sorted(os.sched_getaffinity(0))[:2]))')
[ "${#cpus[@]}" -ge 2 ] || { printf '1..0 # SKIP one CPU: a team of two must share it\n'; exit 0; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The CSV's level-1 rows at 2 threads: "CONSTRUCT|STATUS|OVERHEAD|PROBLEM" a row.
level1_rows() {
    python3 - "$1" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["level"] == "1" and r["inner_threads"] == "2":
        print(f'{r["construct"]}|{r["status"]}|{r["overhead_us"]}|{r["problem"]}')
PY
}

OMP_PROC_BIND=true OMP_PLACES="{${cpus[0]}}" OMP_WAIT_POLICY=passive \
    run_clomp --schedules=serial --constructs=barrier,static_n --construct-chunks=1 --construct-time=100 \
    --construct-reps=6 --csv="$tmp/one.csv" 2 1 16 100 32 1 1
is "$rc" 0 "clomp runs its construct rows with both threads bound to CPU ${cpus[0]}"
rows=$(level1_rows "$tmp/one.csv")
is "$(printf '%s\n' "$rows" | grep -c '^[a-z_]*|unresolved||6 of 6 repetitions began with two team threads on one CPU')" 2 \
    "both level-1 rows are unresolved, with no overhead: '6 of 6 repetitions began with two team threads on one CPU' ($rows)"
like "$out" "BARRIER +1 +1x2 +- unresolved: 6 of 6 repetitions began with two team threads on one CPU \\(the other CPUs busy or the threads placed so\\): not the construct's cost between CPUs" \
    "the text's BARRIER line says so in full"

OMP_PROC_BIND=close OMP_PLACES="{${cpus[0]}},{${cpus[1]}}" OMP_WAIT_POLICY=passive \
    run_clomp --schedules=serial --constructs=barrier,static_n --construct-chunks=1 --construct-time=100 \
    --construct-reps=6 --csv="$tmp/two.csv" 2 1 16 100 32 1 1
is "$rc" 0 "clomp runs them with the threads bound to CPUs ${cpus[0]} and ${cpus[1]}"
rows=$(level1_rows "$tmp/two.csv")
is "$(printf '%s\n' "$rows" | grep -c '|')" 2 "both level-1 rows are in the CSV ($rows)"
is "$(printf '%s\n' "$rows" | grep -c 'one CPU')" 0 "and neither is withheld for sharing a CPU"
done_testing
