#!/usr/bin/env bash
# The main job a newcomer runs (make run): threads bound as the README
# recommends, and a verdict at the end that answers the question from the
# figures the run measured. The oracle for the verdict is the run's own JSON
# (the same record, another writer): whether the census found the machine
# busy (then the verdict leads with it and concludes nothing), whether a
# figure is not a result, the speedup it states, whether it calls the run too
# noisy; and it never says both "does NOT speed up" and "Too noisy to say".
# No timing is asserted.

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
run_clomp --verdict --json="$tmp/run.json" "${input[@]}"
is "$rc" 0 "clomp --verdict exits 0"
verdict=$(printf '%s\n' "$out" | sed -n '/^----------- Verdict ----------$/,$p')
ok "$([ -n "$verdict" ]; echo $?)" "the verdict follows the CORAL RFP line"
is "$(printf '%s\n' "$out" | grep -B1 '^----------- Verdict' | head -n 1 | cut -c1-10)" "CORAL RFP," \
    "right after it: CLOMP 1.2's report is complete and unchanged before it"

# What the JSON says, computed independently of the text writer: whether the
# census found the machine busy, whether a figure the verdict rests on is not
# a result, the speedup, and whether the run is too noisy.
read -r busy invalid speedup noisy < <(python3 - "$tmp/run.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["key"]: x for x in d["measurements"]}
st = m["static"]
busy = d["noise_census"]["busy"] is True
invalid = next((m[k]["name"].replace(" ", "_") for k in ("serial", "bestcase", "static") if m[k]["valid"] is False), "-")
ci = st["overhead_ci_95"]
straddles = ci is not None and ci[0] <= 0 <= ci[1]
cv = any(m[k]["statistics"] and m[k]["statistics"]["n"] >= 2 and m[k]["statistics"]["cv"] > 0.10
         for k in ("serial", "bestcase", "static", "barrier", "parallel_for"))
print(int(busy), invalid, "%.2f" % st["speedup"] if st["speedup"] is not None else "-", int(straddles or cv))
PY
)
note "the JSON: busy $busy, first invalid figure $invalid, Static OMP speedup $speedup, noisy $noisy"
contradiction=$(printf '%s\n' "$verdict" | grep -c -e 'does NOT speed up' -e 'still speeds up' -e '^Too noisy to say')
ok $((contradiction > 1)) "the verdict never states a speedup conclusion beside 'Too noisy to say' (nor two conclusions)"
if [ "$busy" = 1 ]; then
    like "$(printf '%s\n' "$verdict" | sed -n 2p)" \
        "^This machine was busy: these figures measure the contention, not the node's OpenMP overhead \(.*busy: a thread lost [0-9]+% or more\)" \
        "the JSON says the census found the machine busy: the verdict leads with it, and the threshold"
    is "$(printf '%s\n' "$verdict" | grep -ciE 'speeds? up|^Speedup:|^LLNL targets:|too noisy')" 0 \
        "and states no speedup conclusion, no LLNL verdict and no noise judgement"
elif [ "$invalid" != - ]; then
    like "$verdict" "^Not a result: ${invalid//_/ } is invalid \(" "the JSON says ${invalid//_/ } is not a result: the verdict says so"
    is "$(printf '%s\n' "$verdict" | grep -ciE 'speeds? up|^Speedup:')" 0 "and draws no speedup conclusion"
else
    like "$verdict" "^Speedup: Static OMP runs ${speedup}x as fast as Serial Ref on 2 threads" \
        "the verdict's speedup is the JSON's Static OMP speedup ($speedup)"
    if [ "$noisy" = 1 ]; then
        like "$verdict" "^Speedup: .*: no conclusion about a loop of $zones zones: too noisy" \
            "a noisy run's speedup line draws no conclusion"
    elif awk -v s="$speedup" 'BEGIN { exit !(s > 1) }'; then
        like "$verdict" "a loop of $zones zones still speeds up" "a speedup above 1 is called a speed-up of the $zones-zone loop"
    else
        like "$verdict" "a loop of $zones zones does NOT speed up" "a speedup of 1 or less is called no speed-up"
    fi
    like "$verdict" "^Overhead: .* us per parallel for against Bestcase OMP \(95% CI .* \.\. .*, within this process\)" \
        "the overhead comes with its interval, said to be within this process"
    like "$verdict" "^LLNL targets: Barrier latency \(OMP Barrier\) < 200 core cycles: (met|not met|undecided|unavailable|invalid); Parallel-for overhead" \
        "the LLNL targets are met, not met or undecided, in core cycles"
    if [ "$noisy" = 1 ]; then
        like "$verdict" "^Too noisy to say: .* Run it on an idle node with the threads bound" \
            "the JSON shows a noisy run (a CV above 10% in what it rests on, or an overhead interval around 0): the verdict says it is too noisy, and what to do"
    else
        like "$verdict" "^Noise: chunk times vary by less than 10%" "the JSON shows a quiet run: the verdict says the figures are stable"
    fi
fi

# The rest is about the verdict's own rules on a machine taken as quiet (no
# census): one chunk, no verdict without Static OMP, none without Bestcase.
run_clomp --verdict --trials=1 --noise-census=off "${input[@]}"
like "$(printf '%s\n' "$out" | tail -n 1)" "^Noise: not measured \(one timed chunk per run" \
    "with one timed chunk per run (--trials=1) the verdict does not call the figures stable: it says noise was not measured"
run_clomp "${input[@]}"
is "$(printf '%s\n' "$out" | tail -n 1 | cut -c1-10)" "CORAL RFP," "without --verdict the report ends with CLOMP 1.2's CORAL RFP line"

run_clomp --verdict --schedules=serial,bestcase "${input[@]}"
like "$out" "No verdict: it needs Serial Ref and Static OMP" "without Static OMP there is no verdict, and it says why"
run_clomp --verdict --schedules=serial,static --noise-census=off --json="$tmp/nobest.json" "${input[@]}"
if python3 -c 'import json,sys; sys.exit(all(m["valid"] is not False for m in json.load(open(sys.argv[1]))["measurements"]))' "$tmp/nobest.json"; then
    like "$out" "^Not a result: (Serial Ref|Static OMP) is invalid" "without Bestcase OMP, a figure that is not a result (the JSON's valid) is named"
else
    like "$out" "^Speedup: Static OMP runs [0-9.]+x as fast as Serial Ref on 2 threads \(median chunks\): " \
        "without Bestcase OMP the verdict still gives the speedup"
fi
unlike_overhead=$(printf '%s\n' "$out" | grep -c '^Overhead: ')
is "$unlike_overhead" 0 "and no overhead, which needs Bestcase OMP"
done_testing
