/* EPCC schedbench's tests (v3.1, and 4.0's monotonic variants and
 * TASKLOOP): inside one region, innerreps loops of
 * iters_per_thread x threads iterations, each one delay (15 us), under the
 * schedule; against iters_per_thread delays per instance by one thread. The
 * overhead per instance is what one whole scheduled loop costs beyond its
 * share of the work, imbalance included. */
#include <omp.h>

#include "construct.h"
#include "construct_probe.h"
#include "construct_region.h"
#include "delay.h"
#include "fault.h"

static void loop_delays(const ConstructWork *w)
{
    for (long j = 0; j < w->innerreps; j++)
        for (int i = 0; i < w->iters_per_thread; i++)
            epcc_delay(w->delay_length);
}

/* One region; `SCHEDULE` is the for's schedule clause. */
#define LOOP_TEST(fn, SCHEDULE)                                         \
    static void fn(const ConstructWork *w)                              \
    {                                                                   \
        _Pragma("omp parallel num_threads(w->threads) firstprivate(w)") \
        {                                                               \
            region_log_note(w->log);                                    \
            int n = omp_get_num_threads() * w->iters_per_thread;        \
            for (long j = 0; j < w->innerreps; j++) {                   \
                _Pragma(SCHEDULE)                                       \
                for (int i = 0; i < n; i++)                             \
                    epcc_delay(w->delay_length);                        \
            }                                                           \
        }                                                               \
    }

LOOP_TEST(test_static, "omp for schedule(static)")
LOOP_TEST(test_static_n, "omp for schedule(static, (int)w->chunk)")
LOOP_TEST(test_dynamic_n, "omp for schedule(dynamic, (int)w->chunk)")
LOOP_TEST(test_guided_n, "omp for schedule(guided, (int)w->chunk)")
LOOP_TEST(test_static_monotonic, "omp for schedule(monotonic: static)")
LOOP_TEST(test_static_n_monotonic, "omp for schedule(monotonic: static, (int)w->chunk)")
LOOP_TEST(test_guided_n_monotonic, "omp for schedule(monotonic: guided, (int)w->chunk)")

/* DYNAMIC_MONOTONIC n, written out: probed, every thread checks that its
 * iterations come in increasing order (what the monotonic modifier promises). */
static void test_dynamic_n_monotonic(const ConstructWork *w)
{
    ConstructProbe *p = w->probe;
#pragma omp parallel num_threads(w->threads) firstprivate(w, p)
    {
        region_log_note(w->log);
        probe_team(w);
        int n = omp_get_num_threads() * w->iters_per_thread;
        for (long j = 0; j < w->innerreps; j++) {
            int last = -1;
#pragma omp for schedule(monotonic: dynamic, (int)w->chunk)
            for (int i = 0; i < n; i++) {
                if (p != NULL) {
                    if (i < last)
                        probe_fail(p, "a thread ran iteration %d after %d under monotonic:dynamic", i, last);
                    last = i;
                }
                probed_delay(w);
            }
        }
    }
}

static int check_dynamic_n_monotonic(const ConstructWork *w, char *why, size_t why_size)
{
    ConstructProbe p;
    probe_start(&p, 0.0);
    ConstructWork c = probe_work(w, &p, 2);
    c.delay_length = 1;
    test_dynamic_n_monotonic(&c);
    long want = 2L * atomic_load(&p.team) * w->iters_per_thread;
    if (atomic_load(&p.done) != want)
        probe_fail(&p, "%ld of %ld iterations ran", atomic_load(&p.done), want);
    return probe_verdict(&p, why, why_size);
}

/* EPCC 4.0's TASKLOOP n: the master alone runs innerreps taskloops of
 * iters_per_thread x threads delays, num_tasks(iterations / n); the others
 * execute the tasks. Probed, every taskloop's tasks are done when it ends
 * (its implicit taskgroup), each task held back a while to show it. */
