#!/usr/bin/env bash
# Output that scales to big nodes and many ranks: beyond 16 threads or ranks
# the text's per-thread and per-rank tables summarise (min, median, max, the
# outliers named) and the JSON keeps them in full. Every summary is checked
# against the JSON's full table (an independent computation of the same
# figures here, in python). Quick lane: a 20-thread and a 16-thread run, each
# measuring Static OMP only (--schedules=static; Serial Ref always runs): the
# tables summarised are the team's placement and noise census, which every
# run prints whatever it measures. Full lane: 64 threads,
# a nested 8x8 shape, a suite with MAX_THREADS 64 (its plan and dry run) and
# clomp_mpi with 32 ranks under mpirun: all complete and verify. All
# oversubscribed on this machine, with passive waits and tiny inputs.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source-path=SCRIPTDIR source=lib/rank_checksums.sh
. "$(dirname "$0")/lib/rank_checksums.sh"

export OMP_WAIT_POLICY=passive
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
ORACLE=$build/tests/clomp_oracle
if ! command -v python3 >/dev/null 2>&1; then
    skip "summarised tables against the JSON" "python3 not installed"
    done_testing
fi
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT

# check_summaries TEXT JSON: one line "ok|not ok: what" per summary line of the
# text, each recomputed from the JSON's full table.
check_summaries() {
    python3 - "$1" "$2" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
doc = json.load(open(sys.argv[2]))

def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2

def outliers(rows):   # rows: [(name, value)], in table order
    v = [x for _, x in rows]
    m = median(v)
    mad = median([abs(x - m) for x in v])
    if mad > 0:
        return [n for n, x in rows if abs(x - m) > 3.5 * 1.4826 * mad]
    return [n for n, x in rows if x != m]

def g(x):
    return "%g" % x

def check(label, rows):
    line = re.search(r"^ *" + re.escape(label) + r": (.*)$", text, re.M)
    if line is None:
        print("not ok: no summary line '%s'" % label)
        return
    v = [x for _, x in rows]
    lo = min(range(len(v)), key=lambda i: (v[i], i))
    hi = max(range(len(v)), key=lambda i: (v[i], -i))
    want = "min %s (%s), median %s, max %s (%s)" % (g(v[lo]), rows[lo][0], g(median(v)), g(v[hi]), rows[hi][0])
    out = outliers(rows)
    if out:
        want += "; outliers: " + ", ".join("%s (%s)" % (n, g(dict(rows)[n])) for n in out[:3])
        if len(out) > 3:
            want += " and %d more" % (len(out) - 3)
    got = line.group(1)
    print(("ok" if got == want else "not ok") + ": %s: %s%s" % (label, got, "" if got == want else " (expected: " + want + ")"))

tp = doc["numa"]["thread_placement"]
if tp is not None and tp["team"] > 16:
    threads = tp["threads"]
    cores = {}
    for t in threads:
        key = (t["socket"], t["core"]) if t["core"] is not None and t["core"] >= 0 else ("cpu", t["cpu"])
        if key not in cores:
            name = ("core %d of socket %d" % (t["core"], t["socket"])) if key[0] != "cpu" else "cpu %d" % t["cpu"]
            cores[key] = [name, 0]
        cores[key][1] += 1
    check("Threads per core", [(n, c) for n, c in cores.values()])
    check("CPUs per thread", [("thread %d on cpu %d" % (t["thread"], t["cpu"]), t["allowed_cpus"]) for t in threads])
    nodes = {}
    for t in threads:
        nodes[t["node"]] = nodes.get(t["node"], 0) + 1
    want = ",".join(" node %s: %d" % (n if n is not None and n >= 0 else "unknown", k) for n, k in nodes.items())
    got = re.search(r"^  Threads by node:(.*)$", text, re.M)
    print(("ok" if got and got.group(1) == want else "not ok") + ": Threads by node:%s" % (got.group(1) if got else " missing"))
nc = doc.get("noise_census")
if nc is not None and nc["probed"] and len(nc["threads"]) > 16:
    def rows(figure):
        return [("thread %d on cpu %d" % (t["thread"], t["cpu"]), figure(t)) for t in nc["threads"]]
    check("Noise lost %", rows(lambda t: t["lost_fraction"] * 100.0))
    check("Noise detour us", rows(lambda t: t["largest_detour_us"]))
    check("Noise p99/fastest", rows(lambda t: t["p99_us"] / t["fastest_us"]))
    if nc["sampled"]:
        check("Noise disturbed", rows(lambda t: t["timed_spans_disturbed"]))
        check("Noise switches", rows(lambda t: t["timed_involuntary_switches"]))
        check("Noise migrations", rows(lambda t: t["timed_migrations"]))
mpi = doc.get("mpi")
if mpi is not None and mpi["ranks"] > 16:
    per = mpi["per_rank"]
    hosts = {}
    for r in per:
        hosts[r["host"]] = hosts.get(r["host"], 0) + 1
    check("MPI ranks/host", sorted(hosts.items()))
    check("MPI CPUs/rank", [("rank %d on %s" % (r["rank"], r["host"]), r["cpu_count"]) for r in per])
PY
}

