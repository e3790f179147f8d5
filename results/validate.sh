#!/usr/bin/env bash
# validate.sh BUNDLE (run as ./clomp_validate): checks a submission bundle
# (CLOMP_<host>_<id>.tar.gz from run_clomp.sh, or the directory it unpacks to):
#   - the MANIFEST: every file's SHA-256, nothing missing, nothing unlisted
#   - every run of the suite's plan is present: marked done, one .summary row,
#     one complete .full section, and the suite recorded as complete
#   - every run verified: no FAILED run, no measurement whose verification
#     failed, and every checksum field (sum, residue, total; in the .csv and
#     the .full's Checksum lines) of an input identical across thread counts
#   - every run's CORAL RFP line parses and names that run's inputs
#   - the build was not a fast-math build
#   - the suite was not oversubscribed (threads, and MPI ranks x threads per host, <= cores;
#     the construct runs' nested teams may be: clomp reports it)
#   - the construct table (<base>.constructs.csv) when constructs runs were planned:
#     present, parsed with its header, rows of every planned construct run and of no
#     other, every row measured, serialized, fewer threads, or not run with a reason
# Prints a verdict with every reason; exit 0 valid, 1 invalid, 2 not a bundle.
set -u
here=$(cd "$(dirname "$0")" && pwd)
me=clomp_validate

