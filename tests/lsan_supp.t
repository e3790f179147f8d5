#!/usr/bin/env bash
# tests/lsan.supp hides the OpenMP runtime's own leak and nothing of clomp's:
# under `make asan` (CLOMP_SANITIZED=1, with its ASAN_OPTIONS and LSAN_OPTIONS),
# a program that leaks a block inside a parallel region is still reported,
# and one whose test_parallel_task_deps creates tasks with depend clauses in
# a parallel region, as kernels/task_constructs.c does (libgomp then leaks
# its dependence table), is not. Skipped outside make asan.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

if [ "${CLOMP_SANITIZED:-}" != 1 ]; then
    echo "1..0 # SKIP only under make asan (CLOMP_SANITIZED=1)"
    exit 0
fi
root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$root"' EXIT
cc=${CC:-gcc}

# build NAME: $root/NAME from the C source on stdin, sanitized as make asan builds clomp.
build() {
    "$cc" -g -O1 -fno-omit-frame-pointer -fopenmp -fsanitize=address -o "$root/$1" -x c - 2>"$root/$1.err"
}

build leak_in_region <<'EOF'
#include <stdlib.h>
int main(void)
{
#pragma omp parallel num_threads(2)
    {
        char *volatile lost = malloc(100);   /* never freed: the program's own leak */
        lost[0] = 1;
        lost = NULL;
    }
    return 0;
}
EOF
ok $? "a program that leaks inside a parallel region builds with -fsanitize=address" || diag "$(cat "$root/leak_in_region.err")"
rc=0
err=$(OMP_NUM_THREADS=2 "$root/leak_in_region" 2>&1 >/dev/null) || rc=$?
[ "$rc" -ne 0 ] && grep -q 'Direct leak of 100 byte' <<<"$err"
ok $? "its leak is reported with lsan.supp's suppressions (no rule hides a stack through libgomp)" || diag "exit $rc: $err"

build task_deps <<'EOF'
#include <omp.h>
__attribute__((noinline)) static void test_parallel_task_deps(int reps)
{
    char chains[4] = {0};
#pragma omp parallel num_threads(4)
    {
        int me = omp_get_thread_num();
        for (int j = 0; j < reps; j++) {
#pragma omp task depend(inout : chains[me])
            chains[me]++;
        }
    }
}
int main(void)
{
    for (int i = 0; i < 3; i++)
        test_parallel_task_deps(100);
    return 0;
}
EOF
ok $? "a program with EPCC's parallel task dependences builds with -fsanitize=address" || diag "$(cat "$root/task_deps.err")"
rc=0
err=$("$root/task_deps" 2>&1 >/dev/null) || rc=$?
is "$rc" 0 "libgomp's leak under test_parallel_task_deps is suppressed" || diag "$err"

done_testing
