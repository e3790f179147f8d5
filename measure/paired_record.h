/* The paired overhead of a checked schedule (measure/paired_overhead.c):
 * its chunks and Bestcase's in blocks of two, the overhead the
 * Hodges-Lehmann shift of the block differences. Data only. */
#ifndef CLOMP_PAIRED_RECORD_H
#define CLOMP_PAIRED_RECORD_H

#include <stdint.h>

#include "../timing/signed_rank.h"

typedef enum {
    PAIRED_NOT_MEASURED,
    PAIRED_INTERLEAVED,   /* blocks of two adjacent chunks, random order, Bestcase on its own copy of the mesh */
    PAIRED_SEQUENTIAL     /* chunk c of the schedule's timed run against chunk c of Bestcase's (same round) */
} PairedOrder;

typedef struct PairedOverhead {
    PairedOrder order;
    char why_sequential[128];  /* PAIRED_SEQUENTIAL: why the blocks were not interleaved */
    long blocks;               /* pairs of chunks */
    long subcycles;            /* interleaved: per chunk (the run's first chunk's) */
    uint64_t seed;             /* interleaved: the order generator's seed (rng_next, splitmix64) */
    long schedule_first;       /* interleaved: blocks in which the schedule's chunk ran first */
    double lag1;               /* lag-1 autocorrelation of the block differences, in time order */
    double lag1_schedule;      /* ... of the schedule's chunks (us/Loop), in time order */
    double lag1_bestcase;      /* ... of Bestcase's */
    double lag1_corrected;     /* lag1 corrected for its small-sample bias (lag1_bias_corrected) */
    double effective_blocks;   /* effective_sample_size of the differences: blocks when lag1_corrected <= 0 */
    ShiftEstimate shift;       /* us/Loop, interval at CLOMP_CI_LEVEL, widened when effective_blocks < blocks */
    double schedule_us, bestcase_us;   /* median chunk of each in the blocks */
    double seconds;            /* wall time of the interleaved blocks (untimed copies included) */
} PairedOverhead;

#endif
