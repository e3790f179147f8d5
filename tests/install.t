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
# The offload builds (docs/offload.md): libomptarget and its x86_64 host
# plugin (make OFFLOAD=host) and gcc's nvptx offload compiler (make
# OFFLOAD=nvptx) come from packages of the list, as dpkg says here.
if command -v dpkg >/dev/null 2>&1 && [ -e /usr/lib/llvm-14/lib/libomptarget.rtl.x86_64.so ]; then
    for file in /usr/lib/llvm-14/lib/libomptarget.so /usr/lib/llvm-14/lib/libomptarget.rtl.x86_64.so; do
        owner=$(dpkg -S "$file" 2>/dev/null | sed -n '1s/:.*//p')
        grep -qx -- "${owner:-<none>}" <<<"$want"
        ok $? "${file##*/} comes from ${owner:-no package}, in .ci/packages"
    done
else
    skip "libomptarget and its host plugin come from a package in .ci/packages" "no dpkg or no LLVM 14 libomptarget here"
    skip "(the host plugin)" "no dpkg or no LLVM 14 libomptarget here"
fi
nvptx=''
for candidate in /usr/lib/gcc/x86_64-linux-gnu/*/accel/nvptx-none/mkoffload; do
    [ -e "$candidate" ] && nvptx=$candidate && break
done
if command -v dpkg >/dev/null 2>&1 && [ -n "$nvptx" ]; then
    owner=$(dpkg -S "$nvptx" 2>/dev/null | sed -n '1s/:.*//p')
    meta=$(grep -x 'gcc-offload-nvptx' <<<"$want")
    is "$meta $(dpkg-query -W -f='${Depends}' gcc-offload-nvptx 2>/dev/null | grep -c "${owner:-<none>}")" "gcc-offload-nvptx 1" \
        "gcc's nvptx mkoffload comes from ${owner:-no package}, which gcc-offload-nvptx (in .ci/packages) brings"
else
    skip "gcc's nvptx offload compiler comes from gcc-offload-nvptx, in .ci/packages" "gcc-offload-nvptx is not installed here"
fi
grep -q '\.ci/packages' "$top/.ci/run"
ok $? ".ci/run installs the packages of .ci/packages (no second list)"
grep -Eq '^packages=\(' "$top/.ci/run"
is "$?" 1 ".ci/run has no package list of its own"

done_testing
