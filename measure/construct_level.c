/* One construct at one level by EPCC's method (construct_level.h). */
#define _GNU_SOURCE   /* sched_getcpu */
#include "construct_level.h"

#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../cli/exit_status.h"
#include "../kernels/delay.h"
#include "../kernels/fault.h"
#include "../timing/clock.h"
#include "construct_overhead.h"
#include "sequence.h"

/* EPCC's first innerreps: 10 syncbench instances; one schedbench loop is
 * already iters_per_thread delays of 15 us. */
#define SYNC_FIRST_INNERREPS 10L
#define LOOP_FIRST_INNERREPS 1L
/* Timings per innerreps count while calibrating; the fastest decides. */
#define CALIBRATION_TIMINGS 3

/* How one level is run: `outer` 0 is level 1 (the initial thread runs the
 * test); else every thread of an outer team of `outer` runs it at once. */
typedef struct LevelRun {
    ConstructWork work;    /* work.threads: the inner team (first: its lines' alignment pads least there) */
    const Construct *construct;
    int outer;
    OwnLineLog *logs;      /* [outer], or [1] at level 1 */
    int outer_seen;        /* the outer team's size, level 2 */
    double stall_seconds;  /* the fault build's construct-stall: spun once inside the next level-1 timing */
    int watch_cpus;        /* level 1, a team no larger than the CPUs: where its threads run is read */
    int *team_cpu;         /* then [work.threads], each thread's CPU in the wake-up region before a timed test;
                            * NULL: not watched */
} LevelRun;

static void run_test(const Construct *c, const ConstructWork *w)
{
    if (CONSTRUCT_OUTSIDE(c->key))
        c->reference(w);
    else
        c->test(w);
}

/* One timed test: its seconds. Level 2: the outer threads line up at a
 * barrier, each times its own test, and the slowest is the repetition's
 * time (the outer level goes on only when every inner team is done). */
static double timed_test(LevelRun *lr)
{
    if (lr->outer == 0) {
        lr->work.log = &lr->logs[0].log;
        double start = now_seconds();
        CONSTRUCT_STALL_SPIN(&lr->stall_seconds, start);
        run_test(lr->construct, &lr->work);
        return now_seconds() - start;
    }
    double slowest = 0.0;
    int outer_seen = 0;
#pragma omp parallel num_threads(lr->outer) reduction(max : slowest) reduction(max : outer_seen)
    {
        int k = omp_get_thread_num();
        ConstructWork w = lr->work;
        w.log = &lr->logs[k].log;
        outer_seen = omp_get_num_threads();
#pragma omp barrier
        double start = now_seconds();
        run_test(lr->construct, &w);
        slowest = now_seconds() - start;
    }
    lr->outer_seen = outer_seen;
    return slowest;
}

/* One empty region of the level's shape, untimed, just before a timed test:
 * the test then starts with its team awake, as each of EPCC's tests does
 * (they run back to back, the first discarded). Here a test can follow the
 * serial reference (1-2 ms at the default target), long enough for a
 * runtime's idle threads to stop spinning and sleep (libgomp spins a
 * bounded count), and the first instance would pay their wake-up: over the
 * 16 loops of EPCC 4.0's schedbench settings, several us per loop. (Under
 * passive waiting threads sleep at every wait, and waking is part of every
 * instance's cost, as in EPCC.) Nothing of it is logged: the row's region
 * checks see only the test's regions.
 *
 * At level 1 each thread also says where it runs (team_cpu): 1 when two
 * team threads were on one CPU as the test began, taking turns on it, so
 * that the test would time the sharing, not the construct between CPUs
 * (construct_unresolved's first rule). It happens where the other CPUs are
 * busy, and on the 2-CPU development VM in a new process's first loops
 * (docs/constructs.md, "Unresolved rows"). A slot the runtime gave no thread
 * for stays -1, which matches nothing. */
static int wake_team(const LevelRun *lr)
{
    if (lr->outer == 0) {
        int *cpu = lr->team_cpu, threads = lr->work.threads;
        for (int k = 0; cpu != NULL && k < threads; k++)
            cpu[k] = -1;
#pragma omp parallel num_threads(threads) firstprivate(cpu)
        {
            if (cpu != NULL)   /* a team is never larger than asked: thread numbers stay below `threads` */
                cpu[omp_get_thread_num()] = sched_getcpu();
        }
        return cpu != NULL && team_shares_cpu(cpu, threads);
    }
#pragma omp parallel num_threads(lr->outer)
#pragma omp parallel num_threads(lr->work.threads)
    {
    }
    return 0;
}

static double timed_reference(const LevelRun *lr)
{
    ConstructWork w = lr->work;
    w.log = NULL;
    double start = now_seconds();
    lr->construct->reference(&w);
    return now_seconds() - start;
}

