/* The paired overhead: a checked schedule's chunks and Bestcase's timed in
 * blocks of two adjacent chunks, in a random order within each block, each
 * on equally warm data, so that drift between the two runs minutes apart
 * (CLOMP 1.2's overhead) moves neither the estimate nor its interval. The
 * overhead is the Hodges-Lehmann shift of the block differences with its
 * signed-rank interval (timing/signed_rank.h), widened to the differences'
 * effective number when they are positively autocorrelated.
 * docs/statistics.md. */
#ifndef CLOMP_PAIRED_OVERHEAD_H
#define CLOMP_PAIRED_OVERHEAD_H

#include "record.h"

/* What the blocks share over a run: Bestcase's own copy of the mesh (built
 * at the first schedule that needs it) or why there is none. */
typedef struct PairedBench {
    int prepared;
    Problem *bestcase_pb;   /* Bestcase's copy of the mesh, or NULL: sequential pairs */
    double *thread_marks;   /* Bestcase's per-thread chunk ends, numThreads */
    char why_sequential[128];
} PairedBench;

/* The last-level cache of CPU 0 in bytes (sysfs), 0 when unknown. */
long last_level_cache_bytes(void);

/* After m's last timed run (m checked, bestcase measured in every round):
 * fills m->paired, running the interleaved blocks when two copies of the
 * mesh fit in the last-level cache and --paired-blocks is not 0, otherwise
 * pairing the chunks of the two timed runs. The mesh pb is left in an
 * arbitrary state (the next measurement resets it). */
void measure_paired_overhead(PairedBench *bench, Problem *pb, const RunSetup *run, Measurement *m,
                             const Measurement *bestcase);

void free_paired_bench(PairedBench *bench);

#endif
