/* EPCC syncbench's tests (v3.1; J. M. Bull, EWOMP 1999), each as one row of
 * the construct table: the construct around the calibrated delay, run
 * `innerreps` times. Every test opens its own regions with num_threads, so
 * the same code is the first level when the initial thread calls it and the
 * second when an outer thread does (measure/constructs.c). Variables a test
 * shares (the lock, the atomic's sum) are the calling thread's: each inner
 * team of a nested run has its own, as each EPCC process has one. The
 * unnamed critical section is one for the whole program, by the standard:
 * at the second level every inner team contends for it (the docs say so). */
#include <omp.h>

#include "construct.h"
#include "construct_region.h"
#include "delay.h"

/* EPCC's refer: the delays alone, one thread. */
static void delays(const ConstructWork *w)
{
    for (long j = 0; j < w->innerreps; j++)
        clomp_delay(w->delay_length);
}

/* EPCC's referred: the delays and the reduction's addition, one thread. */
static void delays_and_adds(const ConstructWork *w)
{
    int sum = 0;
    for (long j = 0; j < w->innerreps; j++) {
        clomp_delay(w->delay_length);
        sum += 1;
    }
    *(volatile int *)&sum = sum;
}

/* EPCC's referatom: the additions alone, one thread (each a multiply too,
 * so the sum cannot be folded). */
static void adds(const ConstructWork *w)
{
    double sum = 0.0, b = 1.0, c = 1.0 + 1.0e-15;
    for (long j = 0; j < w->innerreps; j++) {
        sum += b;
        b *= c;
    }
    *(volatile double *)&sum = sum;
}

static void test_parallel(const ConstructWork *w)
{
    for (long j = 0; j < w->innerreps; j++) {
#pragma omp parallel num_threads(w->threads)
        {
            region_log_note(w->log);
            clomp_delay(w->delay_length);
        }
    }
}

static void test_for(const ConstructWork *w)
{
    int n = w->threads;
#pragma omp parallel num_threads(n)
    {
        region_log_note(w->log);
        for (long j = 0; j < w->innerreps; j++) {
#pragma omp for
            for (int i = 0; i < n; i++)
                clomp_delay(w->delay_length);
        }
    }
}

static void test_parallel_for(const ConstructWork *w)
{
    int n = w->threads;
    for (long j = 0; j < w->innerreps; j++) {
#pragma omp parallel for num_threads(n)
        for (int i = 0; i < n; i++) {
            if (i == 0)
                region_log_note(w->log);
            clomp_delay(w->delay_length);
        }
    }
}

static void test_barrier(const ConstructWork *w)
{
#pragma omp parallel num_threads(w->threads)
    {
        region_log_note(w->log);
        for (long j = 0; j < w->innerreps; j++) {
            clomp_delay(w->delay_length);
#pragma omp barrier
        }
    }
}

static void test_single(const ConstructWork *w)
{
#pragma omp parallel num_threads(w->threads)
    {
        region_log_note(w->log);
        for (long j = 0; j < w->innerreps; j++) {
#pragma omp single
            clomp_delay(w->delay_length);
        }
    }
}

static void test_critical(const ConstructWork *w)
{
#pragma omp parallel num_threads(w->threads)
    {
        region_log_note(w->log);
        long reps = w->innerreps / omp_get_num_threads();
        for (long j = 0; j < reps; j++) {
#pragma omp critical
            clomp_delay(w->delay_length);
        }
    }
}

static void test_lock(const ConstructWork *w)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel num_threads(w->threads)
    {
        region_log_note(w->log);
        long reps = w->innerreps / omp_get_num_threads();
        for (long j = 0; j < reps; j++) {
            omp_set_lock(&lock);
            clomp_delay(w->delay_length);
            omp_unset_lock(&lock);
        }
    }
    omp_destroy_lock(&lock);
}

static void test_atomic(const ConstructWork *w)
{
    double sum = 0.0;
#pragma omp parallel num_threads(w->threads)
    {
        region_log_note(w->log);
        double b = 1.0, c = 1.0 + 1.0e-15;
        long reps = w->innerreps / omp_get_num_threads();
        for (long j = 0; j < reps; j++) {
#pragma omp atomic
            sum += b;
            b *= c;
        }
    }
    *(volatile double *)&sum = sum;
}

static void test_reduction(const ConstructWork *w)
{
    int sum = 0;
    for (long j = 0; j < w->innerreps; j++) {
#pragma omp parallel reduction(+ : sum) num_threads(w->threads)
        {
            region_log_note(w->log);
            clomp_delay(w->delay_length);
            sum += 1;
        }
    }
    *(volatile int *)&sum = sum;
}

const Construct construct_parallel = {"parallel", "PARALLEL", CONSTRUCT_SYNC, 0, test_parallel, delays,
                                      "a parallel region, each thread one delay"};
const Construct construct_for = {"for", "FOR", CONSTRUCT_SYNC, 0, test_for, delays,
                                 "a for of one delay per thread, inside one region"};
const Construct construct_parallel_for = {"parallel_for", "PARALLEL FOR", CONSTRUCT_SYNC, 0, test_parallel_for,
                                          delays, "a parallel for of one delay per thread"};
const Construct construct_barrier = {"barrier", "BARRIER", CONSTRUCT_SYNC, 0, test_barrier, delays,
                                     "a delay then a barrier, inside one region"};
const Construct construct_single = {"single", "SINGLE", CONSTRUCT_SYNC, 0, test_single, delays,
                                    "a single of one delay, inside one region"};
const Construct construct_critical = {"critical", "CRITICAL", CONSTRUCT_SYNC, 0, test_critical, delays,
                                      "a critical section of one delay, innerreps/threads per thread"};
const Construct construct_lock = {"lock", "LOCK/UNLOCK", CONSTRUCT_SYNC, 0, test_lock, delays,
                                  "omp_set_lock, a delay, omp_unset_lock, innerreps/threads per thread"};
const Construct construct_atomic = {"atomic", "ATOMIC", CONSTRUCT_SYNC, 0, test_atomic, adds,
                                    "an atomic addition to a shared sum, innerreps/threads per thread"};
const Construct construct_reduction = {"reduction", "REDUCTION", CONSTRUCT_SYNC, 0, test_reduction,
                                       delays_and_adds, "a parallel region with reduction(+), each thread one delay"};
