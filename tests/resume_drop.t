#!/usr/bin/env bash
# --resume's clean-up of a suite's tables (clomp-write drop-unfinished, write/resume_drop.c): the
# rows of runs not in .done leave every table, the first row stays, and the JSON records of those
# runs go. The oracle is the driver's shell that did it before (suite/common.sh's
# drop_unfinished_runs, kept below as it was, with the awk reader results/csv_columns.awk), run on
# copies of the same suites: tables with quoted cells, the run column anywhere or absent, empty
# rows, a missing last newline, records with and without profiles, .done sets small and large.
# The quick lane makes 6 of the 24 suites (1 2 3 8 9 12: each kind of file above, the smallest and
# the largest .done); the full lane all 24.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

# shellcheck source-path=SCRIPTDIR source=lib/writer.sh
. "$(dirname "$0")/lib/writer.sh"

here=$top
put_file() { "$writer" replace "$1"; }
die_usage() {
    printf 'run_clomp.sh: %s\n' "$1" >&2
    exit 2
}
# ---- the oracle: the driver's shell before write/resume_drop.c ------------------------------
drop_unfinished_runs() {  # uses $base
    local f rows
    for f in "$base"_*.summary "$base.csv" "$base.constructs.csv" "$base.target_constructs.csv" "$base.oversubscribed.csv" "$base.runs.csv"; do
        [ -e "$f" ] || continue
        # shellcheck disable=SC2016  # awk's own $0
        if ! rows=$(awk -F, -f <(echo 'FILENAME == ARGV[1] { done[$0] = 1; next } FNR == 1 { print }') -f "$here/results/csv_columns.awk" \
            -f <(echo 'col("run") in done') "$base.done" "$f") || ! printf '%s\n' "$rows" | put_file "$f"; then
            die_usage "--resume: cannot rewrite $f"
        fi
    done
    for f in "$base"_*.run*.json; do   # a run's JSON record <base>_<set>.run<N>.json and its profile .run<N>.cali.json
        [[ $f =~ \.run([0-9]+)(\.cali)?\.json$ ]] || continue
        grep -qx "${BASH_REMATCH[1]}" "$base.done" || rm -f "$f"
    done
}

# make_suite DIR K: suite number K's files in DIR (the same for both sides).
make_suite() {
    local d=$1 k=$2 b r n=$((3 + $2 % 9))
    b=$d/CLOMP_node_$k
    mkdir -p "$d"
    : >"$b.done"
    for ((r = 1; r <= n; r++)); do
        [ $(((r * 7 + k) % 3)) = 0 ] || echo "$r" >>"$b.done"
    done
    [ $((k % 4)) != 1 ] || echo 12 >>"$b.done"   # a run no table has
    [ $((k % 6)) != 3 ] || echo >>"$b.done"   # an empty line: the empty rows stay (but the last ones)
    {
        echo 'host,run,key,runtime_speedup'
        for ((r = 1; r <= n; r++)); do echo "\"node,$k\",$r,static,1.$r"; done
    } >"$b.csv"
    {
        echo 'set,"Static,1 OMP",run'
        for ((r = 1; r <= n; r++)); do echo "key,\"a \"\"q\"\", b\",$r"; done
        [ $((k % 2)) = 0 ] || printf '%s' "key,x,$n"   # no newline at the end
    } >"${b}_key.summary"
    {
        echo 'set,numThreads'   # no run column: only its first row stays
        echo '64zones,2'
        echo
    } >"${b}_64zones.summary"
    [ $((k % 3)) != 0 ] || {
        echo 'run,construct'
        for ((r = 1; r <= n; r++)); do echo "$r,barrier"; echo; done
    } >"$b.constructs.csv"
    [ $((k % 5)) != 2 ] || : >"$b.runs.csv"   # empty
    for ((r = 1; r <= n; r++)); do
        echo "{}" >"${b}_key.run$r.json"
        [ $((r % 2)) = 0 ] || echo "{}" >"${b}_64zones.run$r.cali.json"
    done
    echo "{}" >"${b}_key.runx.json"   # no run number: stays
    echo "{}" >"$d/CLOMP_node_${k}9_key.run1.json"   # another suite's
    chmod 640 "$b.csv"
}
# listing DIR: every file, its mode and its bytes.
listing() { (cd "$1" && for f in *; do printf '%s %s %s\n' "$f" "$(stat -c %a "$f")" "$(od -An -c "$f" | tr -s ' \n' ' ')"; done); }

fails=0 cases=0 dropped=0
suites=$(seq 1 24)
full_lane || suites='1 2 3 8 9 12'
for k in $suites; do
    make_suite "$root/want$k" "$k"
    make_suite "$root/got$k" "$k"
    (base=$root/want$k/CLOMP_node_$k && drop_unfinished_runs)
    "$writer" drop-unfinished "$root/got$k/CLOMP_node_$k"
    cases=$((cases + 1))
    [ "$(listing "$root/want$k")" = "$(listing "$root/got$k")" ] || { fails=$((fails + 1)); diag "suite $k: $(diff <(listing "$root/want$k") <(listing "$root/got$k") | head -6)"; }
    [ "$(find "$root/want$k" -name '*.json' | wc -l)" -lt $((2 * (3 + k % 9) + 2)) ] && dropped=$((dropped + 1))
done
is "$fails" 0 "clomp-write drop-unfinished leaves the tables and records the driver's shell left in all $cases suites"
is "$dropped" "$cases" "every suite of the grid has records to remove"

mkdir "$root/refused" && printf 'run\n1\n' >"$root/refused/CLOMP_n_1.done" && mkdir "$root/refused/CLOMP_n_1.csv"
"$writer" drop-unfinished "$root/refused/CLOMP_n_1" 2>"$root/err"
is "$?" 2 "a table that cannot be rewritten stops the resume, exit 2"
like "$(tail -1 "$root/err")" "^run_clomp.sh: --resume: cannot rewrite $root/refused/CLOMP_n_1.csv\$" "with the driver's line naming it"
"$writer" drop-unfinished 2>/dev/null
is "$?" 2 "without DIR/BASE: a usage error"
done_testing