/* What the runtime gave, against what was asked: the status and one line. */
static void verify_level(const LevelRun *lr, ConstructLevel *L)
{
    int level = lr->outer == 0 ? 1 : 2, inner = lr->work.threads, outer = lr->outer == 0 ? 1 : lr->outer;
    RegionLog *m = &L->seen;
    memset(m, 0, sizeof *m);
    L->ancestors = 0;
    /* A smaller outer team than asked leaves the missing threads' logs
     * empty: that is the runtime's answer (below), not a test gone wrong. */
    int ran = lr->outer == 0 ? 1 : lr->outer_seen < outer ? lr->outer_seen : outer;
    for (int k = 0; k < ran; k++) {
        const RegionLog *g = &lr->logs[k].log;
        if (g->regions == 0) {
            L->status = CONSTRUCT_WRONG;
            snprintf(L->problem, sizeof L->problem, "measured outside its construct: %s ran no region of it",
                     lr->outer == 0 ? "the test" : "an outer thread's test");
            return;
        }
        if (lr->outer > 0 && (g->ancestor_min != k || g->ancestor_max != k)) {
            L->status = CONSTRUCT_WRONG;
            snprintf(L->problem, sizeof L->problem,
                     "outer thread %d's inner regions report ancestor %d..%d at level 1, not %d", k, g->ancestor_min,
                     g->ancestor_max, k);
            return;
        }
        if (m->regions == 0) {
            *m = *g;
        } else {
            m->threads_min = g->threads_min < m->threads_min ? g->threads_min : m->threads_min;
            m->threads_max = g->threads_max > m->threads_max ? g->threads_max : m->threads_max;
            m->level_min = g->level_min < m->level_min ? g->level_min : m->level_min;
            m->level_max = g->level_max > m->level_max ? g->level_max : m->level_max;
            m->active_min = g->active_min < m->active_min ? g->active_min : m->active_min;
            m->active_max = g->active_max > m->active_max ? g->active_max : m->active_max;
            m->ancestor_min = g->ancestor_min < m->ancestor_min ? g->ancestor_min : m->ancestor_min;
            m->ancestor_max = g->ancestor_max > m->ancestor_max ? g->ancestor_max : m->ancestor_max;
            m->regions += g->regions;
        }
        L->ancestors++;
    }
    if (lr->construct->kind == CONSTRUCT_TARGET) {   /* the device's own team: nothing asked of it to hold */
        L->status = CONSTRUCT_MEASURED;
        L->problem[0] = '\0';
        return;
    }
    if (m->level_min != level || m->level_max != level) {
        L->status = CONSTRUCT_WRONG;
        snprintf(L->problem, sizeof L->problem, "measured outside its construct: its regions ran at level %d..%d, not %d",
                 m->level_min, m->level_max, level);
    } else if (lr->outer > 0 && lr->outer_seen < outer) {
        L->status = CONSTRUCT_FEWER;
        snprintf(L->problem, sizeof L->problem, "the outer team had %d threads, not %d", lr->outer_seen, outer);
    } else if (inner > 1 && m->threads_max == 1) {
        L->status = CONSTRUCT_SERIALIZED;
        snprintf(L->problem, sizeof L->problem, "serialized by the runtime: %s regions of 1 thread (active level %d)",
                 level == 2 ? "inner" : "its", m->active_max);
    } else if (m->threads_min < inner || m->threads_max > inner) {
        L->status = CONSTRUCT_FEWER;
        snprintf(L->problem, sizeof L->problem, "the runtime gave teams of %d..%d threads, not %d", m->threads_min,
                 m->threads_max, inner);
    } else {
        L->status = CONSTRUCT_MEASURED;
        L->problem[0] = '\0';
    }
}

/* The process's involuntary context switches so far (every thread: a
 * thread of the test preempted while it could run); -1 when unknown. */
static long involuntary_switches(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_nivcsw : -1;
}

/* A calibration count's time: the fastest of CALIBRATION_TIMINGS tests (a stall
 * only lengthens one; one stalled timing at 10 instances ended the doubling). */
static double fastest_test(long innerreps, void *context)
{
    LevelRun *lr = context;
    lr->work.innerreps = innerreps;
    double fastest = timed_test(lr);
    for (int k = 1; k < CALIBRATION_TIMINGS; k++) {
        double t = timed_test(lr);
        fastest = t < fastest ? t : fastest;
    }
    return fastest;
}

/* EPCC's method at one level: innerreps calibrated as EPCC's getinnerreps
 * (construct_calibrate_innerreps), then `reps` repetitions of the reference and the test, the order
 * alternating (reference first in even repetitions, test first in odd
 * ones), so that warming or drift within a repetition does not always
 * favour the same side. */
