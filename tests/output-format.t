#!/usr/bin/env bash
# The CLOMP 1.2 report, from one short run with --trials=1 (CLOMP 1.2's single
# shot): header lines and their padding, each measurement block's lines and
# order, the comma-delimited summary and the CORAL RFP line, and the arithmetic
# that ties them together. The oracle is this script (awk), never numbers
# copied from clomp's output. No timing is asserted: only that the printed
# numbers agree with one another. Chunked runs: tests/statistics.t.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
args=(2 1 16 100 32 1 1)
read -r numThreads allocThreads numParts zonesPerPart zoneSize flopScale timeScale <<<"${args[*]}"

# On 2 threads Nested OMP is N/A by default (needs 2x2, checked at the end);
# --nested=2x1 gives it a shape, so that every block's format is checked.
run_clomp --trials=1 --nested=2x1 "${args[@]}"
is "$rc" 0 "clomp --trials=1 --nested=2x1 ${args[*]} exits 0"
is "$err" "" "clomp --trials=1 --nested=2x1 ${args[*]} prints nothing on stderr"
mapfile -t L <<<"$out"

# ---- helpers ---------------------------------------------------------------------
re_quote() {  # a literal string as an ERE
    printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'
}
trim() {
    local s=$1
    s=${s#"${s%%[! ]*}"}
    s=${s%"${s##*[! ]}"}
    printf '%s' "$s"
}
# approx GOT WANT TOL DESC
approx() {
    if awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; exit !(g == g + 0 && d <= t && -d <= t) }'; then
        ok 0 "$4"
    else
        ok 1 "$4"
        diag "got $1, want $2 +- $3"
    fi
}
line_index() {  # index of the first line starting with the literal $1, or -1
    local i
    for i in "${!L[@]}"; do
        [ "${L[i]#"$1"}" != "${L[i]}" ] && { echo "$i"; return; }
    done
    echo -1
}
NUM='-?[0-9]+(\.[0-9]+)?'
DATE='[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{4}'

# ---- independent oracle for the iteration count ---------------------------------
iterations=$(awk -v n="$numParts" -v z="$zonesPerPart" -v f="$flopScale" -v t="$timeScale" \
    'BEGIN { x = 1e6 * t / (n * z * f); i = int(x); if (i < x) i++; print i }')
subcycles=$((iterations * 10))
# CLOMP 1.2's memory figure also counts the Part structures: nine 8-byte fields.
PART_STRUCT_BYTES=72

