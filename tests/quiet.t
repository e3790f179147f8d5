#!/usr/bin/env bash
# --quiet changes what is printed, never what is measured or recorded
# (issue 18: "--quiet and a plain run give the same JSON and CSV apart from
# the timings"). One input, run once with --quiet --json --csv and once
# plain with --json --csv; the two JSON documents are compared member by
# member and the two CSV tables column by column. Only timing-dependent
# members and columns are left out (the lists below); inputs, checksums,
# verification, NUMA locality page counts, thread placement and team sizes
# must be equal. Threads are bound (close, cores) so that the CPU each
# thread runs on is the same in both runs.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
export OMP_WAIT_POLICY=passive OMP_PROC_BIND=close OMP_PLACES=cores
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT

if ! command -v python3 >/dev/null 2>&1; then
    skip "--quiet records what a plain run records" "python3 not installed"
    done_testing
fi

# Chunks and rounds, so that per-chunk verification and the statistics are recorded too. Parts of
# 1,000 zones: 63 iterations, not the 625 of 100-zone parts (the same 10^6 zone updates), so each
# process is about 0.8 s of CPU instead of 4 (a passive team's regions cost the kernel's futexes).
args=(--trials=4 --rounds=2 2 -1 16 1000 32 1 1)

run_clomp --quiet --json="$tmp/quiet.json" --csv="$tmp/quiet.csv" "${args[@]}"
is "$rc" 0 "clomp --quiet --json --csv ${args[*]} exits 0"
is "$err" "" "clomp --quiet --json --csv ${args[*]} prints nothing on stderr"
quiet_out=$out
run_clomp --json="$tmp/plain.json" --csv="$tmp/plain.csv" "${args[@]}"
is "$rc" 0 "clomp --json --csv ${args[*]} exits 0"
is "$err" "" "clomp --json --csv ${args[*]} prints nothing on stderr"
like "$quiet_out" '^----------- Comma-delimited summary ----------' "the --quiet run prints only the summary block"
if printf '%s\n' "$quiet_out" | grep -q 'Checksum:'; then quiet_blocks=1; else quiet_blocks=0; fi
is "$quiet_blocks" 0 "the --quiet run prints no measurement block"

