# shellcheck shell=bash
# GNU libgomp (gcc -fopenmp): settings for measuring threading overhead, not
# for sharing the node. Source it, or: ./run_clomp.sh --env gnu
#
# Threads that go to sleep between parallel loops must be woken by the kernel,
# which costs microseconds: more than a 6400-zone loop takes. Keep them spinning.
export OMP_WAIT_POLICY=active
# libgomp spins this many iterations before sleeping even under an active policy
# when threads outnumber cores; "infinite" never sleeps (only sane on a dedicated node).
export GOMP_SPINCOUNT=infinite
# One thread per core, packed onto neighbouring cores, never migrating: migration
# and cache refills otherwise show up as overhead that belongs to the OS.
export OMP_PROC_BIND=close
export OMP_PLACES=cores
# Exact team sizes: numbers labelled N threads must have run on N threads.
export OMP_DYNAMIC=false
