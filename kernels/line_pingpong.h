/* One cache line bounced between two threads (clomp --limits, docs/limits.md):
 * the initiator writes an odd count into the line and waits for the next
 * even one, which the responder writes as soon as it sees the odd one. One
 * round trip is two transfers of the line between the two cores, nothing
 * else: the node's core-to-core latency, as core-to-core-latency tools and
 * the runtimes' trackers measure it. */
#ifndef CLOMP_LINE_PINGPONG_H
#define CLOMP_LINE_PINGPONG_H

#include <stdatomic.h>

#include "ref_barrier.h"

/* Round trips timed together: the clock is read once per batch (20-50 ns a
 * read, beside round trips of 50-500 ns), and the figure is the median of
 * the batches' mean round trips. */
#define PINGPONG_TRIPS_PER_BATCH 32
/* Batches run first and not kept: both threads' caches, branch predictors and
 * wake-up settle. */
#define PINGPONG_WARMUP_BATCHES 4

typedef struct PingPongLine {
    _Alignas(REF_LINE) atomic_long count;
} PingPongLine;

/* Both threads of the pair call it at once: side 0 (the initiator) times
 * `batches` batches after the warm-up ones and writes each one's round trip
 * in nanoseconds into batch_ns[]; side 1 answers. `line` starts at 0 (it is
 * left at 0 for the next pair by side 0). */
void line_pingpong(PingPongLine *line, int side, long batches, double *batch_ns);

#endif
