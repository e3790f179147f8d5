#!/usr/bin/env bash
# The command line: every parameter rejects every class of bad value with exit 2
# and one stderr line naming it; options, usage, --help, --version; exit 3 for
# meshes that cannot exist. Only a few short runs: most cases stop in the parser.
# The runs turn the noise census off (tests/noise.t owns it): they read the
# header, the summary and the JSON's measurements, none of which it changes.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
export OMP_NUM_THREADS=2
# Idle threads sleep instead of spinning: on a loaded 2-core CI machine spinning
# threads make every OpenMP barrier many times slower (the answers do not change).
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

names=(numThreads allocThreads numParts zonesPerPart zoneSize flopScale timeScale)
base=(1 1 4 100 32 1 1)

# Bad value classes, valid for no parameter. '--5' starts with -- so it is an
# unknown option rather than a number: still exit 2, and the message names it.
bad_values=(abc 12x 1e3 1.5 '' +5 --5 0x10 010 ' 5' '5 ' 0 -2 99999999999999999999)

# rejected WANT_STATUS MUST_NAME DESC ARGS...: exit WANT_STATUS, nothing on
# stdout, exactly one stderr line starting 'clomp: ' that contains MUST_NAME.
rejected() {
    local want=$1 must=$2 desc=$3
    shift 3
    run_clomp "$@"
    local lines
    lines=$(line_count "$err")
    if [ "$rc" -eq "$want" ] && [ -z "$out" ] && [ "$lines" -eq 1 ] &&
        [ "${err#clomp: }" != "$err" ] && [[ $err == *"$must"* ]]; then
        ok 0 "$desc"
    else
        ok 1 "$desc"
        diag "args: $(printf "'%s' " "$@")" "exit $rc, $lines stderr line(s), want exit $want naming $must" \
            "stderr: $err" "stdout: ${out:0:200}"
    fi
}

shown() {  # how a value reads in a test description
    if [ -z "$1" ]; then echo "'' (empty)"; else printf "'%s'" "$1"; fi
}

# ---- every bad value class for every parameter -------------------------------
for i in "${!names[@]}"; do
    name=${names[$i]}
    values=("${bad_values[@]}")
    # -1 means "system default" only for the two thread counts.
    [ "$i" -ge 2 ] && values+=(-1)
    for bad in "${values[@]}"; do
        args=("${base[@]}")
        args[i]=$bad
        if [ "$bad" = "--5" ]; then
            rejected 2 "'--5'" "$name $(shown "$bad") is rejected with exit 2 as an unknown option naming it" "${args[@]}"
        else
            rejected 2 "$name: '$bad'" "$name $(shown "$bad") is rejected with exit 2 naming $name and the text" \
                "${args[@]}"
        fi
    done
done

# ---- -1 for the thread counts --------------------------------------------------
run_clomp --noise-census=off -1 1 8 800 32 1 1
is "$rc" 0 "numThreads -1 is accepted (exit 0)"
[[ $out == *$'\n''      numThreads: 2 (using system default)'$'\n'* ]]
ok $? "numThreads -1 resolves to the OpenMP default (OMP_NUM_THREADS=2) in the header, as CLOMP 1.2 says it"

run_clomp --noise-census=off 1 -1 8 800 32 1 1
is "$rc" 0 "allocThreads -1 is accepted (exit 0)"
[[ $out == *$'\n''    allocThreads: 1 (using numThreads)'$'\n'* ]]
ok $? "allocThreads -1 resolves to numThreads in the header, as CLOMP 1.2 says it"

# ---- wrong number of numbers ---------------------------------------------------
# A missing or extra number: its one line and where the usage is (issue 43, item 8), not the usage.
run_clomp 1 1 4 100 32 1
[ "$rc" -eq 2 ] && [ -z "$out" ]
ok $? "six numbers exit 2 with nothing on stdout"
is "$err" "clomp: expected 7 numbers, got 6: timeScale is missing (see clomp --help)" \
    "six numbers give one line on stderr naming the missing seventh, timeScale, and pointing to --help"
