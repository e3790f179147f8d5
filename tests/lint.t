#!/usr/bin/env bash
# The project's own hygiene: every C source compiles warning-free with
# -Wall -Wextra (as -Werror), and every shell script is shellcheck-clean.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
cc=${CC:-gcc}
cd "$top" || exit 255

for src in clomp.c cli/*.c kernels/*.c mesh/*.c report/*.c tests/unit/*.c tests/oracle/*.c; do
    msg=$("$cc" -fsyntax-only -std=c11 -D_POSIX_C_SOURCE=200809L -fopenmp -Wall -Wextra -Werror \
        -I. -Itests -I"$build" "$src" 2>&1)
    ok $? "$src compiles with -Wall -Wextra -Werror"
    [ -z "$msg" ] || diag "$msg"
done

scripts=(.ci/run tests/*.t tests/lib/*.sh env/*.sh)
[ -f run_clomp.sh ] && scripts+=(run_clomp.sh)
if command -v shellcheck >/dev/null 2>&1; then
    for script in "${scripts[@]}"; do
        msg=$(shellcheck -x "$script" 2>&1)
        ok $? "$script is shellcheck-clean"
        [ -z "$msg" ] || diag "$msg"
    done
else
    skip "shell scripts are shellcheck-clean" "shellcheck not installed (apt-get install shellcheck)"
fi

done_testing
