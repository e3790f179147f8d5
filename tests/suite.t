#!/usr/bin/env bash
# The suite driver run_clomp.sh, black box: the files a quick suite leaves
# (.env, .done, key and per-zone-size .full/.summary), the summaries read by a
# real CSV parser and checked against the runs' own output, suite IDs (the next
# free ones, two suites at once), failed runs, interrupt and resume, --dry-run, bad usage,
# --stop-on-slowdown, presets, the construct runs' place in the plan. Every
# suite is --quick with MAX_THREADS 2: --max-zone-scale 10 (8 runs of about
# 0.2 s, without the construct runs: tests/results.t runs those) where the
# plan's shape is the subject, else --max-zone-scale 1 (4 runs); stand-in
# executables where the real binary would be slow or cannot fail on demand;
# a suite serves several sections where its subject allows (section 5's failing
# suite and section 4's two at once are the thread-binding checks' too).
# No timing is asserted. (run_clomp.sh's shellcheck: tests/lint.t.) What the
# quick lane cuts: the Ctrl-C-while-recording run's filler, 200,000 CSV rows
# and 60,000 output lines (the full lane: 1,000,000 and 300,000).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
top=$(cd "$(dirname "$0")/.." && pwd)
driver=$top/run_clomp.sh
# Oversubscribed runs (two suites at once on 2 cores) stay fast when idle threads sleep.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

host=$(uname -n)
host=${host%%.*}
# --calibrate=off: the estimate's calibration runs (tests/suite_estimate.t) are not this test's subject.
quick=(--quick --max-zone-scale 10 --replicates 1 --no-constructs --calibrate=off)  # one process of the target input: 8 runs (--replicates: section 11; construct runs: section 12)
zone_sizes=(6400 64000)
total=8  # 2 key runs, the 2 repeated with allocThreads 1, 2 sizes x threads 1..2
# The suites whose subject is not the plan's shape (IDs, failed runs, interrupts, presets, which
# executable runs) have one zone size: each run costs the driver about half a second of CPU.
small=(--quick --max-zone-scale 1 --replicates 1 --no-constructs --calibrate=off)
small_total=4  # the target input and its allocThreads 1 repeat, then 1 and 2 threads at 6400 zones
one_size=(--quick --max-zone-scale 1 --replicates 1 --calibrate=off)   # 4 mesh runs (+ 3 construct runs)

root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
bg_pids=()
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
    local p
    for p in "${bg_pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
    rm -rf "$root"
}
trap cleanup EXIT

# drive ARGS...: runs the driver; sets rc, out and err (stdout and stderr text).
drive() {
    "$driver" "$@" </dev/null >"$root/drive.out" 2>"$root/drive.err"
    rc=$?
    out=$(cat "$root/drive.out")
    err=$(cat "$root/drive.err")
}

newdir() { mktemp -d "$root/$1.XXXXXX"; }

# file_has FILE ERE DESC: passes when a line of FILE matches ERE.
file_has() {
    if grep -Eq -- "$2" "$1" 2>/dev/null; then
        ok 0 "$3"
    else
        ok 1 "$3"
        diag "no line of $1 matches: $2"
    fi
}

lines_of() {  # number of lines in FILES (0 if none exist)
    cat "$@" 2>/dev/null | wc -l | tr -d ' '
}

count_matching() {  # count_matching ERE FILE...: lines matching ERE in all FILEs together
    local ere=$1
    shift
    cat "$@" 2>/dev/null | grep -Ec -- "$ere"
}

# A stand-in for clomp. --version prints build facts, --help names --csv; any
# other call is logged to $FAKE_LOG (arguments) and $FAKE_ENV_LOG (its OpenMP
# environment), prints a line and $FAKE_FILLER more, then exits $FAKE_RC if that
# is set and not 0, else prints a minimal comma-delimited summary whose Static OMP
# speedup is $FAKE_SPEEDUP (default 1.9) and whose N/A cells say $FAKE_NA (default
# N/A), and writes the same figures to its --csv=FILE (the driver's source),
# followed by $FAKE_CSV_FILLER rows of no measurement the driver knows.
fake=$root/fakeclomp
cat >"$fake" <<'FAKE'
#!/usr/bin/env bash
if [ "${1-}" = --version ]; then
    echo "fake clomp 0.0 (a test stand-in)"
    echo "OpenMP: none"
    exit 0
fi
if [ "${1-}" = --help ]; then
    echo "  --csv=FILE  (a test stand-in)"
    exit 0
fi
csv='' json=''
for a in "$@"; do case $a in --csv=*) csv=${a#--csv=} ;; --json=*) json=${a#--json=} ;; esac; done
[ -z "${FAKE_LOG-}" ] || printf '%s\n' "$*" >>"$FAKE_LOG"
[ -z "${FAKE_ENV_LOG-}" ] || env | grep -E '^(OMP_|GOMP_|KMP_|XLSMPOPTS|BG_)' | LC_ALL=C sort >>"$FAKE_ENV_LOG"
echo "fake clomp $*"
[ -z "${FAKE_FILLER-}" ] || yes 'filler output line' | head -n "$FAKE_FILLER"
if [ "${FAKE_RC:-0}" != 0 ]; then
    echo "fake clomp: failing on purpose" >&2
    exit "$FAKE_RC"
fi
s=${FAKE_SPEEDUP:-1.9} na=${FAKE_NA:-N/A}
echo "----------- Comma-delimited summary ----------"
echo "fake $*, calc_deposit, OMP Barrier, Serial Ref, Bestcase OMP, Static OMP, Dynamic OMP, Manual OMP, Nested OMP"
echo "us/Loop,    0.00,    6.98,   11.79,    5.92,   21.57,   13.55,   22.46,   24.05"
echo "Speedup,     $na,     $na,     1.0,     1.9,     $s,     0.4,     0.6,     0.5"
echo "Efficacy,    $na,     $na,     $na,   100.0%,   27.4%,   43.7%,   26.3%,   24.6%"
echo "Overhead,    $na,     $na,     $na,    0.00,   15.66,    7.63,   16.55,   18.13"
[ -z "$csv" ] || cat >"$csv" <<CSV
key,name,runtime_us_per_loop,runtime_speedup,runtime_efficacy_percent,runtime_overhead_us
calc_deposit,calc_deposit,0.00,$na,$na,$na
barrier,OMP Barrier,6.98,$na,$na,$na
serial,Serial Ref,11.79,1.0,$na,$na
bestcase,Bestcase OMP,5.92,1.9,100.0,0.00
static,Static OMP,21.57,$s,27.4,15.66
dynamic,Dynamic OMP,13.55,0.4,43.7,7.63
manual,Manual OMP,22.46,0.6,26.3,16.55
nested,Nested OMP,24.05,0.5,24.6,18.13
CSV
[ -z "$csv" ] || [ -z "${FAKE_CSV_FILLER-}" ] || yes 'filler,filler row,,,,' | head -n "$FAKE_CSV_FILLER" >>"$csv"
# The run's JSON record (what the suite's .summary row is made from): the same figures.
if [ -n "$json" ]; then
    # (JSON's null for N/A without a command substitution per cell: a fork each, 32 a run.)
    m() {
        local v=("$3" "$4" "$5" "$6") i
        for i in 0 1 2 3; do [ "${v[i]}" != N/A ] || v[i]=null; done
        printf '{"key": "%s", "name": "%s", "role": "checked", "selected": true, "runtime_us_per_loop": %s, "runtime_speedup": %s, "runtime_efficacy_percent": %s, "runtime_overhead_us_per_loop": %s}' \
            "$1" "$2" "${v[@]}"
    }
    {
        printf '{"schema": "clomp-result", "schema_version": 1, "status": "ok", "exit_status": 0, "process_cost": {"user_cpu_seconds": 0.5, "system_cpu_seconds": 0.25}, "measurements": ['
        m calc_deposit calc_deposit 0.00 "$na" "$na" "$na"; printf ', '
        m barrier "OMP Barrier" 6.98 "$na" "$na" "$na"; printf ', '
        m serial "Serial Ref" 11.79 1.0 "$na" "$na"; printf ', '
        m bestcase "Bestcase OMP" 5.92 1.9 100.0 0.00; printf ', '
        m static "Static OMP" 21.57 "$s" 27.4 15.66; printf ', '
        m dynamic "Dynamic OMP" 13.55 0.4 43.7 7.63; printf ', '
        m manual "Manual OMP" 22.46 0.6 26.3 16.55; printf ', '
        m nested "Nested OMP" 24.05 0.5 24.6 18.13
        printf ']}\n'
    } >"$json"
fi
FAKE
# The suite's estimate counts the measurements and constructs in the executable's own tables, and
# its cores are the executable's count (--topology): the stand-in answers with the real clomp's.
sed -i "1a [[ \${1-} != --list-* && \${1-} != --topology ]] || exec \"$CLOMP\" \"\$@\"" "$fake"
chmod +x "$fake"

# The real clomp, but every run starts a second late (slow enough to interrupt;
# SLOW_SECONDS=0 where no run is interrupted) and first appends its PID
# (clomp's, after the exec) to $root/slow.pids.
slow=$root/slowclomp
clomp_q=$(printf '%q' "$CLOMP")
pids_q=$(printf '%q' "$root/slow.pids")
cat >"$slow" <<SLOW
#!/usr/bin/env bash
case \${1-} in --version | --help | --list-schedules | --list-constructs | --topology) exec $clomp_q "\$@" ;; esac
echo "\$\$" >>$pids_q
sleep "\${SLOW_SECONDS:-1}"
exec $clomp_q "\$@"
SLOW
chmod +x "$slow"

