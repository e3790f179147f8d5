#!/usr/bin/env bash
# The golden test (issue 18, item 6): fixed inputs (tests/golden/cases), run
# with --json and --csv, give the same output as the expected files in
# tests/golden/ — every text line (timings and machine facts masked, labels
# and line structure kept: tests/golden/golden.py lists the rules), every
# JSON key path, the JSON values the input alone decides (inputs, checksums,
# verification), and the CSV header with the input-determined columns.
# The expected files were written by tests/golden/regenerate.sh from the
# default build (gcc, libgomp, libnuma); regenerate them only for an intended
# output change, and list it in the commit message.
#
# Other build trees: a build without libnuma (make NUMA=0) prints two NUMA
# lines instead of nine and has no per-thread locality keys; those lines and
# keys are dropped from both sides there, everything else is compared. The
# compiler, flags and OpenMP version lines (clang, ASan) are masked anyway.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=golden/lib.sh
. "$(dirname "$0")/golden/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    skip "the golden comparison" "python3 not installed (it masks and parses the output)"
    done_testing
fi
# An offload build (make OFFLOAD=host check) adds its device to the header,
# the JSON and the CSV (tests/offload.t checks those); the golden files are
# the default build's.
if "$CLOMP" --version | grep -q '^offload: [a-z]' && ! "$CLOMP" --version | grep -q '^offload: no'; then
    skip "the golden comparison" "an offload build: the golden files are the default build's output"
    done_testing
fi
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT
# The runs happen inside $tmp, so the binary is named by its absolute path.
bin=$(cd "$(dirname "$CLOMP")" && pwd)/$(basename "$CLOMP")

describe() {  # describe KIND NAME: what the comparison of KIND asserts
    case $1 in
        txt) echo "every text line of '$2' matches tests/golden/$2.txt (timings and machine facts masked, labels kept)" ;;
        json-keys) echo "the JSON of '$2' has exactly the key paths of tests/golden/$2.json-keys" ;;
        json-values) echo "the JSON of '$2' has the inputs, checksums and verification of tests/golden/$2.json-values" ;;
        csv) echo "the CSV of '$2' has the columns and input-determined cells of tests/golden/$2.csv" ;;
    esac
}

# json_facts FILE: what the run's JSON says that decides what is compared, one word a line,
# each read by python3's json on its own: 'document' (FILE is a JSON document), then
# 'no_libnuma' (built without libnuma), 'no_cycles' (no cycle rate), 'invalid' (a
# measurement that is not a result) where they hold. One python3 for all four.
json_facts() {
    python3 - "$1" 2>/dev/null <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    sys.exit(1)
def holds(word, test):
    try:
        if test():
            print(word)
    except (KeyError, TypeError, IndexError):
        pass
holds("document", lambda: True)
holds("no_libnuma", lambda: d["build"]["libnuma"] is False)
holds("no_cycles", lambda: d["cycles"]["ghz"] is None)
holds("invalid", lambda: any(m["valid"] is False for m in d["measurements"]))
PY
}

# comparable KIND: stdin to stdout, less what this build cannot give: without
# libnuma ($no_libnuma set) the NUMA lines and keys only libnuma provides.
no_libnuma=''
comparable() {
    if [ -n "$no_libnuma" ]; then
        python3 "$GOLDEN_DIR/golden.py" without-libnuma "$1"
    else
        cat
    fi
}

# ---- the expected files are the ones their last recorded regeneration wrote ----
recorded=$(golden_recorded_fingerprint)
if [ -n "$recorded" ] && [ "$recorded" = "$(golden_fingerprint)" ]; then
    ok 0 "the expected files are those tests/golden/REASONS last recorded (regenerated with a reason)"
else
    ok 1 "the expected files are those tests/golden/REASONS last recorded (regenerated with a reason)"
    diag "tests/golden/ was changed without tests/golden/regenerate.sh --reason (make golden REASON=...):"
    diag "recorded ${recorded:-nothing}, the files give $(golden_fingerprint)"
fi

