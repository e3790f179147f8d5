/* EPCC's overhead arithmetic on recorded times (J. M. Bull, EWOMP 1999):
 * what one construct instance costs beyond the work inside it. Pure
 * arithmetic, tested against hand-computed cases (tests/unit). */
#ifndef CLOMP_CONSTRUCT_OVERHEAD_H
#define CLOMP_CONSTRUCT_OVERHEAD_H

#include <stddef.h>

#include "../kernels/construct.h"
#include "../timing/statistics.h"

/* The resolution rule (docs/constructs.md, "Unresolved rows"): EPCC's
 * overhead is (test - reference) / innerreps, and the test's enclosing
 * region, its stalls and its preemptions are in the test alone: they are
 * amortised only over innerreps instances and hidden only in a median of
 * quiet repetitions. A syncbench test (one delay of 0.1 us per instance)
 * that fills its target time with fewer than this many instances costs
 * more than target / 32 per instance: stalled, or too short a target for
 * the enclosing region to be ignored (the ATOMIC at innerreps 10
 * measured 1,131 us where EPCC measured 0.013). A schedbench instance is a
 * whole loop of iters_per_thread x threads delays (ms): one may suffice. */
#define CONSTRUCT_MIN_SYNC_INNERREPS 32L
#define CONSTRUCT_MIN_LOOP_INNERREPS 1L
/* More than this share of the repetitions preempted (the process's
 * involuntary context switches during the test): the median is one. */
#define CONSTRUCT_MAX_DISTURBED_SHARE 0.5

/* What a measured level is judged on. */
typedef struct ConstructEvidence {
    ConstructKind kind;
    long innerreps;
    const SampleStats *overhead;   /* per repetition, us, with its interval */
    long reps, disturbed_reps;     /* repetitions, and those whose test was preempted (-1: not known) */
    const char *busy;              /* the noise census's busy reason, or NULL when it found no busy machine */
    const char *shared_cpus;       /* level 2: which inner team's threads shared a CPU, or NULL */
} ConstructEvidence;

/* 0 when the level's overhead is the construct's; else 1 with one line in
 * `why` (the first rule broken: busy machine, inner threads on one CPU,
 * innerreps below its kind's minimum, repetitions preempted, no interval,
 * an interval containing 0). */
int construct_unresolved(const ConstructEvidence *e, char *why, size_t size);

/* Per repetition r: (test_seconds[r] - reference_seconds[r]) / innerreps,
 * in microseconds, into overhead_us[r]. The reference is the same
 * innerreps instances' delays run by one thread, timed beside the test. */
void construct_overheads(const double *test_seconds, const double *reference_seconds, long reps, long innerreps,
                         double *overhead_us);

/* Level 2 over level 1 (the same inner team size): NAN unless both are
 * finite and above 0 (a ratio of a figure lost in the noise says nothing). */
double construct_ratio(double level2_us, double level1_us);

/* EPCC's innerreps calibration step: the next count to try after a test
 * of `innerreps` instances took `seconds`, aiming at `target_us`; 0 once
 * it is reached. Doubles, as EPCC's getinnerreps does. */
long construct_next_innerreps(long innerreps, double seconds, double target_us);

/* Rounded up to a multiple of `threads`: CRITICAL, LOCK and ATOMIC run
 * innerreps / threads instances per thread (EPCC's), so that every thread
 * runs the same number and the instances total exactly innerreps. */
long construct_round_innerreps(long innerreps, int threads);

#endif
