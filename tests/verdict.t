#!/usr/bin/env bash
# The main job a newcomer runs (make run): threads bound as the README
# recommends, and the answer block at the end (issue 43, item 3) that answers
# the question from the figures the run measured. The oracle for the answer
# is the run's own JSON (the same record, another writer): whether the census
# found the machine busy (then the answer says so in one sentence and
# concludes nothing), whether a figure is not a result, the speedup it states
# and its interval, whether it calls the run too noisy; and it never states a
# speedup conclusion beside "Quiet enough: no". Run twice: as make run runs
# it, and without the census (so that the answer's figures are checked on a
# busy machine too). No timing is asserted.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
plan=$(make -s -C "$top" -n run 2>/dev/null)
like "$plan" "OMP_PROC_BIND=" "make run binds the threads (OMP_PROC_BIND)"
like "$plan" "OMP_PLACES=" "and places them (OMP_PLACES), as the README recommends"
like "$plan" "make run: .*threads bound" "and says so before it runs"
# shellcheck disable=SC2016  # the recipe's own $shape, literally
like "$plan" '\./clomp -1 1 \$shape 32 1 100 --verdict' "make run runs the target input and asks for the verdict"
like "$plan" "clomp --topology" "on the cores clomp counts (clomp --topology)"
# Parts follow the team (issue 47, item 1): the shape make run gives CORES threads, by the rule it states.
for cores in 2 16 64 3 96 128 256; do
    shape=$(cd "$top" && bash -c '. suite/common.sh && team_shape "$1" 6400 64' team_shape "$cores")
    read -r parts zpp <<<"$shape"
    if [ $((64 % cores)) = 0 ]; then want="64 100"; else want="$parts $zpp"; fi
    ok "$([ "$shape" = "$want" ] && [ $((parts % cores)) = 0 ] && [ "$parts" -ge "$cores" ] &&
        awk -v z=$((parts * zpp)) 'BEGIN { exit !(z >= 6080 && z <= 6720) }'; echo $?)" \
        "at $cores cores make run's input has $parts parts of $zpp zones: $([ $((64 % cores)) = 0 ] && echo "CLOMP 1.2's, as $cores divides 64" || echo "a multiple of the cores"), within 5% of 6400 zones"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMP_WAIT_POLICY=passive
input=(2 1 16 100 32 1 1)
zones=$((input[2] * input[3]))
for census in on off; do
note "--noise-census=$census"
run_clomp --verdict --noise-census=$census --json="$tmp/run.json" "${input[@]}"
is "$rc" 0 "clomp --verdict exits 0"
verdict=$(printf '%s\n' "$out" | sed -n '/^----------- Answer ----------$/,$p')
ok "$([ -n "$verdict" ]; echo $?)" "the answer block ends the report"
is "$(printf '%s\n' "$out" | grep -B1 '^----------- Answer' | head -n 1 | cut -c1-10)" "CORAL RFP," \
    "right after the CORAL RFP line: CLOMP 1.2's report is complete and unchanged before it"
ok $(($(line_count "$verdict") > 20)) "the whole answer is in the report's last 20 lines ($(line_count "$verdict"))"

# What the JSON says, computed independently of the text writer: whether the
# census found the machine busy, whether a figure the answer rests on is not
# a result, the speedup and its interval, and whether the run is too noisy.
read -r busy invalid speedup low high noisy < <(python3 - "$tmp/run.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["key"]: x for x in d["measurements"]}
st = m["static"]
busy = (d["noise_census"] or {}).get("busy") is True
invalid = next((m[k]["name"].replace(" ", "_") for k in ("serial", "bestcase", "static") if m[k]["valid"] is False), "-")
ci = st["overhead_ci_95"]
straddles = ci is not None and ci[0] <= 0 <= ci[1]
cv = any(m[k]["statistics"] and m[k]["statistics"]["n"] >= 2 and m[k]["statistics"]["cv"] > 0.10
         for k in ("serial", "bestcase", "static", "barrier", "parallel_for"))
sci = st["speedup_ci_95"] or ["-", "-"]
print(int(busy), invalid, "%.2f" % st["speedup"] if st["speedup"] is not None else "-", sci[0], sci[1],
      int(straddles or cv))
PY
)
note "the JSON: busy $busy, first invalid figure $invalid, Static OMP speedup $speedup ($low .. $high), noisy $noisy"
contradiction=$(printf '%s\n' "$verdict" | grep -c -e 'does NOT pay' -e 'loop pays' -e '^Quiet enough: no')
ok $((contradiction > 1)) "the answer never states a speedup conclusion beside 'Quiet enough: no' (nor two conclusions)"
if [ "$busy" = 1 ]; then
    like "$(printf '%s\n' "$verdict" | sed -n 2p)" "^Busy: +this machine was busy \(.*busy: a thread lost [0-9]+% or more\)" \
        "the JSON says the census found the machine busy: the answer says so in one sentence, with the threshold"
    is "$(printf '%s\n' "$verdict" | grep -ciE 'pays|^Speedup:|LLNL|quiet enough')" 0 \
        "and states no speedup conclusion, no LLNL verdict and no noise judgement"
