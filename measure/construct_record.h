/* The construct table as data (clomp --constructs): per construct and
 * level, what the runtime gave, the overhead by EPCC's method and whether it
 * is one (measure/constructs.c measures it; docs/constructs.md). Part of the
 * record (record.h includes it); the writers only read it. */
#ifndef CLOMP_CONSTRUCT_RECORD_H
#define CLOMP_CONSTRUCT_RECORD_H

#include <stddef.h>

#include "../kernels/construct.h"
#include "../kernels/problem.h"   /* DelayCalibration */
#include "../numa/team_placement.h"
#include "../timing/statistics.h"

/* One construct at one level (--constructs, measure/constructs.c). */
typedef enum {
    CONSTRUCT_NOT_RUN,      /* N/A here: `problem` says why (below 2x2, same as level 1, the run ended) */
    CONSTRUCT_MEASURED,     /* the overhead below is the construct's */
    CONSTRUCT_SERIALIZED,   /* the runtime ran its regions with one thread: no overhead figure */
    CONSTRUCT_FEWER,        /* fewer threads than asked (more than one): no overhead figure */
    CONSTRUCT_WRONG,        /* measured outside its construct (no region, wrong level or ancestor): failed */
    CONSTRUCT_UNRESOLVED    /* ran as asked, but the figure is not the construct's cost: `problem` says why */
} ConstructStatus;

typedef struct ConstructLevel {
    ConstructStatus status;
    char problem[320];         /* one line for every status but MEASURED */
    int outer, inner;          /* the shape asked: level 1 is 1 x threads */
    long innerreps;            /* construct instances per repetition (EPCC's, calibrated to the target time) */
    long reps;                 /* repetitions done */
    double test_us, reference_us;   /* medians over the repetitions, per instance */
    SampleStats overhead;      /* (test - reference) / innerreps per repetition, us; interval at CLOMP_CI_LEVEL */
    RegionLog seen;            /* what every inner region saw, merged over the outer threads */
    long disturbed_reps;       /* repetitions whose test was preempted (the process's involuntary context switches) */
    long shared_cpu_reps;      /* level 1: repetitions whose test began with two team threads on one CPU; -1: not
                                * watched (level 2, or a team larger than the CPUs) */
    int ancestors;             /* distinct omp_get_ancestor_thread_num(1) seen, level 2 */
} ConstructLevel;

/* level[0]: level 1 with the run's threads; level[1]: level 1 with INNER
 * threads (the ratio's base; N/A when INNER is the run's threads, then
 * level[0] is the base); level[2]: OUTER x INNER. */
#define CONSTRUCT_LEVELS 3
typedef struct ConstructResult {
    const Construct *construct;
    long chunk;                /* STATIC n, DYNAMIC n, GUIDED n: the chunk n; PRIVATE n ...: the array size; else 0 */
    ConstructLevel level[CONSTRUCT_LEVELS];
    double ratio;              /* level 2 over level 1 at INNER threads; NAN when either is not MEASURED or <= 0 */
} ConstructResult;

typedef struct ConstructTable {
    size_t count;              /* every selected row, listed before any is measured */
    size_t capacity;
    ConstructResult *rows;
    DelayCalibration sync_delay, loop_delay;   /* as calibrated (delay.h) */
    int iters_per_thread;
    int outer, inner;          /* level 2's shape; 0 x 0 when N/A */
    char level2_unavailable[96];   /* non-empty: level 2 is N/A for this reason */
    int oversubscribed;        /* OUTER x INNER above the CPUs this process may use */
    int cpus;                  /* those CPUs */
    const char *wait_policy;   /* OMP_WAIT_POLICY as set, or NULL */
    TeamObservation level2_team;   /* where the inner threads ran (one untimed nested region) */
    int busy;                  /* the noise census found the machine busy: every measured row is unresolved */
    char busy_reason[200];     /* its reason (NoiseCensus.busy_reason) */
} ConstructTable;

#endif
