#include "construct_overhead.h"

#include <math.h>
#include <stdio.h>

/* A count no test reaches at any target time clomp accepts (10 s at a
 * nanosecond each): a clock that does not advance must not loop forever. */
#define CONSTRUCT_MAX_INNERREPS (1L << 34)

void construct_overheads(const double *test_seconds, const double *reference_seconds, long reps, long innerreps,
                         double *overhead_us)
{
    for (long r = 0; r < reps; r++)
        overhead_us[r] = (test_seconds[r] - reference_seconds[r]) * 1e6 / (double)innerreps;
}

double construct_ratio(double level2_us, double level1_us)
{
    if (!isfinite(level2_us) || !isfinite(level1_us) || level2_us <= 0.0 || level1_us <= 0.0)
        return NAN;
    return level2_us / level1_us;
}

long construct_round_innerreps(long innerreps, int threads)
{
    if (threads < 1)
        return innerreps;
    return (innerreps + threads - 1) / threads * threads;
}

long construct_calibrate_innerreps(long first, int multiple, double target_us,
                                   double (*seconds_of)(long innerreps, void *context), void *context)
{
    /* EPCC's counts (first x 2^k) are doubled; each is rounded only to be timed, so that from the
     * first that is a multiple on (640 for the task trees' 128) the counts are EPCC's own. */
    long count = first, timed = 0;
    for (;;) {
        long innerreps = construct_round_innerreps(count, multiple);
        if (innerreps != timed) {   /* 10, 20, 40 and 80 all round to 128: timed once */
            timed = innerreps;
            double seconds = seconds_of(innerreps, context);
            if (seconds * 1e6 >= target_us)
                return construct_round_innerreps(count * 2, multiple);   /* getinnerreps' last doubling */
        }
        if (innerreps >= CONSTRUCT_MAX_INNERREPS)
            return innerreps;   /* the cap, the target not reached */
        count *= 2;
    }
}

int construct_unresolved(const ConstructEvidence *e, char *why, size_t size)
{
    long least = e->kind == CONSTRUCT_LOOP ? CONSTRUCT_MIN_LOOP_INNERREPS : CONSTRUCT_MIN_SYNC_INNERREPS;
    const SampleStats *o = e->overhead;
    /* First: a team taking turns on one CPU is what the noise census then
     * counts as a team thread's time lost, and the more specific reason. */
    if (e->shared_cpu_reps > 0 && (double)e->shared_cpu_reps > CONSTRUCT_MAX_DISTURBED_SHARE * (double)e->reps)
        /* No comma in it: scripts split the CSV's problem column naively (tests/construct_calibration.t did). */
        snprintf(why, size, "%ld of %ld repetitions began with two team threads on one CPU (the other CPUs busy "
                 "or the threads placed so): not the construct's cost between CPUs", e->shared_cpu_reps, e->reps);
    else if (e->busy != NULL)
        snprintf(why, size, "the machine was busy (%s)", e->busy);   /* short: the table's Busy line has the whole reason */
    else if (e->shared_cpus != NULL)
        snprintf(why, size, "inner threads shared a CPU (%s): not the construct's cost between CPUs",
                 e->shared_cpus);
    else if (e->innerreps < least)
        snprintf(why, size, "innerreps %ld, below %ld: the target time was filled by too few instances "
                 "for the enclosing region's cost and stalls to be ignored", e->innerreps, least);
    else if (e->disturbed_reps >= 0 && (double)e->disturbed_reps > CONSTRUCT_MAX_DISTURBED_SHARE * (double)e->reps)
        snprintf(why, size, "%ld of %ld repetitions preempted (involuntary context switches): the median "
                 "is a preempted one", e->disturbed_reps, e->reps);
    else if (!o->has_ci)
        snprintf(why, size, "no 95%% interval from %ld repetitions (needs 6 or more)", o->n);
    else if (o->ci_low <= 0.0 && o->ci_high >= 0.0)
        snprintf(why, size, "its 95%% interval %.4g .. %.4g us contains 0: not told from no cost",
                 o->ci_low, o->ci_high);
    else if (o->ci_high < 0.0)
        snprintf(why, size, "faster than its reference beyond its 95%% interval (%.4g .. %.4g us): not a cost",
                 o->ci_low, o->ci_high);
    else
        return 0;
    return 1;
}

int team_shares_cpu(const int *cpu, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (cpu[i] >= 0 && cpu[i] == cpu[j])
                return 1;
    return 0;
}
