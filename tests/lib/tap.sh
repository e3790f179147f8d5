# shellcheck shell=bash
# Minimal TAP producer for the shell tests of the clomp binary (read by prove).
# Source it from a tests/*.t script:  . "$(dirname "$0")/lib/tap.sh"
#
#   ok STATUS DESC      passes when STATUS is 0 (a shell exit status: `[ ... ]; ok $? "..."`)
#   is GOT WANT DESC    passes when the two strings are equal
#   like GOT ERE DESC   passes when GOT matches the extended regular expression ERE
#   skip DESC REASON    records a skipped test
#   todo REASON         marks the next test as a known breakage (TODO: prove does not fail on it)
#   note MSG / diag MSG a TAP comment on stdout / on stderr
#   done_testing        prints the plan; exit status is the number of failures (max 254)

# The binary under test; a developer can run ./tests/foo.t straight from the repository.
CLOMP=${CLOMP:-"$(cd "$(dirname "$0")/.." && pwd)/clomp"}
export CLOMP

tap_count=0
tap_failed=0
tap_todo=

tap_result() {  # tap_result STATUS DESC
    local status=$1 desc=$2 directive=
    tap_count=$((tap_count + 1))
    if [ -n "$tap_todo" ]; then
        directive=" # TODO $tap_todo"
        tap_todo=
    fi
    if [ "$status" -eq 0 ]; then
        printf 'ok %d - %s%s\n' "$tap_count" "$desc" "$directive"
    else
        printf 'not ok %d - %s%s\n' "$tap_count" "$desc" "$directive"
        [ -n "$directive" ] || tap_failed=$((tap_failed + 1))
    fi
    return "$status"
}

ok() {
    tap_result "$1" "$2"
}

is() {
    if [ "$1" = "$2" ]; then
        tap_result 0 "$3"
    else
        tap_result 1 "$3"
        diag "     got: '$1'"
        diag "expected: '$2'"
        return 1
    fi
}

# A pattern with a newline in it is matched against the whole text (bash's
# ERE, where a newline is an ordinary character): grep would split it into
# alternatives, one of them empty, and match anything.
like() {
    local matched=1
    if [[ $2 == *$'\n'* ]]; then
        [[ $1 =~ $2 ]] && matched=0
    elif printf '%s\n' "$1" | grep -Eq -- "$2"; then
        matched=0
    fi
    if [ "$matched" -eq 0 ]; then
        tap_result 0 "$3"
    else
        tap_result 1 "$3"
        diag "     got: '$1'"
        diag "expected to match: $2"
        return 1
    fi
}

skip() {
    tap_count=$((tap_count + 1))
    printf 'ok %d - %s # SKIP %s\n' "$tap_count" "$1" "$2"
}

todo() {
    tap_todo=$1
}

# relay_tap DESC CMD...: runs CMD, a TAP producer (tests/python/tap_runner.py),
# and reports each of its results as one of this file's (its comments as
# diagnostics), then one more, DESC: that CMD printed a plan of at least one
# test, gave exactly that many results and exited 0. A runner that dies, skips
# its plan or stops short fails here, not silently. Returns 1 when any of
# these failed.
relay_tap() {
    local desc=$1 file line plan='' count=0 status failed=0
    shift
    file=$(mktemp) || { echo "Bail out! mktemp failed"; exit 255; }
    "$@" >"$file" 2>&1
    status=$?
    while IFS= read -r line; do
        case $line in
        "ok "*" # SKIP "*) count=$((count + 1)); line=${line#ok * - }; skip "${line% \# SKIP *}" "${line##* \# SKIP }" ;;
        "ok "*) count=$((count + 1)); ok 0 "${line#ok * - }" ;;
        "not ok "*) count=$((count + 1)); ok 1 "${line#not ok * - }" || failed=1 ;;
        1..*) plan=${line#1..} ;;
        "# "*) diag "${line#\# }" ;;
        *) diag "$line" ;;
        esac
    done <"$file"
    rm -f "$file"
    ok "$([[ $plan =~ ^[1-9][0-9]*$ ]] && [ "$count" = "$plan" ] && [ "$status" = 0 ]; echo $?)" \
        "$desc (plan ${plan:-none}, $count results, exit status $status)" || failed=1
    return "$failed"
}

