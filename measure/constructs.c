/* The construct table measured (constructs.h). */
#define _GNU_SOURCE   /* sched_getcpu */
#include "constructs.h"

#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/exit_status.h"
#include "../kernels/delay.h"
#include "../kernels/fault.h"
#include "../timing/clock.h"
#include "construct_overhead.h"
#include "sequence.h"

#define FAIL(status, ...) return (snprintf(why, why_size, __VA_ARGS__), (status))

/* EPCC's first innerreps: 10 syncbench instances; one schedbench loop is
 * already iters_per_thread delays of 15 us. */
#define SYNC_FIRST_INNERREPS 10L
#define LOOP_FIRST_INNERREPS 1L

/* How one level is run: `outer` 0 is level 1 (the initial thread runs the
 * test); else every thread of an outer team of `outer` runs it at once. */
typedef struct LevelRun {
    const Construct *construct;
    ConstructWork work;    /* work.threads: the inner team */
    int outer;
    RegionLog *logs;       /* [outer], or [1] at level 1 */
    int outer_seen;        /* the outer team's size, level 2 */
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
        lr->work.log = &lr->logs[0];
        double start = now_seconds();
        run_test(lr->construct, &lr->work);
        return now_seconds() - start;
    }
    double slowest = 0.0;
    int outer_seen = 0;
#pragma omp parallel num_threads(lr->outer) reduction(max : slowest) reduction(max : outer_seen)
    {
        int k = omp_get_thread_num();
        ConstructWork w = lr->work;
        w.log = &lr->logs[k];
        outer_seen = omp_get_num_threads();
#pragma omp barrier
        double start = now_seconds();
        run_test(lr->construct, &w);
        slowest = now_seconds() - start;
    }
    lr->outer_seen = outer_seen;
    return slowest;
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
        const RegionLog *g = &lr->logs[k];
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

/* EPCC's method at one level: innerreps calibrated to the target time,
 * then `reps` repetitions of the reference and the test, the order
 * alternating (reference first in even repetitions, test first in odd
 * ones), so that warming or drift within a repetition does not always
 * favour the same side. */
static int measure_level(const RunSetup *run, LevelRun *lr, ConstructLevel *L)
{
    const ConstructOptions *o = &run->constructs;
    int outer = lr->outer == 0 ? 1 : lr->outer;
    L->outer = outer;
    L->inner = lr->work.threads;
    lr->work.innerreps = lr->construct->kind == CONSTRUCT_LOOP ? LOOP_FIRST_INNERREPS : SYNC_FIRST_INNERREPS;
    for (;;) {
        if (lr->construct->kind == CONSTRUCT_SYNC)
            lr->work.innerreps = construct_round_innerreps(lr->work.innerreps, lr->work.threads);
        long next = construct_next_innerreps(lr->work.innerreps, timed_test(lr), o->target_us);
        if (next == 0)
            break;
        lr->work.innerreps = next;
    }
    double *test = calloc((size_t)o->reps * 3, sizeof *test);
    if (test == NULL)
        return EXIT_RESOURCE;
    double *reference = test + o->reps, *overhead = test + 2 * o->reps;
    for (long r = 0; r < o->reps; r++) {
        if (r % 2 == 0) {
            reference[r] = timed_reference(lr);
            test[r] = timed_test(lr);
        } else {
            test[r] = timed_test(lr);
            reference[r] = timed_reference(lr);
        }
    }
    L->innerreps = lr->work.innerreps;
    L->reps = o->reps;
    L->test_us = median_of(test, o->reps) * 1e6 / (double)L->innerreps;
    L->reference_us = median_of(reference, o->reps) * 1e6 / (double)L->innerreps;
    construct_overheads(test, reference, o->reps, L->innerreps, overhead);
    L->overhead = summarize_samples(overhead, o->reps, CLOMP_CI_LEVEL);
    free(test);
    verify_level(lr, L);
    return 0;
}

