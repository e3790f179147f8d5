#include "replication.h"

#include <math.h>
#include <string.h>

#include "planning.h"
#include "signed_rank.h"
#include "statistics.h"

/* A normal distribution's MAD is 0.6745 sd: 1 / 0.6745 = 1.4826. */
#define MAD_TO_SD 1.482602218505602
/* Above this many processes the plan uses the large-sample width
 * z x sqrt(pi / 2) x scale / sqrt(n) (within 1% there) instead of scanning
 * every n's exact ranks. */
#define EXACT_SCAN_LIMIT 3000L

double robust_scale(const double *values, long n)
{
    if (n < 2)
        return 0.0;
    double mad = mad_of(values, n);
    if (isnan(mad))
        return NAN;
    if (mad > 0.0)
        return MAD_TO_SD * mad;
    /* More than half the values equal: the MAD says nothing of the rest. */
    SampleStats s = summarize_samples(values, n, CLOMP_CI_LEVEL);
    return s.sd;
}

double expected_median_half_width(long n, double scale, double level)
{
    long lo, hi;
    double coverage;
    if (median_ci_ranks(n, level, &lo, &hi, &coverage) != 0)
        return NAN;
    /* Blom: E[x(k)] of n standard normals is close to Phi^-1((k - 0.375) / (n + 0.25))
     * (1.2816 for the largest of 6, against the exact 1.2672); the interval is
     * symmetric about the median, so its half-width is the upper end's distance. */
    return scale * signed_rank_normal_quantile(((double)hi - 0.375) / ((double)n + 0.25));
}

/* The fewest n >= fewest whose expected half-width is <= wanted (scale > 0, wanted > 0). */
static long processes_needed(long fewest, double scale, double wanted, double level)
{
    double z = signed_rank_normal_quantile(0.5 + 0.5 * level);
    double rough = z * sqrt(2.0 * atan(1.0)) * scale / wanted;   /* sqrt(pi / 2): the median's efficiency */
    if (rough * rough > (double)EXACT_SCAN_LIMIT)
        return rough * rough > 1e9 ? 1000000000L : (long)ceil(rough * rough);
    /* The exact count is within a few % of rough^2 here, so twice the limit always finds it. */
    for (long n = fewest; n <= 2 * EXACT_SCAN_LIMIT; n++)
        if (expected_median_half_width(n, scale, level) <= wanted)
            return n;
    return (long)ceil(rough * rough);
}

double small_sample_mad_factor(long n)
{
    /* Croux and Rousseeuw (1992): 1.4826 x MAD is unbiased for a normal's sd
     * only for large n; below 10 their tabulated factors, above n / (n - 0.8). */
    static const double table[] = {NAN, NAN, 1.196, 1.495, 1.363, 1.206, 1.200, 1.140, 1.129, 1.107};
    if (n < 2)
        return NAN;
    return n < 10 ? table[n] : (double)n / ((double)n - 0.8);
}

int plan_from_pilot(const double *pilot, long n, double pct, double floor_width, long cap, double level,
                    PilotPlan *out)
{
    if (pilot == NULL || out == NULL || n < 1 || !(pct > 0.0) || cap < 1 || !(level > 0.0 && level < 1.0))
        return -1;
    memset(out, 0, sizeof *out);
    out->pilot_n = n;
    out->median = median_of(pilot, n);
    out->scale = robust_scale(pilot, n);
    if (isnan(out->median) || isnan(out->scale))
        return -1;
    /* The plan takes the spread's 80% upper confidence bound (of the MAD's
     * scale made unbiased for n: a pilot's spread is low about half the
     * time, and a plan on it then falls short), as a standard deviation's
     * with n - 1 degrees of freedom (timing/planning.h). */
    out->planning_scale = n >= 2 && out->scale > 0.0
                              ? sd_upper_bound(out->scale * small_sample_mad_factor(n), n, PLANNING_CONFIDENCE)
                              : out->scale;
    out->wanted = fabs(out->median) * pct / 100.0;
    if (floor_width > 0.0 && floor_width < out->wanted)
        out->wanted = floor_width;
    long lo, hi;
    double coverage;
    out->fewest = 2;
    while (median_ci_ranks(out->fewest, level, &lo, &hi, &coverage) != 0)
        out->fewest++;
    if (out->scale == 0.0)
        out->needed = out->fewest;
    else if (out->wanted > 0.0)
        out->needed = processes_needed(out->fewest, out->planning_scale, out->wanted, level);
    else
        out->needed = -1;
    long least = out->fewest < cap ? out->fewest : cap;
    out->processes = out->needed < 0 || out->needed > cap ? cap : out->needed;
    if (out->processes < least)
        out->processes = least;
    out->expected_half_width = expected_median_half_width(out->processes, out->planning_scale, level);
    out->reachable = out->expected_half_width <= out->wanted;
    return 0;
}
