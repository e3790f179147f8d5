#!/usr/bin/env bash
# clomp --limits (docs/limits.md): the "Node limits" block comes after
# everything CLOMP 1.2 prints, which keeps its lines; the JSON's `limits` and
# the CSV's limits_* columns carry the same figures (one table in the code);
# the figures that follow from others follow by their arithmetic (the
# latency bound, the one-way latency and the barrier in cycles, the best
# reference); every reference is checked every repetition; a pair's class
# comes from the topology, here a stand-in sysfs tree (CLOMP_TOPOLOGY_ROOT);
# bad options exit 2 with one line; one thread says why nothing is
# measured; and the fault build's skipped round is caught in each reference
# (exit 1). The full lane checks the references at 8 threads on however few
# CPUs there are. Timings are never asserted: the machine is shared.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
input=(2 1 4 10 32 1 1)
quick=(--schedules=serial --limits-reps=3 --limits-time=50 --limits-trips=64)
plain=(--schedules=serial)
# The pair on two CPUs, one thread each: CPUs 0 and 1 (every machine this runs on has them).
export OMP_PROC_BIND=true OMP_PLACES='{0},{1}'

# ------------------------------------------------------------ bad input
for bad in "--limits-reps=3" "--limits --limits-reps=0" "--limits --limits-time=abc" "--limits --limits-trips=-5" \
    "--limits --limits-reps=1e3"; do
    read -ra words <<<"$bad"
    run_clomp "${words[@]}" "${input[@]}"
    ok "$([ "$rc" = 2 ] && [ "$(line_count "$err")" = 1 ] && [[ $err == *--limits* ]]; echo $?)" \
        "$bad: exit 2 with one line naming the option (got $rc: $err)"
done

# ------------------------------------------------------------ a run at 2 threads
run_clomp --limits "${quick[@]}" --json="$tmp/l.json" --csv="$tmp/l.csv" "${input[@]}"
is "$rc" 0 "clomp --limits at 2 threads exits 0 (stderr: $err)"
printf '%s\n' "$out" >"$tmp/l.txt"
run_clomp "${plain[@]}" "${input[@]}"
printf '%s\n' "$out" >"$tmp/plain.txt"

