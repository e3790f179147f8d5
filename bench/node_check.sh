#!/usr/bin/env bash
# bench/node_check.sh: ONE prepared check for a real many-core node (issue 47,
# item 9; docs/running.md, "Checking a many-core node"): what clomp says about
# the node, in order of value, each part with its own time budget under
# `timeout`, a part whose budget no longer fits skipped and said so, and one
# summary file. 9 minutes in all by default (BUDGET=540), sized for 16 cores.
#   1. topology   clomp --topology (the cores as the job sees them, SMT, domains)
#   2. sweep      the key figures (Static speedup and overhead, OMP Barrier,
#                 fork/join, Parallel For) at 1, 2, 4, ... threads to all cores,
#                 the target input's 6400 zones, parts following the team
#   3. nested     Nested OMP 4x4 and 2x8 (OMP_PROC_BIND=spread,close): 16 cores or more
#   4. cliff      the four cliff figures at cores - 1, cores, cores + 1 with the
#                 same settings, judged as the suite's report judges them (cliff.py)
#   5. detect     bench/detect.sh at all cores: 0 and +0.05 us, 10 pairs
#   6. constructs bench/constructs.sh at all cores (one process per side)
#   7. wait       run_clomp.sh --sweep wait (--quick, 2 replicates)
#   8. grain      run_clomp.sh --grain --quick, when this build has it
#   9. limits     clomp --limits, when this build has it
# Figures only: nothing here passes or fails. Environment: BUDGET (seconds,
# default 540), TIME_SCALE (the runs' timeScale, default 20), CORES (default:
# clomp --topology's count), OUT (default out/node-check), and the parts' own
# budgets PART_BUDGET_<name> (e.g. PART_BUDGET_sweep=200). The load is quoted
# before and after every part.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

budget=${BUDGET:-540}
time_scale=${TIME_SCALE:-20}
out=${OUT:-out/node-check}
start=$(date +%s)
mkdir -p "$out" || exit 1
summary=$out/summary.txt
: >"$summary" || exit 1
say() { echo "node-check: $*" | tee -a "$summary"; }
left() { echo $((budget - ($(date +%s) - start))); }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }

make --no-print-directory -s clomp clomp-stats clomp-write >"$out/build.log" 2>&1 || { say "make failed: $out/build.log"; exit 1; }
cores=${CORES:-$(./clomp --topology | sed -n 's/^cores: //p')}
[[ $cores =~ ^[1-9][0-9]*$ ]] || { say "cannot count the cores (clomp --topology)"; exit 1; }
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}
say "$(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n): $cores cores, budget ${budget}s, timeScale $time_scale," \
    "OMP_PROC_BIND=$OMP_PROC_BIND OMP_PLACES=$OMP_PLACES, load $(load)"
have_python=0
python3 -c 'import sys; sys.exit(sys.version_info < (3, 8))' 2>/dev/null && have_python=1
export time_scale cores out have_python   # the parts run in shells of their own, under timeout

# shape T: "numParts zonesPerPart" of the target input at T threads (suite/common.sh).
shape() { bash -c '. suite/common.sh && team_shape "$1" 6400 64' shape "$1"; }

# part NAME SECONDS FUNCTION: runs FUNCTION (its output into the summary) under
# its budget, or skips it when that no longer fits what is left.
part() {
    local name=$1 want=$2 fn=$3 rest began rc
    want=$(eval "echo \${PART_BUDGET_$name:-$want}")
    rest=$(left)
    if [ "$rest" -lt "$want" ]; then
        say "part $name: skipped: its budget of ${want}s does not fit the ${rest}s left"
        return 0
    fi
    began=$(date +%s)
    say "part $name: start (budget ${want}s, load $(load))"
    timeout "$want" bash -c "$(declare -f "$fn" shape figures); $fn" 2>>"$out/$name.err" | tee -a "$summary"
    rc=${PIPESTATUS[0]}
    case $rc in
        0) say "part $name: done in $(($(date +%s) - began))s (load $(load))" ;;
        124) say "part $name: cut at its budget of ${want}s: what it printed above is what it measured" ;;
        *) say "part $name: failed (exit $rc; $out/$name.err)" ;;
    esac
}

# figures JSON...: one line per run: threads, parts x zones, the key figures (python3; else the text's lines).
figures() {
    python3 - "$@" <<'PY'
import json, sys
for path in sys.argv[1:]:
    try:
        d = json.load(open(path))
    except (OSError, ValueError):
        print("  %s: no record" % path)
        continue
    m = {x["key"]: x for x in d["measurements"]}
    def us(k, f="us_per_loop"):
        v = m.get(k, {}).get(f)
        return "%9.3f" % v if isinstance(v, (int, float)) else "      N/A"
    sp = m.get("static", {}).get("speedup")
    print("  %4d threads %4d x %-5d  Static speedup %6s  overhead %s us  Barrier %s  fork/join %s  Parallel For %s us" % (
        d["resolved"]["numThreads"], d["inputs"]["numParts"], d["inputs"]["zonesPerPart"],
        "%.2f" % sp if isinstance(sp, (int, float)) else "N/A", us("static", "overhead_us_per_loop"), us("barrier"),
        us("parallel"), us("parallel_for")))
PY
}

