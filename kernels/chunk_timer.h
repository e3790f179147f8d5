/* Chunked timing inside a schedule's run: the run is split into consecutive
 * chunks at iteration boundaries, each timed on its own, so one interruption
 * spoils one chunk instead of the whole measurement. The split adds no
 * parallel regions: serial code closes chunks between subcycles, and
 * schedules that keep one region for the whole run close them from thread 0
 * at a barrier they already have (see docs/statistics.md). */
#ifndef CLOMP_CHUNK_TIMER_H
#define CLOMP_CHUNK_TIMER_H

#include "../timing/clock.h"

typedef struct ChunkTimer {
    long count;                 /* chunks in this run, >= 1 */
    const long *end_subcycle;   /* chunk c ends when end_subcycle[c] subcycles are done */
    double *seconds;            /* out: wall time of each chunk */
    double mark;                /* when the open chunk started */
    /* Untimed work on the mesh between chunks (verification of checked
     * schedules): runs after the chunk's clock stops, before the next
     * starts, with every other thread waiting. Called from serial code it
     * also wakes the thread pool again before returning: threads that fell
     * asleep while it ran must not bill their wake-up to the next chunk.
     * NULL: nothing to do. */
    void (*between)(void *context, long chunk);
    void *context;
    /* Bestcase OMP only, provided by the caller (no allocation in a
     * schedule): room for each of numThreads threads to note when it
     * finished each chunk, numThreads x count doubles. */
    double *thread_marks;
} ChunkTimer;

static inline void chunk_timer_start(ChunkTimer *t)
{
    if (t != NULL)
        t->mark = now_seconds();
}

/* Stops the open chunk's clock and runs `between`; the next chunk's clock
 * starts at once, unless the caller restarts it itself (a team that waited
 * for `between` inside a region must be re-synchronised first). */
static inline void chunk_timer_close(ChunkTimer *t, long *next)
{
    double now = now_seconds();
    t->seconds[*next] = now - t->mark;
    if (t->between != NULL) {
        t->between(t->context, *next);
        now = now_seconds();
    }
    t->mark = now;
    (*next)++;
}

static inline void chunk_timer_restart(ChunkTimer *t)
{
    t->mark = now_seconds();
}

/* Serial code, after subcycle s: closes the chunk that ends there, the last
 * one included. */
static inline void chunk_timer_after_subcycle(ChunkTimer *t, long s, long *next)
{
    if (t != NULL && *next < t->count && s + 1 == t->end_subcycle[*next])
        chunk_timer_close(t, next);
}

/* Inside a region that spans the run, after subcycle s: whether a chunk
 * other than the last ends there (the last one closes after the region, so
 * that it includes the join as CLOMP 1.2's single timing does). Every
 * thread evaluates it alike, keeping its own `next`. */
static inline int chunk_timer_inner_boundary(const ChunkTimer *t, long s, long next)
{
    return t != NULL && next < t->count - 1 && s + 1 == t->end_subcycle[next];
}

/* After the region: closes the last chunk. */
static inline void chunk_timer_finish(ChunkTimer *t, long *next)
{
    if (t != NULL && *next < t->count)
        chunk_timer_close(t, next);
}

#endif