checks=$(python3 - "$tmp" "$(dirname "$0")/../docs/limits.md" <<'PY' 2>&1 || echo "python3 failed"
import csv, json, math, re, sys
tmp = sys.argv[1]
text = open(f"{tmp}/l.txt").read().splitlines()
plain = open(f"{tmp}/plain.txt").read().splitlines()
d = json.load(open(f"{tmp}/l.json"))
l = d["limits"]
rows = list(csv.DictReader(open(f"{tmp}/l.csv")))
out = []
def check(name, good, why=""):
    out.append(f"{name}\t{'ok' if good else 'FAIL: ' + str(why)}")

start = next((i for i, s in enumerate(text) if s.startswith("------ Node limits")), None)
coral = [i for i, s in enumerate(text) if s.startswith("CORAL RFP")]
check("block", start is not None and len(coral) == 1 and coral[0] < start and text[-1] == "------ (docs/limits.md) ------",
      f"block at {start}, CORAL at {coral}, last line {text[-1:]}")
# Before it, CLOMP 1.2's summary and CORAL RFP line and every block's frame are what a run without
# --limits prints (numbers aside; the noise lines between them differ from run to run).
mask = lambda s: re.sub(r"[0-9]+(\.[0-9]+)?%?", "N", s).replace("N/A", "N")
def frame(lines):
    summary = next((i for i, s in enumerate(lines) if s.startswith("----------- Comma-delimited summary")), len(lines))
    coral = next((i for i, s in enumerate(lines) if s.startswith("CORAL RFP")), len(lines))
    return [mask(s) for s in lines[summary + 2:coral + 1]] + [s for s in lines if s.startswith("---")]
check("unchanged", frame(text[:start or 0]) == frame(plain) and len(frame(plain)) > 8,
      [(a, b) for a, b in zip(frame(text[:start or 0]), frame(plain)) if a != b][:3])
check("schema", d["schema_minor"] >= 11 and l["threads"] == 2, (d["schema_minor"], l["threads"]))
keys = [t["key"] for t in l["timings"]]
check("timings", keys == ["central", "dissemination", "tournament", "omp_barrier", "reference_forkjoin", "omp_forkjoin"], keys)
refs = [t for t in l["timings"] if t["reference"]]
check("checked", len(refs) == 4 and all(t["checked_repetitions"] == 3 == t["repetitions"] for t in refs),
      [(t["key"], t["checked_repetitions"]) for t in refs])
check("pairs", l["pair_counts"]["pairs"] == 1 == len(l["pairs"]) and l["pairs"][0]["threads"] == [0, 1]
      and sorted(l["pairs"][0]["cpus"]) == [0, 1], l["pairs"])
# The one table: every JSON figure is a CSV column and a line of the text block, and no other.
f = l["figures"]
cols = [c for c in rows[0] if c.startswith("limits_")]
check("columns", [f"limits_{k}" for k in f] + ["limits_threads", "limits_best_reference", "limits_busy"] == cols,
      (list(f)[:3], cols[:3]))
block = text[start:] if start is not None else []
check("labels", all(any(s.startswith(v["label"]) for s in block) for v in f.values()),
      [v["label"] for v in f.values() if not any(s.startswith(v["label"]) for s in block)])
def same(csv_cell, fig):
    if fig["value"] is None or not fig["valid"]:
        return csv_cell == ""
    return csv_cell != "" and float(csv_cell) == fig["value"]
check("csv", all(same(r[f"limits_{k}"], v) for r in rows for k, v in f.items())
      and all(r["limits_threads"] == "2" and r["limits_busy"] == str(int(l["busy"])) for r in rows),
      [(k, rows[0][f"limits_{k}"], v["value"]) for k, v in f.items() if not same(rows[0][f"limits_{k}"], v)])
# A figure with no value keeps its unit in its label and says what is missing (one pair: three classes at least have none).
na = [v for v in f.values() if v["value"] is None]
def na_line(v):
    head = f"{v['label']}, {'ratio' if v['unit'] == 'x' else v['unit']} "
    return next((s for s in block if s.startswith(head)), "")
check("n/a", len(na) >= 3 and all(re.search(r" N/A \(.+\)$", na_line(v)) for v in na),
      [(v["label"], v["unit"], na_line(v)) for v in na if not re.search(r" N/A \(.+\)$", na_line(v))][:3] or len(na))
# What follows from other figures, by its own arithmetic.
rt = l["round_trip"]["median_ns"]
b = f["barrier_bound_ns"]
if rt is not None and not l["busy"]:
    check("bound", math.isclose(b["value"], l["rounds"] * rt / 2, rel_tol=1e-12), (b, l["rounds"], rt))
else:
    check("bound", b["value"] is None and b["not_a_result"], b)
ghz = l["cycles_ghz"]
check("one way", rt is None or ghz is None or math.isclose(f["one_way_cycles"]["value"], rt / 2 * ghz, rel_tol=1e-12),
      (f["one_way_cycles"], rt, ghz))
omp = next(t for t in l["timings"] if t["key"] == "omp_barrier")
check("cycles", ghz is None or not omp["valid"] or math.isclose(f["omp_barrier_cycles"]["value"], omp["median_ns"] * ghz, rel_tol=1e-12),
      (f["omp_barrier_cycles"], omp["median_ns"], ghz))
valid = [t for t in l["timings"][:3] if t["valid"]]
best = min(valid, key=lambda t: t["median_ns"])["key"] if valid else None
check("best", l["best_reference"] == best, (l["best_reference"], best))
m = f["barrier_multiple"]
check("multiple", (m["value"] is None) == (m["not_a_result"] is not None) and (not l["busy"] or m["value"] is None), m)
check("llnl", l["llnl_barrier_target_cycles"] == 200, l["llnl_barrier_target_cycles"])
doc = open(sys.argv[2]).read()
check("documented", all(f"`{k}`" in doc or f"`{k}," in doc or f", `{k}`" in doc for k in f),
      [k for k in f if f"`{k}`" not in doc])
for line in out:
    print(line)
PY
)
while IFS=$'\t' read -r name verdict; do
    case $name in
        block) desc="the Node limits block comes after the CORAL RFP line and ends the report" ;;
        unchanged) desc="before it, 1.2's summary, the CORAL RFP line and every block's frame are as without --limits" ;;
        schema) desc="the JSON is schema minor 11 and its limits are the team's 2 threads" ;;
        timings) desc="six timings in order: the three reference barriers, OpenMP's, the reference fork/join, OpenMP's" ;;
        checked) desc="each of the 4 references was checked in each of its 3 repetitions" ;;
        pairs) desc="one pair, threads 0 and 1 on CPUs 0 and 1" ;;
        columns) desc="the CSV's limits_* columns are the JSON's figures, in the same order, then team, best reference, busy" ;;
        labels) desc="every figure has its line in the text block" ;;
        n/a) desc="every figure without a value keeps its unit in the label (\"Latency bound, cycles\") and says what is missing" ;;
        csv) desc="each CSV cell is the JSON's value, empty where the figure is not a result, on every row" ;;
        bound) desc="the latency bound is ceil(log2 T) x half the median pair's round trip (withheld, with why, when busy)" ;;
        "one way") desc="the one-way latency in cycles is half the median round trip x the core clock" ;;
        cycles) desc="OpenMP's barrier in cycles is its median ns x the core clock" ;;
        best) desc="the best reference is the valid reference barrier with the least median" ;;
        multiple) desc="the barrier multiple is withheld exactly when it says why (always when the machine was busy)" ;;
        llnl) desc="LLNL's barrier target stands beside them: 200 cycles" ;;
        documented) desc="every figure's key is in docs/limits.md's table" ;;
        *) desc="$name" ;;
    esac
    is "$verdict" ok "$desc"