part_topology() { ./clomp --topology; }

part_sweep() {
    local t teams=() json=()
    for ((t = 1; t < cores; t *= 2)); do teams+=("$t"); done
    teams+=("$cores")
    for t in "${teams[@]}"; do
        # shellcheck disable=SC2046  # shape's two numbers
        ./clomp "$t" -1 $(shape "$t") 32 1 "$time_scale" --json="$out/sweep-$t.json" >"$out/sweep-$t.txt" 2>&1 ||
            echo "  $t threads: clomp exited $? ($out/sweep-$t.txt)"
        json+=("$out/sweep-$t.json")
        if [ "$have_python" = 1 ]; then figures "$out/sweep-$t.json"; else grep -E '^ *(Static OMP  Speedup|OMP Barrier  us/Loop)' "$out/sweep-$t.txt"; fi
    done
}

part_nested() {
    local s
    if [ "$cores" -lt 16 ]; then echo "  skipped: 4x4 and 2x8 need 16 cores; this node has $cores"; return 0; fi
    for s in 4x4 2x8; do
        OMP_PROC_BIND=spread,close ./clomp --nested="$s" --schedules=bestcase,nested 16 -1 64 100 32 1 "$time_scale" \
            >"$out/nested-$s.txt" 2>&1 || echo "  $s: clomp exited $?"
        grep -E '^ *Nested OMP (shape|  us/Loop|Efficacy|   Teams|    CPUs)' "$out/nested-$s.txt" | cut -c1-200
    done
}

part_cliff() {
    local t
    for t in $((cores - 1)) "$cores" $((cores + 1)); do
        [ "$t" -ge 1 ] || continue
        # shellcheck disable=SC2046  # shape's two numbers
        ./clomp --schedules=bestcase,static,barrier,parallel,parallel_for "$t" -1 $(shape "$t") 32 1 "$time_scale" \
            --json="$out/cliff-$t.json" >"$out/cliff-$t.txt" 2>&1 || echo "  $t threads: clomp exited $?"
    done
    [ "$have_python" = 1 ] || { echo "  (python3 needed to judge the step: records in $out/cliff-*.json)"; return 0; }
    python3 - "$out" "$cores" <<'PY'
import json, os, sys
sys.path.insert(0, "results")
from clomp_results.core import cliff
out, cores = sys.argv[1], int(sys.argv[2])
runs = []
for t in (cores - 1, cores, cores + 1):
    path = os.path.join(out, "cliff-%d.json" % t)
    if os.path.exists(path):
        runs.append(("6400zones" if t <= cores else cliff.OVERSUBSCRIBED_SET, t, json.load(open(path))))
for row in cliff.judge(cliff.points(runs, "6400zones"), cores):
    print("  %s: %s" % (row["name"], row["why"]))
PY
}

part_detect() {
    # shellcheck disable=SC2046  # shape's two numbers
    bench/detect.sh --sizes 0,0.05 --reps 1 --processes 10 -- "$cores" 1 $(shape "$cores") 32 1 "$time_scale" --schedules=bestcase,static
}

part_constructs() { bench/constructs.sh --runs 1 --threads "$cores"; }

part_wait() { ./run_clomp.sh --sweep wait --quick --replicates 2 --no-plots --out "$out/wait" 2>&1 | tail -n 25; }

part_grain() {
    if ! ./run_clomp.sh --help 2>&1 | grep -q -- '--grain'; then echo "  --grain: not in this build (issue 48 adds run_clomp.sh --grain)"; return 0; fi
    ./run_clomp.sh --grain --quick --out "$out/grain" 2>&1 | tail -n 25
}

part_limits() {
    if ! ./clomp --help 2>&1 | grep -q -- '--limits'; then echo "  --limits: not in this build (issue 48 adds clomp --limits)"; return 0; fi
    # shellcheck disable=SC2046  # shape's two numbers
    ./clomp --limits --schedules=serial "$cores" -1 $(shape "$cores") 32 1 1 2>&1 | tail -n 30
}

part topology 10 part_topology
part sweep 150 part_sweep
part nested 40 part_nested
part cliff 60 part_cliff
part detect 100 part_detect
part constructs 80 part_constructs
part wait 70 part_wait
part grain 60 part_grain
part limits 30 part_limits
say "done in $(($(date +%s) - start))s of ${budget}s, load $(load); summary: $summary"
