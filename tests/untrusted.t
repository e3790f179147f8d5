#!/usr/bin/env bash
# Untrusted input (issue 45), the results package's side: a suite named
# with quotes, $( ) or ESC runs and prints nothing (make plots included); a
# forged bundle and an empty one are INVALID naming the mismatch; a
# 15,000-run plan is answered; tar headers are judged before what they
# announce is read (long names, pax, chains); "²" is no number; a CLOMP 1.2
# text of more processes than clomp-stats takes says so; signed bundles
# (ssh-keygen -Y, namespace clomp-submission) validate naming the signer,
# and a changed byte or another key is refused; control characters (C0, C1,
# DEL, bidi controls) put in every string field of the records reach no
# output of the buyer's table, the archive or the validator raw
# (test_untrusted_strings.py: the quick lane puts the classes six at a time
# in every field, the full lane each alone, and each field alone, about 80
# tables). The full lane adds the real
# 300 MiB and 1 GiB long names under a 300 MB peak and 300 random mutations
# of the golden bundle, none ending in a traceback (about 1.5 min;
# tests/python/test_untrusted*.py). The driver's side: tests/untrusted_driver.t.
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
make -C "$top" -s --no-print-directory clomp-stats >&2 || { echo "Bail out! make clomp-stats failed"; exit 255; }
cd "$top/tests/python" || exit 255
files=(test_untrusted.py test_signatures.py test_untrusted_strings.py)
! full_lane || files+=(test_untrusted_big.py)
exec python3 tap_runner.py "${files[@]}"
