/* EPCC schedbench's tests (v3.1): inside one region, innerreps loops of
 * iters_per_thread x threads iterations, each one delay (15 us), under the
 * schedule; against iters_per_thread delays per instance by one thread. The
 * overhead per instance is what one whole scheduled loop costs beyond its
 * share of the work, imbalance included. */
#include <omp.h>

#include "construct.h"
#include "construct_region.h"
#include "delay.h"

static void loop_delays(const ConstructWork *w)
{
    for (long j = 0; j < w->innerreps; j++)
        for (int i = 0; i < w->iters_per_thread; i++)
            clomp_delay(w->delay_length);
}

/* One region; `SCHEDULE` is the for's schedule clause. */
#define LOOP_TEST(fn, SCHEDULE)                                                  \
    static void fn(const ConstructWork *w)                                       \
    {                                                                            \
        int chunk = (int)w->chunk;                                               \
        (void)chunk;   /* read by the schedule clause only, in some rows */      \
        _Pragma("omp parallel num_threads(w->threads)")                          \
        {                                                                        \
            region_log_note(w->log);                                             \
            int n = omp_get_num_threads() * w->iters_per_thread;                 \
            for (long j = 0; j < w->innerreps; j++) {                            \
                _Pragma(SCHEDULE)                                                \
                for (int i = 0; i < n; i++)                                      \
                    clomp_delay(w->delay_length);                                \
            }                                                                    \
        }                                                                        \
    }

LOOP_TEST(test_static, "omp for schedule(static)")
LOOP_TEST(test_static_n, "omp for schedule(static, chunk)")
LOOP_TEST(test_dynamic_n, "omp for schedule(dynamic, chunk)")
LOOP_TEST(test_guided_n, "omp for schedule(guided, chunk)")

const Construct construct_static = {"static", "STATIC", CONSTRUCT_LOOP, 0, test_static, loop_delays,
                                    "a for schedule(static) of iters_per_thread x threads delays"};
const Construct construct_static_n = {"static_n", "STATIC n", CONSTRUCT_LOOP, 1, test_static_n, loop_delays,
                                      "a for schedule(static,n) of iters_per_thread x threads delays"};
const Construct construct_dynamic_n = {"dynamic_n", "DYNAMIC n", CONSTRUCT_LOOP, 1, test_dynamic_n, loop_delays,
                                       "a for schedule(dynamic,n) of iters_per_thread x threads delays"};
const Construct construct_guided_n = {"guided_n", "GUIDED n", CONSTRUCT_LOOP, 1, test_guided_n, loop_delays,
                                      "a for schedule(guided,n) of iters_per_thread x threads delays"};
