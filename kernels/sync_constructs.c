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
#include "construct_probe.h"
#include "construct_region.h"
#include "delay.h"
#include "fault.h"

/* EPCC's refer: the delays alone, one thread. */
static void delays(const ConstructWork *w)
{
    for (long j = 0; j < w->innerreps; j++)
        epcc_delay(w->delay_length);
}

/* EPCC's referred: the delays and the reduction's addition, one thread. */
static void delays_and_adds(const ConstructWork *w)
{
    int sum = 0;
    for (long j = 0; j < w->innerreps; j++) {
        epcc_delay(w->delay_length);
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
#pragma omp parallel num_threads(w->threads) firstprivate(w)
        {
            region_log_note(w->log);
            epcc_delay(w->delay_length);
        }
    }
}

static void test_for(const ConstructWork *w)
{
    int n = w->threads;
#pragma omp parallel num_threads(n) firstprivate(w, n)
    {
        region_log_note(w->log);
        for (long j = 0; j < w->innerreps; j++) {
#pragma omp for
            for (int i = 0; i < n; i++)
                epcc_delay(w->delay_length);
        }
    }
}

static void test_parallel_for(const ConstructWork *w)
{
    int n = w->threads;
    for (long j = 0; j < w->innerreps; j++) {
#pragma omp parallel for num_threads(n) firstprivate(w, n)
        for (int i = 0; i < n; i++) {
            if (i == 0)
                region_log_note(w->log);
            epcc_delay(w->delay_length);
        }
    }
}

static void test_barrier(const ConstructWork *w)
{
#pragma omp parallel num_threads(w->threads) firstprivate(w)
    {
        region_log_note(w->log);
        for (long j = 0; j < w->innerreps; j++) {
            epcc_delay(w->delay_length);
#pragma omp barrier
        }
    }
}

/* EPCC 4.0's BARRIER_VAR: in instance j only thread j mod team runs the
 * delay, the others arrive at the barrier at once and wait for it. Probed:
 * every thread counts its arrival before the barrier and, after it, sees
 * every arrival of the instance (the late thread is held back longer). */
static void test_barrier_var(const ConstructWork *w)
{
    ConstructProbe *p = w->probe;
#pragma omp parallel num_threads(w->threads) firstprivate(w, p)
    {
        region_log_note(w->log);
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        for (long j = 0; j < w->innerreps; j++) {
            if (me == j % team) {
                probe_hold(w);
                epcc_delay(w->delay_length);
            }
            if (p != NULL)
                atomic_fetch_add(&p->arrived, 1);
            if (!CONSTRUCT_WRONG_BODY("barrier_var")) {
#pragma omp barrier
            }
            if (p != NULL && atomic_load(&p->arrived) < (j + 1) * team)
                probe_fail(p, "thread %d left barrier %ld before thread %ld arrived", me, j, j % team);
        }
    }
}

static int check_barrier_var(const ConstructWork *w, char *why, size_t why_size)
{
    ConstructProbe p;
    probe_start(&p, 0.0);
    ConstructWork c = probe_work(w, &p, 4L * w->threads);
    test_barrier_var(&c);
    return probe_verdict(&p, why, why_size);
}

static void test_single(const ConstructWork *w)
{
#pragma omp parallel num_threads(w->threads) firstprivate(w)
    {
        region_log_note(w->log);
        for (long j = 0; j < w->innerreps; j++) {
#pragma omp single
            epcc_delay(w->delay_length);
        }
    }
}

static void test_critical(const ConstructWork *w)
{
#pragma omp parallel num_threads(w->threads) firstprivate(w)
    {
        region_log_note(w->log);
        long reps = w->innerreps / omp_get_num_threads();
        for (long j = 0; j < reps; j++) {
#pragma omp critical
            epcc_delay(w->delay_length);
        }
    }
}

static void test_lock(const ConstructWork *w)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel num_threads(w->threads) firstprivate(w)
    {
        region_log_note(w->log);
        long reps = w->innerreps / omp_get_num_threads();
        for (long j = 0; j < reps; j++) {
            omp_set_lock(&lock);
            epcc_delay(w->delay_length);
            omp_unset_lock(&lock);
        }
    }
    omp_destroy_lock(&lock);
}