err=$("$CLOMP" 4 2>&1 >/dev/null)
is "$err" "clomp: expected 7 numbers, got 1: allocThreads, numParts, zonesPerPart, zoneSize, flopScale and timeScale are missing (see clomp --help)" \
    "one number gives one line naming the six missing"

run_clomp 1 1 4 100 32 1 1 5
[ "$rc" -eq 2 ] && [ -z "$out" ]
ok $? "eight numbers exit 2 with nothing on stdout"
is "$err" "clomp: too many arguments: '5' after the seven numbers (see clomp --help)" \
    "eight numbers give one line naming the extra argument and pointing to --help"

run_clomp -h
[ "$rc" -eq 0 ] && [[ $out == Usage:* ]]
ok $? "-h prints the usage on stdout and exits 0"

run_clomp
is "$rc" 2 "no arguments exit 2"
[ -z "$out" ] && [[ $err == *Usage:* ]]
ok $? "no arguments print the usage on stderr, not stdout"
missing=
for word in "${names[@]}" testcases; do
    [[ $err == *"$word"* ]] || missing="$missing $word"
done
is "$missing" "" "the usage names all seven parameters and the testcases"

# ---- options ----------------------------------------------------------------------
rejected 2 "'--bogus'" "unknown option --bogus alone is rejected with exit 2 naming it" --bogus
rejected 2 "'--bogus'" "unknown option --bogus before valid numbers is rejected with exit 2 naming it" \
    --bogus "${base[@]}"

for shape in 2 x2 2x 0x2 2x0 axb 2x2x2; do
    rejected 2 "--nested: '$shape'" "--nested=$shape is rejected with exit 2 naming --nested and the text" \
        "--nested=$shape" "${base[@]}"
done

# 6400 zones keep the iteration count, and so the run, short.
run_clomp --nested=1x2 --noise-census=off 2 1 4 1600 32 1 1
is "$rc" 0 "--nested=1x2 before the numbers is accepted (exit 0)"
[[ $out == *'Nested OMP shape: 1x2'* ]]
ok $? "--nested=1x2 is the Nested OMP shape reported in the header"

run_clomp --help
[ "$rc" -eq 0 ] && [ -z "$err" ] && [[ $out == Usage:* ]]
ok $? "--help exits 0 with the usage on stdout and nothing on stderr"

run_clomp --version
is "$rc" 0 "--version exits 0"
like "${out%%$'\n'*}" '^clomp [0-9]+\.[0-9]+' "--version starts with 'clomp <version>'"
[[ $out == *OpenMP* ]] && [[ $out == *CFLAGS* ]]
ok $? "--version reports the OpenMP version and the CFLAGS"