# compare_json A B: one line per member that differs, then "compared N" and
# the required members that were never compared (none, when all is well).
compare_json() {
    python3 - "$1" "$2" <<'PY'
import json, re, sys

a, b = (json.load(open(p)) for p in sys.argv[1:3])
# Members whose value follows the clock (or the options given): their key
# must be in both documents, their value is not compared. "[]" is any index.
TIMING = {
    "invocation",                       # the options differ by design (--quiet, file names)
    "start_time", "measurements[].started",
    "setup.build_seconds",
    "cycles.ghz", "cycles.core_clock_ghz",  # the TSC calibration of each process (and the range assumed from it)
    "measurements[].runtime_us_per_loop", "measurements[].runtime_speedup",
    "measurements[].runtime_efficacy_percent", "measurements[].runtime_overhead_us_per_loop",
    "measurements[].delay.us", "measurements[].delay.additions",  # calibrated against the clock
    "measurements[].runtime_seconds", "measurements[].us_per_loop", "measurements[].speedup",
    "measurements[].efficacy_percent", "measurements[].overhead_us_per_loop",
    "measurements[].overhead_ci_95", "measurements[].overhead_round_range", "measurements[].speedup_ci_95",
    "measurements[].statistics.min", "measurements[].statistics.max", "measurements[].statistics.median",
    "measurements[].statistics.mean", "measurements[].statistics.sd", "measurements[].statistics.cv",
    "measurements[].statistics.outliers", "measurements[].statistics.median_ci_95",
    "measurements[].rounds[].runtime_seconds", "measurements[].rounds[].median_us_per_loop",
    "measurements[].rounds[].chunks[].seconds", "measurements[].rounds[].chunks[].us_per_loop",
    "process_cost.user_cpu_seconds", "process_cost.system_cpu_seconds", "process_cost.wall_seconds",
    "process_cost.cpus_busy",
    "wall_time.total_seconds", "wall_time.setup_seconds", "wall_time.mesh_build_seconds",
    "wall_time.warmup_seconds", "wall_time.mesh_reset_seconds", "wall_time.timed_seconds",
    "wall_time.verification_seconds", "wall_time.rest_seconds", "wall_time.constructs_seconds", "wall_time.after_runs_seconds",
    "numa.locality.after_timed_runs",   # numa_balancing moves pages at the kernel's pace
    # The noise census: what disturbed each process (its shape, spans and threads sampled are compared).
    "noise_census.quantum_work", "noise_census.probe_seconds", "noise_census.steal_seconds",
    "noise_census.interrupts", "noise_census.sampling_seconds", "noise_census.threads[].cpu",
    "noise_census.threads[].fastest_us", "noise_census.threads[].median_us", "noise_census.threads[].p99_us",
    "noise_census.threads[].lost_fraction", "noise_census.threads[].largest_detour_us",
    "noise_census.threads[].timed_spans_disturbed", "noise_census.threads[].timed_involuntary_switches",
    "noise_census.threads[].timed_migrations",
    "measurements[].noise_spans_disturbed", "measurements[].noise_involuntary_switches",
    "measurements[].noise_migrations", "measurements[].noise_steal_seconds", "measurements[].noise_interrupts",
    "measurements[].noise_comparable", "measurements[].overhead_resolution",
    "measurements[].overhead_percent_of_loop",
    # Whether the machine was busy and a figure is a result follow the clock too (issue 35).
    "noise_census.busy", "noise_census.busy_reason", "measurements[].valid", "measurements[].invalid_reason",
    "measurements[].overhead_ci_method", "measurements[].overhead_ci_scope",
    "measurements[].paired_overhead.us_per_loop", "measurements[].paired_overhead.ci_95",
    "measurements[].paired_overhead.ci_coverage", "measurements[].paired_overhead.ci_method",
    "measurements[].paired_overhead.p_value", "measurements[].paired_overhead.p_value_exact",
    "measurements[].paired_overhead.order_seed", "measurements[].paired_overhead.schedule_first",
    "measurements[].paired_overhead.seconds", "measurements[].paired_overhead.lag1_autocorrelation",
    "measurements[].paired_overhead.lag1_schedule", "measurements[].paired_overhead.lag1_bestcase",
    "measurements[].paired_overhead.batch_length", "measurements[].paired_overhead.batches",
    "measurements[].paired_overhead.lag1_corrected", "measurements[].paired_overhead.effective_blocks",
    "measurements[].paired_overhead.schedule_us_per_loop", "measurements[].paired_overhead.bestcase_us_per_loop",
    "wall_time.paired_blocks_seconds", "cycles.core_clock_before", "cycles.core_clock_after",
}
TIMING_RE = [re.compile(r"^llnl_targets\.[a-z_]+\.(cycles|cycles_ci_95|cycles_ci_scope|core_cycles|verdict)$")]
# Warnings about the chunks' noise follow the clock; every other warning is compared.
NOISE = re.compile(r"noisy measurement|noise comparable with the overhead|this machine was busy")
# Members that must have been compared, or the comparison proves little.
REQUIRED = ["inputs.numThreads", "resolved.iterations", "measurements[].checksum.sum",
            "measurements[].verification.result", "measurements[].verification.verified_chunks",
            "measurements[].threads", "measurements[].rounds[].chunks[].iterations", "numa.thread_placement.team",
            "numa.thread_placement.threads[].cpu", "numa.locality.local_pages", "numa.locality.known_pages",
            "warnings[]"]
# The pages the mesh spans: checked in an assertion of their own (below).
PAGES = re.compile(r"^numa\.locality\.(local_pages|known_pages|queried_pages|total_pages|local_percent|"
                   r"pages_per_node\[\]|per_thread\[\]\.(local_pages|known_pages))$")
compared, bad = set(), []

def timing(path):
    return path in TIMING or any(r.match(path) for r in TIMING_RE)

def walk(x, y, path, where):
    if timing(path):
        return
    if isinstance(x, dict) and isinstance(y, dict):
        if list(x) != list(y):
            bad.append("%s: members %s, plain run %s" % (where or "top level", list(x), list(y)))
        for k in x:
            if k in y:
                walk(x[k], y[k], path + "." + k if path else k, where + "." + k if where else k)
    elif isinstance(x, list) and isinstance(y, list):
        if path == "warnings":
            x = [w for w in x if not NOISE.search(w)]
            y = [w for w in y if not NOISE.search(w)]
        compared.add(path + "[]")                # the number of items
        if len(x) != len(y):
            bad.append("%s: %d items, plain run %d" % (where, len(x), len(y)))
        for i, (u, v) in enumerate(zip(x, y)):
            walk(u, v, path + "[]", "%s[%d]" % (where, i))
    else:
        compared.add(path)
        if path in SPLIT:
            split.append((where, x, y))
        elif x != y:
            bad.append("%s%s: --quiet %r, plain run %r" % ("pages: " if PAGES.match(path) else "", where, x, y))

# A page two parts share counts for the lower-numbered part's thread. Threads carve their parts
# from one arena in the order they take its lock, which differs between processes (a CI run under
# ASan: 7 and 8 pages for thread 1), so a thread's count may move by the shared pages; the totals
# (compared exactly above) may not.
SPLIT = {"numa.locality.per_thread[].known_pages", "numa.locality.per_thread[].local_pages"}
split = []
walk(a, b, "", "")
shared = a.get("numa", {}).get("locality", {}).get("shared_pages") or 0
for member in ("known_pages", "local_pages"):
    rows = [(w, x, y) for w, x, y in split if w.endswith("." + member)]
    if sum(x for _, x, _ in rows) != sum(y for _, _, y in rows):
        bad.append("pages: numa.locality.per_thread[].%s sum: --quiet %d, plain run %d"
                   % (member, sum(x for _, x, _ in rows), sum(y for _, _, y in rows)))
    for w, x, y in rows:
        if abs(x - y) > shared:
            bad.append("pages: %s: --quiet %r, plain run %r (more apart than the %d shared pages)" % (w, x, y, shared))
for line in bad:
    print(line)
print("compared %d" % len(compared))
for path in REQUIRED:
    if path not in compared:
        print("never compared: " + path)
PY
}

