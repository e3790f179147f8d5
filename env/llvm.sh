# shellcheck shell=bash
# LLVM libomp (clang -fopenmp, make CC=clang): settings for measuring threading
# overhead. Source it, or: ./run_clomp.sh --env llvm
#
# libomp keeps idle threads spinning for KMP_BLOCKTIME ms before they sleep; the
# default (200 ms) is usually enough between loops, but "infinite" removes any
# wake-up cost from the measurement on a dedicated node.
export KMP_BLOCKTIME=infinite
export OMP_WAIT_POLICY=active
# Pin threads to cores, packed: libomp honours the OpenMP variables; KMP_AFFINITY
# is left unset so the two do not fight.
export OMP_PROC_BIND=close
export OMP_PLACES=cores
export OMP_DYNAMIC=false
