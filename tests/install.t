#!/usr/bin/env bash
# The install line: README.md's one `apt-get install` line names exactly the
# packages of .ci/packages, the list CI installs (.ci/run reads that file), so
# what a new user copies is what the full test lane and the optional features use.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
list=$top/.ci/packages
[ -f "$list" ]
ok $? ".ci/packages exists: the one list of packages"
want=$(grep -v '^#' "$list" 2>/dev/null | tr -s ' \t' '\n' | grep . | LC_ALL=C sort)
lines=$(grep -E '^(sudo )?apt-get install ' "$top/README.md")
is "$(grep -c . <<<"$lines")" 1 "README.md has one apt-get install line"
words=${lines#sudo }
got=$(tr -s ' \t' '\n' <<<"${words#apt-get install}" | grep -v '^-' | grep . | LC_ALL=C sort)
is "$(paste -sd' ' <<<"$got")" "$(paste -sd' ' <<<"$want")" "README's apt-get install line names exactly the packages of .ci/packages"
grep -q '\.ci/packages' "$top/.ci/run"
ok $? ".ci/run installs the packages of .ci/packages (no second list)"
grep -Eq '^packages=\(' "$top/.ci/run"
is "$?" 1 ".ci/run has no package list of its own"

done_testing
