#include "construct_overhead.h"

#include <math.h>

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

long construct_next_innerreps(long innerreps, double seconds, double target_us)
{
    if (seconds * 1e6 >= target_us || innerreps >= CONSTRUCT_MAX_INNERREPS)
        return 0;
    return innerreps * 2;
}

long construct_round_innerreps(long innerreps, int threads)
{
    if (threads < 1)
        return innerreps;
    return (innerreps + threads - 1) / threads * threads;
}
