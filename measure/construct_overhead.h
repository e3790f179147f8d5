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
 * involuntary context switches during the test), or begun with two team
 * threads on one CPU: the median is such a one. */
#define CONSTRUCT_MAX_DISTURBED_SHARE 0.5

/* What a measured level is judged on. */
typedef struct ConstructEvidence {
    ConstructKind kind;
    long innerreps;
    const SampleStats *overhead;   /* per repetition, us, with its interval */
    long reps, disturbed_reps;     /* repetitions, and those whose test was preempted (-1: not known) */
    const char *busy;              /* the noise census's busy reason, or NULL when it found no busy machine */
    const char *shared_cpus;       /* level 2: which inner team's threads shared a CPU, or NULL */
    long shared_cpu_reps;          /* level 1: repetitions whose test began with two team threads on one CPU
                                    * (-1: not watched, the team larger than the CPUs) */
} ConstructEvidence;

/* 0 when the level's overhead is the construct's; else 1 with one line in
 * `why` (the first rule broken: more than CONSTRUCT_MAX_DISTURBED_SHARE of
 * the repetitions began with two team threads on one CPU, busy machine,
 * inner threads on one CPU, innerreps below its kind's minimum,
 * repetitions preempted, no interval, an interval containing 0). */
int construct_unresolved(const ConstructEvidence *e, char *why, size_t size);

/* 1 when two of the n CPU numbers are the same (a negative one, unknown,
 * matches nothing): two team threads running on one CPU take turns on it,
 * and a construct timed so costs what sharing a CPU costs. */
int team_shares_cpu(const int *cpu, int n);

/* Per repetition r: (test_seconds[r] - reference_seconds[r]) / innerreps,
 * in microseconds, into overhead_us[r]. The reference is the same
 * innerreps instances' delays run by one thread, timed beside the test. */
void construct_overheads(const double *test_seconds, const double *reference_seconds, long reps, long innerreps,
                         double *overhead_us);

/* Level 2 over level 1 (the same inner team size): NAN unless both are
 * finite and above 0 (a ratio of a figure lost in the noise says nothing). */
double construct_ratio(double level2_us, double level1_us);

/* EPCC's getinnerreps (common.c, v3.1 and 4.0): from `first` instances,
 * doubled until one test lasts `target_us`, every count rounded up to a
 * multiple of `multiple` (construct_round_innerreps; 1: as is) to be timed
 * (EPCC's own counts, 10 x 2^k, once they are multiples). Its loop doubles
 * the count once more after the test that reached the target, so the count
 * it returns - and this - is twice that one: EPCC's timed tests last 2 to
 * 4 target times, not 1 to 2. That is more than run time where a test has
 * a cost of its own: libgomp runs a new task at once, undeferred, while
 * more than 64 per thread are queued, so a task row that generates faster
 * than it runs queues (dearly) the first 64 x threads tasks of each test
 * and runs the rest at once; half the instances, twice that share (LEAF
 * TASK TREE 0.048-0.057 us a delay at clomp's old 8192 instances, 0.027-0.029
 * at 16384, EPCC 0.032-0.048 at its 10240-20480: docs/constructs.md).
 * `seconds_of` times a test of that many instances (the fastest of a few
 * timings); a count that reaches CONSTRUCT_MAX_INNERREPS without the
 * target (a clock that does not advance) is returned as it is. */
long construct_calibrate_innerreps(long first, int multiple, double target_us,
                                   double (*seconds_of)(long innerreps, void *context), void *context);

/* Rounded up to a multiple of `threads`: CRITICAL, LOCK and ATOMIC run
 * innerreps / threads instances per thread (EPCC's), so that every thread
 * runs the same number and the instances total exactly innerreps. */
long construct_round_innerreps(long innerreps, int threads);

#endif
