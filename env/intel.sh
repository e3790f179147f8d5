# shellcheck shell=bash
# Intel OpenMP runtime (icc/icx -qopenmp, libiomp5): the setting the CLOMP
# technical summary recommends for icc, plus binding. Source it, or:
# ./run_clomp.sh --env intel
#
# KMP_BLOCKTIME is how long (ms) an idle thread spins before sleeping. The CLOMP
# summary uses 100000 (100 s): threads never sleep between CLOMP's loops, so the
# measured overhead is the runtime's, not the kernel's wake-up latency.
export KMP_BLOCKTIME=100000
# Compact placement, one thread per core; "granularity=core" keeps a thread on
# its core's hardware threads instead of letting it roam the socket.
export KMP_AFFINITY=granularity=core,compact
export OMP_DYNAMIC=false