# compare_csv A B: one line per cell that differs, then the columns compared.
compare_csv() {
    python3 - "$1" "$2" <<'PY'
import csv, sys

a, b = (list(csv.reader(open(p, newline=""))) for p in sys.argv[1:3])
# Columns whose values follow the clock (the JSON's timing members).
TIMING = {"runtime_seconds", "us_per_loop", "us_per_loop_ci_low", "us_per_loop_ci_high", "cv", "speedup",
          "efficacy_percent", "overhead_us", "overhead_ci_low", "overhead_ci_high", "ghz", "us_per_loop_cycles",
          "overhead_cycles", "overhead_cycles_ci_low", "overhead_cycles_ci_high", "llnl_target_cycles",
          "llnl_verdict", "user_cpu_seconds", "system_cpu_seconds", "runtime_us_per_loop", "runtime_speedup",
          "runtime_efficacy_percent", "runtime_overhead_us", "llnl_target_core_cycles_low",
          "llnl_target_core_cycles_high", "core_clock_min_ghz", "core_clock_max_ghz",
          "noise_spans_disturbed", "noise_involuntary_switches", "noise_migrations", "noise_steal_seconds",
          "noise_interrupts", "noise_comparable", "overhead_resolution", "overhead_percent_of_loop",
          "overhead_percent_ci_low", "overhead_percent_ci_high", "valid", "invalid_reason",
          "paired_overhead_us", "paired_overhead_ci_low", "paired_overhead_ci_high", "paired_batch_length", "paired_lag1",
          "core_clock_after_min_ghz", "core_clock_after_max_ghz", "paired_effective_blocks",
          "speedup_ci_low", "speedup_ci_high"}
if a[0] != b[0]:
    print("header: --quiet %s, plain run %s" % (a[0], b[0]))
if len(a) != len(b):
    print("rows: --quiet %d, plain run %d" % (len(a) - 1, len(b) - 1))
header = a[0]
for r, (x, y) in enumerate(zip(a[1:], b[1:]), 1):
    for c, name in enumerate(header):
        if name not in TIMING and x[c] != y[c]:
            print("row %d (%s) %s: --quiet %r, plain run %r" % (r, x[0], name, x[c], y[c]))
print("compared columns: " + ",".join(h for h in header if h not in TIMING))
PY
}

json_report=$(compare_json "$tmp/quiet.json" "$tmp/plain.json")
json_diff=$(printf '%s\n' "$json_report" | grep -v -e '^compared ' -e '^never compared: ' -e '^pages: ')
is "$json_diff" "" "the --quiet run's JSON equals the plain run's member by member, timings apart"
is "$(printf '%s\n' "$json_report" | grep '^pages: ')" "" \
    "the --quiet run's JSON records the same NUMA locality page counts (the mesh spans the same pages)"
is "$(printf '%s\n' "$json_report" | grep '^never compared: ')" "" \
    "that comparison covers inputs, checksums, verification, team sizes, thread placement, locality pages and warnings"
note "$(printf '%s\n' "$json_report" | grep '^compared ') JSON members (timing members excluded)"

csv_report=$(compare_csv "$tmp/quiet.csv" "$tmp/plain.csv")
is "$(printf '%s\n' "$csv_report" | grep -v '^compared columns: ')" "" \
    "the --quiet run's CSV equals the plain run's column by column, timing columns apart"
like "$(printf '%s\n' "$csv_report" | grep '^compared columns: ')" \
    '(^|[:,] ?)key,.*checksum_sum,checksum_residue,checksum_total,status,' \
    "that comparison covers the keys, verification and checksum columns"

done_testing
