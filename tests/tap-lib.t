#!/usr/bin/env bash
# The TAP helpers themselves: an assertion that cannot fail would make every
# test built on it worthless, so each is shown failing on a mismatch.
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

# verdict_of CMD...: runs one assertion in a subshell and prints ok / not ok.
verdict_of() {
    if ("$@") >/dev/null 2>&1; then echo ok; else echo "not ok"; fi
}
text=$'first line\nSecond: 2\nthird line'

is "$(verdict_of like "$text" '^Second: [0-9]$')" ok "like matches one line of a text"
is "$(verdict_of like "$text" '^Second: 3$')" "not ok" "like fails when no line matches"
is "$(verdict_of like "$text" $'\n''Second: 2'$'\n')" ok "like matches a pattern spanning line ends"
is "$(verdict_of like "$text" $'\n''Second: 3'$'\n')" "not ok" "like fails on a multi-line pattern that is absent (grep would split it and match the empty part)"
is "$(verdict_of like "$text" $'first line\nthird line')" "not ok" "like does not match lines that are not adjacent"
is "$(verdict_of is a b)" "not ok" "is fails on different strings"
is "$(verdict_of ok 1)" "not ok" "ok fails on a nonzero status"

# relay_tap against stand-in runners: each way a runner can end short fails it.
# shellcheck disable=SC2317  # called through relay_tap
runner() {  # runner EXIT LINE...: prints the lines, exits EXIT
    local status=$1
    shift
    printf '%s\n' "$@"
    return "$status"
}
is "$(verdict_of relay_tap "r" runner 0 1..2 "ok 1 - A: a" "ok 2 - A: b # SKIP why")" ok "relay_tap passes a runner whose plan is met and which exits 0"
is "$(verdict_of relay_tap "r" runner 1 1..1 "ok 1 - A: a")" "not ok" "relay_tap fails a runner that exits nonzero with every result ok"
is "$(verdict_of relay_tap "r" runner 0 1..3 "ok 1 - A: a" "ok 2 - A: b")" "not ok" "relay_tap fails a runner that stops short of its plan"
is "$(verdict_of relay_tap "r" runner 0 "ok 1 - A: a")" "not ok" "relay_tap fails a runner that prints no plan"
is "$(verdict_of relay_tap "r" runner 0 1..0)" "not ok" "relay_tap fails a runner that plans nothing"
is "$(verdict_of relay_tap "r" runner 0 1..2 "ok 1 - A: a" "not ok 2 - A: b")" "not ok" "relay_tap fails on a relayed failure"
is "$(relay_tap "r" runner 0 1..2 "ok 1 - A: a" "ok 2 - A: b # SKIP why" | sed -n '2s/^ok [0-9]* - /ok - /p')" "ok - A: b # SKIP why" \
    "and relays a skipped test as a skip"
done_testing