# ---- zoneSize below 32 -------------------------------------------------------------
run_clomp --noise-census=off 1 1 4 100 8 1 1
is "$rc" 0 "zoneSize 8 is accepted (exit 0)"
[ -z "$err" ] && [[ $out == *$'\n''***Forcing zoneSize (8 specified) to minimum zone size 32'$'\n'* ]]
ok $? "zoneSize 8 gets CLOMP 1.2's one-line notice before the header"
[[ $out == *$'\n''        zoneSize: 32'$'\n'* ]]
ok $? "zoneSize 8 is raised to 32 in the header"
# CLOMP 1.2 never rounds zoneSize: it pads each part's block and the zones sit
# 32 bytes apart, so 100 is echoed as given and Memory is 1.2's figure
# (4 parts x 100 zones x 100 bytes + 4 Part records of 72 bytes).
run_clomp --noise-census=off 1 1 4 100 100 1 1
is "$rc" 0 "zoneSize 100 runs (exit 0)"
[[ $out != *Rounding* ]] && [[ $out == *$'\n''        zoneSize: 100'$'\n'* ]]
ok $? "zoneSize 100 is echoed unchanged in the header, with no rounding notice"
[[ $out == *$'\n''Memory (in bytes): '$((4 * 100 * 100 + 4 * 72))$'\n'* ]]
ok $? "Memory for zoneSize 100 is CLOMP 1.2's figure, numParts x zonesPerPart x zoneSize + the parts"
[[ $out == *$'\n''CORAL RFP, 1 1 4 100 100 1 1, '* ]]
ok $? "the CORAL RFP line echoes zoneSize 100 as given"
[[ $out == *$'\n''      Zone layout: CLOMP 1.2 (zones 32 bytes apart'* ]]
ok $? "the header names CLOMP 1.2's zone layout as the one used"
run_clomp --zone-stride=zonesize --noise-census=off 1 1 4 100 100 1 1
is "$rc" 0 "--zone-stride=zonesize runs (exit 0)"
[[ $out == *$'\n''      Zone layout: spread, --zone-stride=zonesize (zone k at k x 104 bytes)'* ]]
ok $? "--zone-stride=zonesize is named in the header, with its 8-byte aligned stride of 104"
[[ $out == *$'\n''Memory (in bytes): '$((4 * 100 * 104 + 4 * 72))' (spread layout: zones 104 bytes apart; CLOMP 1.2 allocates '$((4 * 100 * 100 + 4 * 72))')'$'\n'* ]]
ok $? "the spread layout's Memory line gives what it allocates and says what 1.2 would"
[[ $out == *$'\n''        zoneSize: 100'$'\n'* ]] && [[ $out == *$'\n''CORAL RFP, 1 1 4 100 100 1 1, '* ]]
ok $? "the spread layout still echoes zoneSize 100 as given"
run_clomp --zone-stride=wide 1 1 4 100 100 1 1
[ "$rc" -eq 2 ] && [[ $err == *"--zone-stride: 'wide'"* ]] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && [ -z "$out" ]
ok $? "--zone-stride=wide exits 2 with one line naming the option and the value"
run_clomp 1 1 1 1 9223372036854775807 1 1
[ "$rc" -eq 3 ] && [[ $err == *zoneSize* ]] && [ -z "$out" ]
ok $? "zoneSize LONG_MAX exits 3 naming zoneSize before anything is printed"

# ---- meshes that cannot exist: exit 3 before anything is allocated ----------------
# Under a 4 GiB address-space limit so that a regression cannot take the machine;
# nothing on stdout means clomp refused before the header and the mesh.
huge() {
    local desc=$1
    shift
    local tmp_out tmp_err
    if ! tmp_out=$(mktemp) || ! tmp_err=$(mktemp); then
        echo "Bail out! mktemp failed"
        exit 255
    fi
    # (Sanitizer builds reserve terabytes of shadow memory: no limit for them.)
    (if [ -z "${CLOMP_SANITIZED:-}" ]; then ulimit -v 4194304 2>/dev/null; fi
        exec "$CLOMP" "$@") </dev/null >"$tmp_out" 2>"$tmp_err"
    rc=$?
    out=$(cat "$tmp_out")
    err=$(cat "$tmp_err")
    rm -f "$tmp_out" "$tmp_err"
    if [ "$rc" -eq 3 ] && [ -z "$out" ] && [ "$(line_count "$err")" -eq 1 ] &&
        [[ $err == "clomp: "*bytes* ]]; then
        ok 0 "$desc"
    else
        ok 1 "$desc"
        diag "exit $rc; stderr: $err" "stdout: ${out:0:200}"
    fi
}
huge "a mesh whose size overflows exits 3 with its bytes, before the header" \
    1 1 9223372036854775807 9223372036854775807 32 1 1
huge "a mesh larger than physical memory exits 3 with its bytes, before the header" \
    1 1 1000000 1000000 32 1 1

# ---- --dry-run ------------------------------------------------------------------------
run_clomp --dry-run -1 1 64 10000 512 1 100
[ "$rc" -eq 0 ] && [[ $out == *'Dry run: arguments valid; the mesh was not built'* ]] && [[ $out != *Checksum* ]]
ok $? "--dry-run validates the mem-bound input and prints the plan without running anything"
like "$out" $'\n''Scaled Iterations: 157'$'\n' "the plan gives the iterations: ceil(1e8/640000) = 157"
like "$out" $'\n''Memory \(in bytes\): 327684608'$'\n' "the plan gives the memory: 640000 zones x 512 B + 64 parts x 72 B"
like "$out" 'Deposit model: CLOMP 1.2' "the plan names the deposit model"
run_clomp --dry-run 1 1 64 1 32 100 1
like "$out" 'Deposit model: single-zone' "the plan shows the single-zone model for zonesPerPart 1"
run_clomp --dry-run 1 1 1000000 1000000 32 1 1
[ "$rc" -eq 3 ] && [[ $err == *bytes* ]]
ok $? "--dry-run still refuses a mesh larger than memory (exit 3)"

