#!/usr/bin/env bash
# The delay inside every construct row is, in the built binary, EPCC's delay
# as EPCC is built (-O1): one loop, one scalar int-to-float conversion and one
# dependent float addition per step, neither vectorised nor unrolled, whatever
# CFLAGS clomp was built with. At gcc -O3 the loop was vectorised (four
# conversions in one cvtdq2ps, four addss a step): the core then ran the
# runtime's chunk hand-out in the shadow of the add chain, and schedbench's
# DYNAMIC 2 cost clomp 2 us a loop against EPCC's 20 (docs/constructs.md,
# "The delay"). Each delay starts a 64-byte line, its loop within it: one
# across two lines ran 10% slower here. The disassembly is read back with
# objdump, independently of the compiler that made it; nothing is timed.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

case $(uname -m) in
    x86_64) ;;
    *) printf '1..0 # SKIP the instruction names checked are x86-64 ones (this is %s)\n' "$(uname -m)"; exit 0 ;;
esac
command -v objdump >/dev/null || { printf '1..0 # SKIP no objdump (binutils)\n'; exit 0; }
objdump --help 2>&1 | grep -q -- '--disassemble=' || { printf '1..0 # SKIP objdump has no --disassemble=SYM (binutils 2.32 or newer)\n'; exit 0; }
[ -x "$CLOMP" ] || { echo "Bail out! no clomp at $CLOMP"; exit 255; }

# Both delays: clomp_delay (the Parallel For probe's, chained) and epcc_delay
# (the construct table's, EPCC's own): the same loop.
check_delay() {
    local fn=$1 code insns loops steps
    code=$(objdump -d --no-show-raw-insn --disassemble="$fn" "$CLOMP" 2>&1)
    like "$code" "<$fn>:" "objdump finds $fn in $CLOMP"

    # One line per instruction of the function: ADDRESS MNEMONIC OPERANDS (hex address).
    insns=$(printf '%s\n' "$code" | awk -v fn="$fn" '
        $0 ~ ("<" fn ">:") { inside = 1; next }
        inside && /^$/ { exit }
        inside && /^ *[0-9a-f]+:/ { sub(/:/, "", $1); print $1, $2, $3 }')
    [ -n "$insns" ] || diag "no instructions read: $code"

    # Loops: a jump back to an address inside the function over at least one
    # conversion or addition. Per loop: its first and last address, and the
    # conversions and additions in between.
    loops=$(printf '%s\n' "$insns" | perl -ne '
        my ($a, $op, $arg) = split;
        push @i, [hex $a, $op, $arg // ""];
        END {
            for my $j (@i) {
                my ($at, $op, $arg) = @$j;
                next unless $op =~ /^j/ && $arg =~ /^[0-9a-f]+$/;
                my $to = hex $arg;
                next unless $to < $at && $to >= $i[0][0];
                my ($conv, $add, $packed) = (0, 0, 0);
                for (grep { $_->[0] >= $to && $_->[0] <= $at } @i) {
                    $conv++ if $_->[1] =~ /^v?cvtsi2ss/;
                    $add++ if $_->[1] =~ /^v?addss/;
                    $packed++ if $_->[1] =~ /^v?(cvtdq2ps|addps)$/;
                }
                # A jump back over no arithmetic is other control flow (a sanitizer build
                # jumps back from its checks), not a copy of the delay loop.
                next unless $conv + $add + $packed > 0;
                printf "loop %x..%x: %d conversions, %d additions, %d packed\n", $to, $at, $conv, $add, $packed;
            }
        }' 2>&1)
    note "${loops:-no loop}"
    is "$(printf '%s\n' "$loops" | grep -c '^loop')" 1 "$fn is one loop (no unrolled body beside a remainder loop)"
    steps=$(printf '%s\n' "$loops" | grep -E '^loop ' | grep -c -v -E ': 1 conversions, 1 additions, 0 packed$')
    [ -n "$loops" ] && [ "$steps" -eq 0 ]
    ok $? "$fn: each step of every loop converts one integer and adds it to the chain: one cvtsi2ss, one addss, no packed instruction"
    is "$(printf '%s\n' "$insns" | awk '$2 ~ /^v?(cvtdq2ps|addps)$/' | wc -l | tr -d ' ')" 0 \
        "no packed conversion or addition anywhere in $fn (not vectorised)"
    # Placed: the function starts a 64-byte line and its loop lies within one
    # (a loop across two ran 10% slower per addition here: kernels/delay.c).
    local first
    first=$(printf '%s\n' "$insns" | awk 'NR == 1 { print $1 }')
    is "$((16#${first:-1} % 64))" 0 "$fn starts a 64-byte line (at 0x$first)"
    local across
    across=$(printf '%s\n' "$loops" | perl -ne 'if (/^loop ([0-9a-f]+)\.\.([0-9a-f]+):/) {
        my ($from, $jump) = (hex $1, hex $2); print "$1..$2 " if int($from / 64) != int(($jump + 1) / 64) }')
    is "$across" "" "$fn's loop lies within one 64-byte line (none across two: '$across')"
    # The chain: clomp_delay starts from its sink times 0 (a multiply before
    # the loop); EPCC's starts from 0 (none anywhere).
    local multiplies
    multiplies=$(printf '%s\n' "$insns" | awk '$2 ~ /^v?mulss$/' | wc -l | tr -d ' ')
    case $fn in
        clomp_delay) [ "$multiplies" -ge 1 ]; ok $? "clomp_delay chains its calls: its start is the last result times 0 ($multiplies mulss)" ;;
        epcc_delay) is "$multiplies" 0 "epcc_delay starts every call from 0, as EPCC's: no multiply" ;;
    esac
}

for fn in clomp_delay epcc_delay; do
    check_delay "$fn"
done

done_testing