not_a_bundle() {
    echo "$me: ${bundle-}: not a CLOMP bundle: $1" >&2
    exit 2
}
[ $# -eq 1 ] || { echo "usage: $me BUNDLE (a CLOMP_<host>_<id>.tar.gz from run_clomp.sh, or its unpacked directory)" >&2; exit 2; }
bundle=$1
[ -e "$bundle" ] || not_a_bundle "no such file"

reasons=()
invalid() { reasons+=("$1"); }

work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
if [ -d "$bundle" ]; then
    top=$bundle
else
    # gzip's magic bytes first: anything else is not a bundle at all, while
    # a gzip file that does not unpack is a damaged bundle.
    [ "$(head -c 2 "$bundle" | od -An -tx1 | tr -d ' \n')" = 1f8b ] || not_a_bundle "not a gzip-compressed tar file"
    if ! tar -xzf "$bundle" -C "$work" 2>"$work/tar.err"; then
        [ -n "$(find "$work" -mindepth 1 -maxdepth 1 ! -name tar.err)" ] ||
            not_a_bundle "the archive does not unpack: $(head -n 1 "$work/tar.err")"
        invalid "the archive is damaged: $(head -n 1 "$work/tar.err")"
    fi
    dirs=$(find "$work" -mindepth 1 -maxdepth 1 -type d)
    [ "$(grep -c . <<<"$dirs")" = 1 ] || not_a_bundle "it must hold exactly one directory CLOMP_<host>_<id>/"
    top=$dirs
fi
name=$(basename "$top")
[[ $name =~ ^CLOMP_.+_[0-9]+$ ]] || not_a_bundle "its directory '$name' is not named CLOMP_<host>_<id>"
env=$top/$name.env
[ -f "$top/MANIFEST" ] || [ -f "$env" ] || not_a_bundle "no MANIFEST and no $name.env in $name/"

# ---- the MANIFEST ---------------------------------------------------------------------
if [ ! -f "$top/MANIFEST" ]; then
    invalid "MANIFEST is missing"
else
    declare -A listed=()
    while IFS= read -r line; do
        if [[ ! $line =~ ^([0-9a-f]{64})\ [\ *](.+)$ ]]; then
            invalid "MANIFEST: malformed line: '$line'"
            continue
        fi
        sum=${BASH_REMATCH[1]} path=${BASH_REMATCH[2]}
        listed[$path]=1
        if [ ! -f "$top/$path" ]; then
            invalid "MANIFEST: $path is listed but missing from the bundle"
        elif [ "$(sha256sum <"$top/$path" | cut -d' ' -f1)" != "$sum" ]; then
            invalid "MANIFEST: $path has changed: its SHA-256 differs from the MANIFEST's"
        fi
    done <"$top/MANIFEST"
    while IFS= read -r path; do
        [ -n "${listed[$path]+x}" ] || invalid "MANIFEST: $path is in the bundle but not in the MANIFEST"
    done < <(cd "$top" && find . -type f ! -name MANIFEST | sed 's|^\./||' | LC_ALL=C sort)
fi

# ---- the plan: every run present ------------------------------------------------------
[ -f "$env" ] || { invalid "$name.env is missing: no plan, environment or build facts"; env=/dev/null; }
plan=$(sed -n 's/^plan: //p' "$env" | head -n 1 | tr ';' '\n' | grep '|')
total=$(grep -c . <<<"$plan")
if [ "$total" -eq 0 ]; then
    invalid "$name.env has no plan: the expected runs are unknown"
fi
grep -q '^---- complete ' "$env" || invalid "$name.env does not record the suite as complete"

# Every .summary row as "file run status exit_code args", every .full section's markers.
summaries=$(for f in "$top/$name"_*.summary; do
    [ -e "$f" ] || continue
    awk -F, -v f="$(basename "$f")" 'FNR > 1 { print f "\t" $1 "\t" $3 "\t" $4 "\t" $6 " " $7 " " $8 " " $9 " " $10 " " $11 " " $12 }' "$f"
done)
fulls=$(for f in "$top/$name"_*.full; do
    [ -e "$f" ] || continue
    awk -v f="$(basename "$f")" '
        /^=== run [0-9]+\// { k = $3; sub(/\/.*/, "", k); open = k; coral[k] = 0 }
        /^CORAL RFP,/ && open != "" { coral[open]++; line[open] = $0 }
        /^=== end of run [0-9]+:/ { k = $5; sub(/:$/, "", k); end = $0; sub(/.*exit status /, "", end)
            printf "%s\t%s\t%s\t%d\t%s\n", f, k, end, coral[k], line[k]; open = "" }' "$f"
done)
done_marks=$(cat "$top/$name.done" 2>/dev/null)

k=0
while IFS='|' read -r set_name policy args; do
    [ -n "$set_name" ] || continue
    k=$((k + 1))
    what="run $k ($set_name${policy:+, --numa=$policy}: $args)"
    grep -qx "$k" <<<"$done_marks" || invalid "$what is not marked done in $name.done"
    rows=$(awk -F'\t' -v k="$k" '$2 == k' <<<"$summaries")
    case $(grep -c . <<<"$rows") in
        0) invalid "$what has no row in any .summary file" ;;
        1)
            IFS=$'\t' read -r file _ status rc row_args <<<"$rows"
            [ "$file" = "${name}_$set_name.summary" ] || invalid "$what is in $file, not ${name}_$set_name.summary"
            [ "$row_args" = "$args" ] || invalid "$what: its .summary row has the inputs '$row_args'"
            if [ "$status" != OK ] || [ "$rc" != 0 ]; then
                invalid "$what is marked $status (exit status $rc) in $file: it did not run and verify"
            fi ;;
        *) invalid "$what has $(grep -c . <<<"$rows") rows in the .summary files" ;;
    esac
    sections=$(awk -F'\t' -v k="$k" '$2 == k' <<<"$fulls")
    case $(grep -c . <<<"$sections") in
        0) invalid "$what has no complete section (=== run $k ... === end of run $k) in any .full file" ;;
        1)
            IFS=$'\t' read -r file _ end coral line <<<"$sections"
            [ "$end" = "0 (OK)" ] || invalid "$what ended with exit status $end in $file"
            if [ "$coral" != 1 ]; then
                invalid "$what has $coral CORAL RFP lines in $file (one expected)"
            else
                num='(-?[0-9]+(\.[0-9]+)?|N/A)'
                # clomp_mpi with several ranks: CLOMP 1.2's "N MPI X " before the inputs.
                if [[ ! $line =~ ^CORAL\ RFP,\ ([0-9]+\ MPI\ X\ )?(-?[0-9]+\ ){6}-?[0-9]+(,\ $num){9}$ ]]; then
                    invalid "$what: its CORAL RFP line does not parse: '$line'"
                else
                    # The inputs it names: the run's own (numThreads is resolved, zoneSize used).
                    rfp_args=$(sed 's/^CORAL RFP, //; s/^[0-9]* MPI X //; s/,.*//' <<<"$line")
                    [ "$rfp_args" = "$args" ] || invalid "$what: its CORAL RFP line names the inputs '$rfp_args'"
                fi
            fi ;;
        *) invalid "$what has $(grep -c . <<<"$sections") sections in the .full files" ;;
    esac
done <<<"$plan"
[ -z "$plan" ] || [ "$(grep -c . <<<"$summaries")" -le "$total" ] ||
    invalid "the .summary files have $(grep -c . <<<"$summaries") rows for $total planned runs"

# ---- verification in the measurement table ---------------------------------------------
csv=$top/$name.csv
if [ ! -s "$csv" ]; then
    invalid "$name.csv (every measurement of every run) is missing"
