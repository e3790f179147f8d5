/* The fixed-work-quantum probe of the noise census: every thread of the
 * timed team times NOISE_QUANTA back-to-back quanta of the same dependent
 * arithmetic, each calibrated to about NOISE_QUANTUM_US. A quantum longer
 * than the thread's usual one is time it lost to an interrupt, another task
 * or the hypervisor; the timestamps are read between quanta with nothing
 * else in between, so no detour falls through the gaps. */
#define _GNU_SOURCE
#include "noise.h"

#include <math.h>
#include <stdio.h>
#include <omp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../timing/clock.h"

/* The thread's own sink: its quanta cannot be folded away, and no two
 * threads share a cache line through it. */
static _Thread_local volatile double quantum_sink;

/* One quantum: `work` dependent multiply-adds. */
static void quantum(long work)
{
    double x = quantum_sink;
    for (long i = 0; i < work; i++)
        x = x * 0.999999 + 1.0;
    quantum_sink = x;
}

/* The fastest of `reps` timings of quantum(work), in seconds. */
static double fastest_quantum(long work, int reps)
{
    double best = INFINITY;
    for (int r = 0; r < reps; r++) {
        double t0 = now_seconds();
        quantum(work);
        double t = now_seconds() - t0;
        if (t < best)
            best = t;
    }
    return best;
}

/* The work whose fastest quantum takes about target_us: doubled until a
 * quantum lasts a quarter of it, then scaled (the loop is linear in work). */
static long calibrate_quantum(double target_us)
{
    long work = 16;
    double t = fastest_quantum(work, 50);
    while (t * 1e6 < target_us / 4.0 && work < (1L << 30)) {
        work *= 2;
        t = fastest_quantum(work, 50);
    }
    long scaled = (long)((double)work * target_us / (t * 1e6));
    return scaled > 1 ? scaled : 1;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One thread's figures from its quanta (seconds; sorted in place). */
static void thread_figures(double *q, long n, NoiseThread *t)
{
    double total = 0.0, median, lost = 0.0, longest = 0.0;
    for (long i = 0; i < n; i++)
        total += q[i];
    qsort(q, (size_t)n, sizeof *q, compare_doubles);
    median = q[n / 2];
    for (long i = 0; i < n; i++)
        if (q[i] > median)
            lost += q[i] - median;
    longest = q[n - 1];
    t->fastest_us = q[0] * 1e6;
    t->median_us = median * 1e6;
    t->p99_us = q[(long)floor(0.99 * (double)(n - 1))] * 1e6;
    t->lost_fraction = total > 0.0 ? lost / total : 0.0;
    t->largest_detour_us = (longest - median) * 1e6;
}

void judge_busy(NoiseCensus *c)
{
    c->busy_threshold = NOISE_BUSY_LOST_SHARE;
    c->busy_judged = c->probed && c->threads > 0;
    c->busy = 0;
    c->busy_reason[0] = '\0';
    int worst = -1;
    for (int t = 0; c->busy_judged && t < c->threads; t++)
        if (worst < 0 || c->thread[t].lost_fraction > c->thread[worst].lost_fraction)
            worst = t;
    if (worst < 0 || !(c->thread[worst].lost_fraction >= c->busy_threshold))
        return;
    const NoiseThread *n = &c->thread[worst];
    c->busy = 1;
    snprintf(c->busy_reason, sizeof c->busy_reason,
             "the noise census's probe: thread %d (CPU %d) lost %.1f%% of its time to other work, largest detour "
             "%.1f ms; busy: a thread lost %.0f%% or more",
             worst, n->cpu, 100.0 * n->lost_fraction, n->largest_detour_us * 1e-3, 100.0 * c->busy_threshold);
}

void probe_noise(NoiseCensus *c, const RunSetup *run, WarningList *warnings)
{
    memset(c, 0, sizeof *c);
    c->enabled = run->noise_census;
    c->quantum_us = NOISE_QUANTUM_US;
    c->quanta = NOISE_QUANTA;
    c->steal_seconds = NAN;
    c->busy_threshold = NOISE_BUSY_LOST_SHARE;
    if (!c->enabled)
        return;
    int threads = run->numThreads < NOISE_MAX_THREADS ? (int)run->numThreads : NOISE_MAX_THREADS;
    if (run->numThreads > NOISE_MAX_THREADS)
        snprintf(c->note, sizeof c->note, "the first %d of %ld threads probed", NOISE_MAX_THREADS, run->numThreads);
    double *quanta = malloc((size_t)threads * (size_t)c->quanta * sizeof *quanta);
    int tids[NOISE_MAX_THREADS];
    if (quanta == NULL) {
        snprintf(c->note, sizeof c->note, "no memory for the probe's %ld quanta per thread", c->quanta);
        return;
    }
    c->quantum_work = calibrate_quantum(c->quantum_us);
    double start = now_seconds();
    int seen = 0;
#pragma omp parallel num_threads(threads)
    {
        int me = omp_get_thread_num();
        double *q = quanta + (size_t)me * (size_t)c->quanta;
        long work = c->quantum_work, n = c->quanta;
        tids[me] = (int)syscall(SYS_gettid);
        quantum(work);   /* its first quantum is a cold one */
#pragma omp barrier
        double last = now_seconds();
        for (long i = 0; i < n; i++) {
            quantum(work);
            double now = now_seconds();
            q[i] = now - last;
            last = now;
        }
        c->thread[me].cpu = sched_getcpu();
#pragma omp single
        seen = omp_get_num_threads();
    }
    c->probe_seconds = now_seconds() - start;
    c->threads = seen;
    for (int t = 0; t < seen; t++)
        thread_figures(quanta + (size_t)t * (size_t)c->quanta, c->quanta, &c->thread[t]);
    free(quanta);
    c->probed = 1;
    judge_busy(c);
    if (c->busy)
        add_warning(warnings, WARNING_LINE,
                    "this machine was busy: these figures measure the contention, not the node's OpenMP overhead (%s)",
                    c->busy_reason);
    noise_sampler_open(c, tids, seen);
}
