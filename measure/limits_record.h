/* clomp --limits as data (docs/limits.md): what the node itself allows on
 * the run's team - each pair's cache-line round trip, hand-written barriers
 * and fork/join - beside OpenMP's barrier and fork/join timed the same way
 * at the same time. measure/limits*.c measure it; part of the record
 * (record.h includes it); the writers only read it. */
#ifndef CLOMP_LIMITS_RECORD_H
#define CLOMP_LIMITS_RECORD_H

#include <math.h>

#include "../numa/cpu_classes.h"
#include "../timing/cycle_rate.h"
#include "../timing/statistics.h"

/* What is timed, in this order (the reference barriers in the order of
 * kernels/ref_barriers.c's table). */
typedef enum {
    LIMIT_CENTRAL,
    LIMIT_DISSEMINATION,
    LIMIT_TOURNAMENT,
    LIMIT_OMP_BARRIER,
    LIMIT_REF_FORKJOIN,
    LIMIT_OMP_FORKJOIN,
    LIMIT_TIMINGS
} LimitTimingId;
#define LIMIT_REF_BARRIERS 3

/* One barrier or fork/join: `innerreps` back-to-back operations per timed
 * repetition, on the team's threads. */
typedef struct LimitTiming {
    const char *key;           /* "central", ..., "omp_barrier", "reference_forkjoin", "omp_forkjoin" */
    const char *name;          /* as the report names it */
    const char *how;           /* one line: what it is */
    int reference;             /* 1: hand-written, checked after every repetition */
    int measured;              /* every repetition ran */
    long innerreps;            /* operations per repetition (calibrated to the repetition time) */
    long reps;                 /* repetitions timed */
    SampleStats ns;            /* ns per operation over the repetitions: median, interval within this process */
    long disturbed_reps;       /* repetitions in which the process was preempted (involuntary switches); -1 unknown */
    long checked_reps;         /* references: repetitions whose check passed (all of them, or the run failed) */
    int team_min, team_max;    /* OpenMP's fork/join: the teams the runtime gave (checked: all the team asked) */
    int invalid;               /* not a result: the mean and the median of its repetitions disagree */
    char invalid_reason[200];
} LimitTiming;

/* One pair of the team's threads and the CPUs they ran on. */
typedef struct LimitPair {
    int thread_a, thread_b;    /* a < b */
    int cpu_a, cpu_b;          /* sched_getcpu() as the pair began; -1 unknown */
    int moved;                 /* a thread of the pair was on another CPU when it ended (threads not bound) */
    PairClass pair_class;      /* from the CPUs' topology (PAIR_SAME_CPU: not measured) */
    long batches;              /* batches of PINGPONG_TRIPS_PER_BATCH round trips timed; 0: not measured */
    double round_trip_ns;      /* median over the batches of their mean round trip; NAN when not measured */
    double mean_ns;            /* mean over the batches */
    int invalid;               /* mean and median disagree beyond CLOMP_MEAN_MEDIAN_FACTOR: not a result */
} LimitPair;

/* The round trips of the valid pairs of one class (or all). */
typedef struct LimitSpread {
    long pairs;
    double min_ns, median_ns, max_ns;   /* NAN without pairs */
} LimitSpread;

/* A figure derived from others: its value and interval, and why it is not
 * a result when it is not (an input that is not one, a busy machine). */
typedef struct LimitDerived {
    SampleStats stats;         /* a multiple: over the repetitions; else stats.median alone */
    char not_a_result[200];    /* "" when it is one */
} LimitDerived;

typedef struct LimitsRecord {
    int threads;               /* the team asked for (the run's numThreads) */
    char not_measured[160];    /* non-empty: why nothing was measured (fewer than 2 threads) */
    char failure[320];         /* a reference whose check failed: which, in which repetition, what was read */
    const char *topology_root; /* where the CPUs' topology was read */
    CoreClockSample clock;     /* the team's core clock, measured just before */
    double cycles_ghz;         /* cycles per ns the figures in cycles use: --ghz, or clock.median_ghz; 0: none */
    const char *cycles_source; /* "--ghz", "measured", or NULL */
    int busy;                  /* the noise census found the machine busy: no figure here is the node's own */
    char busy_reason[200];
    /* The pairs */
    long pair_count;           /* threads x (threads - 1) / 2 */
    LimitPair *pairs;          /* [pair_count], thread_a-major */
    long pairs_measured, pairs_invalid, pairs_same_cpu, pairs_moved;
    long trips_per_pair;       /* round trips timed per pair (whole batches) */
    LimitSpread all;           /* over the valid measured pairs */
    LimitSpread classes[PAIR_CLASSES];
    /* The barriers and fork/joins */
    LimitTiming timing[LIMIT_TIMINGS];
    long checked_episodes;     /* per reference and repetition (kernels/ref_check.h) */
    int best_reference;        /* the reference barrier with the least median (LimitTimingId); -1 none */
    /* Derived */
    int rounds;                /* ceil(log2 threads) */
    LimitDerived barrier_multiple;    /* OpenMP's barrier / the best reference, per repetition */
    LimitDerived forkjoin_multiple;   /* OpenMP's fork/join / the reference's, per repetition */
    LimitDerived bound;               /* ns: rounds x half the median pair's round trip */
    double llnl_barrier_cycles;       /* LLNL's barrier target, beside them (measure/llnl_targets.c) */
} LimitsRecord;

/* ns to cycles at the record's clock: NAN without one. */
static inline double limits_cycles(const LimitsRecord *l, double ns)
{
    return l->cycles_ghz > 0.0 ? ns * l->cycles_ghz : NAN;
}

#endif