# ---- header: the CLOMP 1.2 lines with their exact left padding --------------------
header=(
    '       Invocation: ' "$(re_quote "$CLOMP --trials=1 --nested=2x1 ${args[*]}")"
    '         Hostname: ' '.+'
    '       Start time: ' "$DATE"
    '       Executable: ' "$(re_quote "$CLOMP")"
    '      numThreads: ' "$numThreads"
    '    allocThreads: ' "$allocThreads"
    '        numParts: ' "$numParts"
    '    zonesPerPart: ' "$zonesPerPart"
    '       flopScale: ' "$flopScale"
    '       timeScale: ' "$timeScale"
    '        zoneSize: ' "$zoneSize"
    '   Zones per Part: ' "$zonesPerPart"
    '      Total Zones: ' "$((numParts * zonesPerPart))"
    'Memory (in bytes): ' "$((numParts * zonesPerPart * zoneSize + numParts * PART_STRUCT_BYTES))"
    'Scaled Iterations: ' "$iterations"
    '  Total Subcycles: ' "$subcycles"
    'Iteration Residue: ' "$NUM%"
    '  Max Error bound: ' "$NUM(e[-+][0-9]+)? *"
    'Tight Error bound: ' "$NUM(e[-+][0-9]+)? *"
    '      Max Residue: ' "$NUM(e[-+][0-9]+)? *"
)
like "${L[0]}" '^CORAL Benchmark Version 1\.2 ' "the output opens with CLOMP 1.2's version banner"
order_ok=0
for ((k = 0; k < ${#header[@]}; k += 2)); do
    prefix=${header[k]} value_re=${header[k + 1]}
    i=$(line_index "$prefix")
    if [ "$i" -ge 0 ]; then
        if [[ $value_re =~ ^[0-9]+$ ]]; then
            desc="header has the line '$prefix$value_re'"
        else
            desc="header has a '$prefix' line with a well-formed value"
        fi
        like "${L[i]#"$prefix"}" "^($value_re)\$" "$desc"
        [ "$i" -eq $((k / 2 + 1)) ] || order_ok=1
    else
        ok 1 "header line '$prefix' is present"
        order_ok=1
    fi
done
ok "$order_ok" "the $((${#header[@]} / 2)) CLOMP 1.2 header lines open the output, in CLOMP 1.2 order"

# ---- the measurement blocks: CLOMP 1.2's eight, then clomp's OMP Parallel ------------
# The default sequence is the table's (clomp --list-schedules) default rows;
# it must open with CLOMP 1.2's eight, in 1.2's order, then OMP Parallel.
clomp12=('calc_deposit' 'OMP Barrier' 'Serial Ref' 'Bestcase OMP' 'Static OMP' 'Dynamic OMP' 'Manual OMP' 'Nested OMP')
mapfile -t names < <(schedule_list '' default)
mapfile -t checked < <(schedule_list checked default)
declare -A role_of=()
while IFS=$'\t' read -r _ name role _; do role_of["$name"]=$role; done < <(schedule_list '' default 0)
is "$(printf '%s,' "${names[@]:0:9}")" "$(printf '%s,' "${clomp12[@]}" 'OMP Parallel')" \
    "the default sequence (--list-schedules) is CLOMP 1.2's eight measurements in 1.2's order, then OMP Parallel"
SEPARATOR='---------------------'
SUMMARY='----------- Comma-delimited summary ----------'

# Collect the blocks: from the first pseudocode line, up to each separator.
first=$(line_index "$(printf '%13s:| ' "${names[0]}")")
declare -a blocks=()
current=''
summary_at=-1
if [ "$first" -ge 0 ]; then
    for ((i = first; i < ${#L[@]}; i++)); do
        if [ "${L[i]}" = "$SEPARATOR" ]; then
            blocks+=("$current")
            current=''
        elif [ "${L[i]}" = "$SUMMARY" ]; then
            summary_at=$i
            break
        else
            current+="${L[i]}"$'\n'
        fi
    done
fi
is "${#blocks[@]}" "${#names[@]}" "${#names[@]} blocks, each closed by '$SEPARATOR', come before the summary"
# The LLNL targets section (cycles) is clomp's, between the blocks and the summary.
[[ -z $current || $current == "----------- LLNL targets (in CPU cycles) ----------"$'\n'* ]]
ok $? "nothing but blocks and the LLNL targets lie between the first block and the summary"

# What CLOMP 1.2 prints in each block after its pseudocode, in this order.
expected_keys() {
    case $1:${role_of["$1"]} in
        calc_deposit:*) echo 'Started Runtime us/Loop' ;;
        *:probe) echo 'Started #Threads Runtime us/Loop' ;;   # OMP Barrier, OMP Parallel, Parallel For
        'Serial Ref':*) echo 'Started #Threads Checksum Runtime us/Loop' ;;
        'Bestcase OMP':*) echo 'Started #Threads Runtime us/Loop Speedup' ;;
        *) echo 'Started #Threads Checksum Runtime us/Loop Speedup Efficacy Overhead' ;;
    esac
}
KEYS_12=' Started #Threads Checksum Runtime us/Loop Speedup Efficacy Overhead late-pseudocode '

declare -A value=()   # value["name|key"]: the text after '%13s %8s: '
for j in "${!names[@]}"; do
    name=${names[j]}
    pad=$(printf '%13s' "$name")
    mapfile -t B <<<"${blocks[j]%$'\n'}"
    prefixed=0 keys='' pseudo=0
    for line in "${B[@]}"; do
        rest=${line#"$pad"}
        if [ "$rest" = "$line" ] || [ -z "$rest" ]; then
            prefixed=1
            continue
        fi
        if [ "${rest#:| }" != "$rest" ]; then
            pseudo=$((pseudo + 1))
            [ -n "$keys" ] && keys="$keys late-pseudocode"
            continue
        fi
        key=$(trim "${rest%%:*}")
        keys="$keys $key"
        [[ $rest == "$(printf '%9s: ' "$key")"* ]] && value["$name|$key"]=${rest#*: }
    done
    ok "$prefixed" "every $name line starts with the name right-aligned in 13 columns"
    [ "$pseudo" -ge 1 ]
    ok $? "the $name block opens with its pseudocode ('%13s:| ' lines)"
    want=$(expected_keys "$name")
    got=$(trim "$keys")
    extras=$(trim "${got#"$want"}")
    bad_extra=0
    for key in $extras; do
        [[ $KEYS_12 == *" $key "* ]] && bad_extra=1
    done
    if { [ "$got" = "$want" ] || [[ $got == "$want "* ]]; } && [ "$bad_extra" -eq 0 ]; then
        ok 0 "the $name block has its CLOMP 1.2 lines in 1.2 order ($want), clomp's lines after them"
    else
        ok 1 "the $name block has its CLOMP 1.2 lines in 1.2 order ($want), clomp's lines after them"
        diag "got keys: $got"
    fi

    # The format of each CLOMP 1.2 line.
    for key in $want; do
        case $key in
            Started) re=$DATE what='a ctime-style date' ;;
            '#Threads')
                if [ "$name" = 'Serial Ref' ]; then re='N/A'; else re=$numThreads; fi
                what=$re
                ;;
            Checksum) re='Sum=[^ ]+ +Residue=[^ ]+ +Total=[^ ]+' what='Sum=, Residue=, Total=' ;;
            Runtime) re='[0-9]+\.[0-9]{3} \(wallclock, in seconds\)' what='X.XXX (wallclock, in seconds)' ;;
            us/Loop) re='[0-9]+\.[0-9]{2} \(wallclock, in microseconds\)' what='X.XX (wallclock, in microseconds)' ;;
            Speedup) re='[0-9]+\.[0-9]( \([0-9]+\.[0-9]X slowdown\))?' what='X.X, with (Y.YX slowdown) below 1' ;;
            Efficacy) re='[0-9]+\.[0-9]% \(of bestcase [0-9]+\.[0-9]{2} us/Loop\)' what='X.X% (of bestcase Y.YY us/Loop)' ;;
            Overhead) re='-?[0-9]+\.[0-9]{2} \(versus bestcase, in us/Loop\)' what='X.XX (versus bestcase, in us/Loop)' ;;
        esac
        like "${value["$name|$key"]-<missing>}" "^($re)\$" \
            "$name $key line is '$(printf '%13s %8s' "$name" "$key"): $what'"
    done