have_python=0
command -v python3 >/dev/null 2>&1 && have_python=1

# csv_rows SUMMARY...: parsed with Python's csv module; one tab-separated line per
# data row: file name, "ok" if it has as many fields as the header (else got/want),
# then the 12 run columns, Static OMP us/Loop and speedup, and OMP Parallel us/Loop.
csv_rows() {
    python3 - "$@" <<'PY'
import csv, os, sys
cols = ["run", "set", "status", "exit_code", "seconds", "numThreads", "allocThreads", "numParts",
        "zonesPerPart", "zoneSize", "flopScale", "timeScale", "static_omp_us_per_loop", "static_omp_speedup",
        "omp_parallel_us_per_loop"]
for path in sys.argv[1:]:
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0] if rows else []
    for row in rows[1:]:
        cell = dict(zip(header, row))
        fields = "ok" if len(row) == len(header) else "%d/%d" % (len(row), len(header))
        print("\t".join([os.path.basename(path), fields] + [cell.get(c, "?") for c in cols]))
PY
}
# csv_shape SUMMARY: the parsed header row, comma-joined; then the number of data rows.
csv_shape() {
    python3 - "$1" <<'PY'
import csv, sys
with open(sys.argv[1], newline="") as f:
    rows = list(csv.reader(f))
print(",".join(rows[0]) if rows else "")
print(len(rows) - 1)
PY
}

want_header=run,set,status,exit_code,seconds,numThreads,allocThreads,numParts,zonesPerPart,zoneSize,flopScale,timeScale
for s in calc_deposit omp_barrier serial_ref bestcase_omp static_omp dynamic_omp manual_omp nested_omp; do
    want_header+=",${s}_us_per_loop,${s}_speedup,${s}_efficacy_percent,${s}_overhead_us"
done

# run_section FULL K: run K's block of a .full file, markers included.
run_section() {
    awk -v k="$2" 'index($0, "=== run " k "/") == 1 { on = 1 }
        on { print }
        index($0, "=== end of run " k ":") == 1 { on = 0 }' "$1"
}

# ---- 1. a quick suite and its files ---------------------------------------------------
main=$(newdir main)
b1=$main/CLOMP_${host}_1
drive "${quick[@]}" --out "$main" "$CLOMP" 2
main_out=$out main_err=$err
is "$rc" 0 "a quick suite of the real clomp (MAX_THREADS 2) completes with exit 0"
[ "$rc" = 0 ] || diag "stderr: $err"

want_files=$(for f in .csv .done .env .html .runs.csv .suite.json .tar.gz _key.full _key.summary _machine; do echo "CLOMP_${host}_1$f"; done
    command -v gnuplot >/dev/null 2>&1 && echo "CLOMP_${host}_1_charts"
    for z in "${zone_sizes[@]}"; do echo "CLOMP_${host}_1_${z}zones.full" "CLOMP_${host}_1_${z}zones.summary"; done
    # Each run's JSON record, <base>_<set>.run<N>.json, and its Caliper profile, .run<N>.cali.json, for the runs of the plan in .env.
    sed -n 's/^plan: //p' "$main/CLOMP_${host}_1.env" | tr ';' '\n' | grep '|' |
        awk -F'|' -v b="CLOMP_${host}_1" '{ print b "_" $1 ".run" NR ".json"; print b "_" $1 ".run" NR ".cali.json" }')
want_files=$(tr ' ' '\n' <<<"$want_files" | LC_ALL=C sort | tr '\n' ' ')
got_files=$(cd "$main" && find . -mindepth 1 -maxdepth 1 | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' ')
is "$got_files" "$want_files" "the first suite in an empty dir is ID 1: .env, .done, .runs.csv, the manifest .suite.json, .csv, key and per-zone-size .full/.summary, each run's JSON record and Caliper profile, machine description, charts (with gnuplot), .html and .tar.gz named CLOMP_<short host>_1*, nothing else"
like "$main_out" "^CLOMP suite $main/CLOMP_${host}_1\$" "stdout names the suite's output base"
file_has "$b1.html" 'Figures: <b>one process \(run 1\)' "with one process of the target input the report's headline says its figures are run 1's alone"

progress=$(grep -Ec '^\[[1-8]/8\] .*  elapsed [0-9]{2}:[0-9]{2}  eta [0-9]{2}:[0-9]{2}$' <<<"$main_err")
is "$progress" "$total" "stderr has one '[k/N] <command>  elapsed mm:ss  eta mm:ss' progress line per run"
is "$(grep -c '^Key measurements from above run' <<<"$main_out")" 4 "stdout has a key-measurement report after each of the 4 key runs"

env1=$b1.env
grep -Fxq "host: $(uname -n)" "$env1"
ok $? ".env records the host name (uname -n)"
grep -Fxq "uname: $(uname -a)" "$env1"
ok $? ".env records uname -a"
version=$("$CLOMP" --version 2>&1)
like "$version" "OpenMP" "clomp --version names the OpenMP version (the build facts the .env must carry)"
missing=$(while IFS= read -r line; do grep -Fxq -- "$line" "$env1" || printf '%s\n' "$line"; done <<<"$version")
is "$missing" "" ".env holds clomp --version's build facts verbatim (compiler, flags, OpenMP)"
file_has "$env1" '^---- build facts \(' ".env has a build facts section"
numa=$(awk 'f { print; exit } /^---- NUMA layout$/ { f = 1 }' "$env1")
like "$numa" '.' ".env has a NUMA layout section with content (the layout, or 'not available')"
file_has "$env1" '^---- OpenMP and launcher environment$' ".env has an OpenMP environment section"
grep -Fxq "$(printf 'OMP_WAIT_POLICY=%q' "$OMP_WAIT_POLICY")" "$env1"
ok $? ".env records the OMP_WAIT_POLICY the runs had"
file_has "$env1" '^---- ulimit -a$' ".env has a ulimit -a section"
file_has "$env1" "^open files .*[^0-9]$(ulimit -n)\$" ".env's ulimit section gives this process's open-files limit"
file_has "$env1" '^---- load average: ([0-9]|not available)' ".env records the load average"
file_has "$env1" '^---- cpu frequency governor: .+' ".env records the CPU frequency governor (or 'not available')"
file_has "$env1" '^---- numa_balancing: .+' ".env records numa_balancing (or 'not available')"
file_has "$env1" '^---- transparent hugepages: .+' ".env records the transparent hugepage setting (or 'not available')"
file_has "$env1" '^---- preflight warnings$' ".env has a preflight warnings section"
preflight=$(awk 'f && /^---- / { exit } f { print } /^---- preflight warnings$/ { f = 1 }' "$env1")
[ -n "$preflight" ] && ! grep -Evq '^(none|WARNING: .+)$' <<<"$preflight"
ok $? "the preflight section is 'none' or WARNING lines"
case $OMP_WAIT_POLICY in
    [Pp][Aa][Ss][Ss][Ii][Vv][Ee])
        like "$preflight" 'WARNING: OMP_WAIT_POLICY=passive' "a passive wait policy is a preflight warning in .env" ;;
    *) skip "a passive wait policy is a preflight warning in .env" "OMP_WAIT_POLICY is '$OMP_WAIT_POLICY'" ;;
esac
file_has "$env1" '^---- complete ' ".env records that the suite completed"
is "$(LC_ALL=C sort -n "$b1.done" | tr '\n' ' ')" "1 2 3 4 5 6 7 8 " ".done lists every run index 1..8 once"

# ---- 2. the summaries, read by a CSV parser -------------------------------------------
dry=$("$driver" --dry-run "${quick[@]}" --out "$main" "$CLOMP" 2 </dev/null)
planned=$(sed -n 's/^Plan: \([0-9]*\) runs .*/\1/p' <<<"$dry")
summaries=("${b1}_key.summary")
for z in "${zone_sizes[@]}"; do summaries+=("${b1}_${z}zones.summary"); done