# summaries_ok TEXT JSON DESC: every summary line agrees with the JSON.
summaries_ok() {
    local result
    result=$(check_summaries "$1" "$2")
    note "$result"
    is "$(grep -c '^not ok' <<<"$result")" 0 "$3"
}

run_and_check() {  # run_and_check NAME THREADS ARGS...: runs clomp; sets rc
    local name=$1
    shift
    "$CLOMP" "$@" --json="$tmp/$name.json" >"$tmp/$name.txt" 2>"$tmp/$name.err"
    rc=$?
}

# ---- quick lane: 20 threads (20 parts of 1000 zones: 50 iterations, a second or two) ----------
run_and_check t20 20 -1 20 1000 32 1 1 --schedules=static
is "$rc" 0 "a 20-thread run completes and verifies"
text=$(cat "$tmp/t20.txt")
is "$(grep -c '^ Thread placement: [0-9]* -> cpu' <<<"$text")" 0 "beyond 16 threads the placement table is not printed line by line"
like "$text" "^ Thread placement: 20 threads, summarised \(more than 16; every thread's cpu, core and node are in the JSON's thread_placement\)$" \
    "but summarised, saying where the full table is"
is "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["numa"]["thread_placement"]["threads"]))' "$tmp/t20.json")" 20 \
    "and the JSON holds all 20 threads"
is "$(grep -c -e '^ *Noise thread [0-9]*:' -e '^ *Noise timed [0-9]*:' <<<"$text")" 0 \
    "nor are the noise census's per-thread probe and timed lines"
like "$text" "^    Noise threads: 20, summarised \(more than 16; every thread's probe is in the JSON's noise_census.threads\)$" \
    "the noise census says its per-thread lines are summarised, and where they are in full"
summaries_ok "$tmp/t20.txt" "$tmp/t20.json" "the 20-thread summaries (threads per core, CPUs per thread, threads by node, the noise census's probe and timed figures) agree with the JSON's full table"
run_and_check t16 16 -1 16 1000 32 1 1 --schedules=static
is "$(grep -c '^ Thread placement: [0-9]* -> cpu' "$tmp/t16.txt")" 16 "at 16 threads the table is still printed in full"
is "$(grep -c '^   Noise thread [0-9]*:' "$tmp/t16.txt")" 16 "and so are the noise census's probe lines"

skip_unless_full_lane "64 threads, nested 8x8, MAX_THREADS 64 and 32 ranks" || done_testing

# ---- 64 threads, and nested 8x8 ---------------------------------------------------------
# 64 parts of 1000 zones: 16 iterations, so that 64 threads on few cores take seconds, not minutes.
want=$("$ORACLE" 64 -1 64 1000 32 1 1 | sed -n 's/^Checksum: //p')
started=$(now)
run_and_check t64 64 -1 64 1000 32 1 1
is "$rc" 0 "a 64-thread run completes and verifies"
note "64 threads: $(awk -v a="$started" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"
is "$(sed -n 's/^ *Static OMP Checksum: //p' "$tmp/t64.txt")" "$want" "its Static OMP checksum is the oracle's"
hw=$("$CLOMP" --topology | sed -n 's/^hardware threads: //p')
if [ "$hw" -lt 64 ]; then
    like "$(cat "$tmp/t64.txt")" "^   Oversubscribed: 64 threads on $hw hardware threads" "and its set-up lines mark it oversubscribed (issue 47)"
else
    skip "and its set-up lines mark it oversubscribed (issue 47)" "this machine has 64 hardware threads or more"
fi
summaries_ok "$tmp/t64.txt" "$tmp/t64.json" "the 64-thread summaries agree with the JSON's full table"
ok "$(awk 'length > 400 { bad = 1 } END { exit bad }' "$tmp/t64.txt"; echo $?)" "no line of its text is longer than 400 characters"

started=$(now)
run_and_check n88 64 -1 64 1000 32 1 1 --nested=8x8
is "$rc" 0 "a nested 8x8 run completes and verifies"
note "8x8: $(awk -v a="$started" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"
like "$(cat "$tmp/n88.txt")" "^ Nested OMP shape: 8x8 " "it runs the 8x8 shape"
if [ "$hw" -lt 64 ]; then
    like "$(cat "$tmp/n88.txt")" "^   Oversubscribed: 64 threads on $hw hardware threads" "marked oversubscribed, not refused (64 per hardware thread at most)"
else
    skip "marked oversubscribed, not refused" "this machine has 64 hardware threads or more"
