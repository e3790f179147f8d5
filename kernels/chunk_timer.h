/* Chunked timing inside a schedule's run: the run's iterations are split
 * into consecutive chunks at iteration boundaries, each timed on its own, so
 * one interruption spoils one chunk instead of the whole measurement.
 *
 * Within a chunk the timed loop is CLOMP 1.2's, untouched: one call of the
 * schedule's iteration (four modules, see cycle.h) per iteration, nothing
 * else between the two clock reads. A chunk's verification runs with the
 * clock stopped, in parallel by the threads that own the parts under the
 * schedule (owned_check.h), so that every part's data stays in the cache of
 * the thread that computes it: a walk of the whole mesh by one thread would
 * move it all into that thread's cache and bill the next chunk for moving
 * it back - a cost Bestcase, never verified, would not pay. */
#ifndef CLOMP_CHUNK_TIMER_H
#define CLOMP_CHUNK_TIMER_H

#include "../timing/clock.h"
#include "problem.h"

/* Verification of a chunk, split so that the owners of the parts can check
 * them concurrently: check_parts for every part (thread-safe, silent), then
 * conclude once (one thread, after all parts), which prints any failure. */
typedef struct ChunkVerifier {
    void (*check_parts)(void *context, long chunk, long first_part, long last_part);
    void (*conclude)(void *context, long chunk);
    void *context;
} ChunkVerifier;

/* Called with the clock stopped, right before a chunk's clock starts (at_end
 * 0) and right after it stops (at_end 1), by the thread that reads the clock:
 * the noise census's per-chunk sample (measure/noise_sampler.c). Every
 * chunked schedule calls it at every chunk boundary, Bestcase OMP included
 * (its thread 0 at its own boundaries, the reading time left out of its
 * chunk ends), so that whatever the reads cost at a boundary, every
 * schedule pays it alike and the overhead against Bestcase carries none. */
typedef struct ChunkSampler {
    void (*sample)(void *context, int at_end);
    void *context;
} ChunkSampler;

typedef struct ChunkTimer {
    long count;                      /* chunks in this run, >= 1 */
    const long *end_subcycle;        /* chunk c ends when end_subcycle[c] subcycles are done (whole iterations) */
    double *seconds;                 /* out: wall time of each chunk */
    double mark;                     /* when the open chunk started */
    const ChunkVerifier *verify;     /* NULL: nothing to verify (probes, Bestcase, untimed runs) */
    /* Bestcase OMP only, provided by the caller (no allocation in a
     * schedule): room for each of numThreads threads to note when it
     * finished each chunk, numThreads x count doubles. */
    double *thread_marks;
    const ChunkSampler *sampler;     /* NULL: no census (untimed runs, --noise-census=off) */
} ChunkTimer;

/* NULL timer: the run is one untimed chunk. */
static inline long chunk_count(const ChunkTimer *t)
{
    return t != NULL ? t->count : 1;
}

static inline long chunk_end_iteration(const ChunkTimer *t, long c, long subcycles)
{
    return (t != NULL ? t->end_subcycle[c] : subcycles) / SUBCYCLES_PER_ITERATION;
}

static inline void chunk_timer_start(ChunkTimer *t)
{
    if (t != NULL) {
        if (t->sampler != NULL)
            t->sampler->sample(t->sampler->context, 0);
        t->mark = now_seconds();
    }
}

static inline void chunk_timer_stop(ChunkTimer *t, long c)
{
    if (t != NULL) {
        t->seconds[c] = now_seconds() - t->mark;
        if (t->sampler != NULL)
            t->sampler->sample(t->sampler->context, 1);
    }
}

static inline int chunk_timer_verifies(const ChunkTimer *t)
{
    return t != NULL && t->verify != NULL;
}

/* Serial code: CLOMP 1.2's loop `for (iteration...) ITERATION(iteration);`
 * cut into the timer's chunks; VERIFY(c) checks chunk c with the clock
 * stopped (only when the timer verifies). One macro, so that the loop
 * between the clock reads is a direct call per iteration, as in 1.2. */
#define RUN_CHUNKED_ITERATIONS(timer, subcycles, ITERATION, VERIFY)                 \
    for (long chunk_ = 0, it_ = 0; chunk_ < chunk_count(timer); chunk_++) {         \
        long end_ = chunk_end_iteration((timer), chunk_, (subcycles));              \
        chunk_timer_start(timer);                                                   \
        for (; it_ < end_; it_++)                                                   \
            ITERATION(it_);                                                         \
        chunk_timer_stop((timer), chunk_);                                          \
        if (chunk_timer_verifies(timer))                                            \
            VERIFY(chunk_);                                                         \
    }

#endif