if [ "$have_python" = 1 ]; then
    for f in "${summaries[@]}"; do
        shape=$(csv_shape "$f")
        header=${shape%%$'\n'*}
        # Columns may be added after the documented ones, never before or between them.
        [ "$header" = "$want_header" ] || [ "${header#"$want_header",}" != "$header" ]
        ok $? "$(basename "$f")'s CSV header starts with the documented columns, in order" ||
            diag "header: $header" "want: ${want_header}[,...]"
        want_rows=2
        [[ $f == *_key.summary ]] && want_rows=4
        is "${shape#*$'\n'}" "$want_rows" "$(basename "$f") has $want_rows data rows"
    done
    rows=$(csv_rows "${summaries[@]}")
    is "$(grep -c . <<<"$rows")" "$planned" "the summaries together have one row per run --dry-run plans ($planned)"
    is "$(awk -F'\t' '$2 != "ok"' <<<"$rows")" "" "every row has as many fields as the header"
    is "$(awk -F'\t' '$17 !~ /^[0-9]+\.[0-9]+$/' <<<"$rows")" "" \
        "every row ends with OMP Parallel's us/Loop (fork/join), a plain number, after the numa column"
    is "$(cut -f3 <<<"$rows" | LC_ALL=C sort -n | tr '\n' ' ')" "1 2 3 4 5 6 7 8 " "every run index 1..8 appears in exactly one summary row"
    is "$(awk -F'\t' '$5 != "OK" || $6 != 0' <<<"$rows")" "" "every row of a good suite says OK with exit_code 0"
    bad=$(awk -F'\t' -v p="CLOMP_${host}_1_" '{ s = substr($1, length(p) + 1); sub(/\.summary$/, "", s); if ($4 != s) print }' <<<"$rows")
    is "$bad" "" "every row's set column names its file's set"
    is "$(awk -F'\t' '$7 !~ /^[0-9]+\.[0-9]+$/' <<<"$rows")" "" "the seconds column is a plain decimal number"
    key_shape=$(awk -F'\t' '$1 ~ /_key\.summary$/ { printf "%s:%s %s %s %s %s %s %s;", $3, $8, $9, $10, $11, $12, $13, $14 }' <<<"$rows")
    is "$key_shape" "1:2 -1 64 100 32 1 1;2:2 -1 64 1000 32 1 1;3:2 1 64 100 32 1 1;4:2 1 64 1000 32 1 1;" \
        "key rows: all threads, 64 parts, Z/64 zones per part; allocThreads -1 for the two sizes, then 1 for their repeats"
    for z in "${zone_sizes[@]}"; do
        threads=$(awk -F'\t' -v f="CLOMP_${host}_1_${z}zones.summary" '$1 == f { printf "%s ", $8 }' <<<"$rows")
        is "$threads" "1 2 " "the $z-zone sweep runs 1 then 2 threads"
        bad=$(awk -F'\t' -v f="CLOMP_${host}_1_${z}zones.summary" -v z="$z" '$1 == f {
            d = $10 * $11 - z; if (d < 0) d = -d
            if ($10 % $8 != 0 || d * 20 > z || $9 != -1) print }' <<<"$rows")
        is "$bad" "" "the $z-zone sweep: numParts a multiple of numThreads, numParts*zonesPerPart within 5% of $z, allocThreads -1"
    done
    is "$(awk -F'\t' '!($15 ~ /^[0-9]+(\.[0-9]+)?$/ && $15 + 0 > 0)' <<<"$rows")" "" "every static_omp_us_per_loop is a positive number"

    # The CSV cells are the run's own figures (clomp's --csv, full precision):
    # rounded as the text prints them, its comma-delimited summary, from the right run.
    bad=''
    plan_bad=''
    # (A unit separator, not a tab, between the fields: read would merge the tabs around an empty
    # cell, and a speedup that is not a result (issue 35) is one: N/A in the text.)
    while IFS=$'\037' read -r file _ run set _ _ _ t a p zpp zs fs ts us speedup _; do
        section=$(run_section "$main/${file%.summary}.full" "$run")
        got_us=$(awk -F', *' '$1 == "us/Loop" { print $6; exit }' <<<"$section")
        got_speedup=$(awk -F', *' '$1 == "Speedup" { print $6; exit }' <<<"$section")
        want_speedup=N/A
        [ -z "$speedup" ] || want_speedup=$(printf '%.1f' "$speedup")
        [ "$got_us" = "$(printf '%.2f' "$us")" ] && [ "$got_speedup" = "$want_speedup" ] ||
            bad+="run $run: csv $us/$speedup, output $got_us/$got_speedup; "
        marker=$(head -n 1 <<<"$section")
        [[ $marker == *" $t $a $p $zpp $zs $fs $ts" ]] || bad+="run $run: marker '$marker'; "
        grep -Eq "^\[$run/$total\] $set +[^ ]+ $t $a $p $zpp $zs $fs $ts  " <<<"$dry" || plan_bad+="run $run ($set $t $a $p $zpp $zs $fs $ts); "
    done < <(tr '\t' '\037' <<<"$rows")
    is "$bad" "" "each row's Static OMP us/Loop and speedup, rounded to the text's decimals, equal the 'us/Loop,'/'Speedup,' lines of that run's output in .full"
    is "$plan_bad" "" "each run K is the run --dry-run lists as K (same set and arguments)"
else
    skip "the summaries parse as CSV with the documented shape and invariants" "python3 not installed"
fi

# --dry-run's memory estimate is clomp's own figure for each run.
bad=''
while read -r idx set _ _ _ _ _ _ _ _ _ bytes _; do
    k=${idx#[}
    k=${k%%/*}
    got=$(run_section "${b1}_$set.full" "$k" | sed -n 's/^Memory (in bytes): //p')
    [ "$got" = "$bytes" ] || bad+="run $k: plan $bytes, clomp $got; "
done < <(grep '^\[' <<<"$dry")
is "$bad" "" "--dry-run's bytes per run equal the 'Memory (in bytes)' clomp reports for that run"

# ---- 3. .full: every run's complete output, once --------------------------------------
fulls=("${b1}_key.full")
for z in "${zone_sizes[@]}"; do fulls+=("${b1}_${z}zones.full"); done
for f in "${fulls[@]}"; do
    n=$(($(lines_of "${f%.full}.summary") - 1))
    name=$(basename "$f")
    is "$(count_matching '^CORAL RFP' "$f")" "$n" "$name has one 'CORAL RFP' line per summary row ($n): each output once"
    is "$(count_matching '^CORAL Benchmark Version' "$f")" "$n" "$name has each run's output from its first line"
    is "$(count_matching "^=== run [0-9]+/$total: " "$f")" "$n" "$name has one '=== run K/N: CMD' marker per run"
    is "$(count_matching '^=== end of run [0-9]+: exit status 0 \(OK\)$' "$f")" "$n" "$name has one '=== end of run K: exit status 0 (OK)' per run"
    order=$(awk '/^=== run [0-9]+\// { k = $3; sub(/\/.*/, "", k); if (open != "") print "unclosed " open; open = k }
        /^=== end of run [0-9]+:/ { k = $5; sub(/:/, "", k); if (k != open) print "end " k " after run " open; open = "" }
        /^CORAL RFP/ && open == "" { print "output outside a run" }
        END { if (open != "") print "unclosed " open }' "$f")
    is "$order" "" "$name: every '=== run K' block closes with its own '=== end of run K' and holds the output"
done

# ---- 4. suite IDs ------------------------------------------------------------------------
# (The later suites are the stand-in's, of one zone size: an ID does not depend on what runs.)
# Two suites started at once into the directory of suite 1: the next free IDs, 2 and 3, one each.
# (Each with a thread binding of its own in the environment, and the stand-in logging what its
# runs saw: the binding section, below, reads those logs and their stdout.)
sums_before=$(cd "$main" && cksum CLOMP_"${host}"_1[._]*)
env -u OMP_PLACES -u GOMP_CPU_AFFINITY -u KMP_AFFINITY OMP_PROC_BIND=spread FAKE_ENV_LOG="$root/spread-env.log" \
    "$driver" "${small[@]}" --out "$main" "$fake" 2 </dev/null >"$root/c1.out" 2>"$root/c1.err" &
c1=$!
env -u OMP_PROC_BIND -u OMP_PLACES -u GOMP_CPU_AFFINITY KMP_AFFINITY=compact FAKE_ENV_LOG="$root/kmp-env.log" \
    "$driver" "${small[@]}" --out "$main" "$fake" 2 </dev/null >"$root/c2.out" 2>"$root/c2.err" &
c2=$!
bg_pids+=("$c1" "$c2")
wait "$c1"
rc1=$?
wait "$c2"
rc2=$?
bg_pids=()
is "$rc1 $rc2" "0 0" "two suites started at once into the same directory as a first one both complete"
id1=$(sed -n "s|^CLOMP suite $main/CLOMP_${host}_\([0-9]*\)\$|\1|p" "$root/c1.out")
id2=$(sed -n "s|^CLOMP suite $main/CLOMP_${host}_\([0-9]*\)\$|\1|p" "$root/c2.out")
is "$(printf '%s\n' "$id1" "$id2" | LC_ALL=C sort -n | tr '\n' ' ')" "2 3 " "they get the next IDs after the first suite's, each its own (2 and 3)"
[ -f "$main/CLOMP_${host}_2.env" ] && [ -f "$main/CLOMP_${host}_2_key.summary" ]
ok $? "the second suite's files are CLOMP_<host>_2*"
bad=''
for id in 2 3; do
    b=$main/CLOMP_${host}_$id
    n=$(cat "$b"_*.summary 2>/dev/null | grep -vc '^run,')
    [ "$n" = "$small_total" ] && grep -q '^---- complete ' "$b.env" && [ "$(lines_of "$b.done")" = "$small_total" ] ||
        bad+="suite $id: $n rows; "
    grep -Fxq "suite: $b" "$b.env" || bad+="suite $id: .env names another suite; "