static void test_atomic(const ConstructWork *w)
{
    double sum = 0.0;
#pragma omp parallel num_threads(w->threads) firstprivate(w)
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

/* EPCC 4.0's ATOMIC_SEQCST: ATOMIC with the seq_cst memory order. */
static void test_atomic_seqcst(const ConstructWork *w)
{
    double sum = 0.0;
#pragma omp parallel num_threads(w->threads) firstprivate(w)
    {
        region_log_note(w->log);
        double b = 1.0, c = 1.0 + 1.0e-15;
        long reps = w->innerreps / omp_get_num_threads();
        for (long j = 0; j < reps; j++) {
#pragma omp atomic seq_cst
            sum += b;
            b *= c;
        }
    }
    *(volatile double *)&sum = sum;
}

/* EPCC's ORDERED: one parallel for of innerreps iterations, schedule(static,1),
 * each an ordered section of one delay. Probed: each section checks that it
 * is the next iteration; the first thread's iterations are held back before
 * their sections, so that without ordering the next one would overtake. */
static void test_ordered(const ConstructWork *w)
{
    ConstructProbe *p = w->probe;
    long n = w->innerreps;
#pragma omp parallel num_threads(w->threads) firstprivate(w, p, n)
    {
        region_log_note(w->log);
        int held = p != NULL && omp_get_thread_num() == 0;
        /* The branches differ only in their OpenMP directives, which clang-tidy's
           clone check does not compare. */
        if (CONSTRUCT_WRONG_BODY("ordered")) { // NOLINT(bugprone-branch-clone)
#pragma omp for schedule(static, 1)
            for (long i = 0; i < n; i++) {
                if (held)
                    probe_hold(w);
                epcc_delay(w->delay_length);
                if (p != NULL && atomic_fetch_add(&p->next, 1) != i)
                    probe_fail(p, "iteration %ld's ordered section ran out of order", i);
            }
        } else {
#pragma omp for ordered schedule(static, 1)
            for (long i = 0; i < n; i++) {
                if (held)
                    probe_hold(w);
#pragma omp ordered
                {
                    epcc_delay(w->delay_length);
                    if (p != NULL && atomic_fetch_add(&p->next, 1) != i)
                        probe_fail(p, "iteration %ld's ordered section ran out of order", i);
                }
            }
        }
    }
}

static int check_ordered(const ConstructWork *w, char *why, size_t why_size)
{
    ConstructProbe p;
    probe_start(&p, 0.0);
    ConstructWork c = probe_work(w, &p, 4L * w->threads);
    test_ordered(&c);
    if (atomic_load(&p.next) != c.innerreps)
        probe_fail(&p, "%ld of %ld ordered sections ran", atomic_load(&p.next), c.innerreps);
    return probe_verdict(&p, why, why_size);
}

static void test_reduction(const ConstructWork *w)
{
    int sum = 0;
    for (long j = 0; j < w->innerreps; j++) {
#pragma omp parallel reduction(+ : sum) num_threads(w->threads) firstprivate(w)
        {
            region_log_note(w->log);
            epcc_delay(w->delay_length);
            sum += 1;
        }
    }
    *(volatile int *)&sum = sum;
}

const Construct construct_parallel = {"parallel", "PARALLEL", CONSTRUCT_SYNC, 0, test_parallel, delays,
                                      "a parallel region, each thread one delay", .check = NULL};
const Construct construct_for = {"for", "FOR", CONSTRUCT_SYNC, 0, test_for, delays,
                                 "a for of one delay per thread, inside one region", .check = NULL};
const Construct construct_parallel_for = {"parallel_for", "PARALLEL FOR", CONSTRUCT_SYNC, 0, test_parallel_for,
                                          delays, "a parallel for of one delay per thread", .check = NULL};
const Construct construct_barrier = {"barrier", "BARRIER", CONSTRUCT_SYNC, 0, test_barrier, delays,
                                     "a delay then a barrier, inside one region", .check = NULL};
const Construct construct_single = {"single", "SINGLE", CONSTRUCT_SYNC, 0, test_single, delays,
                                    "a single of one delay, inside one region", .check = NULL};
const Construct construct_critical = {"critical", "CRITICAL", CONSTRUCT_SYNC, 0, test_critical, delays,
                                      "a critical section of one delay, innerreps/threads per thread", .check = NULL};
const Construct construct_lock = {"lock", "LOCK/UNLOCK", CONSTRUCT_SYNC, 0, test_lock, delays,
                                  "omp_set_lock, a delay, omp_unset_lock, innerreps/threads per thread (EPCC 4.0: LOCK_CONTENDED)", .check = NULL};
const Construct construct_atomic = {"atomic", "ATOMIC", CONSTRUCT_SYNC, 0, test_atomic, adds,
                                    "an atomic addition to a shared sum, innerreps/threads per thread", .check = NULL};
const Construct construct_reduction = {"reduction", "REDUCTION", CONSTRUCT_SYNC, 0, test_reduction,
                                       delays_and_adds, "a parallel region with reduction(+), each thread one delay", .check = NULL};

const Construct construct_barrier_var = {
    "barrier_var", "BARRIER_VAR", CONSTRUCT_SYNC, 0, test_barrier_var, delays,
    "a barrier where one thread (j mod team) arrives late, after one delay (--construct-delay, 0.10 us)",
    .check = check_barrier_var};
const Construct construct_ordered = {
    "ordered", "ORDERED", CONSTRUCT_SYNC, 0, test_ordered, delays,
    "one iteration of a parallel for ordered schedule(static,1): an ordered section of one delay",
    .check = check_ordered};
const Construct construct_atomic_seqcst = {"atomic_seqcst", "ATOMIC_SEQCST", CONSTRUCT_SYNC, 0, test_atomic_seqcst,
                                           adds, "an atomic seq_cst addition to a shared sum, innerreps/threads per thread", .check = NULL};
