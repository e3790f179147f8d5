#!/usr/bin/env bash
# clomp's ReFrame test (integrations/reframe/clomp_check.py, issue 49 item 2),
# full lane, with ReFrame 4.10.1 from ../shared/reference/ecosystem and
# Debian's python3 (skipped, naming what is missing, without them): it builds
# clomp out of the tree and runs both inputs at 1 and 2 threads, passing with
# every figure of the catalogue's harness set printed as clomp's CSV has it, or
# skipped saying why clomp gave it no value; a stand-in run on a quiet node
# (its record says so) is judged against the generic references, passing
# under LLNL's 200 cycles and failing above them; a run whose schedule fails
# verification fails its sanity. About 1.5 min on the 2-core VM, most of it
# the build.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
skip_all_unless_full_lane "ReFrame runs clomp's test"

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/ecosystem.sh
. "$top/tests/lib/ecosystem.sh"
skip_all_without reframe ReFrame
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT
check=$top/integrations/reframe/clomp_check.py

# reframe NAME ARGS...: ReFrame on clomp's test, system generic, one run at a time; output in $tmp/NAME.
reframe() {
    local name=$1
    shift
    (cd "$tmp" && PYTHONPATH=$(reframe_pythonpath) "$ECOSYSTEM_PYTHON" -c '
import sys
from reframe.frontend.cli import main
sys.argv = ["reframe"] + sys.argv[1:]
main()' -c "$check" -r --system generic --exec-policy=serial --prefix "$tmp/$name" \
        -S clomp_check.time_scale=1 -S clomp_check.wait_policy=passive "$@") >"$tmp/$name.log" 2>&1
}

touch "$tmp/before"
CLOMP_REFRAME_THREADS=1,2 reframe built --keep-stage-files
rc=$?
ok "$([ "$rc" = 0 ] && grep -q 'PASSED .*Ran 5/5 test case' "$tmp/built.log"; echo $?)" \
    "ReFrame builds clomp and runs both inputs at 1 and 2 threads: 5/5 passed (exit $rc: $(grep -m1 -E 'PASSED|FAILED' "$tmp/built.log"))"
written=$(find "$top" -newer "$tmp/before" -print | head -n 3)
ok "$(find "$tmp/built/stage" -path '*clomp_build*' -name clomp -type f -perm -u+x | grep -q . && [ -z "$written" ]; echo $?)" \
    "clomp is built in the stage directory; nothing in the source tree is written ($written)"

# Every figure of every run: printed with the value clomp's CSV has, or skipped with clomp's reason.
mapfile -t keys < <(python3 "$top/integrations/clomp_figures.py" --list | cut -f1)
printed=0 accounted=0 wrong=()
for csv in "$tmp"/built/output/generic/default/builtin/clomp_check_*/clomp.csv; do
    hash=${csv%/clomp.csv}
    hash=${hash##*_}
    block=$(awk -v h="/$hash " 'index($0, h) && /OK|FAIL/ { on = 1; next } on && /^(P:|\[)/ { if (/^P:/) print; else exit }' "$tmp/built.log")
    expected=$(python3 "$top/integrations/clomp_figures.py" "$csv")
    for key in "${keys[@]}"; do
        want=$(grep "^$key=" <<<"$expected")
        got=$(grep "^P: $key: " <<<"$block" | awk '{ print $3 }')
        if [[ $want == *=n/a* ]]; then
            grep -qF "skipping evaluation of performance variable '$key': ${want#*# }" "$tmp/built.log" || wrong+=("$hash $key: n/a, not said")
        elif [ -n "$got" ] && python3 -c 'import sys; sys.exit(float(sys.argv[1]) != float(sys.argv[2]))' "$got" "${want#*=}"; then
            printed=$((printed + 1))
        else
            wrong+=("$hash $key: printed '$got', the CSV ${want#*=}")
        fi
        accounted=$((accounted + 1))
    done
done
ok "$([ "$accounted" = $((4 * ${#keys[@]})) ] && [ ${#wrong[@]} = 0 ] && [ "$printed" -gt 0 ]; echo $?)" \
    "every figure of the 4 runs ($accounted) is printed as clomp's CSV has it ($printed) or skipped with clomp's reason"
[ ${#wrong[@]} = 0 ] || diag "${wrong[@]}"
like "$(cat "$tmp/built.log")" 'figures printed, not judged: .*timeScale 1, not CLOMP.s 100' \
    "runs that cannot be judged (timeScale 1 here) print their figures, judged against no reference, saying why"

# A stand-in clomp whose record says the node was quiet and the threads bound, at timeScale 100:
# the generic references judge it (LLNL: the barrier under 200 cycles).
first=$(find "$tmp"/built/output/generic/default/builtin -name clomp.cali.json -path '*clomp_check*' | head -n 1)
mkdir "$tmp/quiet"
stand_in() {  # stand_in CYCLES: the run's files, its barrier at CYCLES cycles; the other judged figures within their bounds
    python3 - "$(dirname "$first")" "$tmp/quiet" "$1" <<'PYTHON'
import csv, json, os, sys
src, dst, cycles = sys.argv[1], sys.argv[2], float(sys.argv[3])
p = json.load(open(os.path.join(src, "clomp.cali.json")))
p.update(noise_busy=False, noise_busy_reason=None, threads_bound=True, oversubscribed=False, timeScale=100)
json.dump(p, open(os.path.join(dst, "clomp.cali.json"), "w"))
rows = list(csv.DictReader(open(os.path.join(src, "clomp.csv"), newline="")))
for r in rows:
    r["valid"] = "1" if r["valid"] != "" else ""
    if r["key"] == "barrier":
        r["llnl_target_cycles"] = repr(cycles)
    elif r["key"] == "parallel_for":
        r["llnl_target_cycles"] = "400"
    elif r["key"] == "static":
        r["speedup"] = "1.5"
with open(os.path.join(dst, "clomp.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
with open(os.path.join(src, "clomp.json")) as f, open(os.path.join(dst, "clomp.json"), "w") as g:
    g.write(f.read())
PYTHON
}
# The stand-in answers --list-figures as this tree's clomp does (the test asks it for its figures).
cat >"$tmp/quiet/clomp" <<EOF
#!/bin/sh
[ "\$1" != --list-figures ] || exec "$CLOMP" "\$@"
for a in "\$@"; do case \$a in --json=*) cp "$tmp/quiet/clomp.json" "\${a#--json=}" ;;
    --csv=*) cp "$tmp/quiet/clomp.csv" "\${a#--csv=}" ;; --caliper-json=*) cp "$tmp/quiet/clomp.cali.json" "\${a#--caliper-json=}" ;; esac; done
EOF
chmod +x "$tmp/quiet/clomp"
stand_in 150
CLOMP_REFRAME_THREADS=2 reframe under -n target -S clomp_build.binary="$tmp/quiet/clomp"
rc=$?
ok "$([ "$rc" = 0 ] && grep -q 'P: omp_barrier_llnl_target_cycles: 150.0 cycles' "$tmp/under.log" &&
    ! grep -q 'not judged' "$tmp/under.log"; echo $?)" "a quiet node's barrier of 150 cycles passes LLNL's 200 (exit $rc)"
stand_in 1500
CLOMP_REFRAME_THREADS=2 reframe over -n target -S clomp_build.binary="$tmp/quiet/clomp"
rc=$?
ok "$([ "$rc" != 0 ] && grep -q "P: omp_barrier_llnl_target_cycles: 1500.0 cycles (r:200, l:None, u:0.0)" "$tmp/over.log" && grep -q "=1500.0 cycles, expected 200 " "$tmp/over.log"; echo $?)" \
    "a quiet node's barrier of 1500 cycles fails it, naming the figure and the reference (exit $rc)"

# A schedule that fails verification fails the test's sanity.
if [ -x "${CLOMP_FAULTS_BIN-}" ]; then
    CLOMP_FAULT=lost-update CLOMP_REFRAME_THREADS=2 reframe faulty -n target -S clomp_build.binary="$CLOMP_FAULTS_BIN"
    rc=$?
    ok "$([ "$rc" != 0 ] && grep -q "sanity error: clomp's record says verification failed: Static OMP failed verification" "$tmp/faulty.log" && grep -q 'FAILED' "$tmp/faulty.log"; echo $?)" \
        "a run whose schedule fails verification fails the sanity check, naming the schedule (exit $rc: $(grep -m1 "Reason" "$tmp/faulty.log"))"
else
    skip "a run whose schedule fails verification fails the sanity check" "no clomp-faults (make clomp-faults)"
fi

done_testing