done
is "$bad" "" "each concurrent suite has all $small_total rows, its own .env and a complete .done"
is "$(cd "$main" && cksum CLOMP_"${host}"_1[._]*)" "$sums_before" "the first suite's files are unchanged by the later ones"

# ---- 5. failing runs are recorded, not fatal ---------------------------------------------
# (With its construct runs: section 12 reads this suite for how a failed construct run counts;
# nothing bound in the environment and the stand-in logging each run's: the binding section.)
fail=$(newdir fail)
bf=$fail/CLOMP_${host}_1
one_plan=$("$driver" --dry-run "${one_size[@]}" --out "$fail" "$fake" 2 </dev/null)
listing() { grep '^\[' <<<"$1" | sed 's/^\[[0-9]*\/[0-9]*\] //'; }
fail_total=$(listing "$one_plan" | grep -c .)
saved_binding=$(declare -p OMP_PROC_BIND OMP_PLACES GOMP_CPU_AFFINITY KMP_AFFINITY 2>/dev/null)
unset OMP_PROC_BIND OMP_PLACES GOMP_CPU_AFFINITY KMP_AFFINITY
FAKE_RC=7 FAKE_ENV_LOG=$root/bind-env.log drive "${one_size[@]}" --out "$fail" "$fake" 2
eval "$saved_binding"
fail_out=$out
is "$rc" 1 "a suite whose every run exits 7 runs to its end and exits 1, not 0"
is "$(tail -n 1 <<<"$out")" "Suite FAILED: $fail_total of $fail_total runs FAILED; first: run 1 (key, exit status 7): fake clomp: failing on purpose" \
    "its last line says how many runs failed and why the first did (the run's own message)"
is "$(grep -c '^Suite complete' <<<"$out")" 0 "it never says 'Suite complete'"
file_has "$bf.html" "run 1 \\(key, exit status 7\\): fake clomp: failing on purpose" "the HTML report states the first failure's reason"
if command -v gnuplot >/dev/null 2>&1; then
    grep -q 'gnuplot was not installed' "$bf.html"
    is "$?" 1 "with gnuplot installed the report never says it was not"
fi
file_has "$bf.env" "^---- complete .*: $fail_total of $fail_total runs FAILED" ".env records the failures with the completion"
file_has "$bf.env" '^fake clomp 0\.0 \(a test stand-in\)$' "the .env has the failing binary's --version text"
if [ "$have_python" = 1 ]; then
    rows=$(csv_rows "$bf"_*.summary)
    is "$(grep -c . <<<"$rows")" "$fail_total" "a failing suite still has one summary row per run"
    is "$(awk -F'\t' '$5 != "FAILED" || $6 != 7' <<<"$rows")" "" "every row of the failing suite says FAILED with exit_code 7"
    is "$(awk -F'\t' '$2 != "ok"' <<<"$rows")" "" "a failed run's row still has every column (empty measurements)"
else
    skip "failed runs give FAILED rows with exit_code 7" "python3 not installed"
fi
is "$(count_matching '^=== end of run [0-9]+: exit status 7 \(FAILED\)$' "$bf"_*.full)" "$fail_total" ".full records 'exit status 7 (FAILED)' for every run"
is "$(count_matching '^fake clomp: failing on purpose$' "$bf"_*.full)" "$fail_total" ".full keeps a failed run's output"