else
    # Verification results other than these mean a measurement did not verify.
    bad=$(awk -F, -f "$here/csv_columns.awk" -f <(cat <<'AWK'
col("selected") == "1" && col("verification") !~ /^(reference|passed|skipped|not applicable)$/ {
    print "run " col("run") ": " col("name") " verification is '" col("verification") "'" }
AWK
) "$csv")
    while IFS= read -r line; do [ -z "$line" ] || invalid "$line"; done <<<"$bad"
    # One input, one answer: no checksum field (sum, residue, total) may depend
    # on the thread count, the placement or the schedule.
    bad=$(awk -F, -f "$here/csv_columns.awk" -f <(cat <<'AWK'
col("checksum_total") != "" {
    input = col("numParts") " " col("zonesPerPart") " " col("zoneSize") " " col("flopScale") " " col("timeScale")
    sum = "sum " col("checksum_sum") ", residue " col("checksum_residue") ", total " col("checksum_total")
    if (!(input in first)) { first[input] = sum; where[input] = "run " col("run") " " col("name") " (" col("numThreads") " threads)" }
    else if (sum != first[input] && !((input, sum) in told)) {
        told[input, sum] = 1
        printf "input %s: checksum %s in run %s %s (%s threads) differs from %s in %s\n", input, sum, col("run"), col("name"), col("numThreads"), first[input], where[input] } }
AWK
) "$csv")
    while IFS= read -r line; do [ -z "$line" ] || invalid "$line"; done <<<"$bad"
fi
# The same for the Checksum lines the runs printed (their .full sections).
bad=$(cat "$top/$name"_*.full 2>/dev/null | awk '
    /^=== run [0-9]+\// { k = $3; sub(/\/.*/, "", k); input = $(NF - 4) " " $(NF - 3) " " $(NF - 2) " " $(NF - 1) " " $NF }
    / Checksum: / { sum = $0; sub(/.* Checksum: /, "", sum); who = $0; sub(/ Checksum: .*/, "", who); sub(/^ +/, "", who)
        if (!(input in first)) { first[input] = sum; where[input] = "run " k " " who }
        else if (sum != first[input] && !((input, sum) in told)) {
            told[input, sum] = 1
            printf "input %s: .full line \"%s Checksum: %s\" in run %s differs from \"%s\" in %s\n", input, who, sum, k, first[input], where[input] } }')
while IFS= read -r line; do [ -z "$line" ] || invalid "$line"; done <<<"$bad"

# ---- the construct table ----------------------------------------------------------------
construct_runs=$(awk -F'|' '$1 ~ /^constructs/ { print NR }' <<<"$plan" | paste -sd ' ')
construct_note=''
if [ -n "$construct_runs" ]; then
    ccsv=$top/$name.constructs.csv
    if [ ! -s "$ccsv" ]; then
        invalid "$name.constructs.csv (the construct table of runs $construct_runs) is missing"
    else
        bad=$(awk -F, -v planned="$construct_runs" -f "$here/csv_columns.awk" -f <(cat <<'AWK'
function check_header(  i, n, need, first) {
    n = split("run set run_status run_exit_code run_seconds construct", first, " ")
    for (i = 1; i <= n; i++) if (at[first[i]] != i) { print "its header does not start with run,set,run_status,run_exit_code,run_seconds,construct"; break }
    split("construct_name level outer_threads inner_threads status problem overhead_us", need, " ")
    for (i in need) if (!(need[i] in at)) print "its header has no column " need[i]
    for (i in at) header++
    n = split(planned, p, " "); for (i = 1; i <= n; i++) want[p[i]] = 1
    checked = 1 }
FNR > 1 && !checked { check_header() }
FNR > 1 { rows++
    what = "run " col("run") " " col("construct_name") " level " col("level")
    if (ncell != header) print "line " FNR " has " ncell " fields, its header " header
    if (!(col("run") in want)) print "line " FNR ": run '" col("run") "' is not a construct run of the plan"
    else got[col("run")]++
    s = col("status")
    if (s == "measured") { measured++; if (col("overhead_us") !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) print what " is measured but has no overhead" }
    else if (s == "not run") { if (col("problem") == "") print what " is not run and gives no reason" }
    else if (s != "serialized by the runtime" && s != "fewer threads than asked") print what " is '" s "'" (col("problem") == "" ? "" : ": " col("problem")) }
END { if (!checked) check_header()
    for (k in want) if (!(k in got)) print "run " k " (a construct run) has no row"
    printf "rows %d %d\n", rows, measured }
AWK
) "$ccsv")
        while IFS= read -r line; do
            case $line in
                rows\ *) read -r _ crows cmeasured <<<"$line"; construct_note="; construct table: $crows rows, $cmeasured measured" ;;
                ?*) invalid "$name.constructs.csv: $line" ;;
            esac
        done <<<"$bad"
    fi