# ---- hostile input: values that could only mean a run without end ---------------------
run_clomp 1 1 1 1 32 9223372036854775807 1
[ "$rc" -eq 2 ] && [[ $err == "clomp: flopScale: '9223372036854775807' is above the maximum 1000000000" ]]
ok $? "flopScale LONG_MAX is refused with exit 2, naming the parameter and its maximum"
run_clomp 1 1 1 1 32 1 1000001
[ "$rc" -eq 2 ] && [[ $err == "clomp: timeScale: '1000001' is above the maximum 1000000" ]]
ok $? "timeScale above 1e6 is refused with exit 2"
run_clomp --dry-run 1 1 64 100 32 1000000000 1000000
is "$rc" 0 "flopScale 1e9 and timeScale 1e6, the maxima, are accepted"

# ---- a mesh that fits the machine but not the address-space limit ----------------------
if [ -z "${CLOMP_SANITIZED:-}" ]; then
    tmp_err=$(mktemp)
    # 400 MB of address space, a 640 MB mesh: the same refusal as 2 GB against 3.2 GB,
    # without first touching 2 GB of parts before the allocation fails.
    (ulimit -v 400000 && exec "$CLOMP" 1 1 100 200000 32 1 1) >/dev/null 2>"$tmp_err"
    rc=$?
    err=$(cat "$tmp_err")
    rm -f "$tmp_err"
    [ "$rc" -eq 3 ] && [[ $err == "clomp: could not allocate the mesh: $((100 * 200000 * 32)) bytes requested" ]]
    ok $? "under ulimit -v 400 MB a 640 MB mesh fails to allocate with exit 3 and its bytes, never a crash"
else
    skip "under ulimit -v a large mesh fails with exit 3" "sanitizer builds cannot run under ulimit -v"
fi

# ---- odd environment contents never break the report ----------------------------------
OMP_ODD=$'two\nlines "quoted" \xff\xfe' run_clomp 1 1 4 100 32 1 1
line=$(printf '%s\n' "$out" | grep -c '^       OpenMP env: OMP_ODD=two\\x0alines "quoted" \\xff\\xfe$')
is "$line" 1 "an OMP_ variable with a newline, quotes and non-UTF-8 bytes is one escaped header line"

# A host name is kernel data, not ours: one with a newline must not break the header.
if command -v python3 >/dev/null 2>&1 && unshare --uts true 2>/dev/null; then
    header_host=$(unshare --uts python3 - "$CLOMP" <<'PY'
import ctypes, subprocess, sys
name = b'evil\nhost"x\xff'
ctypes.CDLL(None).sethostname(name, len(name))
out = subprocess.run([sys.argv[1], "1", "1", "4", "100", "32", "1", "1"], capture_output=True).stdout
print([l for l in out.decode("latin1").split("\n") if "Hostname:" in l][0])
PY
)
    is "$header_host" '         Hostname: evil\x0ahost"x\xff' "a host name with a newline and non-UTF-8 bytes stays one escaped header line"
else
    skip "a host name with a newline stays one escaped header line" "needs python3 and unshare --uts (root)"
fi