# ---- 6. interrupt and resume ----------------------------------------------------------------
# wait_lines FILE N PID: until FILE has N lines (true), PID ended, or 30 s passed (false).
wait_lines() {
    local i
    for ((i = 0; i < 300; i++)); do
        [ "$(lines_of "$1")" -ge "$2" ] && return 0
        kill -0 "$3" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

intr=$(newdir intr)
bi=$intr/CLOMP_${host}_1
args=("${small[@]}" --out "$intr" "$slow" 2)
# Each run starts 3 s late: run 3 is still there when its /proc entry is read below.
SLOW_SECONDS=3 "$driver" "${args[@]}" </dev/null >"$root/intr.out" 2>"$root/intr.err" &
pid=$!
bg_pids=("$pid")
# Once 2 runs are done and run 3 is under way (its stand-in sleeps before clomp).
if ! { wait_lines "$bi.done" 2 "$pid" && wait_lines "$root/slow.pids" 3 "$pid"; }; then
    diag "the slow suite did not start run 3 in time"
fi
sleep 0.2
# The process signalled only waits (bash 5.2 can lose a trapped signal in a shell expanding
# `$( )`: run_clomp.sh, "running"): its one child, the worker, ignores INT, TERM and HUP
# (SigIgn bits 2, 15 and 1); the run the worker started does not ignore TERM or HUP.
sigign() { sed -n 's/^SigIgn:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null; }
ignores() { local m; m=$(sigign "$1"); [ -n "$m" ] && (( (16#$m >> ($2 - 1)) & 1 )); }
workers=$(pgrep -P "$pid" 2>/dev/null | tr '\n' ' ')
worker=${workers%% *}
ok "$([ "$(wc -w <<<"$workers")" = 1 ] && ignores "$worker" 2 && ignores "$worker" 15 && ignores "$worker" 1; echo $?)" \
    "the driver runs the suite in one worker process, which ignores INT, TERM and HUP (children: $workers; SigIgn ${worker:+$(sigign "$worker")})"
run_pid=$(tail -n 1 "$root/slow.pids")
ok "$(ignores "$run_pid" 15 || ignores "$run_pid" 1; [ $? = 1 ] && [ -n "$(sigign "$run_pid")" ]; echo $?)" \
    "and the run it started takes TERM and HUP (SigIgn $(sigign "$run_pid"))"
kill -TERM "$pid" 2>/dev/null
wait "$pid"
rc=$?
bg_pids=()
is "$rc" 130 "SIGTERM during a suite ends it with exit 130"
file_has "$bi.env" '^---- interrupted .*resume with: .*--resume 1' ".env records the interruption and the resume command"
like "$(cat "$root/intr.err")" 'Resume with: .*--resume 1' "stderr says how to resume"
last_pid=$(tail -n 1 "$root/slow.pids")
if kill -0 "$last_pid" 2>/dev/null; then ok 1 "the running clomp is stopped"; else ok 0 "the running clomp is stopped"; fi
done_before=$(lines_of "$bi.done")
rows_before=$(cat "$bi"_*.summary | grep -vc '^run,')
[ "$done_before" -ge 2 ] && [ "$done_before" -lt "$small_total" ]
ok $? "the interrupted suite finished some runs but not all ($done_before of $small_total)"
is "$rows_before" "$done_before" "only finished runs are recorded: summary rows == lines of .done"
is "$(count_matching '^=== run ' "$bi"_*.full) $(count_matching '^=== end of run ' "$bi"_*.full)" "$done_before $done_before" \
    "no partial run in .full: one '=== run' and one '=== end of run' per finished run"

done_snapshot=$(cat "$bi.done")
drive "${small[@]}" --out "$intr" "$slow" 1 --resume 1
is "$rc" 2 "--resume with arguments that give another plan is refused (exit 2)"
like "$err" 'other parameters' "the refusal says the parameters differ"
is "$(cat "$bi.done")" "$done_snapshot" "a refused resume runs nothing"

pids_before=$(lines_of "$root/slow.pids")
# What an interrupted run may leave: a record and a profile of a run not done, never kept by the resume.
last_set=$(sed -n 's/^plan: //p' "$bi.env" | tr ';' '\n' | grep '|' | sed -n "${small_total}p" | cut -d'|' -f1)
echo '{}' >"${bi}_$last_set.run$small_total.json"
echo '{}' >"${bi}_$last_set.run$small_total.cali.json"
SLOW_SECONDS=0 drive "${args[@]}" --resume 1
is "$rc" 0 "--resume ID with the same arguments completes the suite (exit 0)"
ok "$(grep -q '"data"' "${bi}_$last_set.run$small_total.cali.json" && ! grep -qx '{}' "${bi}_$last_set.run$small_total.json"; echo $?)" \
    "--resume replaces an unfinished run's record and Caliper profile with the run's own"
is "$(($(lines_of "$root/slow.pids") - pids_before))" "$((small_total - done_before))" "the resume ran only the $((small_total - done_before)) missing runs"
if [ "$have_python" = 1 ]; then
    rows=$(csv_rows "$bi"_*.summary)
    is "$(cut -f3 <<<"$rows" | LC_ALL=C sort -n | tr '\n' ' ')" "1 2 3 4 " "after the resume every run index 1..4 is in the summaries exactly once"
    is "$(awk -F'\t' '$5 != "OK"' <<<"$rows")" "" "every resumed-suite row is OK"
else
    skip "after the resume every run index is in the summaries once" "python3 not installed"
fi
is "$(grep -c '^run,' "$bi"_*.summary | awk -F: '$2 != 1')" "" "each summary still has exactly one header line"
is "$(LC_ALL=C sort -n "$bi.done" | tr '\n' ' ')" "1 2 3 4 " ".done lists every run 1..4 exactly once"
is "$(count_matching "^=== run [0-9]+/$small_total: " "$bi"_*.full) $(count_matching '^=== end of run ' "$bi"_*.full)" "$small_total $small_total" \
    ".full files hold exactly $small_total run blocks in total"
file_has "$bi.env" '^---- resumed ' ".env records the resumption"
file_has "$bi.env" '^---- complete ' ".env records the completion"

pids_before=$(lines_of "$root/slow.pids")
drive "${args[@]}" --resume 1
is "$rc $(($(lines_of "$root/slow.pids") - pids_before)) $(lines_of "$bi.done")" "0 0 $small_total" "resuming a complete suite runs nothing and exits 0"

# Ctrl-C: SIGINT to the whole process group, as a terminal sends it. Job control
# gives the suite its own group (and SIGINT is not ignored in a background job).
sigign=$(awk '/^SigIgn:/ { print $2 }' /proc/$$/status 2>/dev/null)
if [ -n "$sigign" ] && (((16#$sigign & 2) == 0)); then
    # ctrl_c PID: SIGINT to the process group PID leads.
    ctrl_c() {
        kill -INT -- "-$1" 2>/dev/null || { diag "no process group $1: SIGINT to the suite alone"; kill -INT "$1"; }
    }
    # While a clomp runs (run 2's stand-in sleeps a second before it execs clomp).
    intr2=$(newdir sigint)
    pids_before=$(lines_of "$root/slow.pids")
    set -m
    "$driver" "${small[@]}" --out "$intr2" "$slow" 2 </dev/null >"$root/sigint.out" 2>"$root/sigint.err" &
    pid=$!
    set +m
    bg_pids=("$pid")
    wait_lines "$root/slow.pids" $((pids_before + 2)) "$pid" || diag "the slow suite did not start run 2 in 30 s"
    sleep 0.2
    ctrl_c "$pid"
    wait "$pid"
    rc=$?
    bg_pids=()
    is "$rc" 130 "Ctrl-C (SIGINT to the process group) ends the suite with exit 130"
    file_has "$intr2/CLOMP_${host}_1.env" '^---- interrupted ' ".env records the Ctrl-C interruption"
    last_pid=$(tail -n 1 "$root/slow.pids")
    if kill -0 "$last_pid" 2>/dev/null; then ok 1 "Ctrl-C stops the running clomp"; else ok 0 "Ctrl-C stops the running clomp"; fi
    is "$(cat "$intr2"/*.summary | grep -vc '^run,')" "$(lines_of "$intr2/CLOMP_${host}_1.done")" "after Ctrl-C, summary rows == lines of .done"

    # Ctrl-C while a finished run is being recorded (output copied to .full, row
    # being computed): the signal is sent once the end-of-run marker is in .full;
    # 1,000,000 extra rows in the run's CSV keep the summary row's passes over it
    # (and their copy to the suite's .csv) busy for seconds after that, so the
    # signal always lands inside the record. 300,000 lines of output check that
    # .full gets all of it. (The quick lane: 200,000 rows, about a second of
    # copying against the poll's 50 ms, and 60,000 lines; the full lane's cost
    # 4 s more CPU.) No N/A in the stand-in's summary, so that every one
    # of the 32 cells shows.
    filler_lines=60000 csv_filler=200000
    ! full_lane || filler_lines=300000 csv_filler=1000000
    rec=$(newdir sigint-record)
    br=$rec/CLOMP_${host}_1
    want_cells=$(FAKE_NA=9.99 "$fake" 2 -1 64 100 32 1 1 | awk -F', *' '
        $1 ~ /^(us\/Loop|Speedup|Efficacy|Overhead)$/ { for (c = 2; c <= 9; c++) { v = $c; sub(/%$/, "", v); cell[$1, c] = v } }
        END { for (c = 2; c <= 9; c++) printf "%s %s %s %s ", cell["us/Loop", c] + 0, cell["Speedup", c] + 0, cell["Efficacy", c] + 0, cell["Overhead", c] + 0 }')
    set -m
    log=$root/rec.log
    FAKE_LOG=$log FAKE_NA=9.99 FAKE_FILLER=$filler_lines FAKE_CSV_FILLER=$csv_filler "$driver" "${quick[@]}" --out "$rec" "$fake" 2 </dev/null >"$root/rec.out" 2>"$root/rec.err" &
    pid=$!
    set +m
    bg_pids=("$pid")
    # The state, not a delay: the end-of-run marker is in .full, so the record
    # is under way (the suite ends on a signal that arrives after the record
    # too, before it starts another run).
    for ((i = 0; i < 600; i++)); do
        grep -q '^=== end of run 1:' "${br}_key.full" 2>/dev/null && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    ctrl_c "$pid"
    # It should stop within seconds, before another run; if it goes on, the
    # Ctrl-C was lost: stop it with SIGTERM (again and again, as that may be lost too).
    for ((i = 0; i < 150; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        [ "$(lines_of "$log")" -lt 2 ] || break
        sleep 0.1
    done
    for ((i = 0; i < 120; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        kill -TERM "$pid" 2>/dev/null
        sleep 0.5
    done
    wait "$pid"
    rc=$?
    bg_pids=()
    runs=$(lines_of "$log")
    [ "$rc" = 130 ] && [ "$runs" = 1 ]
    stopped=$?
    ok "$stopped" "Ctrl-C while a run is being recorded still stops the suite (exit 130) before another run starts" ||
        diag "exit $rc after $runs run(s)"
    if grep -qx 1 "$br.done" 2>/dev/null; then
        cells=$(awk -F, '$1 == 1 { for (i = 13; i <= 44; i++) printf "%s ", ($i == "" ? "" : $i + 0) }' "${br}_key.summary")
        filler=$(run_section "${br}_key.full" 1 | grep -c '^filler output line$')
        state="recorded: cells '$cells', $filler filler lines"
    elif [ "$(grep -c '^1,' "${br}_key.summary" 2>/dev/null)" = 0 ] && ! grep -q '^=== run 1/' "${br}_key.full" 2>/dev/null; then
        state="not recorded"
    else
        state="half recorded: no done mark, but a row or a .full block"
    fi
    [ "$state" = "not recorded" ] ||
        [ "$state" = "recorded: cells '$want_cells', $filler_lines filler lines" ]
    whole=$?
    ok "$whole" "Ctrl-C while a run is being recorded leaves it recorded whole (all 32 measurement cells, all output) or not at all" ||
        diag "run 1 is $state" "want cells '$want_cells'"
else
    skip "Ctrl-C (SIGINT) ends the suite with exit 130" "SIGINT is ignored in this test process"
fi

# ---- 7. --dry-run ---------------------------------------------------------------------------
dryroot=$(newdir dry)
log=$root/dry.log
FAKE_LOG=$log drive --dry-run "${quick[@]}" --out "$dryroot/out" "$fake" 2
is "$rc" 0 "--dry-run exits 0"
like "$out" "^Plan: $total runs of " "--dry-run says how many runs the suite has ($total)"
is "$(grep -Ec "^\[[1-8]/$total\] (key|[0-9]+zones) .*  ~[0-9]+s  [0-9]+ bytes\$" <<<"$out")" "$total" \
    "--dry-run lists every run with its estimated seconds and bytes"
like "$out" '^Estimated total: ~[0-9]{2}:[0-9]{2} ' "--dry-run gives an estimated total time"
# The estimate is a model of each run's cost (docs/suite.md): the total is the
# sum of the runs', and a run on one thread is estimated longer than the same
# input on two (Bestcase, Static, Dynamic and Manual OMP share the work).
sum=$(sed -n 's/^\[[0-9]*\/[0-9]*\] .*  ~\([0-9]*\)s  [0-9]* bytes$/\1/p' <<<"$out" | awk '{ t += $1 } END { printf "%02d:%02d", t / 60, t % 60 }')
like "$out" "^Estimated total: ~$sum " "the estimated total is the sum of the runs' estimates ($sum)"
FAKE_LOG=$log drive --dry-run --calibrate=off --max-zone-scale 100 --out "$dryroot/out" "$fake" 2 100
base_plan=$out
one=$(sed -n 's/^\[[0-9]*\/[0-9]*\] 640000zones .* 1 -1 64 10000 32 1 100  ~\([0-9]*\)s .*/\1/p' <<<"$out")
two=$(sed -n 's/^\[[0-9]*\/[0-9]*\] 640000zones .* 2 -1 64 10000 32 1 100  ~\([0-9]*\)s .*/\1/p' <<<"$out")
[ -n "$one" ] && [ -n "$two" ] && [ "$one" -gt "$two" ]
ok $? "a 640000-zone run is estimated longer on 1 thread (${one:-?} s) than on 2 (${two:-?} s)"
is "$(cat "$log" 2>/dev/null)" "" "--dry-run never runs the executable"
is "$(cd "$dryroot" && find . -mindepth 1)" "" "--dry-run creates nothing, not even the --out directory"
# The estimate counts the executable's own tables (--list-schedules, --list-constructs), not a
# number in the suite: a stand-in that lists one more default checked measurement and 300 more
# sync rows among the suite's constructs gets the same plan estimated longer, mesh and construct runs.
more=$root/fakemore
cat >"$more" <<'MORE'
#!/usr/bin/env bash
case ${1-} in
    --list-schedules) "$REAL_CLOMP" --list-schedules; printf 'extra\tExtra OMP\tchecked\t-\tdefault\tteam\n' ;;
    --list-constructs) "$REAL_CLOMP" --list-constructs | awk -F'\t' '{ print } $1 == "barrier" { for (i = 0; i < 300; i++) print }' ;;
    *) exec "$INNER_FAKE" "$@" ;;
esac
MORE
chmod +x "$more"
REAL_CLOMP=$CLOMP INNER_FAKE=$fake drive --dry-run --calibrate=off --max-zone-scale 100 --out "$dryroot/out" "$more" 2 100
# estimated SETS PLAN: the sum of the estimates of the runs of those sets (a sed pattern) in a dry run's PLAN.
estimated() { sed -n "s/^\[[0-9]*\/[0-9]*\] \($1\) .*  ~\([0-9]*\)s .*/\2/p" <<<"$2" | awk '{ t += $1 } END { print t + 0 }'; }
mesh='key\|[0-9]*zones' cons='constructs[a-z0-9_]*'
[ "$(estimated "$mesh" "$out")" -gt "$(estimated "$mesh" "$base_plan")" ] &&
    [ "$(estimated "$cons" "$out")" -gt "$(estimated "$cons" "$base_plan")" ]
ok $? "the estimate counts the measurements and construct rows the executable lists (mesh runs $(estimated "$mesh" "$base_plan") -> $(estimated "$mesh" "$out") s, construct runs $(estimated "$cons" "$base_plan") -> $(estimated "$cons" "$out") s)"

# ---- 8. bad usage -----------------------------------------------------------------------------
usage=$(newdir usage)
# rejected DESC MUST ARGS...: exit 2, nothing on stdout, one stderr line 'run_clomp.sh: ...' containing MUST.
rejected() {
    local desc=$1 must=$2
    shift 2
    drive "$@"
    if [ "$rc" = 2 ] && [ -z "$out" ] && [ "$(grep -c . <<<"$err")" = 1 ] &&
        [[ $err == "run_clomp.sh: "* ]] && [[ $err == *"$must"* ]]; then
        ok 0 "$desc"
    else
        ok 1 "$desc"
        diag "args: $*" "exit $rc; want 2 and one stderr line naming $must" "stderr: $err" "stdout: ${out:0:300}"
    fi
}
rejected "an unknown option exits 2 naming it" "--bogus" "${quick[@]}" --out "$usage" --bogus "$CLOMP" 2
rejected "MAX_THREADS 0 exits 2 naming MAX_THREADS" "MAX_THREADS: '0'" "${quick[@]}" --out "$usage" "$CLOMP" 0
rejected "MAX_THREADS abc exits 2 naming MAX_THREADS" "MAX_THREADS: 'abc'" "${quick[@]}" --out "$usage" "$CLOMP" abc
rejected "a MAX_THREADS of 20 digits exits 2 naming MAX_THREADS" "MAX_THREADS: '99999999999999999999' is not a whole number from 1 to 999999999" \
    "${quick[@]}" --out "$usage" "$CLOMP" 99999999999999999999
rejected "a fourth positional argument exits 2 naming it" "'extra'" "${quick[@]}" --out "$usage" "$CLOMP" 2 1 extra
rejected "--resume of a suite that does not exist exits 2" "999" "${quick[@]}" --out "$usage" --resume 999 "$CLOMP" 2
rejected "--resume abc exits 2" "'abc'" "${quick[@]}" --out "$usage" --resume abc "$CLOMP" 2
rejected "--env with no such preset exits 2 naming it" "'nosuch'" "${quick[@]}" --out "$usage" --env nosuch "$CLOMP" 2
rejected "--zone-scale-factor 1 exits 2" "--zone-scale-factor" "${quick[@]}" --out "$usage" --zone-scale-factor 1 "$CLOMP" 2
rejected "an EXE that is not an executable file exits 2" "EXE" "${quick[@]}" --out "$usage" "$usage/nonexistent" 2
is "$(cd "$usage" && find . -mindepth 1)" "" "rejected command lines leave nothing in the output directory"
# An output directory the suite cannot use (issue 43, item 8): one line with the system's reason.
ro_file=$root/a-file
: >"$ro_file"
rejected "--out under a file exits 2 in one line: Not a directory" "--out: cannot create $ro_file/out: Not a directory" \
    "${quick[@]}" --out "$ro_file/out" "$fake" 2
rejected "--out naming a file exits 2 in one line" "--out: $ro_file is not a directory" "${quick[@]}" --out "$ro_file" "$fake" 2
# A read-only file system: mounted read-only in a private mount namespace (unshare -rm: no root needed).
ro=$(newdir readonly)
cat >"$root/ro-driver" <<DRIVER
#!/usr/bin/env bash
exec unshare -rm bash -c 'mount -t tmpfs -o ro none "$ro" && exec "\$0" "\$@"' "$driver" "\$@"
DRIVER
chmod +x "$root/ro-driver"
if unshare -rm bash -c "mount -t tmpfs -o ro none '$ro' && ! : 2>/dev/null >'$ro/x'" 2>/dev/null; then
    driver=$root/ro-driver rejected "a read-only --out exits 2 in one line: Read-only file system (not 'no free suite ID')" \
        "--out: cannot write in $ro: Read-only file system" "${quick[@]}" --out "$ro" "$fake" 2
    driver=$root/ro-driver rejected "a folder that cannot be made on it: one line, Read-only file system" \
        "--out: cannot create $ro/sub: Read-only file system" "${quick[@]}" --out "$ro/sub" "$fake" 2
else
    skip "a read-only --out exits 2 in one line: Read-only file system" "no private mount namespace here (unshare -rm)"
fi
rejected "--dry-run with an EXE that is not an executable file exits 2 (it plans no runs of it)" "EXE: './no-such-clomp'" --dry-run "${quick[@]}" --out "$usage" no-such-clomp 2
# Root with Open MPI's mpirun (stand-ins for id -u and mpirun): every run would
# fail, so the driver stops before the first one, saying how to allow it.
fakebin=$root/fakebin
mkdir -p "$fakebin"
cat >"$fakebin/id" <<'EOF'
#!/bin/sh
if [ "$1" = -u ]; then echo 0; else exec /usr/bin/id "$@"; fi
EOF
cat >"$fakebin/mpirun" <<'EOF'
#!/bin/sh
if [ "$1" = --version ]; then echo "mpirun (Open MPI) 4.1.4"; exit 0; fi
echo "mpirun has detected an attempt to run as root."
exit 1
EOF
chmod +x "$fakebin/id" "$fakebin/mpirun"
allow=${OMPI_ALLOW_RUN_AS_ROOT-} confirm=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM-}
unset OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
log=$root/root.log
FAKE_LOG=$log PATH="$fakebin:$PATH" rejected "root with Open MPI's mpirun: stops before any run, exit 2, saying how to allow it" \
    "--allow-run-as-root" "${quick[@]}" --out "$usage/root" --mpi "mpirun -np 2" "$fake" 2
is "$(lines_of "$log"):$([ -e "$usage/root" ]; echo $?)" "0:1" "nothing ran and nothing was written"
PATH="$fakebin:$PATH" drive --dry-run "${quick[@]}" --out "$usage" --mpi "mpirun --allow-run-as-root -np 2" "$fake" 2
is "$rc" 0 "root with mpirun --allow-run-as-root is allowed"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PATH="$fakebin:$PATH" drive --dry-run "${quick[@]}" --out "$usage" --mpi "mpirun -np 2" "$fake" 2
is "$rc" 0 "root with OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 is allowed"
[ -z "$allow" ] || export OMPI_ALLOW_RUN_AS_ROOT=$allow
[ -z "$confirm" ] || export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=$confirm
rejected "--resume without an ID exits 2 (it must not start a new suite)" "--resume" --dry-run "${quick[@]}" --out "$usage" "$CLOMP" 2 --resume
rejected "--env without a preset exits 2" "--env" --dry-run "${quick[@]}" --out "$usage" "$CLOMP" 2 --env
drive --help
is "$rc" 0 "--help exits 0"
like "$out" '^Usage: \./run_clomp\.sh ' "--help prints the usage"

# ---- 9. --stop-on-slowdown ----------------------------------------------------------------------
stop=$(newdir stop)
log=$root/stop.log
FAKE_SPEEDUP=0.5 FAKE_LOG=$log drive "${quick[@]}" --stop-on-slowdown --out "$stop" "$fake" 2
is "$rc" 4 "--stop-on-slowdown with a target-input Static OMP speedup of 0.5 exits 4"
like "$err" 'OMP_PROC_BIND' "the stop advice on stderr mentions OMP_PROC_BIND"
is "$(lines_of "$log")" 1 "the suite stops after exactly 1 run"
is "$(cat "$stop/CLOMP_${host}_1.done")" 1 ".done records the one finished run"
is "$(grep -vc '^run,' "$stop/CLOMP_${host}_1_key.summary")" 1 "the key summary has that one row"
file_has "$stop/CLOMP_${host}_1.env" "^---- stopped: .*0\\.5" ".env records the stop and the speedup"

# (A speedup above 1 runs the whole suite: the --env gnu suite below, with --stop-on-slowdown.)

# ---- presets, executables, defaults ------------------------------------------------------------
# --env gnu is the libgomp profile's preset (env/runtimes/libgomp.tsv): its `set` lines, read here
# with awk, exported into this test's environment are what the runs and the .env must show.
pre=$(newdir preset)
elog=$root/preset-env.log
log=$root/stop-ok.log
FAKE_SPEEDUP=1.5 FAKE_LOG=$log FAKE_ENV_LOG=$elog drive "${small[@]}" --env gnu --stop-on-slowdown --out "$pre" "$fake" 2
is "$rc" 0 "--env gnu runs the suite"
is "$rc $(lines_of "$log")" "0 $small_total" "--stop-on-slowdown with a speedup of 1.5 runs the whole suite (this one: --env gnu --stop-on-slowdown)"
file_has "$pre/CLOMP_${host}_1.env" '^env preset: gnu$' ".env names the preset"
preset_env() {
    local setting
    while IFS= read -r setting; do export "${setting?}"; done < <(awk -F '\t' '$1 == "set" { print $2 }' "$top/env/runtimes/libgomp.tsv")
    env | grep -E '^(OMP_|GOMP_|KMP_|XLSMPOPTS|BG_)' | LC_ALL=C sort
}
want_env=$(preset_env)
like "$want_env" 'GOMP_SPINCOUNT=infinite' "the libgomp profile's preset sets GOMP_SPINCOUNT"
is "$(head -n "$(grep -c . <<<"$want_env")" "$elog" 2>/dev/null)" "$want_env" "every run sees the OpenMP environment the libgomp profile's preset sets"
missing=$(while IFS= read -r setting; do
        v=${setting%%=*}
        grep -Fxq "$(printf '%s=%q' "$v" "${setting#*=}")" "$pre/CLOMP_${host}_1.env" || echo "$v"
    done <<<"$want_env")
is "$missing" "" ".env records every OpenMP variable the preset set"

# Thread binding (issue 43, item 5): bound as make run binds them, each variable only where the
# environment left it unset, none where GOMP_CPU_AFFINITY or KMP_AFFINITY places the threads;
# the construct runs, which nest, spread,close. The stand-in logs each run's environment: in
# section 5's suite (nothing bound in the environment, its construct runs too) and in section
# 4's two at once (one with OMP_PROC_BIND=spread, the other KMP_AFFINITY=compact), read here.
elog=$root/bind-env.log
runs_seen=$(grep -c '^OMP_WAIT_POLICY=' "$elog")
is "$runs_seen" "$fail_total" "a suite with its construct runs, nothing bound in the environment: $fail_total runs (section 5's)"
is "$(grep -c '^OMP_PROC_BIND=close$' "$elog") $(grep -c '^OMP_PROC_BIND=spread,close$' "$elog") $(grep -c '^OMP_PLACES=cores$' "$elog")" \
    "4 3 7" "the 4 mesh runs get OMP_PROC_BIND=close, the 3 construct runs spread,close, all OMP_PLACES=cores"
like "$fail_out" "^   Thread binding: OMP_PROC_BIND=close OMP_PLACES=cores \(OMP_PROC_BIND OMP_PLACES set by the suite" \
    "the header says the suite bound the threads, and how"
file_has "$bf.env" '^thread binding: OMP_PROC_BIND=close OMP_PLACES=cores \(' ".env says so too"
if grep -q 'threads not bound' "$bf.env"; then bad=1; else bad=0; fi
ok "$bad" "and its preflight has no 'threads not bound' warning"
is "$(sort -u "$root/spread-env.log" | grep -E '^OMP_(PROC_BIND|PLACES)=' | tr '\n' ' ')" "OMP_PLACES=cores OMP_PROC_BIND=spread " \
    "OMP_PROC_BIND=spread from the environment is kept; the suite adds only OMP_PLACES=cores"
is "$(grep -cE '^OMP_(PROC_BIND|PLACES)=' "$root/kmp-env.log") $(grep -c '^KMP_AFFINITY=compact$' "$root/kmp-env.log")" "0 $small_total" \
    "KMP_AFFINITY places the threads: the suite adds no OpenMP binding"
like "$(cat "$root/c2.out")" "^   Thread binding: from the environment: KMP_AFFINITY=compact$" "and the header says whose binding it is"

# MAX_THREADS defaults to the cores; OMP_NUM_THREADS is not the number of cores.
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT "$driver" --dry-run "${quick[@]}" --out "$usage" "$CLOMP" >"$root/default.out" 2>&1
default_threads=$(sed -n 's/^Plan: .*(max threads \([0-9]*\),.*/\1/p' "$root/default.out")
[ -n "$default_threads" ] && [ "$default_threads" -ge 1 ] && [ "$default_threads" -le "$cpus" ]
ok $? "by default MAX_THREADS is a core count, 1..$cpus (it is '$default_threads')"
OMP_NUM_THREADS=1 OMP_THREAD_LIMIT=1 drive --dry-run "${quick[@]}" --out "$usage" "$CLOMP"
like "$out" "^Plan: .*\\(max threads ${default_threads:-none}," "exported OMP_NUM_THREADS=1 and OMP_THREAD_LIMIT=1 do not change the default MAX_THREADS"
# A bare EXE name is checked as a file in the current directory ([ -x ]) but
# executed through a PATH search: the suite runs something else, or nothing.
# (The same suite has OMP_NUM_THREADS=1 exported: the oversubscription check below.)
bare=$(newdir bare)
cp "$fake" "$bare/fakeclomp"
log=$root/bare.log
(cd "$bare" && OMP_NUM_THREADS=1 FAKE_LOG=$log "$driver" "${small[@]}" --out out fakeclomp 2 </dev/null >/dev/null 2>&1)
is "$(lines_of "$log")" "$small_total" "a bare EXE name in the current directory runs that file"
if [ "${default_threads:-0}" -ge 2 ]; then
    [ -s "$bare/out/CLOMP_${host}_1.env" ] && ! grep -q 'oversubscribed' "$bare/out/CLOMP_${host}_1.env"
    ok $? "2 threads on $default_threads cores give no oversubscription warning, whatever OMP_NUM_THREADS says (OMP_NUM_THREADS=1)"
else
    skip "2 threads on 2+ cores give no oversubscription warning" "the driver counts ${default_threads:-no} core(s)"
fi

# ---- 11. --replicates: the target input as several processes, summarised between them -------------
base_quick=(--quick --max-zone-scale 10 --no-constructs --calibrate=off)
dry=$("$driver" --dry-run "${base_quick[@]}" --out "$usage" "$CLOMP" 2 </dev/null)
target="2 -1 64 100 32 1 1"
keys=$(sed -n 's/^\[[0-9]*\/[0-9]*\] key  *[^ ]* \(.*[0-9]\)  ~.*/\1/p' <<<"$dry" | tr '\n' ';')
# Default 3; the other key runs (64000 zones, and both sizes with allocThreads 1) split into
# 3 groups of one, each after one target run.
is "$keys" "$target;2 -1 64 1000 32 1 1;$target;2 1 64 100 32 1 1;$target;2 1 64 1000 32 1 1;" \
    "by default the target input runs 3 times, each followed by one of the other key runs (not back to back)"
like "$dry" "^Plan: 10 runs" "so the quick plan has 10 runs (8 + 2 more target runs)"

rep=$(newdir rep)
drive "${base_quick[@]}" --replicates 6 --out "$rep" "$CLOMP" 2
rb="$rep/CLOMP_${host}_1"
is "$rc" 0 "a quick suite with --replicates 6 exits 0"
like "$out" "$target \(numa first-touch\): 6 processes, runs 1 2 4 5 7 8" \
    "stdout summarises the target input between its 6 processes (runs 1 2 4 5 7 8: three others come between)"
ok "$([ -f "${rb}_key.processes.csv" ] && [ -f "${rb}_key.processes.txt" ]; echo $?)" \
    "the between-process summary is kept in <base>_key.processes.csv and .txt"
if [ "$have_python" = 1 ]; then
    "$CLOMP" --list-figures --json >"$rep/catalogue.json"
    check=$(python3 - "${rb}_key.summary" "${rb}_key.processes.csv" "$rb" "$rep/catalogue.json" <<'PY'
import csv, glob, json, re, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
procs = list(csv.DictReader(open(sys.argv[2], newline="")))
catalogue = {f["key"]: f for f in json.load(open(sys.argv[4]))["figures"]}
bad = []
header = open(sys.argv[1]).readline().strip().split(",")
if header[-2:] != ["user_cpu_seconds", "system_cpu_seconds"]:
    bad.append("header ends with %s" % header[-2:])
target = [r for r in rows if " ".join(r[c] for c in ("numThreads", "allocThreads", "numParts", "zonesPerPart", "zoneSize", "flopScale", "timeScale")) == "2 -1 64 100 32 1 1"]
if [r["run"] for r in target] != ["1", "2", "4", "5", "7", "8"]:
    bad.append("target runs %s" % [r["run"] for r in target])
if {p["input"] for p in procs} != {"2 -1 64 100 32 1 1"}:
    bad.append("inputs %s (only the target input ran more than once)" % {p["input"] for p in procs})
records = {r["run"]: json.load(open(glob.glob("%s_key.run%s.json" % (sys.argv[3], r["run"]))[0])) for r in target}


def member(doc, path):
    for part in path.split("."):
        doc = doc.get(part) if isinstance(doc, dict) else None
    return doc


def given(fig, doc):
    """The figure's value in one process's record when it gave it as a result (issue 43: not busy, not
    marked invalid), else None: worked out here from the record, the catalogue giving only where it lives."""
    if (doc.get("noise_census") or {}).get("busy") is True:
        return None
    if not fig["measurement"]:
        return member(doc, fig["json"])
    m = [x for x in doc["measurements"] if x["key"] == fig["measurement"]]
    if not m or m[0].get("valid") is False:
        return None
    return member(doc if fig["kind"] == "llnl_target_cycles" else m[0], fig["json"])


for p in procs:
    fig = catalogue.get(p["figure"])
    if fig is None:
        bad.append("%s: not a figure of the catalogue" % p["figure"])
        continue
    vals = [v for v in (given(fig, records[r]) for r in sorted(records, key=int)) if v is not None]
    if int(p["processes"]) != len(vals) or p["runs"] != "1 2 4 5 7 8" or p["of"] != "6":
        bad.append("%s: processes %s of %s runs %s, want %d of 6" % (p["figure"], p["processes"], p["of"], p["runs"], len(vals)))
    if len(vals) < 3:   # no median from fewer than 3 processes, or fewer than half of the 6 (issue 43)
        if p["median"] != "" or not p["said"].startswith("no result (%d of 6 processes gave one" % len(vals)):
            bad.append("%s: %d processes gave it, yet median %r (%s)" % (p["figure"], len(vals), p["median"], p["said"]))
        continue
    # 6 values: the 95% interval of the median is [min, max] (ranks 1 and 6, coverage 1 - 2/64); fewer: none.
    want = {"median": statistics.median(vals), "min": min(vals), "max": max(vals)}
    if len(vals) == 6:
        want.update({"ci95_low": min(vals), "ci95_high": max(vals)})
    for k, w in want.items():
        if p[k] == "" or abs(float(p[k]) - w) > 1e-9 * max(1.0, abs(w)):
            bad.append("%s %s %s != %s" % (p["figure"], k, p[k], w))
    if len(vals) == 6 and abs(float(p["ci_coverage"]) - (1 - 2 / 64)) > 1e-12:
        bad.append("%s coverage %s" % (p["figure"], p["ci_coverage"]))
figs = {p["figure"] for p in procs}
for key, fig in catalogue.items():
    # Every figure of the key and headline sets a target process measured has its row (given or not).
    if {"key", "headline"} & set(fig["sets"]) and key not in figs and \
            any(given(fig, dict(d, noise_census=None)) is not None for d in records.values()):
        bad.append("no figure " + key)
# The CPU columns are each run's own "Process CPU time:" line.
full = open(sys.argv[3] + "_key.full").read()
for r in rows:
    sec = re.search(r"^=== run %s/.*?^=== end of run %s:" % (r["run"], r["run"]), full, re.S | re.M).group(0)
    m = re.search(r"^Process CPU time: ([0-9.]+) s user, ([0-9.]+) s system", sec, re.M)
    if m is None or (m.group(1), m.group(2)) != ("%.3f" % float(r["user_cpu_seconds"]), "%.3f" % float(r["system_cpu_seconds"])):
        bad.append("run %s CPU %s/%s vs %s" % (r["run"], r["user_cpu_seconds"], r["system_cpu_seconds"], m and m.groups()))
print("; ".join(bad) if bad else "ok")
PY
)
    is "$check" ok "per figure (the catalogue's key and headline sets) the processes that gave it and, from 3 of them, the median, min, max and the 95% interval ([min, max] for 6, coverage 1 - 2/64) are those of the 6 target processes' records, read here; no median from fewer; user and system CPU seconds are the key summary's last columns, each the run's own Process CPU time line (to its 3 decimals)"
else
    skip "the between-process summary agrees with the key summary" "no python3"
fi
html_rows=$(sed -n '/<h3>Between processes (--replicates)<\/h3>/,/<\/table>/p' "$rb.html" 2>/dev/null | grep -c '^<tr><td><code>2 -1 64 100 32 1 1</code></td>')
is "$html_rows" "$(($(lines_of "${rb}_key.processes.csv") - 1))" \
    "the HTML report's key results add a 'Between processes' table with one row per row of <base>_key.processes.csv"
rejected "--replicates 0 exits 2" "--replicates: '0'" "${quick[@]}" --out "$usage" --replicates 0 "$CLOMP" 2

# ---- 12. the construct runs in the plan ------------------------------------------------------------
with=$("$driver" --dry-run --calibrate=off --quick --max-zone-scale 10 --replicates 1 --out "$usage" "$CLOMP" 2 </dev/null)
without=$("$driver" --dry-run "${quick[@]}" --out "$usage" "$CLOMP" 2 </dev/null)
n_with=$(listing "$with" | grep -c .)
is "$(listing "$with" | head -n "$total")" "$(listing "$without")" "by default the plan is the mesh runs --no-constructs plans, in the same order, then more"
extra=$(listing "$with" | tail -n +$((total + 1)))
is "$(awk '{ print $1 }' <<<"$extra" | paste -sd ' ')" "constructs constructs_outer2 constructs_outer2" \
    "the runs after them are the construct runs: one at the key thread count, then the sweep under 2 outer threads"
bad=$(awk '$0 !~ / --constructs=[a-z_,]+ --schedules=serial / || $0 !~ /  ~[0-9]+s  [0-9]+ bytes$/' <<<"$extra")
is "$bad" "" "the dry run lists each construct run's clomp options (--constructs, only Serial Ref) with its estimated seconds and bytes"
shapes=$(sed -n 's/^constructs_outer2 .* --nested=\([0-9]*x[0-9]*\) \([0-9]*\) .*/\1:\2/p' <<<"$extra" | paste -sd ' ')
is "$shapes" "2x2:2 2x4:4" "on 2 threads the sweep's inner teams are 2 and 4 (the smallest cap), each run with as many threads at level 1"
like "$(grep '^constructs ' <<<"$extra")" " 2 -1 64 100 32 1 1  " "the key construct run has MAX_THREADS threads and the target input's mesh at timeScale 1"
like "$with" "^Plan: $n_with runs " "the plan counts them"
sum=$(sed -n 's/^\[[0-9]*\/[0-9]*\] .*  ~\([0-9]*\)s  [0-9]* bytes$/\1/p' <<<"$with" | awk '{ t += $1 } END { printf "%02d:%02d", t / 60, t % 60 }')
like "$with" "^Estimated total: ~$sum " "and the estimated total includes their estimates ($sum)"
wide=$("$driver" --dry-run --calibrate=off --quick --out "$usage" "$CLOMP" 64 </dev/null)
is "$(sed -n 's/.* constructs_outer2 .* --nested=2x\([0-9]*\) .*/\1/p' <<<"$wide" | paste -sd ' ')" "2 4 8 16 32" \
    "at MAX_THREADS 64 the sweep's inner teams are 2, 4, 8, 16 and 32 (64 / 2 outer threads)"
longer=$("$driver" --dry-run --calibrate=off --no-grain --max-zone-scale 10 --replicates 1 --out "$usage" "$CLOMP" 2 </dev/null)
q=$(sed -n 's/^\[[0-9]*\/[0-9]*\] constructs .*--construct-reps=\([0-9]*\) --construct-time=\([0-9]*\) .*/\1 \2/p' <<<"$with")
d=$(sed -n 's/^\[[0-9]*\/[0-9]*\] constructs .*--construct-reps=\([0-9]*\) --construct-time=\([0-9]*\) .*/\1 \2/p' <<<"$longer")
read -r qr qt <<<"$q"
read -r dr dt <<<"$d"
[ -n "$qr" ] && [ -n "$dr" ] && [ "$qr" -le "$dr" ] && [ "$qt" -lt "$dt" ]
ok $? "--quick gives the construct runs fewer or as many repetitions ($qr against $dr) and a shorter test time ($qt us against $dt)"
# (A stand-in mpirun on PATH, as in section 8: its dry run only reads the rank count.)
mpi_plan=$(PATH="$fakebin:$PATH" "$driver" --dry-run --quick --max-zone-scale 1 --mpi "mpirun --allow-run-as-root -np 2" "$fake" 2 2>&1)
like "$mpi_plan" "^Plan: [1-9][0-9]* runs " "an --mpi suite's dry run plans its runs"
is "$(grep -c '^\[.*--constructs' <<<"$mpi_plan")" 0 "and no construct runs among them"
# (Section 5's failing suite, of one zone size: its mesh runs, then its construct runs.)
n_one_constructs=$(listing "$one_plan" | grep -c '^constructs')
[ "$n_one_constructs" -gt 0 ] && [ "$(tail -n 1 <<<"$fail_out")" = "Suite FAILED: $fail_total of $fail_total runs FAILED; first: run 1 (key, exit status 7): fake clomp: failing on purpose" ]
ok $? "a failed construct run counts as a failed run like any other: all $fail_total runs failed ($n_one_constructs construct runs among them)"
is "$(grep -c ',FAILED,7,' "$bf"_constructs*.summary | awk -F: '{ t += $2 } END { print t }')" "$n_one_constructs" \
    "and each failed construct run has its FAILED row in its .summary"

done_testing
