#!/usr/bin/env bash
# A busy machine is named, not measured (issue 35): with a busy loop pinned
# on one of the team's CPUs (started and stopped here), the noise census
# finds the machine busy, the answer block that ends the report says "this
# machine was busy ... these figures measure the contention, not OpenMP" in
# one sentence, what to do, and no speedup conclusion; every construct row that ran is
# "unresolved", never an overhead. The oracle for "busy" is the census's own
# per-thread figures in the JSON (the loss of the thread on the busy CPU),
# held to the threshold the JSON states; no timing is asserted beyond that.
# A mesh of 64 x 1000 zones runs 16 iterations: each subcycle's barrier
# waits for the thread that shares its CPU, so few subcycles keep it short.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out=''
for tool in taskset python3; do
    command -v "$tool" >/dev/null 2>&1 || { printf '1..0 # SKIP %s not installed\n' "$tool"; exit 0; }
done

tmp=$(mktemp -d)
busy_pid=''
stop_busy() {
    [ -n "$busy_pid" ] || return 0
    kill "$busy_pid" 2>/dev/null
    wait "$busy_pid" 2>/dev/null
    gone=$busy_pid busy_pid=''
}
# The busy loop is stopped on every way out: the end, a failure, a signal.
trap 'stop_busy; rm -rf "$tmp"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# The team: the first two CPUs this process may use, one thread bound to each
# (OMP_PLACES lists them), so that the busy CPU is a team thread's.
mapfile -t cpus < <(python3 -c 'import os; print("\n".join(str(c) for c in sorted(os.sched_getaffinity(0))[:2]))')
threads=${#cpus[@]}
places=$(printf '{%s},' "${cpus[@]}")
busy_cpu=${cpus[0]}

taskset -c "$busy_cpu" sh -c 'while :; do :; done' &
busy_pid=$!
sleep 0.2
kill -0 "$busy_pid" 2>/dev/null
ok $? "a busy loop runs pinned on CPU $busy_cpu, thread 0's of a team of $threads on CPUs ${cpus[*]}"

OMP_PROC_BIND=close OMP_PLACES=${places%,} OMP_WAIT_POLICY=passive \
    run_clomp --verdict --schedules=serial,bestcase,static --constructs=barrier,atomic,static_n --construct-chunks=1 \
    --construct-time=100 --construct-reps=6 --json="$tmp/run.json" --csv="$tmp/constructs.csv" "$threads" 1 64 1000 32 1 1
stop_busy
is "$rc" 0 "clomp --verdict --constructs runs to the end beside the busy loop"
kill -0 "$gone" 2>/dev/null
ok $((!$?)) "the busy loop is stopped once clomp is done"

# The census's own figures: the thread on the busy CPU lost at least the
# threshold's share of the probe, and the record says busy with the reason.
census=$(python3 - "$tmp/run.json" "$busy_cpu" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["noise_census"]
cpu = int(sys.argv[2])
bad = []
t = c["busy_threshold"]
if not (isinstance(t, float) and 0 < t < 1):
    bad.append(f"busy_threshold {t!r} is not a share between 0 and 1")
else:
    lost = [th["lost_fraction"] for th in c["threads"] if th["cpu"] == cpu]
    if not lost:
        bad.append(f"no probed thread ran on CPU {cpu}: {[th['cpu'] for th in c['threads']]}")
    elif max(lost) < t:
        bad.append(f"the thread on CPU {cpu} lost {max(lost):.3f}, under the threshold {t}")
    if c["busy"] is not True or not c["busy_reason"] or "lost" not in c["busy_reason"]:
        bad.append(f"busy {c['busy']!r}, reason {c['busy_reason']!r}")
print("; ".join(bad) or "ok")
PY
)
is "$census" ok "the census: the thread on the busy CPU lost more than busy_threshold of its time; busy true, with a reason"
like "$out" "Noise busy: YES: the noise census's probe: thread [0-9]+ \\(CPU [0-9]+\\) lost" "the set-up's Noise busy line says so"
like "$out" "WARNING: this machine was busy: these figures measure the contention" "and a set-up WARNING"

# The answer block ends the report (after the construct table): on a busy machine two lines, "busy" in one
# sentence and what to do.
verdict=$(printf '%s\n' "$out" | sed -n '/^----------- Answer ----------$/,$p')
like "$(printf '%s\n' "$verdict" | sed -n 2p)" \
    "^Busy: +this machine was busy \(.*\), so these figures measure the contention, not OpenMP: no conclusion\.$" \
    "the answer ends the report and says the machine was busy, in one sentence"
like "$verdict" "busy: a thread lost [0-9]+% or more" "and states the threshold it judged on"
like "$(printf '%s\n' "$verdict" | sed -n 3p)" "^What to do: +stop the other work .*threads bound" "then what to do"
is "$(line_count "$verdict")" 3 "and nothing else: the header and those two lines"
conclusions=$(printf '%s\n' "$verdict" | grep -ciE 'pays|speeds? up|^Speedup:|noisy|quiet enough|LLNL')
is "$conclusions" 0 "it states no speedup conclusion (no speed-up, no Speedup line, no noise or LLNL judgement)"

rows=$(python3 - "$tmp/constructs.csv" "$tmp/run.json" <<'PY'
import csv, json, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] != "not run"]
levels = [lv for row in json.load(open(sys.argv[2]))["constructs"]["rows"] for lv in row["levels"]
          if lv["status"] != "not run"]
bad = [f"CSV {r['construct']} level {r['level']}: {r['status']} '{r['overhead_us']}' {r['problem']}" for r in rows
       if r["status"] != "unresolved" or r["overhead_us"] != "" or "busy" not in r["problem"]]
bad += [f"JSON level {lv['level']}: {lv['status']} {lv['overhead_us']}" for lv in levels
        if lv["status"] != "unresolved" or lv["overhead_us"] is not None]
print("; ".join(bad) if bad else f"ok {len(rows)} {len(levels)}")
PY
)
like "$rows" "^ok [1-9][0-9]* [1-9][0-9]*$" \
    "every construct row that ran is 'unresolved' (the machine was busy) with no overhead, in the CSV and the JSON ($rows)"
unresolved=$(printf '%s\n' "$out" | grep -cE '^(BARRIER|ATOMIC|STATIC 1) +1 +1x[0-9]+ +- unresolved: the machine was busy')
is "$unresolved" 3 "the text's construct lines say 'unresolved: the machine was busy', no overhead"
done_testing
