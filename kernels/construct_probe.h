/* What a construct's body did, recorded when its row's check runs it
 * untimed (construct.h's `check`): the timed runs pass no probe and pay one
 * predictable branch per delay. The checks verify what the construct
 * promises — a taskwait waits, an ordered section runs in order, a
 * dependence chain runs in order, copyprivate and copyin copy — so that a
 * body that does the wrong thing ends the run instead of being timed.
 * In probe mode some bodies hold a task or a thread back for a while
 * (probe_hold) to open the window in which a broken construct shows. */
#ifndef CLOMP_CONSTRUCT_PROBE_H
#define CLOMP_CONSTRUCT_PROBE_H

#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "../timing/clock.h"
#include "construct.h"
#include "delay.h"

#define PROBE_HOLD_US 200.0   /* how long probe_hold keeps a task or thread back */

typedef struct ConstructProbe {
    atomic_long done;                    /* delays run */
    atomic_long next;                    /* ORDERED: the next iteration expected */
    atomic_long arrived;                 /* barriers: arrivals so far */
    atomic_int inside;                   /* locks: holders now */
    atomic_int team;                     /* the team's size, as its threads saw it */
    atomic_long *per;                    /* per thread or per dependence chain: [team] (construct_check_tasks) */
    double marker;                       /* data clauses: the value the original holds */
    atomic_int failed;
    char why[160];
} ConstructProbe;

static inline void probe_start(ConstructProbe *p, double marker)
{
    memset(p, 0, sizeof *p);
    p->marker = marker;
}

/* The first failure's line is kept; later ones are dropped. */
#define probe_fail(p, ...)                                                   \
    do {                                                                     \
        int expected_ = 0;                                                   \
        if (atomic_compare_exchange_strong(&(p)->failed, &expected_, 1))     \
            snprintf((p)->why, sizeof (p)->why, __VA_ARGS__);                \
    } while (0)

/* The body's delay, counted when probed. */
static inline void probed_delay(const ConstructWork *w)
{
    epcc_delay(w->delay_length);
    if (w->probe != NULL)
        atomic_fetch_add(&w->probe->done, 1);
}

/* Keeps the calling thread or task busy for PROBE_HOLD_US (probe mode only). */
static inline void probe_hold(const ConstructWork *w)
{
    if (w->probe == NULL)
        return;
    double until = now_seconds() + PROBE_HOLD_US * 1e-6;
    while (now_seconds() < until)
        ;
}

/* A task of one delay, held back while probed. */
static inline void probed_task_delay(const ConstructWork *w)
{
    probe_hold(w);
    probed_delay(w);
}

/* The team as its threads saw it (every thread stores the same). */
static inline void probe_team(const ConstructWork *w)
{
    if (w->probe != NULL)
        atomic_store(&w->probe->team, omp_get_num_threads());
}

/* The check's verdict: 0, or 1 with the probe's line. */
static inline int probe_verdict(const ConstructProbe *p, char *why, size_t why_size)
{
    if (!atomic_load(&p->failed))
        return 0;
    snprintf(why, why_size, "%s", p->why);
    return 1;
}

/* A check's work: a few instances per thread, enough for a broken construct
 * to show, few enough to cost milliseconds. */
static inline ConstructWork probe_work(const ConstructWork *w, ConstructProbe *p, long innerreps)
{
    ConstructWork c = *w;
    c.innerreps = innerreps;
    c.log = NULL;
    c.probe = p;
    return c;
}

/* Runs a task row's test with a probe (task_constructs.c): every delay ran
 * (innerreps per thread, all done when the region ended) and whatever the
 * body checked itself, `rounds` times or to the first failure. */
int construct_check_tasks(const ConstructWork *w, void (*test)(const ConstructWork *), long innerreps, int rounds,
                          char *why, size_t why_size);

#endif
