/* The ping-pong of one cache line (line_pingpong.h). */
#include "line_pingpong.h"

#include "../timing/clock.h"
#include "ref_spin.h"

void line_pingpong(PingPongLine *line, int side, long batches, double *batch_ns)
{
    long trips = (batches + PINGPONG_WARMUP_BATCHES) * PINGPONG_TRIPS_PER_BATCH;
    if (side == 1) {
        for (long k = 0; k < trips; k++) {
            ref_wait_long_at_least(&line->count, 2 * k + 1);
            atomic_store_explicit(&line->count, 2 * k + 2, memory_order_release);
        }
        return;
    }
    long k = 0;
    for (long b = -PINGPONG_WARMUP_BATCHES; b < batches; b++) {
        double start = now_seconds();
        for (int i = 0; i < PINGPONG_TRIPS_PER_BATCH; i++, k++) {
            atomic_store_explicit(&line->count, 2 * k + 1, memory_order_release);
            ref_wait_long_at_least(&line->count, 2 * k + 2);
        }
        double seconds = now_seconds() - start;
        if (b >= 0)
            batch_ns[b] = seconds * 1e9 / PINGPONG_TRIPS_PER_BATCH;
    }
    atomic_store_explicit(&line->count, 0, memory_order_relaxed);
}