/* Where the inner threads of one untimed nested region run. */
static void observe_level2_team(ConstructTable *t)
{
    TeamObservation *seen = &t->level2_team;
    long slots = (long)t->outer * t->inner;
    seen->nested = 1;
    seen->cpu_slots = slots < TEAM_MAX_CPU_SLOTS ? (int)slots : TEAM_MAX_CPU_SLOTS;
    for (int i = 0; i < seen->cpu_slots; i++)
        seen->cpu[i] = -1;
    int inner = t->inner, min = inner, max = 0, total = 0, outer_seen = 0;
#pragma omp parallel num_threads(t->outer) reduction(min : min) reduction(max : max, outer_seen) reduction(+ : total)
    {
        int k = omp_get_thread_num();
        outer_seen = omp_get_num_threads();
#pragma omp parallel num_threads(inner)
        {
            long slot = (long)k * inner + omp_get_thread_num();
            if (slot < seen->cpu_slots)
                seen->cpu[slot] = sched_getcpu();
            if (omp_get_thread_num() == 0) {
                min = omp_get_num_threads();
                max = min;
                total = min;
            }
        }
    }
    seen->threads = outer_seen;
    seen->inner_min = min;
    seen->inner_max = max;
    seen->inner_total = total;
}

/* The chunk sizes of a row: one (0) without a chunk; the list given; or
 * schedbench's powers of two up to iters_per_thread (GUIDED: up to
 * iters_per_thread / threads, as schedbench). */
static int row_chunks(const RunSetup *run, const Construct *c, long *chunks)
{
    if (!c->takes_chunk) {
        chunks[0] = 0;
        return 1;
    }
    if (run->constructs.chunk_count > 0) {
        memcpy(chunks, run->constructs.chunks, (size_t)run->constructs.chunk_count * sizeof *chunks);
        return run->constructs.chunk_count;
    }
    long largest = CONSTRUCT_ITERS_PER_THREAD;
    if (strcmp(c->key, "guided_n") == 0)
        largest = run->numThreads > 1 ? largest / run->numThreads : largest;
    int n = 0;
    for (long k = 1; k <= largest && n < CONSTRUCT_MAX_CHUNKS; k *= 2)
        chunks[n++] = k;
    return n;
}

static void set_shape(const RunSetup *run, ConstructTable *t)
{
    t->iters_per_thread = CONSTRUCT_ITERS_PER_THREAD;
    t->wait_policy = getenv("OMP_WAIT_POLICY");
    t->cpus = omp_get_num_procs();
    if (run->nested_unavailable[0] != '\0' || run->nestedOuter < 2 || run->nestedInner < 2) {
        if (run->nested_unavailable[0] != '\0')
            snprintf(t->level2_unavailable, sizeof t->level2_unavailable, "%s", run->nested_unavailable);
        else
            snprintf(t->level2_unavailable, sizeof t->level2_unavailable, "needs at least 2x2 threads, not %dx%d",
                     run->nestedOuter, run->nestedInner);
        return;
    }
    t->outer = run->nestedOuter;
    t->inner = run->nestedInner;
    t->oversubscribed = (long)t->outer * t->inner > t->cpus;
    observe_level2_team(t);
}

/* level[] index to the level it measures: 1, 1 (INNER threads), 2. */
static int construct_level_of(int index)
{
    return index == 2 ? 2 : 1;
}