static int measure_level(const RunSetup *run, LevelRun *lr, ConstructLevel *L)
{
    const ConstructOptions *o = &run->constructs;
    int outer = lr->outer == 0 ? 1 : lr->outer;
    L->outer = outer;
    L->inner = lr->work.threads;
    const Construct *c = lr->construct;
    lr->stall_seconds = lr->outer == 0 && CONSTRUCT_STALL_FIRST(c->key) ? 2e-6 * o->target_us : 0.0;
    int step = c->innerreps_step > 0 ? c->innerreps_step : 1;
    int multiple = c->kind == CONSTRUCT_SYNC || c->kind == CONSTRUCT_TASK ? lr->work.threads * step : 1;
    lr->work.innerreps = construct_calibrate_innerreps(
        c->kind == CONSTRUCT_LOOP ? LOOP_FIRST_INNERREPS : SYNC_FIRST_INNERREPS, multiple, o->target_us,
        fastest_test, lr);
    double *test = calloc((size_t)o->reps * 3, sizeof *test);
    lr->team_cpu = lr->watch_cpus ? malloc((size_t)lr->work.threads * sizeof *lr->team_cpu) : NULL;
    if (test == NULL || (lr->watch_cpus && lr->team_cpu == NULL)) {
        free(test);
        free(lr->team_cpu);
        lr->team_cpu = NULL;
        return EXIT_RESOURCE;
    }
    double *reference = test + o->reps, *overhead = test + 2 * o->reps;
    L->disturbed_reps = 0;
    L->shared_cpu_reps = lr->team_cpu != NULL ? 0 : -1;
    for (long r = 0; r < o->reps; r++) {
        long before, after;
        int shared;
        if (r % 2 == 0) {   /* the order alternates; the test alone is watched for preemption */
            reference[r] = timed_reference(lr);
            shared = wake_team(lr);
            before = involuntary_switches();
            test[r] = timed_test(lr);
            after = involuntary_switches();
        } else {
            shared = wake_team(lr);
            before = involuntary_switches();
            test[r] = timed_test(lr);
            after = involuntary_switches();
            reference[r] = timed_reference(lr);
        }
        if (shared)
            L->shared_cpu_reps++;
        if (before < 0 || after < 0)
            L->disturbed_reps = -1;   /* not known */
        else if (L->disturbed_reps >= 0 && after > before)
            L->disturbed_reps++;
    }
    L->innerreps = lr->work.innerreps;
    L->reps = o->reps;
    L->test_us = median_of(test, o->reps) * 1e6 / (double)L->innerreps;
    L->reference_us = median_of(reference, o->reps) * 1e6 / (double)L->innerreps;
    construct_overheads(test, reference, o->reps, L->innerreps, overhead);
    L->overhead = summarize_samples(overhead, o->reps, CLOMP_CI_LEVEL);
    free(test);
    free(lr->team_cpu);
    lr->team_cpu = NULL;
    verify_level(lr, L);
    return 0;
}

/* The row's check (construct.h), untimed, where the test will run: 0, or
 * CONSTRUCT_WRONG in L with the line. At level 2 every outer thread checks
 * with its own inner team, one at a time (the array rows' checks write the
 * arrays every outer thread's test shares). */
static int check_body(const LevelRun *lr, ConstructLevel *L)
{
    const Construct *c = lr->construct;
    char why[128] = "";
    int failed = 0;
    ConstructWork w = lr->work;
    w.log = NULL;
    if (c->check != NULL && lr->outer == 0)
        failed = c->check(&w, why, sizeof why);
    else if (c->check != NULL) {
#pragma omp parallel num_threads(lr->outer) reduction(| : failed)
#pragma omp critical(clomp_construct_check)
        if (c->check(&w, why, sizeof why) != 0)
            failed = 1;
    }
    if (!failed)
        return 0;
    L->status = CONSTRUCT_WRONG;
    L->outer = lr->outer == 0 ? 1 : lr->outer;
    L->inner = lr->work.threads;
    snprintf(L->problem, sizeof L->problem, "its body does the wrong thing: %s", why);
    return 1;
}

int measure_construct_level(const RunSetup *run, const ConstructTable *t, ConstructResult *row, int l, OwnLineLog *logs)
{
    const Construct *c = row->construct;
    ConstructLevel *L = &row->level[l];
    int length = c->kind == CONSTRUCT_LOOP ? t->loop_delay.length : t->sync_delay.length;
    int shapes[CONSTRUCT_LEVELS][2] = {{0, (int)run->numThreads}, {0, t->inner}, {t->outer, t->inner}};
    memset(logs, 0, (t->outer > 0 ? (size_t)t->outer : 1) * sizeof *logs);
    LevelRun lr = {.work = {shapes[l][1], length, 0, row->chunk, t->iters_per_thread, NULL, NULL},
                   .construct = c,
                   .outer = shapes[l][0],
                   .logs = logs};
    /* A team larger than the CPUs must share them: watched only where it need not. */
    lr.watch_cpus = lr.outer == 0 && lr.work.threads > 1 && lr.work.threads <= t->cpus;
    clomp_openmp_running = 1;
    int status = check_body(&lr, L) != 0 ? 0 : measure_level(run, &lr, L);
    clomp_openmp_running = 0;
    return status;
}
