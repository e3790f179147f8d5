#!/usr/bin/env bash
# clomp's JUBE benchmark (integrations/jube/clomp.xml, issue 49 item 3), full
# lane, with Debian's JUBE 2.5 (skipped, naming the package, without it):
# `jube run` over 1 and 2 threads and both wait policies (4 runs of the given
# binary at timeScale 1) and `jube result`: one row per run, each figure of
# the catalogue's harness set (the Static OMP overhead and the barrier among
# them) as clomp's CSV has it, empty where clomp gave it no value; the
# benchmark's patterns are that list's keys. About 15 s on the 2-core VM.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
skip_all_unless_full_lane "JUBE runs clomp's benchmark"

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/ecosystem.sh
. "$top/tests/lib/ecosystem.sh"
skip_all_without jube JUBE
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT
xml=$top/integrations/jube/clomp.xml
figures=$top/integrations/clomp_figures.py

keys=$(python3 "$figures" --list | cut -f1 | LC_ALL=C sort)
patterns=$(sed -n 's/.*<pattern name="\([a-z0-9_]*\)".*/\1/p' "$xml" | LC_ALL=C sort)
columns=$(sed -n 's/.*<column[^>]*>\([a-z0-9_]*\)<\/column>.*/\1/p' "$xml" | grep -v -e '^jube_wp_id$' -e '^threads$' -e '^wait_policy$' | LC_ALL=C sort)
ok "$([ "$patterns" = "$keys" ] && [ "$columns" = "$keys" ]; echo $?)" \
    "the benchmark's patterns and result columns are the catalogue's harness set, by key"

(cd "$tmp" && CLOMP=$CLOMP CLOMP_JUBE_THREADS=1,2 CLOMP_JUBE_TIMESCALE=1 jube run "$xml" --outpath runs -e) >"$tmp/run.log" 2>&1
rc=$?
ok "$([ "$rc" = 0 ] && grep -Eq '\|[[:space:]]+run \|[[:space:]]+4 \|[[:space:]]+0 \|[[:space:]]+0 \|[[:space:]]+0 \|[[:space:]]+4 \|' "$tmp/run.log"; echo $?)" \
    "jube run: 4 runs (1 and 2 threads, active and passive), none in error (exit $rc)"
(cd "$tmp" && jube result -a runs -s csv) >"$tmp/result.csv" 2>"$tmp/result.err"
is "$?" 0 "jube result makes the table"

# Each row against its run's own CSV, read by clomp_figures.py (the table's numbers are JUBE's reading of them).
checked=$(python3 - "$tmp/result.csv" "$tmp/runs/000000" "$figures" <<'PYTHON' 2>&1
import csv, glob, io, os, subprocess, sys
text = open(sys.argv[1]).read()
rows = list(csv.DictReader(io.StringIO(text[text.index("workpackage"):])))
titles = {"Static overhead us": "static_omp_median_overhead_us", "barrier us": "omp_barrier_median_us_per_loop"}
problems, seen = [], set()
for row in rows:
    work = glob.glob(os.path.join(sys.argv[2], "%06d_run" % int(row["workpackage"]), "work"))[0]
    want = dict(line.split("=", 1) for line in subprocess.run([sys.executable, sys.argv[3], os.path.join(work, "clomp.csv")],
                stdout=subprocess.PIPE, text=True, check=True).stdout.splitlines())
    seen.add((row["threads"], row["wait_policy"]))
    for title, key in titles.items():
        value = want[key].split("  #")[0]
        if (row[title] == "") != (value == "n/a") or row[title] != "" and float(row[title]) != float(value):
            problems.append("%s %s: %s is '%s', its CSV %s" % (row["threads"], row["wait_policy"], title, row[title], want[key]))
print(len(rows), sorted(seen) == [("1", "active"), ("1", "passive"), ("2", "active"), ("2", "passive")], "; ".join(problems))
PYTHON
)
like "$checked" '^4 True $' "the table: one row per run, its Static OMP overhead and barrier as the run's CSV has them, empty where clomp gave none ($checked)"
like "$(head -n 3 "$tmp/result.csv")" 'Static overhead us,barrier us,fork/join us,parallel for us' "the table's columns name the figures"

done_testing