static int measure_row(const RunSetup *run, ConstructTable *t, ConstructResult *row, char *why, size_t why_size)
{
    const Construct *c = row->construct;
    int length = c->kind == CONSTRUCT_LOOP ? t->loop_delay.length : t->sync_delay.length;
    int shapes[CONSTRUCT_LEVELS][2] = {{0, (int)run->numThreads}, {0, t->inner}, {t->outer, t->inner}};
    RegionLog *logs = calloc(t->outer > 0 ? (size_t)t->outer : 1, sizeof *logs);
    if (logs == NULL)
        FAIL(EXIT_RESOURCE, "out of memory for the construct logs");
    for (int l = 0; l < CONSTRUCT_LEVELS; l++) {
        ConstructLevel *L = &row->level[l];
        const char *na = l == 0 ? NULL : t->outer == 0 ? t->level2_unavailable
                         : l == 1 && t->inner == run->numThreads ? "the same team as level 1" : NULL;
        if (na != NULL) {
            L->status = CONSTRUCT_NOT_RUN;
            snprintf(L->problem, sizeof L->problem, "%s", na);
            continue;
        }
        memset(logs, 0, (t->outer > 0 ? (size_t)t->outer : 1) * sizeof *logs);
        LevelRun lr = {c, {shapes[l][1], length, 0, row->chunk, t->iters_per_thread, NULL}, shapes[l][0], logs, 0};
        clomp_openmp_running = 1;
        int status = measure_level(run, &lr, L);
        clomp_openmp_running = 0;
        if (status != 0) {
            free(logs);
            FAIL(status, "out of memory for %ld construct repetitions", run->constructs.reps);
        }
        if (L->status == CONSTRUCT_WRONG) {
            for (int later = l + 1; later < CONSTRUCT_LEVELS; later++)
                snprintf(row->level[later].problem, sizeof row->level[later].problem,
                         "not measured: the run ended at level %d", construct_level_of(l));
            free(logs);
            FAIL(EXIT_VERIFY_FAILED, "construct %s at level %d (%dx%d): %s", c->name, construct_level_of(l), L->outer,
                 L->inner, L->problem);
        }
    }
    free(logs);
    const ConstructLevel *base = row->level[1].status == CONSTRUCT_NOT_RUN ? &row->level[0] : &row->level[1];
    /* A base whose interval reaches 0 (an uncontended lock, a critical
     * section nobody waits for) would make any ratio: none is given. */
    int base_above_zero = base->overhead.has_ci ? base->overhead.ci_low > 0.0 : base->overhead.median > 0.0;
    row->ratio = row->level[2].status == CONSTRUCT_MEASURED && base->status == CONSTRUCT_MEASURED && base_above_zero
                     ? construct_ratio(row->level[2].overhead.median, base->overhead.median)
                     : NAN;
    return 0;
}

int measure_constructs(const RunSetup *run, ConstructTable *t, char *why, size_t why_size)
{
    long chunks[CONSTRUCT_MAX_CHUNKS];
    t->capacity = 0;
    for (size_t i = 0; i < clomp_construct_count; i++)
        if (run->construct_selected[i])
            t->capacity += (size_t)row_chunks(run, clomp_constructs[i], chunks);
    t->rows = calloc(t->capacity > 0 ? t->capacity : 1, sizeof *t->rows);
    if (t->rows == NULL)
        FAIL(EXIT_RESOURCE, "out of memory for the construct table");
    t->sync_delay = calibrate_delay(run->constructs.sync_delay_us);
    t->loop_delay = calibrate_delay(run->constructs.loop_delay_us);
    set_shape(run, t);
    for (size_t i = 0; i < clomp_construct_count; i++) {
        if (!run->construct_selected[i])
            continue;
        int n = row_chunks(run, clomp_constructs[i], chunks);
        for (int k = 0; k < n; k++) {
            ConstructResult *row = &t->rows[t->count++];
            row->construct = clomp_constructs[i];
            row->chunk = chunks[k];
            row->ratio = NAN;
            int status = measure_row(run, t, row, why, why_size);
            if (status != 0)
                return status;
        }
    }
    return 0;
}

int measure_asked_constructs(const RunSetup *run, RunRecord *record, ConstructTable *t, char *why, size_t why_size)
{
    double from = process_cost_now().wall_seconds;
    int status = 0;
    if (run->constructs.asked) {
        record->constructs = t;
        status = measure_constructs(run, t, why, why_size);
    }
    /* The wall time's parts (record_wall_time): the table's own, and the end of the measuring. */
    record->measured_until = process_cost_now().wall_seconds;
    if (record->constructs != NULL)
        record->constructs_seconds = record->measured_until - from;
    return status;
}

void free_constructs(ConstructTable *t)
{
    free(t->rows);
    t->rows = NULL;
    t->count = t->capacity = 0;
}
