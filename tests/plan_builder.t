#!/usr/bin/env bash
# The suite's plan up to its sweeps (clomp-write plan, write/plan.c): the key runs
# with the target input's replicates spread among them, the packed hybrid layouts
# and the thread sweeps, each run's team shape and the shape warnings. The oracle
# is the shell that built them before (suite/plan.sh, suite/common.sh's team_shape,
# suite/cliff.sh's cliff_thread_counts, kept below as they were), asked the same on
# a grid of thread counts, parts, zones, zone scales and factors, replicates,
# --numa, --quick's time scale and --mpi rank counts. The quick lane asks a third of
# each grid, turn about: every thread count, every --mpi and --numa pair, every shape,
# replicate count and time scale still asked (34 plans of 102, 28 shapes of 84); the
# full lane asks them all.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

# shellcheck source-path=SCRIPTDIR source=lib/writer.sh
. "$(dirname "$0")/lib/writer.sh"

# ---- the oracle: the driver's shell before write/plan.c ----------------------------------
team_shape() {
    local t=$1 z=$2 target=$3 best='' best_err='' k parts zpp err
    for ((k = (target + t / 2) / t; k >= 1; k--)); do
        parts=$((k * t))
        zpp=$(((z + parts / 2) / parts))
        [ "$zpp" -ge 1 ] || zpp=1
        err=$(((parts * zpp - z) * 1000 / z))
        err=${err#-}
        if [ -z "$best" ] || [ "$err" -lt "$best_err" ]; then best="$parts $zpp" best_err=$err; fi
        [ "$err" -gt 50 ] || break
    done
    [ "$best" ] || best="$t $(((z + t / 2) / t))"
    [ -z "$best_err" ] || [ "$best_err" -le 50 ] ||
        echo "run_clomp.sh: warning: $t threads: no shape within 5% of $z zones (off by $((best_err / 10)).$((best_err % 10))%)" >&2
    printf '%s\n' "$best"
}
cliff_thread_counts() {
    local z=$1 below=$((max_threads - 1))
    shift
    { printf '%s\n' "$@"; [ "$z" != "$target_zones" ] || [ "$below" -lt 1 ] || echo "$below"; } | sort -n -u
}
add_packed_layouts() {
    local t
    [ "$mpi_given" = 1 ] || return 0
    if [ -z "$mpi_ranks" ]; then
        echo "run_clomp.sh: notice: --mpi \"$mpi_launcher\" gives no rank count (-np N, -n N, --ntasks=N): no packed layouts" >&2
        return 0
    fi
    for t in 4 16; do
        [ "$max_threads" -ge $((2 * t)) ] || continue
        plan+=("packed$t||$t 1 $target_parts $(((target_zones + target_parts / 2) / target_parts)) 32 1 $time_scale")
    done
}
interleave_replicates() {
    local n=$1 others r k from to
    shift
    local key_list=("$@")
    others=$((${#key_list[@]} - 1))
    for ((r = 0; r < n; r++)); do
        plan+=("${key_list[0]}")
        from=$((1 + r * others / n))
        to=$((1 + (r + 1) * others / n))
        for ((k = from; k < to; k++)); do plan+=("${key_list[k]}"); done
    done
}
sweep_shape() { team_shape "$1" "$2" "$target_parts"; }
build_plan() {   # up to the sweeps: the runs after them are the driver's other files'
    local zone_sizes=() thread_counts=() keys=() scale=1 n_keys t z i policy
    while [ "$scale" -le "$max_zone_scale" ]; do
        zone_sizes+=($((target_zones * scale)))
        scale=$((scale * zone_scale_factor))
    done
    for ((t = 1; t <= max_threads && t <= 16; t++)); do thread_counts+=("$t"); done
    for ((t = 32; t < max_threads; t *= 2)); do thread_counts+=("$t"); done
    [ "$max_threads" -le 16 ] || thread_counts+=("$max_threads")

    for z in "${zone_sizes[@]}"; do
        keys+=("key||$max_threads -1 $(sweep_shape "$max_threads" "$z") 32 1 $time_scale")
    done
    n_keys=${#zone_sizes[@]}
    for ((i = n_keys > 2 ? n_keys - 2 : 0; i < n_keys; i++)); do
        z=${zone_sizes[i]}
        keys+=("key||$max_threads 1 $(sweep_shape "$max_threads" "$z") 32 1 $time_scale")
    done
    if [ "$numa" = 1 ]; then
        for ((i = n_keys > 2 ? n_keys - 2 : 0; i < n_keys; i++)); do
            z=${zone_sizes[i]}
            for policy in interleave local node:0; do
                keys+=("key|$policy|$max_threads -1 $(sweep_shape "$max_threads" "$z") 32 1 $time_scale")
            done
        done
    fi
    plan=()
    interleave_replicates "$replicates" "${keys[@]}"
    last_key_run=${#plan[@]}
    add_packed_layouts
    for z in "${zone_sizes[@]}"; do
        for t in $(cliff_thread_counts "$z" "${thread_counts[@]}"); do
            plan+=("${z}zones||$t -1 $(sweep_shape "$t" "$z") 32 1 $time_scale")
        done
    done
    printf '%s\n' "$last_key_run" "${plan[@]}"
}

# ---- the grid ------------------------------------------------------------------------------
shapes=("64 6400 10 10000" "64 6400 10 100" "10 100 2 16" "7 3 2 4" "64 6400 4 1" "100 50 3 1000" "1 5 2 8")
fails=0 cases=0 warned=0 k=0 block=0
for max_threads in 1 2 3 4 5 7 8 15 16 17 24 32 33 48 64 96 100; do
    block=$((block + 1))
    for mpi in "0||" "1||mpirun" "1|4|mpirun -np 4"; do
        for numa in 0 1; do
            k=$((k + 1))
            full_lane || [ $(((k + block) % 3)) = 1 ] || continue
            read -r target_parts target_zones zone_scale_factor max_zone_scale <<<"${shapes[k % ${#shapes[@]}]}"
            replicates=$((1 + k % 5)) time_scale=$((k % 2 ? 1 : 100))
            IFS='|' read -r mpi_given mpi_ranks mpi_launcher <<<"$mpi"
            build_plan >"$root/want" 2>"$root/want.err"
            "$writer" plan "$max_threads" "$target_parts" "$target_zones" "$zone_scale_factor" "$max_zone_scale" \
                "$replicates" "$numa" "$time_scale" "$mpi_given" "$mpi_ranks" "$mpi_launcher" >"$root/got" 2>"$root/got.err"
            cases=$((cases + 1))
            [ ! -s "$root/want.err" ] || warned=$((warned + 1))
            if ! cmp -s "$root/want" "$root/got" || ! cmp -s "$root/want.err" "$root/got.err"; then
                fails=$((fails + 1))
                [ "$fails" -gt 3 ] || diag "$max_threads threads, $mpi, numa $numa, ${shapes[k % ${#shapes[@]}]}, $replicates: $(diff "$root/want" "$root/got" | head -5; diff "$root/want.err" "$root/got.err" | head -3)"
            fi
        done
    done
done
is "$fails" 0 "clomp-write plan gives the plan and the warnings the driver's shell gave in all $cases cases of the grid"
[ "$warned" -gt 10 ] && [ "$warned" -lt "$cases" ]
ok $? "the grid holds plans with shape warnings or the packed layouts' notice ($warned) and plans without"

# clomp-write plan shape (the driver's team_shape since): one shape, the warning alike, on a grid.
fails=0 cases=0 warned=0 k=0
for t in 1 2 3 5 7 13 16 33 64 65 100 127 300 1000; do
    k=$((k + 1))
    for zt in "6400 64" "100 16" "3 4" "50 1000" "1000000 7" "5 2"; do
        k=$((k + 1))
        full_lane || [ $((k % 3)) = 0 ] || continue
        read -r z p <<<"$zt"
        team_shape "$t" "$z" "$p" >"$root/want" 2>"$root/want.err"
        "$writer" plan shape "$t" "$z" "$p" >"$root/got" 2>"$root/got.err"
        cases=$((cases + 1))
        [ ! -s "$root/want.err" ] || warned=$((warned + 1))
        cmp -s "$root/want" "$root/got" && cmp -s "$root/want.err" "$root/got.err" || fails=$((fails + 1))
    done
done
is "$fails" 0 "clomp-write plan shape gives the shape and the warning the shell's team_shape gave in all $cases cases ($warned warned)"
"$writer" plan shape 4 0 64 >/dev/null 2>&1
is "$?" 2 "plan shape: a count that is not a whole number > 0 is a usage error, exit 2"

"$writer" plan 4 64 6400 1 100 3 0 1 0 '' '' >/dev/null 2>"$root/err"
is "$?" 2 "a zone scale factor below 2 is a usage error, exit 2 (the driver refuses it first)"
"$writer" plan 4 64 0 10 100 3 0 1 0 '' '' >/dev/null 2>&1
is "$?" 2 "so is a count that is not a whole number > 0"

# Counts too large to plan (a reviewer's crash: strtoll clamped them, the sweep's doubling overflowed
# past the thread list, the zone scales overflowed): one line naming the count, exit 2, no plan.
# too_large DESC MUST ARGS...: exit 2, nothing on stdout, one stderr line containing MUST.
too_large() {
    local desc=$1 must=$2 rc err
    shift 2
    "$writer" plan "$@" >"$root/got" 2>"$root/err"
    rc=$? err=$(cat "$root/err")
    [ "$rc" = 2 ] && [ ! -s "$root/got" ] && [ "$(grep -c . "$root/err")" = 1 ] && [[ $err == *"$must"* ]]
    ok $? "$desc" || diag "exit $rc; stderr: $err; stdout: $(head -c 200 "$root/got")"
}
too_large "a MAX_THREADS past the range of a long long is refused in one line, exit 2" \
    "MAX_THREADS: '99999999999999999999' is too large" 99999999999999999999 64 6400 10 100 3 0 1 0 '' ''
too_large "so is a MAX_THREADS over 2^20 (1048577)" "MAX_THREADS: '1048577' is too large" 1048577 64 6400 10 100 3 0 1 0 '' ''
too_large "so is a MAX_ZONE_SCALE past a long long" "MAX_ZONE_SCALE: '99999999999999999999' is too large" \
    64 64 6400 10 99999999999999999999 3 0 1 0 '' ''
too_large "so are TARGET_ZONES x MAX_ZONE_SCALE over 2^40 zones (6400 x 999999999999)" "TARGET_ZONES x MAX_ZONE_SCALE" \
    64 64 6400 10 999999999999 3 0 1 0 '' ''
too_large "so is a ZONE_SCALE_FACTOR past a long long" "ZONE_SCALE_FACTOR: '99999999999999999999' is too large" \
    64 64 6400 99999999999999999999 100 3 0 1 0 '' ''
too_large "so is a REPLICATES past a long long" "REPLICATES: '99999999999999999999' is too large" \
    64 64 6400 10 100 99999999999999999999 0 1 0 '' ''
too_large "plan shape: so is a THREADS past a long long" "THREADS: '99999999999999999999' is too large" \
    shape 99999999999999999999 6400 64

# At the limits the plan is whole: 2^20 threads (after the count and the 2 key runs, the sweep 1..16, 32 .. 2^19, 2^20 - 1, 2^20 at the
# target input's zones) and 2^40 zones (1 zone scaled by 10 up to 2^40: 13 sizes, no overflow).
"$writer" plan 1048576 64 6400 10 1 1 0 1 0 '' '' >"$root/got" 2>/dev/null
rc=$?
sweep=$(sed 1,3d "$root/got" | awk -F'|' '{ split($3, a, " "); printf "%s ", a[1] }')
want="$(seq 1 16 | tr '\n' ' ')$(t=32; while [ "$t" -lt 1048576 ]; do printf '%s ' "$t"; t=$((t * 2)); done)1048575 1048576 "
[ "$rc" = 0 ] && [ "$sweep" = "$want" ]
ok $? "MAX_THREADS 2^20 plans the sweep 1..16, 32, 64 .. 2^19, 2^20 - 1, 2^20" || diag "exit $rc; sweep: $sweep"
"$writer" plan 4 64 1 10 1099511627776 1 0 1 0 '' '' >"$root/got" 2>/dev/null
rc=$?
sizes=$(grep -o '^[0-9]*zones' "$root/got" | sort -un | tr '\n' ' ')
[ "$rc" = 0 ] && [ "$sizes" = "$(for ((z = 1; z <= 1099511627776; z *= 10)); do printf '%szones ' "$z"; done)" ]
ok $? "1 zone x MAX_ZONE_SCALE 2^40 plans every size 1, 10 .. 10^12 and none past 2^40" || diag "exit $rc; sizes: $sizes"
done_testing
