# shellcheck shell=bash
# IBM XL OpenMP runtime (xlc_r -qsmp=omp), as used on Blue Gene/Q and POWER
# systems. Source it, or: ./run_clomp.sh --env ibm-xl
#
# spins/yields: 0 makes idle threads go straight to the runtime's wait instead of
# spinning and yielding the core to the OS scheduler; on BG/Q the hardware wakes
# waiting threads in a few cycles, which is what the CLOMP summary measured.
export XLSMPOPTS=spins=0:yields=0
# BG/Q: let the kernel wake threads on the hardware wake-up unit rather than by
# interrupt (harmless elsewhere: the variable is ignored).
export BG_SMP_FAST_WAKEUP=YES
export OMP_DYNAMIC=false