done

# The first number of a block line.
first_number() {
    local v=${value["$1|$2"]-}
    printf '%s' "${v%% *}"
}

# ---- arithmetic inside the blocks -----------------------------------------------------
# Runtime is printed to 1 ms and us/Loop to 0.01 us: allow what that rounding can hide.
tol=$(awk -v s="$subcycles" 'BEGIN { print 0.0005 * 1e6 / s + 0.01 }')
for name in "${names[@]}"; do
    runtime=$(first_number "$name" Runtime)
    approx "$(first_number "$name" us/Loop)" "$(awk -v r="$runtime" -v s="$subcycles" 'BEGIN { print r * 1e6 / s }')" \
        "$tol" "$name us/Loop is its Runtime x 1e6 / Total Subcycles"
done

serial_checksum=${value["Serial Ref|Checksum"]-}
total=${serial_checksum##*Total=}
approx "$total" "$subcycles" 1e-3 "Serial Ref Checksum Total equals Total Subcycles (every subcycle deposits 1)"
for name in "${checked[@]}"; do
    is "${value["$name|Checksum"]-<missing>}" "$serial_checksum" "$name Checksum line is identical to Serial Ref's"
done

bestcase_us=$(first_number 'Bestcase OMP' us/Loop)
for name in "${checked[@]}"; do
    efficacy=${value["$name|Efficacy"]-}
    efficacy_us=${efficacy#*of bestcase }
    is "${efficacy_us%% *}" "$bestcase_us" "$name Efficacy quotes the Bestcase OMP us/Loop"
    approx "$(first_number "$name" Overhead)" \
        "$(awk -v a="$(first_number "$name" us/Loop)" -v b="$bestcase_us" 'BEGIN { print a - b }')" 0.016 \
        "$name Overhead is its us/Loop minus Bestcase OMP us/Loop"
done

# ---- comma-delimited summary ----------------------------------------------------------
fields() {  # fields LINE: sets F to the trimmed comma-separated fields
    local raw f
    IFS=',' read -r -a raw <<<"$1"
    F=()
    for f in "${raw[@]}"; do F+=("$(trim "$f")"); done
}

[ "$summary_at" -ge 0 ]
ok $? "the summary starts with '$SUMMARY' right after the last block"
s=$summary_at
want_head="$CLOMP ${args[*]}"
for name in "${names[@]}"; do want_head+=", $name"; done
is "${L[s + 1]-}" "$want_head" "the summary header is the executable, the arguments and the ${#names[@]} names of the default sequence"
fields "${L[s + 1]-}"
is "${#F[@]}" $((${#names[@]} + 1)) "the summary header has $((${#names[@]} + 1)) comma-separated fields"

rows=(Runtime us/Loop Speedup Efficacy Overhead)
declare -A cell=()
for r in "${!rows[@]}"; do
    row=${rows[r]}
    fields "${L[s + 2 + r]-}"
    is "${F[0]-}" "$row" "summary row $((r + 1)) is $row"
    is "${#F[@]}" $((${#names[@]} + 1)) "summary $row row has $((${#names[@]} + 1)) comma-separated fields"
    shape_ok=0
    for c in "${!names[@]}"; do
        name=${names[c]}
        cell["$row|$name"]=${F[c + 1]-}
        # Probes have no speedup, efficacy or overhead; Serial Ref no efficacy or overhead.
        case $row:${role_of["$name"]} in
            Speedup:probe | Efficacy:probe | Overhead:probe | Efficacy:reference | Overhead:reference) na=1 ;;
            *) na=0 ;;
        esac
        if [ "$na" -eq 1 ]; then
            [ "${F[c + 1]-}" = N/A ] || shape_ok=1
        elif [ "$row" = Efficacy ]; then
            [[ ${F[c + 1]-} =~ ^[0-9]+\.[0-9]%$ ]] || shape_ok=1
        else
            [[ ${F[c + 1]-} =~ ^-?[0-9]+\.[0-9]+$ ]] || shape_ok=1
        fi
    done
    ok "$shape_ok" "summary $row row has N/A where the measurement's role gives no such figure, a number elsewhere"
done

for name in "${names[@]}"; do
    is "${cell["Runtime|$name"]-}" "$(first_number "$name" Runtime)" "summary Runtime of $name matches its block"
    is "${cell["us/Loop|$name"]-}" "$(first_number "$name" us/Loop)" "summary us/Loop of $name matches its block"
done
is "${cell["Speedup|Serial Ref"]-}" 1.0 "summary Speedup of Serial Ref is 1.0"
is "${cell["Efficacy|Bestcase OMP"]-}" 100.0% "summary Efficacy of Bestcase OMP is 100.0%"
like "$(printf '%s\n' "${L[@]}" | grep '^Efficacy,')" '^Efficacy,    N/A,     N/A,     N/A,  [ 0-9]{4}\.[0-9]%, [ 0-9]{4}\.[0-9]%' \
    "the Efficacy row keeps CLOMP 1.2's exact spacing"
like "$(printf '%s\n' "${L[@]}" | grep '^Overhead,')" '^Overhead,    N/A,     N/A,     N/A, [ 0-9-]{4}\.[0-9]{2}, [ 0-9-]{4}\.[0-9]{2}' \
    "the Overhead row keeps CLOMP 1.2's exact spacing"
is "${cell["Overhead|Bestcase OMP"]-}" 0.00 "summary Overhead of Bestcase OMP is 0.00"
for name in 'Bestcase OMP' "${checked[@]}"; do
    is "${cell["Speedup|$name"]-}" "$(first_number "$name" Speedup)" "summary Speedup of $name matches its block"
done
for name in "${checked[@]}"; do
    is "${cell["Efficacy|$name"]-}" "$(first_number "$name" Efficacy)" "summary Efficacy of $name matches its block"
    is "${cell["Overhead|$name"]-}" "$(first_number "$name" Overhead)" "summary Overhead of $name matches its block"
done

# Speedup = serial time / schedule time; from the rounded us/Loop, loosely.
serial_us=${cell["us/Loop|Serial Ref"]-}
for name in 'Bestcase OMP' "${checked[@]}"; do
    us=${cell["us/Loop|$name"]-}
    ratio=$(awk -v a="$serial_us" -v b="$us" 'BEGIN { if (b > 0) print a / b; else print "nan" }')
    speed_tol=$(awk -v r="$ratio" 'BEGIN { t = 0.1 * r; print (t > 0.15 ? t : 0.15) }')
    approx "${cell["Speedup|$name"]-}" "$ratio" "$speed_tol" "summary Speedup of $name is Serial Ref us/Loop / its us/Loop"
done

# ---- the CORAL RFP line: exactly CLOMP 1.2's ------------------------------------------
coral=${L[${#L[@]} - 1]}
is "$(( ${#L[@]} - 1 ))" "$((s + 7))" "the CORAL RFP line follows the five summary rows and ends the output"
fields "$coral"
is "${#F[@]}" 11 "the CORAL RFP line has 11 comma-separated fields (label, arguments, nine numbers)"
is "${F[0]-}" 'CORAL RFP' "the CORAL RFP line starts with 'CORAL RFP'"
is "${F[1]-}" "${args[*]}" "CORAL RFP field 2 is the seven arguments, space separated"
numeric=0
for ((c = 2; c < 11; c++)); do
    [[ ${F[c]-} =~ ^-?[0-9]+\.[0-9]+$ ]] || numeric=1
done
ok "$numeric" "CORAL RFP fields 3 to 11 are all numbers"
coral_want=(
    "us/Loop|Serial Ref" "Serial Ref us/Loop"
    "us/Loop|OMP Barrier" "OMP Barrier us/Loop"
    "Speedup|Bestcase OMP" "Bestcase OMP Speedup"
    "Overhead|Static OMP" "Static OMP Overhead"
    "Speedup|Static OMP" "Static OMP Speedup"
    "Overhead|Dynamic OMP" "Dynamic OMP Overhead"
    "Speedup|Dynamic OMP" "Dynamic OMP Speedup"
    "Overhead|Manual OMP" "Manual OMP Overhead"
    "Speedup|Manual OMP" "Manual OMP Speedup"
)
letters=(a b c d e f g h i)
for ((k = 0; k < 9; k++)); do
    is "${F[k + 2]-}" "${cell["${coral_want[2 * k]}"]-}" \
        "CORAL RFP value ${letters[k]} is the summary's ${coral_want[2 * k + 1]}"
done

# ---- no warnings, and the build is reported consistently -------------------------------
# Unbound threads are warned about by design (tests/numa.t checks it), and so, when the scheduler
# happened to put them there, are unbound inner teams seen on one CPU; the noise census's warnings
# (comparable noise, a busy machine) and the noisy-measurement warning follow the machine's load
# (tests/noise.t, tests/busy.t, tests/statistics.t); nothing else may warn.
unexpected=$(grep 'WARNING' <<<"$out" | grep -v -e 'threads are not bound' -e 'noise comparable with the overhead' \
    -e 'noisy measurement: chunk times vary' -e 'the inner teams share CPUs' -e 'WARNING: this machine was busy: ')
is "$(line_count "$unexpected")" 0 "no other WARNING lines for ${args[*]} (16 parts over 2 threads)" || diag "$unexpected"

compiler_line=$(grep -m1 '^         Compiler: ' <<<"$out")
run_clomp --version
version_compiler=$(grep -m1 '^compiler: ' <<<"$out")
[ -n "$compiler_line" ]
ok $? "the setup has a '         Compiler: ' line"
is "${version_compiler#compiler: }" "${compiler_line#*Compiler: }" "--version and the run's Compiler line name the same compiler"

# ---- Nested OMP below 2x2 threads: N/A in place of a figure, columns kept ---------------
run_clomp --trials=1 "${args[@]}"
is "$rc" 0 "clomp --trials=1 ${args[*]} (default nested shape on 2 threads) exits 0"
like "$out" $'\n'' Nested OMP shape: N/A \(needs at least 2x2 threads; numThreads is 2\)'$'\n' \
    "the header says the nested shape is N/A on 2 threads, and why"
like "$out" $'\n''   Nested OMP  us/Loop: N/A \(needs at least 2x2 threads; numThreads is 2\)'$'\n''---------------------'$'\n' \
    "in place of its block, one N/A line in the block format, then the separator"
[[ $out != *'Nested OMP:|'* && $out != *'Nested OMP Checksum'* ]]
ok $? "no pseudocode, checksum or timing of a Nested OMP that did not run"
mapfile -t S < <(sed -n '/^----------- Comma-delimited summary/,$p' <<<"$out")
# The header row names the columns: each figure row has as many fields, N/A under Nested OMP.
IFS=',' read -r -a H <<<"${S[1]}"
nested_col=-1
for i in "${!H[@]}"; do [ "$(trim "${H[i]}")" != 'Nested OMP' ] || nested_col=$i; done
na_cells=0
for row in Runtime us/Loop Speedup Efficacy Overhead; do
    line=$(printf '%s\n' "${S[@]}" | grep -m1 "^$row,")
    IFS=',' read -r -a F <<<"$line"
    [ "${#F[@]}" -eq "${#H[@]}" ] && [ "$nested_col" -gt 0 ] && [ "$(trim "${F[nested_col]}")" = N/A ] &&
        na_cells=$((na_cells + 1))
done
is "$na_cells" 5 "every summary row keeps the header's ${#H[@]} fields, with N/A in the Nested OMP column"
coral=$(printf '%s\n' "${S[@]}" | grep -m1 '^CORAL RFP, ')
IFS=',' read -r -a F <<<"$coral"
is "${#F[@]}" 11 "the CORAL RFP line keeps its 11 fields (it has no Nested OMP figure)"

done_testing
