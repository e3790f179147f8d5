#!/usr/bin/env bash
# The project's own hygiene: every C source compiles warning-free with
# -Wall -Wextra (as -Werror), and the shell scripts are shellcheck-clean (the
# quick lane: the product's; the full lane: the tests' too); cppcheck and
# clang-tidy (full lane only) find nothing; the offload code (CLOMP_OFFLOAD)
# is checked with its define too.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
cc=${CC:-gcc}
cd "$top" || exit 255

# mpi/cluster_mpi.c needs mpi.h: checked below with the MPI wrapper's include path.
for src in clomp.c cli/*.c stats/*.c kernels/*.c measure/*.c mesh/*.c mpi/rank_view.c mpi/cluster_single.c numa/*.c ompt/*.c write/*.c \
    report/*.c timing/*.c tests/unit/*.c tests/oracle/*.c; do
    msg=$("$cc" -fsyntax-only -std=c11 -D_POSIX_C_SOURCE=200809L -fopenmp -Wall -Wextra -Werror \
        -I. -Itests -I"$build" "$src" 2>&1)
    ok $? "$src compiles with -Wall -Wextra -Werror"
    [ -z "$msg" ] || diag "$msg"
done

# The offload code compiles only with CLOMP_OFFLOAD (make OFFLOAD=...): the
# same checks with it defined, on the files it changes (the nvptx build's
# define too, for offload/device_product.h's path).
mapfile -t offload_sources < <(grep -l 'CLOMP_OFFLOAD' clomp.c cli/*.c kernels/*.c measure/*.c offload/*.c report/*.c setup/*.c)
offload_defines=(-DCLOMP_OFFLOAD=1 -DCLOMP_OFFLOAD_NVPTX=1)
for src in "${offload_sources[@]}"; do
    msg=$("$cc" -fsyntax-only -std=c11 -D_POSIX_C_SOURCE=200809L -fopenmp "${offload_defines[@]}" -Wall -Wextra -Werror \
        -I. -Itests -I"$build" "$src" 2>&1)
    ok $? "$src compiles with -Wall -Wextra -Werror in an offload build too"
    [ -z "$msg" ] || diag "$msg"
done

mpi_includes=()
if command -v mpicc >/dev/null 2>&1; then
    for dir in $(mpicc --showme:incdirs 2>/dev/null); do mpi_includes+=(-I"$dir"); done
    msg=$("$cc" -fsyntax-only -std=c11 -D_POSIX_C_SOURCE=200809L -fopenmp -Wall -Wextra -Werror \
        -I. -I"$build" "${mpi_includes[@]}" mpi/cluster_mpi.c 2>&1)
    ok $? "mpi/cluster_mpi.c compiles with -Wall -Wextra -Werror"
    [ -z "$msg" ] || diag "$msg"
else
    skip "mpi/cluster_mpi.c compiles with -Wall -Wextra -Werror" "no mpicc (apt-get install libopenmpi-dev)"
fi

product=(clomp.c cli/*.c stats/*.c kernels/*.c measure/*.c mesh/*.c mpi/rank_view.c mpi/cluster_single.c numa/*.c ompt/*.c offload/*.c setup/*.c write/*.c
    report/*.c timing/*.c)
defines=(-D_OPENMP=201511 -DCLOMP_HAVE_LIBNUMA=1)
if ! full_lane; then
    skip "cppcheck finds nothing in the product code" "full lane only (make check-all), as clang-tidy"
elif command -v cppcheck >/dev/null 2>&1; then
    msg=$(cppcheck -q --enable=warning,style,performance,portability --std=c11 --inline-suppr --error-exitcode=1 \
        "${defines[@]}" -I. -I"$build" "${product[@]}" 2>&1)
    ok $? "cppcheck (warning, style, performance, portability) finds nothing in the product code"
    [ -z "$msg" ] || diag "$msg"
    msg=$(cppcheck -q --enable=warning,style,performance,portability --std=c11 --inline-suppr --error-exitcode=1 \
        "${defines[@]}" "${offload_defines[@]}" -I. -I"$build" "${offload_sources[@]}" 2>&1)
    ok $? "cppcheck finds nothing in the offload code (CLOMP_OFFLOAD) either"
    [ -z "$msg" ] || diag "$msg"
    msg=$(cppcheck -q --enable=warning,style,performance,portability --std=c11 --inline-suppr --error-exitcode=1 \
        -D_OPENMP=201511 -DCLOMP_FAULTS -I. kernels/fault.c 2>&1)
    ok $? "cppcheck finds nothing in the fault-injection code either"
    [ -z "$msg" ] || diag "$msg"
    if [ ${#mpi_includes[@]} -gt 0 ]; then
        msg=$(cppcheck -q --enable=warning,style,performance,portability --std=c11 --inline-suppr --error-exitcode=1 \
            "${defines[@]}" -I. -I"$build" mpi/cluster_mpi.c 2>&1)
        ok $? "cppcheck finds nothing in the MPI code either"
        [ -z "$msg" ] || diag "$msg"
    fi
else
    skip "cppcheck finds nothing in the product code" "cppcheck not installed"
fi
# clang-tidy takes a minute or two over the whole product: the full lane (make check-all).
if ! full_lane; then
    skip "clang-tidy finds nothing in the product code" "full lane only (make check-all)"
elif command -v clang-tidy >/dev/null 2>&1 && [ -f "$build/build_info_generated.h" ]; then
    # One clang-tidy per 8 files, as many at a time as there are CPUs (xargs exits non-zero if any does).
    # shellcheck disable=SC2016 # the inner shell expands $@ (the files) and $0 (the build folder)
    msg=$(printf '%s\0' "${product[@]}" | xargs -0 -n 8 -P "$(nproc)" sh -c \
        'clang-tidy -quiet "$@" -- -std=c11 -D_POSIX_C_SOURCE=200809L -fopenmp -DCLOMP_HAVE_LIBNUMA=1 -I. -I"$0"' "$build" 2>&1)
    ok $? "clang-tidy (the check set in .clang-tidy) finds nothing in the product code"
    [ -z "$msg" ] || diag "$(printf '%s\n' "$msg" | grep -E ': (warning|error):' | head -20)"
    msg=$(clang-tidy -quiet "${offload_sources[@]}" -- -std=c11 -D_POSIX_C_SOURCE=200809L -fopenmp -DCLOMP_HAVE_LIBNUMA=1 \
        "${offload_defines[@]}" -I. -I"$build" 2>&1)
    ok $? "clang-tidy finds nothing in the offload code (CLOMP_OFFLOAD) either"
    [ -z "$msg" ] || diag "$(printf '%s\n' "$msg" | grep -E ': (warning|error):' | head -20)"
    if [ ${#mpi_includes[@]} -gt 0 ]; then
        msg=$(clang-tidy -quiet mpi/cluster_mpi.c -- -std=c11 -D_POSIX_C_SOURCE=200809L -fopenmp -DCLOMP_HAVE_LIBNUMA=1 \
            -I. -I"$build" "${mpi_includes[@]}" 2>&1)
        ok $? "clang-tidy finds nothing in the MPI code either"
        [ -z "$msg" ] || diag "$(printf '%s\n' "$msg" | grep -E ': (warning|error):' | head -20)"
    fi
else
    skip "clang-tidy finds nothing in the product code" "clang-tidy not installed"
fi

scripts=(.ci/run tests/*.t tests/tsan/*.t tests/lib/*.sh tests/lib/emu-node-shell tests/numa-vm/*.sh tests/numa-vm/guest-init env/*.sh results/*.sh suite/*.sh)
[ -f run_clomp.sh ] && scripts+=(run_clomp.sh)
[ -f clomp_validate ] && scripts+=(clomp_validate)
[ -f clomp_compare ] && scripts+=(clomp_compare)
# The quick lane checks the product's shell; the full lane (CI) every script, the tests' too: shellcheck
# takes some 40 s of CPU over all of them, a sixth of the quick lane's budget.
if ! full_lane; then
    mapfile -t scripts < <(printf '%s\n' "${scripts[@]}" | grep -v '^tests/')
fi
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
