#!/usr/bin/env bash
# bench/constructs.sh (EPCC 4.0) gives each clomp process the delay length
# its EPCC program chose: in odd rounds (EPCC first) that round's, in even
# rounds (clomp first) the round before's; where the EPCC process printed no
# length clomp calibrates 0.1 us itself and the lengths line says so for that
# program; --own-delay gives no length at all. The EPCC programs and clomp are
# stand-ins: each EPCC program prints the length the test told it to, clomp
# records the options it was given (the oracle), nothing is timed.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

command -v python3 >/dev/null 2>&1 || { printf '1..0 # SKIP the table is python3\n'; exit 0; }
command -v cc >/dev/null 2>&1 || { printf '1..0 # SKIP no C compiler\n'; exit 0; }
echo 'int main(void){return 0;}' | cc -fopenmp -falign-functions=64 -x c -o /dev/null - 2>/dev/null ||
    { printf '1..0 # SKIP cc takes no -fopenmp -falign-functions=64\n'; exit 0; }
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/epcc" "$tmp/state"

# EPCC's four programs: syncbench prints 100 + its process number (101, 102, 103),
# schedbench and arraybench 186, taskbench no length (as a crashed process).
cat >"$tmp/epcc/common.h" <<'C'
void delay(int n);
void array_delay(int n, double a[1]);
int process_number(const char *name);
C
cat >"$tmp/epcc/common.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "common.h"
void delay(int n) { volatile float a = 0; for (int i = 0; i < n; i++) a += i; }
void array_delay(int n, double a[1]) { for (int i = 0; i < n; i++) a[0] += i; }
int process_number(const char *name) {   /* 1, 2, 3 ... per program */
    char path[4096]; int k = 0;
    snprintf(path, sizeof path, "%s/%s", getenv("FAKE_STATE"), name);
    FILE *f = fopen(path, "r"); if (f) { if (fscanf(f, "%d", &k) != 1) k = 0; fclose(f); }
    f = fopen(path, "w"); if (f) { fprintf(f, "%d\n", k + 1); fclose(f); }
    return k + 1;
}
C
for p in syncbench schedbench taskbench arraybench; do
    case $p in
        syncbench) body='printf("\t%d delay length (iterations) \n", 100 + process_number("sync"));' ;;
        taskbench) body='printf("no length printed\n");' ;;
        *) body='printf("\t186 delay length (iterations) \n");' ;;
    esac
    printf '#include <stdio.h>\n#include "common.h"\nint main(void) { %s delay(1); return 0; }\n' "$body" >"$tmp/epcc/$p.c"
done
# clomp: names its compiler, records each process's options.
cat >"$tmp/clomp" <<'SH'
#!/usr/bin/env bash
[ "${1:-}" = --version ] && { echo "compiler: stand-in (CC=cc)"; exit 0; }
echo "$*" >>"$FAKE_STATE/clomp.args"
SH
chmod +x "$tmp/clomp"

run_bench() {
    rm -f "$tmp/state"/*
    FAKE_STATE=$tmp/state "$top/bench/constructs.sh" --runs 3 --clomp "$tmp/clomp" --epcc "$tmp/epcc" --sizes 1 "$@" 2>&1
}
given() {   # given KIND-KEY: the delay options of each clomp process whose options hold KEY
    grep -- "$1" "$tmp/state/clomp.args" | grep -o -- '--construct-\(loop-\)\?delay[-a-z]*=[0-9.]*' | paste -sd' ' -
}
out=$(run_bench)
note "$out"
is "$(given '--constructs=parallel,')" "--construct-delay-length=101 --construct-loop-delay-length=101 --construct-delay-length=101 --construct-loop-delay-length=101 --construct-delay-length=103 --construct-loop-delay-length=103" \
    "syncbench's clomp processes get round 1's length in rounds 1 and 2 (clomp first in 2), round 3's in round 3"
is "$(given '--constructs=private,')" "$(printf -- '--construct-delay-length=186 --construct-loop-delay-length=186 %.0s' 1 2 3 | sed 's/ $//')" \
    "the data rows' clomp processes get their arraybench's length"
is "$(given '--constructs=parallel_task,')" "$(printf -- '--construct-delay=0.1 --construct-loop-delay=0.1 %.0s' 1 2 3 | sed 's/ $//')" \
    "where EPCC's process printed no length, clomp calibrates to EPCC's 0.1 us itself"
like "$out" "delay lengths, additions .*syncbench: 101 101 103" "the lengths line lists each length given"
like "$out" "delay lengths, additions .*taskbench: own own own" \
    "the lengths line says which clomp processes calibrated their own, because their EPCC process printed no length"

out=$(run_bench --own-delay)
is "$(grep -c -- '--construct-delay=0.1 --construct-loop-delay=0.1' "$tmp/state/clomp.args")" \
    "$(wc -l <"$tmp/state/clomp.args" | tr -d ' ')" "--own-delay: every clomp process calibrates its own 0.1 us"
is "$(grep -c -- '-length=' "$tmp/state/clomp.args")" 0 "--own-delay: no clomp process is given a length"
like "$out" "delay lengths: clomp calibrated its own \(--own-delay" "--own-delay: the lengths line says so"

done_testing
