#!/usr/bin/env bash
# bench/delay_placement.py tells whether a program's delay loop lies within
# one 64-byte line or across two, read back from the machine code: two tiny
# programs whose loop is placed on purpose (a function starting a 64-byte
# line; the same function pushed to start 60 bytes into one) are told apart,
# and a missing function is said, not guessed. The oracle is where the
# assembler was told to put the code, not the script's own reading.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

case $(uname -m) in
    x86_64) ;;
    *) printf '1..0 # SKIP the loops placed here are x86-64 code (this is %s)\n' "$(uname -m)"; exit 0 ;;
esac
command -v python3 >/dev/null 2>&1 || { printf '1..0 # SKIP the script is python3\n'; exit 0; }
command -v objdump >/dev/null 2>&1 || { printf '1..0 # SKIP no objdump (binutils)\n'; exit 0; }
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || { printf '1..0 # SKIP no C compiler\n'; exit 0; }
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT

# The loop is written in assembly, so that its length and place do not depend on
# the compiler: `delay` starts a 64-byte line plus SKIP bytes (nops), its loop
# is 15 bytes (a conversion, an addition, a count, a jump back) starting 5 bytes in.
placed() {  # placed NAME SKIP
    cat >"$tmp/$1.c" <<C
__asm__(".text\n.globl delay\n.type delay, @function\n.p2align 6\n.skip $2, 0x90\n"
        "delay:\n xorps %xmm0, %xmm0\n xor %eax, %eax\n"
        "1: cvtsi2ss %eax, %xmm1\n addss %xmm1, %xmm0\n add \$1, %eax\n cmp %eax, %edi\n jne 1b\n ret\n"
        ".size delay, .-delay\n");
float delay(int n);
int main(void) { return delay(3) > 0.0f ? 0 : 1; }
C
    "$cc" -O1 -o "$tmp/$1" "$tmp/$1.c" 2>"$tmp/$1.err" || { diag "$(cat "$tmp/$1.err")"; return 1; }
}
if ! placed within 0 || ! placed across 56 || ! placed ending 44; then
    echo "Bail out! $cc could not build the placed loops"
    exit 255
fi
"$tmp/within" && "$tmp/across"
ok $? "both placed programs run their delay (the loop sums 0 + 1 + 2)"

out=$(python3 "$top/bench/delay_placement.py" "a=$tmp/within:delay" "b=$tmp/across:delay" "c=$tmp/within:nothing" \
    "d=$tmp/ending:delay" "e=$tmp/absent:delay" 2>&1)
note "$out"
like "$out" "^delay loops: a: delay loop 0x[0-9a-f]+\.\.0x[0-9a-f]+ within a 64-byte line;" \
    "a loop 5..20 bytes into a 64-byte line is within one"
like "$out" "; b: delay loop 0x[0-9a-f]+\.\.0x[0-9a-f]+ across two 64-byte lines;" \
    "the same loop 61..76 bytes in (past the line's end at 64) is across two"
like "$out" "; c: no nothing;" "a function the program lacks is said to be missing"
ending=$(objdump -d "$tmp/ending" | awk '/<delay>:/ { print $1; exit }')
like "$out" "; d: delay loop 0x$(printf '%x' $((16#$ending + 5)))\.\.0x$(printf '%x' $((16#$ending + 20))) within a 64-byte line;" \
    "a loop 49..64 bytes in, its last byte the line's last, is within one (no off-by-one at the boundary)"
like "$out" "; e: no such program $tmp/absent$" "a program that does not exist is said to be missing, not its function"
# The addresses it gives are the loop's: its start 5 bytes past the function's.
start=$(objdump -d "$tmp/across" | awk '/<delay>:/ { print $1; exit }')
like "$out" "b: delay loop 0x$(printf '%x' $((16#$start + 5)))\.\.0x$(printf '%x' $((16#$start + 20))) " \
    "the loop it gives runs from the jump's target, 5 bytes into delay (at 0x$start), to the jump's end 15 bytes on"

done_testing
