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
done_testing