fi

# ---- the build ------------------------------------------------------------------------
facts=$(awk '/^---- build facts/ { on = 1; next } /^---- / { on = 0 } on' "$env"; cat "$top/${name}_machine/build.txt" 2>/dev/null)
flags=$(grep -E '^ *CFLAGS:' <<<"$facts"; cat "$top/$name"_*.full 2>/dev/null | grep -E '^ *CFLAGS:' | sort -u)
if [ -z "$flags" ]; then
    invalid "no build facts (CFLAGS) in $name.env or the runs' output"
else
    fast=$(grep -oE -- '-(ffast-math|Ofast|funsafe-math-optimizations|ffinite-math-only|fassociative-math|freciprocal-math|fno-signed-zeros)\b' <<<"$flags" | sort -u | paste -sd ' ')
    [ -z "$fast" ] || invalid "a fast-math build ($fast): bit-for-bit verification is meaningless under it"
fi

# ---- oversubscription -------------------------------------------------------------------
cores=$(grep -v '^#' "$top/${name}_machine/lscpu-cores.csv" 2>/dev/null | awk -F, 'NF >= 3 { print $2 "," $3 }' | sort -u | grep -c .)
if [ "$cores" -eq 0 ]; then
    per=$(awk -F: '/^Core\(s\) per socket/ { gsub(/ /, "", $2); print $2 }' "$env" | head -n 1)
    sockets=$(awk -F: '/^Socket\(s\)/ { gsub(/ /, "", $2); print $2 }' "$env" | head -n 1)
    [[ ${per:-x}${sockets:-x} =~ ^[0-9]+$ ]] && cores=$((per * sockets))
fi
max_threads=$(sed -n 's/^max threads: //p' "$env" | head -n 1)
if [ "$cores" -eq 0 ]; then
    invalid "the core count is unknown (no lscpu in the bundle): oversubscription cannot be ruled out"
else
    # The plan's runs are "set|policy|numThreads ...": the largest numThreads of a mesh run.
    most=$(awk -F'|' '$1 !~ /^constructs/ { split($3, a, " "); print a[1] }' <<<"$plan" | sort -n | tail -n 1)
    for t in ${max_threads:-0} ${most:-0}; do
        if [ "$t" -gt "$cores" ]; then
            invalid "oversubscribed: runs with $t threads on $cores cores"
            break
        fi
    done
fi
# Hybrid runs: the ranks each run placed on one host (its "MPI rank R: host H"
# lines, or beyond 16 ranks the busiest host of its "MPI ranks/host" summary),
# each with the run's threads, share that host's cores.
if [ "$cores" -gt 0 ]; then
    bad=$(cat "$top/$name"_*.full 2>/dev/null | awk -v cores="$cores" '
        /^=== run [0-9]+\// { k = $3; sub(/\/.*/, "", k); t = $(NF - 6); delete on }
        /^ *MPI rank [0-9]+: host / { h = $5; sub(/,$/, "", h); on[h]++ }
        /^ *MPI ranks\/host: min / { x = $0; sub(/^.*, max /, "", x); split(x, a, " "); h = a[2]; gsub(/[();,]/, "", h); on[h] = a[1] }
        /^=== end of run / { for (h in on) if (on[h] * t > cores) {
            printf "oversubscribed: run %s placed %d MPI ranks x %d threads on host %s, which has %d cores\n", k, on[h], t, h, cores; break } }')
    while IFS= read -r line; do [ -z "$line" ] || invalid "$line"; done <<<"$bad"
fi
grep -q '^WARNING: .*oversubscribed' "$env" && invalid "$name.env's preflight warnings say the suite was oversubscribed"

# ---- verdict ---------------------------------------------------------------------------
if [ ${#reasons[@]} -eq 0 ]; then
    echo "$me: $bundle: VALID: $total runs, all present and verified; manifest intact; CORAL RFP lines parse; no fast-math; $max_threads threads on $cores cores$construct_note"
    exit 0
fi
echo "$me: $bundle: INVALID (${#reasons[@]} reasons)"
printf '  - %s\n' "${reasons[@]}"
exit 1
