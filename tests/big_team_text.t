#!/usr/bin/env bash
# Text reports that stay readable at 256 threads (issue 47, item 8): on a
# stand-in 128-core SMT-2 node (tests/lib/standin_node.sh) each report is
# compared with the same report on a stand-in 2-core one or at 4 threads: no
# more than a few lines more (a line per thread, pair or team would add
# hundreds) and no line wider than WIDEST columns. Quick lane: --topology and
# the dry run's header. Full lane: a 256-thread run with the noise census and
# --constructs at 8x32 (about 30 s here, oversubscribed; against 4 threads at
# 2x2). --limits' 32,640 pairs and the construct block's other shapes are
# tests/unit/test_wide_team.c's (a 256-thread --limits takes minutes here).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source-path=SCRIPTDIR source=lib/standin_node.sh
. "$(dirname "$0")/lib/standin_node.sh"

tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT
unset SLURM_JOB_ID SLURM_CPUS_ON_NODE
export OMP_WAIT_POLICY=passive
# The widest line a report may print at any team size: its fixed lines reach
# about 260 (the busy machine's warning, the core clock's with perf's
# reason); the per-thread summaries naming 8 outliers reached 305.
WIDEST=280

if ! make_standin_node "$tmp/big" 2 64 2 8 2 || ! make_standin_node "$tmp/small" 1 2 1 1 1; then
    echo "Bail out! cannot make the stand-in nodes"
    exit 255
fi

# shape FILE: "LINES WIDEST" of a text file.
shape() {
    awk '{ if (length($0) > w) w = length($0) } END { print NR + 0, w + 0 }' "$1"
}

# grows_ok NAME SMALL BIG SLACK: BIG has at most SLACK lines more than SMALL and none wider than WIDEST.
grows_ok() {
    local small big
    read -r -a small <<<"$(shape "$2")"
    read -r -a big <<<"$(shape "$3")"
    ok "$([ "${big[0]}" -le $((small[0] + $4)) ] && [ "${big[1]}" -le "$WIDEST" ]; echo $?)" \
        "$1 at 256: ${big[0]} lines (small: ${small[0]}, at most $4 more), the widest ${big[1]} columns (at most $WIDEST)"
}

CLOMP_TOPOLOGY_ROOT=$tmp/big "$CLOMP" --topology >"$tmp/topology.big" 2>&1
is "$?" 0 "--topology on a 256-CPU stand-in exits 0"
CLOMP_TOPOLOGY_ROOT=$tmp/small "$CLOMP" --topology >"$tmp/topology.small" 2>&1
grows_ok "--topology" "$tmp/topology.small" "$tmp/topology.big" 0

CLOMP_TOPOLOGY_ROOT=$tmp/big "$CLOMP" --dry-run --oversubscribe 256 -1 256 25 32 1 1 >"$tmp/dry.big" 2>&1
is "$?" 0 "the dry run at 256 threads on the stand-in exits 0"
CLOMP_TOPOLOGY_ROOT=$tmp/big "$CLOMP" --dry-run 4 -1 4 1600 32 1 1 >"$tmp/dry.small" 2>&1
grows_ok "the dry run's header" "$tmp/dry.small" "$tmp/dry.big" 2

skip_unless_full_lane "a 256-thread run with the noise census and --constructs at 8x32" || done_testing

run_text() {  # run_text FILE THREADS NESTED: a run of Bestcase and Static with a barrier row, on the big stand-in
    CLOMP_TOPOLOGY_ROOT=$tmp/big "$CLOMP" --oversubscribe --schedules=bestcase,static --constructs=barrier \
        --construct-reps=3 --construct-time=50 --nested="$3" "$2" -1 "$2" 25 32 1 1 </dev/null >"$1" 2>&1
}
started=$(now)
run_text "$tmp/run.big" 256 8x32
is "$?" 0 "a 256-thread run with --constructs at 8x32 completes and verifies"
note "256 threads: $(awk -v a="$started" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"
run_text "$tmp/run.small" 4 2x2
is "$?" 0 "and the same at 4 threads, 2x2"
# Summaries replace the tables beyond 16 threads: the placement's 3 lines, the noise census's 6, SMT's 1.
grows_ok "the run's text" "$tmp/run.small" "$tmp/run.big" 16
is "$(grep -cE '([0-9]+,){16}[0-9]+' "$tmp/run.big")" 0 "no line of it lists more than 16 CPUs or threads"
done_testing