# Test lanes: `make check` runs the quick lane (every feature, a few minutes),
# `make check-all` the full lane (everything: long matrices, guests, Slurm).
# A test run by hand is in the full lane unless CLOMP_TEST_LANE=quick.
CLOMP_TEST_LANE=${CLOMP_TEST_LANE:-full}
full_lane() {
    [ "$CLOMP_TEST_LANE" = full ]
}

# skip_unless_full_lane DESC: skips DESC (returns 1) in the quick lane:
#   skip_unless_full_lane "every schedule at 4 threads" && { ...cases...; }
skip_unless_full_lane() {
    full_lane && return 0
    skip "$1" "full lane only (make check-all)"
    return 1
}

# skip_all_unless_full_lane REASON: a whole file that belongs to the full lane.
skip_all_unless_full_lane() {
    full_lane && return 0
    printf '1..0 # SKIP %s: full lane only (make check-all)\n' "$1"
    exit 0
}

note() {
    printf '%s\n' "$@" | sed 's/^/# /'
}

diag() {
    printf '%s\n' "$@" | sed 's/^/# /' >&2
}

done_testing() {
    printf '1..%d\n' "$tap_count"
    [ "$tap_failed" -le 254 ] || tap_failed=254
    exit "$tap_failed"
}

# Wall-clock seconds since the epoch, with a fraction when the shell has one.
now() {
    if [ -n "${EPOCHREALTIME:-}" ]; then
        printf '%s\n' "${EPOCHREALTIME/,/.}"
    else
        date +%s
    fi
}

# run_clomp ARGS...: runs "$CLOMP" with ARGS; sets rc, out and err (stdout and stderr text).
# The two capture files are made once per test process and unlinked at once (nothing to clean up,
# whatever trap the test sets): fds 8 and 9 keep them, and each call reopens them through
# /dev/fd (truncating on write, reading from the start). Two mktemps, two cats and an rm a call
# cost about 10 ms of CPU, and some files call this hundreds of times. clomp does not inherit
# the two fds; a subshell (a background job) makes its own pair, so calls never share a file.
# shellcheck disable=SC2034  # rc, out and err are for the caller
run_clomp() {
    if [ "${run_clomp_fds:-}" != "$BASHPID" ]; then
        local tmp_out tmp_err
        if ! tmp_out=$(mktemp) || ! tmp_err=$(mktemp) || ! exec 8<>"$tmp_out" 9<>"$tmp_err"; then
            echo "Bail out! mktemp failed"
            exit 255
        fi
        rm -f "$tmp_out" "$tmp_err"
        run_clomp_fds=$BASHPID
    fi
    "$CLOMP" "$@" </dev/null >/dev/fd/8 2>/dev/fd/9 8>&- 9>&-
    rc=$?
    out=$(</dev/fd/8)
    err=$(</dev/fd/9)
}

# line_count TEXT: its number of lines; 0 for empty text.
line_count() {
    if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l | tr -d ' '; fi
}

# schedule_list [ROLE] [RUNS] [FIELD]: from BIN --list-schedules (BIN: $LIST_BIN,
# else $CLOMP), in table order, one per line, field FIELD (1 key, 2 report
# name: the default); ROLE (probe, reference, bestcase, checked) and RUNS
# (default, optional) filter, '' for any. Tests loop over this, so a new
# table row is tested by every test that loops over schedules.
schedule_list() {
    "${LIST_BIN:-$CLOMP}" --list-schedules | awk -F'\t' -v role="${1-}" -v runs="${2-}" -v field="${3-2}" \
        '!/^#/ && (role == "" || $3 == role) && (runs == "" || $5 == runs) { print $field }'
}

if [ ! -x "$CLOMP" ]; then
    echo "Bail out! no executable clomp at $CLOMP (run make, or set CLOMP)"
    exit 255
fi