static void test_taskloop_n(const ConstructWork *w)
{
    ConstructProbe *p = w->probe;
#pragma omp parallel num_threads(w->threads) firstprivate(w, p)
    {
        region_log_note(w->log);
        /* Unsigned: clang's taskloop compares the bound with an unsigned count. */
        unsigned long n = (unsigned long)omp_get_num_threads() * (unsigned long)w->iters_per_thread;
        unsigned long chunk = (unsigned long)w->chunk;
#pragma omp master
        for (long j = 0; j < w->innerreps; j++) {
            if (CONSTRUCT_WRONG_BODY("taskloop_n")) {   /* the fault build's: no taskgroup */
#pragma omp taskloop num_tasks(n / chunk > 0 ? n / chunk : 1) nogroup
                for (unsigned long i = 0; i < n; i++) {
                    probe_hold(w);
                    probed_delay(w);
                }
            } else {
#pragma omp taskloop num_tasks(n / chunk > 0 ? n / chunk : 1)
                for (unsigned long i = 0; i < n; i++) {
                    if (p != NULL && i % chunk == 0)
                        probe_hold(w);
                    probed_delay(w);
                }
            }
            if (p != NULL && atomic_load(&p->done) != (j + 1) * (long)n)
                probe_fail(p, "taskloop %ld ended with %ld of its %ld iterations done", j,
                           atomic_load(&p->done) - j * (long)n, (long)n);
        }
    }
}

static int check_taskloop_n(const ConstructWork *w, char *why, size_t why_size)
{
    ConstructProbe p;
    probe_start(&p, 0.0);
    ConstructWork c = probe_work(w, &p, 2);
    c.delay_length = 1;
    c.iters_per_thread = 4;
    if (c.chunk > c.iters_per_thread)
        c.chunk = c.iters_per_thread;
    test_taskloop_n(&c);
    return probe_verdict(&p, why, why_size);
}

const Construct construct_static = {"static", "STATIC", CONSTRUCT_LOOP, 0, test_static, loop_delays,
                                    "a for schedule(static) of iters_per_thread x threads delays", .check = NULL};
const Construct construct_static_n = {"static_n", "STATIC n", CONSTRUCT_LOOP, 1, test_static_n, loop_delays,
                                      "a for schedule(static,n) of iters_per_thread x threads delays", .check = NULL};
const Construct construct_dynamic_n = {"dynamic_n", "DYNAMIC n", CONSTRUCT_LOOP, 1, test_dynamic_n, loop_delays,
                                       "a for schedule(dynamic,n) of iters_per_thread x threads delays", .check = NULL};
const Construct construct_guided_n = {"guided_n", "GUIDED n", CONSTRUCT_LOOP, 1, test_guided_n, loop_delays,
                                      "a for schedule(guided,n) of iters_per_thread x threads delays",
                                      .chunk_share = 1};

#ifdef CLOMP_NESTED_MONOTONIC_STATIC_ABORTS
#define NESTED_MONOTONIC_STATIC \
    "not provided: this OpenMP runtime aborts on schedule(monotonic:static) in nested teams (the Makefile's probe)"
#else
#define NESTED_MONOTONIC_STATIC NULL
#endif

const Construct construct_static_monotonic = {
    "static_monotonic", "STATIC_MONOTONIC", CONSTRUCT_LOOP, 0, test_static_monotonic, loop_delays,
    "a for schedule(monotonic:static) of iters_per_thread x threads delays",
    .nested_not_provided = NESTED_MONOTONIC_STATIC, .check = NULL};
const Construct construct_static_n_monotonic = {
    "static_n_monotonic", "STATIC_MONOTONIC n", CONSTRUCT_LOOP, CONSTRUCT_CHUNK, test_static_n_monotonic, loop_delays,
    "a for schedule(monotonic:static,n) of iters_per_thread x threads delays",
    .nested_not_provided = NESTED_MONOTONIC_STATIC, .check = NULL};
const Construct construct_dynamic_n_monotonic = {
    "dynamic_n_monotonic", "DYNAMIC_MONOTONIC n", CONSTRUCT_LOOP, CONSTRUCT_CHUNK, test_dynamic_n_monotonic,
    loop_delays, "a for schedule(monotonic:dynamic,n) of iters_per_thread x threads delays",
    .check = check_dynamic_n_monotonic};
const Construct construct_guided_n_monotonic = {
    "guided_n_monotonic", "GUIDED_MONOTONIC n", CONSTRUCT_LOOP, CONSTRUCT_CHUNK, test_guided_n_monotonic, loop_delays,
    "a for schedule(monotonic:guided,n) of iters_per_thread x threads delays", .chunk_share = 1};
const Construct construct_taskloop_n = {
    "taskloop_n", "TASKLOOP n", CONSTRUCT_LOOP, CONSTRUCT_CHUNK, test_taskloop_n, loop_delays,
    "a taskloop num_tasks(iterations/n) of iters_per_thread x threads delays, generated by the master",
    .check = check_taskloop_n, .chunk_share = 1};