# ---- --list-schedules: the one list ----------------------------------------------------
run_clomp --list-schedules
is "$rc" 0 "--list-schedules exits 0"
mapfile -t list_lines <<<"$out"
is "${list_lines[0]-}" $'# key\treport name\trole\tparameter\truns\tthreads' "--list-schedules opens with its tab-separated header"
bad_rows=$(printf '%s\n' "${list_lines[@]:1}" | awk -F'\t' 'NF != 6 || $3 !~ /^(probe|reference|bestcase|checked)$/ || $5 !~ /^(default|optional)$/ || ($4 != "-" && $4 !~ /^(chunk size|grainsize) [1-9][0-9]*$/) || $6 !~ /^(one|team|nested)$/' | grep -c .)
is "$bad_rows" 0 "every --list-schedules row has a key, a name, a known role, '-' or a parameter, default or optional, and one, team or nested"
# The threads column against what a 2-thread run records of each default measurement (its JSON):
# no team for 'one', the team for 'team', 'needs at least 2x2' for 'nested' (the suite's estimate counts by it).
if command -v python3 >/dev/null 2>&1 && threads_json=$(mktemp); then
    # 16 x 400 zones: 1,570 subcycles (16 x 10 zones ran 62,500, all parallel regions).
    "$CLOMP" --trials=1 --noise-census=off --json="$threads_json" 2 1 16 400 32 1 1 >/dev/null 2>&1
    wrong=$(printf '%s\n' "${list_lines[@]:1}" | python3 -c '
import json, sys
seen = {m["key"]: m for m in json.load(open(sys.argv[1]))["measurements"]}
for key, *_, runs, threads in (line.rstrip("\n").split("\t") for line in sys.stdin):
    m = seen.get(key)
    if runs != "default":
        continue
    got = ("nested" if "2x2" in (m.get("unavailable") or "") else "team" if m.get("threads") else "one") if m else "absent"
    if got != threads:
        print("%s: listed %s, ran as %s" % (key, threads, got))' "$threads_json")
    rm -f "$threads_json"
    is "$wrong" "" "the threads column says how each default measurement ran: on one thread, the team, or nested teams"
else
    skip "the threads column against a run's JSON" "needs python3"
fi
mapfile -t keys < <(schedule_list '' '' 1)
mapfile -t defaults < <(schedule_list '' default)
mapfile -t optionals < <(schedule_list '' optional)
[ "${#optionals[@]}" -ge 1 ]
ok $? "the table has optional schedules (${#optionals[@]})"
# Every listed key is accepted by --schedules, which then measures exactly that one and Serial Ref,
# in table order. 4 threads: Nested OMP needs a 2x2 shape (N/A below it); a dry run starts none.
unaccepted=''
for key in "${keys[@]}"; do
    want=$(schedule_list '' '' 0 | awk -F'\t' -v k="$key" '$1 == k || $2 == "Serial Ref" { printf "%s%s", sep, $2; sep = ", " }')
    run_clomp --dry-run --schedules="$key" 4 1 16 10 32 1 1
    [ "$rc" -eq 0 ] && [[ $out == *$'\n'"     Measurements: $want"$'\n'* ]] || unaccepted+=" $key"
done
is "$unaccepted" "" "--schedules accepts every listed key and selects exactly that measurement (and Serial Ref)"
run_clomp --schedules=no_such_schedule 2 1 16 100 32 1 1
missing=''
for key in "${keys[@]}"; do [[ $err == *" $key"[\;\ \)]* ]] || missing+=" $key"; done
[ "$rc" -eq 2 ] && [ "$(line_count "$err")" -eq 1 ] && [ -z "$missing" ]
ok $? "an unknown --schedules name exits 2 with one line listing every key of the table${missing:+ (missing:$missing)}"
run_clomp --help
help_missing=''
for key in "${keys[@]}"; do [[ $out == *" $key"[\ $'\n']* || $out == *" $key" ]] || help_missing+=" $key"; done
is "$help_missing" "" "--help lists every key of the table"
run_clomp 2 1 16 400 32 1 1 --noise-census=off --quiet
summary_head=$(sed -n 2p <<<"$out")
is "$summary_head" "$CLOMP 2 1 16 400 32 1 1, $(printf '%s, ' "${defaults[@]}" | sed 's/, $//')" \
    "without --schedules the summary has exactly the default measurements' columns, no optional one"
run_clomp --quiet --noise-census=off --schedules="serial,${keys[${#keys[@]} - 1]}" 2 1 16 400 32 1 1
is "$(sed -n 2p <<<"$out")" "$CLOMP 2 1 16 400 32 1 1, $(printf '%s, ' "${defaults[@]}" "${optionals[${#optionals[@]} - 1]}" | sed 's/, $//')" \
    "an optional schedule that ran adds its column after every default column"

done_testing
