#!/usr/bin/env bash
# The suite's ETA before each run (clomp-write eta, write/eta.c): the estimates of
# the runs left that the .done file does not list, scaled by measured / estimated
# of the runs done so far. The oracle is the shell the driver used before
# (suite/calibrate.sh's eta_seconds, kept below as it was), asked the same on a
# grid of starting runs, .done files (none, a directory, runs out of order, twice,
# out of range, lines that are not a run number) and measured and estimated sums.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

# shellcheck source-path=SCRIPTDIR source=lib/writer.sh
. "$(dirname "$0")/lib/writer.sh"

# ---- the oracle: the driver's shell before write/eta.c ----------------------------------------
declare -A estimate_of=()
estimate_at() {
    estimate=${estimate_of[${plan[$1]}]-0}
    [[ $estimate =~ ^[0-9]+$ ]] || estimate=0
}
eta_seconds() {
    local i left=0 n estimate
    local -a done_list=()
    local -A is_done=()
    [ -z "$estimate_why" ] || { echo '?'; return 0; }
    [ ! -f "$2" ] || mapfile -t done_list <"$2"
    for n in ${done_list[@]+"${done_list[@]}"}; do [[ ! $n =~ ^[0-9]+$ ]] || is_done[$n]=1; done
    for ((i = $1; i < total_runs; i++)); do
        [ -n "${is_done[$((i + 1))]-}" ] || { estimate_at "$i"; left=$((left + estimate)); }
    done
    awk -v left="$left" -v est="$eta_estimated" -v meas="$eta_measured" \
        'BEGIN { f = (est > 0 && meas > 0) ? meas / est : 1; printf "%d\n", left * f + 0.5 }'
}

# ---- the grid ------------------------------------------------------------------------------
# Nine runs: three alike (a replicate's line), one of unknown estimate.
plan=("key||4 -1 64 100 32 1 1" "key||4 -1 64 1000 32 1 1" "key||4 -1 64 100 32 1 1" "key||4 1 64 1000 32 1 1"
    "6400zones||1 -1 64 100 32 1 1" "6400zones||2 -1 64 100 32 1 1" "key||4 -1 64 100 32 1 1" "constructs||4 -1 64 100 32 1 1"
    "offload||4 -1 64 100 32 1 1")
estimate_of=(["key||4 -1 64 100 32 1 1"]=12 ["key||4 -1 64 1000 32 1 1"]=95 ["key||4 1 64 1000 32 1 1"]=140
    ["6400zones||1 -1 64 100 32 1 1"]=7 ["6400zones||2 -1 64 100 32 1 1"]=0 ["constructs||4 -1 64 100 32 1 1"]='?')
total_runs=${#plan[@]} estimate_why=''
printf '' >"$root/empty"
printf '1\n2\n' >"$root/two"
printf '4\n1\n4\n9\n12\n0\n' >"$root/scattered"
printf '3\n007\n5 \n 6\nx\n2' >"$root/odd"
mkdir "$root/dir"
fails=0 cases=0
for from in 0 1 3 8 9; do
    for done_file in "$root/missing" "$root/empty" "$root/two" "$root/scattered" "$root/odd" "$root/dir"; do
        for sums in "0 0.000" "0 12.500" "95 0.000" "95 190.000" "107 53.250" "300 1.001"; do
            read -r eta_estimated eta_measured <<<"$sums"
            left=()
            for ((i = from; i < total_runs; i++)); do estimate_at "$i"; left+=("$estimate"); done
            want=$(eta_seconds "$from" "$done_file")
            got=$("$writer" eta "$from" "$done_file" "$eta_estimated" "$eta_measured" ${left[@]+"${left[@]}"})
            cases=$((cases + 1))
            [ "$want" = "$got" ] || { fails=$((fails + 1)); [ "$fails" -gt 3 ] || diag "from $from, ${done_file##*/}, $sums: expected $want, got $got"; }
        done
    done
done
is "$fails" 0 "clomp-write eta gives the ETA the driver's shell gave in all $cases cases"
"$writer" eta 0 "$root/two" 1 >/dev/null 2>&1
is "$?" 2 "without the measured sum it is a usage error, exit 2"
done_testing