while read -r name args; do
    read -r -a argv <<<"$args"
    golden_run "$bin" "$tmp" "$name" "${argv[@]}"
    is "$?" 0 "clomp $args exits 0"
    is "$(cat "$tmp/$name.err")" "" "clomp $args prints nothing on stderr"
    facts=$(json_facts "$tmp/$name.json")
    if ! grep -qx document <<<"$facts"; then
        ok 1 "clomp $args writes a JSON document"
        continue
    fi
    no_libnuma=''
    if grep -qx no_libnuma <<<"$facts"; then
        no_libnuma=1
        note "this clomp is built without libnuma: the NUMA lines and keys only libnuma gives are not compared"
    fi
    no_cycles=
    grep -qx no_cycles <<<"$facts" && no_cycles=1
    # A measurement that is not a result (issue 35) follows the load: its lines read N/A.
    invalid=
    grep -qx invalid <<<"$facts" && invalid=1
    for kind in "${GOLDEN_KINDS[@]}"; do
        desc=$(describe "$kind" "$name")
        if [ -n "$no_cycles" ] && { [ "$kind" = txt ] || [ "$kind" = json-keys ]; }; then
            skip "$desc" "no cycle rate on this machine (no invariant TSC): the cycle lines and targets read 'unavailable'"
            continue
        fi
        if [ -n "$invalid" ] && { [ "$kind" = txt ] || [ "$kind" = json-keys ]; }; then
            skip "$desc" "a measurement was not a result on this (loaded) machine: its derived lines read N/A"
            continue
        fi
        want=$(comparable "$kind" <"$GOLDEN_DIR/$name.$kind")
        got=$(golden_masked "$kind" "$bin" "$tmp" "$name" | comparable "$kind")
        if [ "$got" = "$want" ]; then
            ok 0 "$desc"
        else
            ok 1 "$desc"
            diag "--- expected (tests/golden/$name.$kind)  +++ this clomp:"
            diag "$(diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$got") | sed 1,2d | head -60)"
        fi
    done
done < <(golden_cases)

# ---- regeneration: refuses without a reason, prints the diff, records the reason ----
# regenerate.sh needs a default build (with libnuma): elsewhere its self-test is skipped.
# Its subject is the script, not clomp: the runs above compared every case, so
# the binary it regenerates from replays the first case's run of this clomp
# (its output, JSON and CSV; the path in the text is the replay's own, as
# regenerate.sh masks the binary it was given), not a run of its own.
if "$bin" --version 2>/dev/null | grep -q '^libnuma: yes'; then
# On a copy holding only the first case (one regeneration of one case).
replay=$tmp/replay/clomp
mkdir "$tmp/replay" && cat >"$replay" <<REPLAY
#!/usr/bin/env bash
for a; do
    case \$a in
        --json=*) cp "$tmp/\$(basename "\${a#--json=}")" "\${a#--json=}" ;;
        --csv=*) cp "$tmp/\$(basename "\${a#--csv=}")" "\${a#--csv=}" ;;
    esac
done
while IFS= read -r line; do printf '%s\\n' "\${line//"$bin"/"$replay"}"; done <"$tmp/$(golden_cases | head -1 | cut -d' ' -f1).out"
REPLAY
chmod +x "$replay"
copy=$tmp/golden-copy
mkdir "$copy" && find "$GOLDEN_DIR" -maxdepth 1 -type f -exec cp -t "$copy" {} +   # the suite/ fixture is results_package.t's
{ grep '^#' "$GOLDEN_DIR/cases"; golden_cases | head -1; } >"$copy/cases"
before=$(cd "$copy" && cat -- *)
bash "$copy/regenerate.sh" "$replay" >"$tmp/regen.out" 2>&1
is "$?" 2 "regenerate.sh without --reason exits 2"
is "$(cd "$copy" && cat -- *)" "$before" "regenerate.sh without --reason writes nothing"
like "$(cat "$tmp/regen.out")" "refusing to regenerate the golden files without a reason" \
    "regenerate.sh without --reason says why it refuses"
bash "$copy/regenerate.sh" --reason 'short' "$replay" >/dev/null 2>&1
is "$?" 2 "regenerate.sh refuses a reason under 10 characters"
# A stale expected line, as if the output had changed: regeneration shows
# it in a diff, rewrites it, and records the reason and the new fingerprint.
printf 'a stale line\n' >>"$copy/target.csv"
bash "$copy/regenerate.sh" --reason 'the test of regenerate.sh itself' "$replay" >"$tmp/regen.out" 2>"$tmp/regen.err"
is "$?" 0 "regenerate.sh --reason exits 0"
like "$(cat "$tmp/regen.out")" $'--- a/tests/golden/target.csv\n\\+\\+\\+ b/tests/golden/target.csv' \
    "regenerate.sh prints the diff of the file it changes"
like "$(cat "$tmp/regen.out")" $'\n-a stale line' "the diff shows the stale line removed"
is "$(tail -1 "$copy/target.csv")" "$(tail -1 "$GOLDEN_DIR/target.csv")" "regenerate.sh rewrote the stale file"
like "$(tail -5 "$copy/REASONS")" $'reason: the test of regenerate.sh itself\nbinary: [^\n]*\nchanged: target.csv \\(\\+0 -1\\)' \
    "REASONS records the reason and the changed file"
is "$(GOLDEN_DIR=$copy golden_recorded_fingerprint)" "$(GOLDEN_DIR=$copy golden_fingerprint)" \
    "REASONS records the regenerated files' fingerprint"
like "$(cat "$tmp/regen.out")" "git commit -m 'golden: the test of regenerate.sh itself'" \
    "regenerate.sh prints the commit command, its message starting 'golden:'"
else
    skip "regenerate.sh's self-test (refusal, diff, REASONS; 11 tests)" "this clomp is built without libnuma (regenerate.sh needs the default build)"
fi

done_testing