fi
distinct=$(python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
m = [m for m in doc["measurements"] if m.get("nested_teams")][0]["nested_teams"]
print(m["distinct_cpus"], sum(len(t) for t in m["cpus"]))' "$tmp/n88.json")
like "$(cat "$tmp/n88.txt")" "^   Nested OMP     CPUs: inner teams' threads in the warm-up: ${distinct% *} distinct CPUs for ${distinct#* } threads \(summarised" \
    "its inner teams' CPUs are summarised with the JSON's distinct CPU and thread counts"

# ---- a suite with MAX_THREADS 64 --------------------------------------------------------
plan=$("$top/run_clomp.sh" --dry-run --quick "$CLOMP" 64 2>&1)
is "$?" 0 "run_clomp.sh --dry-run --quick with MAX_THREADS 64 plans the suite"
# The sweep: 1..16, 32, 64 threads at each of the 3 zone sizes of --quick (6400, 64000, 640000);
# the target zones' sweep also MAX_THREADS - 1, 63 (the team-size cliff, issue 32 item 4).
for z in 6400 64000 640000; do
    got=$(awk -v s="${z}zones" '$2 == s { print $4 }' <<<"$plan" | tr '\n' ' ')
    want="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 32 64 "
    [ "$z" != 6400 ] || want="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 32 63 64 "
    is "$got" "$want" "its ${z}-zone sweep runs 1..16, 32 and 64 threads$([ "$z" != 6400 ] || echo ', and 63')"
done
like "$(grep ' key ' <<<"$plan" | head -n 1)" " key +$CLOMP 64 -1 64 100 32 1 1 " "its key runs use 64 threads"
like "$(tail -n 1 <<<"$plan")" "^Estimated total: ~[0-9]+:[0-9]+ \(mm:ss\); nothing was run\.$" "and the dry run estimates the time"

# ---- 32 ranks --------------------------------------------------------------------------
if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1 || [ -n "${CLOMP_SANITIZED:-}" ]; then
    skip "clomp_mpi with 32 ranks" "no mpicc/mpirun (apt-get install openmpi-bin libopenmpi-dev), or a sanitized build"
    done_testing
fi
tree_cc=$(sed -n 's/^CC=//p' "$build/compiler-flags" 2>/dev/null)
export OMPI_CC=${OMPI_CC:-${tree_cc:-${CC:-gcc}}}
# One build at a time: make check runs test files two at a time, and mpi.t, scale.t and
# slurm.t build the same clomp_mpi.
mkdir -p "$build"
if ! flock "$build/mpi-build.lock" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top" --no-print-directory MPI=1 BUILD="$build/mpi" \
    clomp_mpi >"$tmp/build.log" 2>&1; then
    echo "Bail out! make MPI=1 failed: $(tail -5 "$tmp/build.log")"
    exit 255
fi
launcher=(mpirun --oversubscribe)
[ "$(id -u)" -ne 0 ] || launcher+=(--allow-run-as-root)
started=$(now)
timeout 600 "${launcher[@]}" -np 32 "$top/clomp_mpi" 1 1 16 1000 32 1 1 --json="$tmp/r32.json" >"$tmp/r32.txt" 2>"$tmp/r32.err"
is "$?" 0 "clomp_mpi with 32 ranks completes and verifies on every rank"
note "32 ranks: $(awk -v a="$started" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"
is "$(grep -c '^ *MPI rank [0-9]*: host ' "$tmp/r32.txt")" 0 "beyond 16 ranks the rank layout is not printed rank by rank"
like "$(cat "$tmp/r32.txt")" "^        MPI ranks: 32 on 1 host, summarised " "but summarised"
summaries_ok "$tmp/r32.txt" "$tmp/r32.json" "the 32-rank summaries (ranks per host, CPUs per rank) agree with the JSON's mpi.per_rank"
want=$("$ORACLE" 1 1 16 1000 32 1 1 | sed -n 's/^Checksum: //p')
sums=$(rank_checksums "$tmp/r32.json")
is "$(awk '{ print $1 }' <<<"$sums" | sort -un | wc -l)" 32 "the JSON has checksums from all 32 ranks"
bad=$(grep -v " $want\$" <<<"$sums")
is "$bad" "" "every one of the 32 ranks' checksums equals the oracle's"
gather=$(python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
g = doc["mpi"]["gather"]
shared = len(doc["mpi"]["per_rank"][0]["measurements"])   # one round (the default)
print(g["count"] == shared, g["bytes_per_rank"] > 0, 0 < g["min_seconds"] <= g["mean_seconds"] <= g["total_seconds"])' "$tmp/r32.json")
is "$gather" "True True True" \
    "the JSON records rank 0's gather time: one gather per shared measurement (one round), min <= mean <= total"

done_testing