done <<<"$checks"

# ------------------------------------------------------------ without it, one thread
run_clomp --dry-run "${plain[@]}" --json="$tmp/d.json" --csv="$tmp/d.csv" "${input[@]}"
is "$(python3 -c 'import csv, json, sys; d = json.load(open(sys.argv[1])); r = list(csv.reader(open(sys.argv[2])))
print(d["limits"], any(c.startswith("limits_") for c in r[0]), d["wall_time"] is None or "limits_seconds" in d["wall_time"])' \
    "$tmp/d.json" "$tmp/d.csv")" "None True True" "without --limits: limits is null, and the CSV still has its limits_* columns"
run_clomp --limits "${quick[@]}" --json="$tmp/one.json" 1 1 4 10 32 1 1
is "$rc $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["limits"]["not_measured"])' "$tmp/one.json")" \
    "0 needs at least 2 threads; numThreads is 1" "one thread: exit 0, nothing measured, and the JSON says why"
like "$out" "Node limits: N/A \(needs at least 2 threads" "and the block says it"

# ------------------------------------------------------------ a stand-in topology
# CPUs 0 and 1 as cores of two sockets, each socket its own L3, under a stand-in
# root (CLOMP_TOPOLOGY_ROOT stands for /, as where the job's cores are counted).
sysfs=$tmp/root/sys/devices/system/cpu
for c in 0 1; do
    mkdir -p "$sysfs/cpu$c/topology" "$sysfs/cpu$c/cache/index3"
    echo 0 >"$sysfs/cpu$c/topology/core_id"
    echo "$c" >"$sysfs/cpu$c/topology/physical_package_id"
    echo "$c" >"$sysfs/cpu$c/topology/thread_siblings_list"
    echo 3 >"$sysfs/cpu$c/cache/index3/level"
    echo "$c" >"$sysfs/cpu$c/cache/index3/shared_cpu_list"