elif [ "$invalid" != - ]; then
    like "$verdict" "Not a result: ${invalid//_/ } is invalid \(" "the JSON says ${invalid//_/ } is not a result: the answer says so"
    is "$(printf '%s\n' "$verdict" | grep -ciE 'pays|^Speedup:')" 0 "and draws no speedup conclusion"
else
    like "$verdict" "Speedup: +[0-9.]+x.*, Static OMP over Serial Ref on 2 threads \(median chunks\)" \
        "the answer gives the speedup of the median chunks"
    is "$(printf '%s\n' "$verdict" | python3 -c 'import re, sys
t = sys.stdin.read(); m = re.search(r"Speedup: +([0-9.]+)x", t); print(m.group(1) if m else "-")' | awk '{ printf "%.1f", $1 }')" \
        "$(awk -v s="$speedup" 'BEGIN { printf "%.1f", s }')" "the answer's speedup is the JSON's Static OMP speedup ($speedup), to its printed precision"
    if [ "$noisy" = 1 ]; then
        like "$verdict" "Speedup: .*: no conclusion about this $zones-zone loop \(too noisy" "a noisy run's speedup line draws no conclusion"
        like "$verdict" "Quiet enough: no: .*threads bound" "and the answer says it was not quiet enough, and what to do"
    elif [ "$low" != - ] && awk -v l="$low" 'BEGIN { exit !(l > 1) }'; then
        like "$verdict" "threading this $zones-zone loop pays" "a speedup interval above 1 says threading the $zones-zone loop pays"
    elif [ "$high" != - ] && awk -v h="$high" 'BEGIN { exit !(h < 1) }'; then
        like "$verdict" "threading this $zones-zone loop does NOT pay" "an interval below 1 says it does not pay"
    else
        like "$verdict" "no conclusion" "an interval holding 1 (or none) draws no conclusion"
    fi
    like "$verdict" "^Overhead: +[-0-9.]+ us per loop" "the overhead is one figure"
    like "$verdict" "^ +\(Static OMP overhead us/Loop \([a-z ]+\): the project's overhead" "its statistic named: the project's"
    like "$verdict" "Barrier: +.*(LLNL target < 200 core cycles: (met|not met|undecided|unavailable)|not a result)" \
        "barrier against LLNL's target, in core cycles"
    like "$verdict" "Fork/join: +" "and fork/join"
fi
done

# The rest is about the verdict's own rules on a machine taken as quiet (no
# census): one chunk, no verdict without Static OMP, none without Bestcase.
run_clomp --verdict --trials=1 --noise-census=off "${input[@]}"
like "$(printf '%s\n' "$out" | tail -n 1)" "^Quiet enough: not measured \(one timed chunk per run" \
    "with one timed chunk per run (--trials=1) the answer does not call the figures stable: it says noise was not measured"
run_clomp "${input[@]}"
is "$(printf '%s\n' "$out" | tail -n 1 | cut -c1-10)" "CORAL RFP," "without --verdict the report ends with CLOMP 1.2's CORAL RFP line"

run_clomp --verdict --schedules=serial,bestcase "${input[@]}"
like "$out" "No answer: +it needs Serial Ref and Static OMP" "without Static OMP there is no answer, and it says why"
run_clomp --verdict --schedules=serial,static --noise-census=off --json="$tmp/nobest.json" "${input[@]}"
if python3 -c 'import json,sys; sys.exit(all(m["valid"] is not False for m in json.load(open(sys.argv[1]))["measurements"]))' "$tmp/nobest.json"; then
    like "$out" "^Not a result: (Serial Ref|Static OMP) is invalid" "without Bestcase OMP, a figure that is not a result (the JSON's valid) is named"
else
    like "$out" "Speedup: +[0-9.]+x.*, Static OMP over Serial Ref on 2 threads \(median chunks\): " \
        "without Bestcase OMP the answer still gives the speedup"
fi
unlike_overhead=$(printf '%s\n' "$out" | grep -c '^Overhead: ')
is "$unlike_overhead" 0 "and no overhead, which needs Bestcase OMP"
done_testing