done
echo 0-1 >"$sysfs/online"
CLOMP_TOPOLOGY_ROOT=$tmp/root run_clomp --limits "${quick[@]}" --limits-reps=1 --json="$tmp/t.json" "${input[@]}"
is "$rc $(python3 -c 'import json, sys; l = json.load(open(sys.argv[1]))["limits"]
print(l["pairs"][0]["class"], l["topology_root"] == sys.argv[2], l["classes"]["cross_socket"]["pairs"] + l["pair_counts"]["not_a_result"])' \
    "$tmp/t.json" "$sysfs")" "0 cross_socket True 1" \
    "CLOMP_TOPOLOGY_ROOT: CPUs 0 and 1 on two sockets of a stand-in tree make the pair cross-socket, counted in its class"
like "$out" "threads 0-1  CPUs [01]-[01]  across sockets" "and the text's pair line names the class"

# ------------------------------------------------------------ with --constructs
run_clomp --constructs=barrier --construct-reps=3 --construct-time=50 --limits "${quick[@]}" --csv="$tmp/c.csv" "${input[@]}"
is "$rc $(grep -n -e '^------ OpenMP construct overheads' -e '^------ Node limits' <<<"$out" | cut -d: -f2 | cut -c1-12 | paste -sd' ')" \
    "0 ------ OpenM ------ Node " "with --constructs: the construct table, then the Node limits block"
is "$(head -1 "$tmp/c.csv" | tr ',' '\n' | grep -c '^limits_')" 0 \
    "the construct CSV keeps its own columns (its figures are in the JSON's limits)"

# ------------------------------------------------------------ the fault build
FAULTS_BIN=${CLOMP_FAULTS_BIN:-"$(cd "$(dirname "$0")/.." && pwd)/clomp-faults"}
if [ -x "$FAULTS_BIN" ]; then
    CLOMP_FAULT=limits-skip-round run_clomp --limits "${quick[@]}" --limits-reps=1 "${input[@]}"
    is "$rc" 0 "the normal clomp ignores CLOMP_FAULT=limits-skip-round (no fault code in it)"
    mapfile -t references < <(python3 -c 'import json, sys
for t in json.load(open(sys.argv[1]))["limits"]["timings"]:
    if t["reference"]: print(t["key"], t["name"], sep="\t")' "$tmp/l.json")
    missed=()
    for ref in "${references[@]}"; do
        key=${ref%%$'\t'*} name=${ref#*$'\t'}
        CLOMP_FAULT=limits-skip-round CLOMP_FAULT_LIMITS=$key CLOMP=$FAULTS_BIN \
            run_clomp --limits "${quick[@]}" --limits-reps=1 --json="$tmp/f.json" "${input[@]}"
        failure=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["status"], d["limits"]["failure"])' \
            "$tmp/f.json" 2>&1)
        if [ "$rc" -ne 1 ] || [[ $err != *"a reference failed its check: $name, repetition 1:"* ]] ||
            [[ $failure != "failed $name, repetition 1: "*"stamps read wrong"* ]]; then
            missed+=("$key (exit $rc: $err; JSON: $failure)")
        fi
    done
    is "${missed[*]}" "" "each of the ${#references[@]} references with a round skipped (fault build) ends the run with exit 1, its name, and the JSON's limits.failure"
else
    skip "the fault build's skipped rounds" "no clomp-faults at $FAULTS_BIN (make clomp-faults)"
fi

# ------------------------------------------------------------ oversubscribed
if skip_unless_full_lane "the references checked at 8 threads on 2 CPUs"; then
    OMP_PLACES=threads OMP_WAIT_POLICY=passive run_clomp --limits "${quick[@]}" --json="$tmp/8.json" 8 1 8 10 32 1 1
    is "$rc $(python3 -c 'import json, sys; l = json.load(open(sys.argv[1]))["limits"]
print(sorted({t["checked_repetitions"] for t in l["timings"] if t["reference"]}), l["pair_counts"]["pairs"])' "$tmp/8.json")" \
        "0 [3] 28" "8 threads on however few CPUs: every reference checked in every repetition, 28 pairs listed"
fi

done_testing
