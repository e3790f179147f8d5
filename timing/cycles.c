#include "cycles.h"

#include "core_clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>

/* Only an invariant TSC ticks at one rate whatever the core's clock and
 * sleep states do; any other TSC cannot be turned into time. */
static int tsc_is_invariant(void)
{
    unsigned int eax, ebx, ecx, edx;
    if (__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) == 0 || eax < 0x80000007u)
        return 0;
    __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
    return (int)((edx >> 8) & 1u);
}

static int calibrate_tsc(double *ghz)
{
    if (!tsc_is_invariant())
        return -1;
    /* Spin rather than sleep: the rate is the same, and no descheduling
     * stretches one side of the comparison. */
    double t0 = now_seconds();
    unsigned long long c0 = __rdtsc();
    double t1;
    do
        t1 = now_seconds();
    while (t1 - t0 < 0.02);
    unsigned long long c1 = __rdtsc();
    *ghz = (double)(c1 - c0) / ((t1 - t0) * 1e9);
    return *ghz > 0.0 ? 0 : -1;
}
#define COUNTER_MISSING "the TSC is not invariant (give --ghz=F)"
#else
static int calibrate_tsc(double *ghz)
{
    (void)ghz;
    return -1;
}
#define COUNTER_MISSING "no cycle counter on this architecture (give --ghz=F)"
#endif

/* cpufreq's limit in GHz (cpuinfo_min_freq / cpuinfo_max_freq, in kHz), or 0. */
static double cpufreq_ghz(const char *which)
{
    char path[128];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cpufreq/%s", which);
    FILE *f = fopen(path, "r");
    char text[32], *end;
    if (f == NULL)
        return 0.0;
    int ok = fgets(text, sizeof text, f) != NULL;
    fclose(f);
    double khz = ok ? strtod(text, &end) : 0.0;
    return ok && end != text && khz > 0.0 ? khz * 1e-6 : 0.0;
}

static void core_clock_range(CycleRate *rate)
{
    rate->core_min_ghz = cpufreq_ghz("cpuinfo_min_freq");
    rate->core_max_ghz = cpufreq_ghz("cpuinfo_max_freq");
    rate->core_range_known = rate->core_min_ghz > 0.0 && rate->core_max_ghz >= rate->core_min_ghz
                                 ? CORE_RANGE_CPUFREQ : CORE_RANGE_UNKNOWN;
    if (rate->core_range_known == CORE_RANGE_UNKNOWN)
        rate->core_min_ghz = rate->core_max_ghz = 0.0;
}

void use_measured_core_clock(CycleRate *rate, double min_ghz, double max_ghz)
{
    if (rate->source != CYCLES_TSC || !(min_ghz > 0.0) || !(max_ghz >= min_ghz))
        return;
    rate->core_min_ghz = min_ghz;
    rate->core_max_ghz = max_ghz;
    rate->core_range_known = CORE_RANGE_MEASURED;
}

void widen_core_clock_range(CycleRate *rate)
{
    const CoreClockSample *after = &rate->clock_after;
    if (rate->source != CYCLES_TSC || !after->measured || !(after->min_ghz > 0.0) || !(after->max_ghz >= after->min_ghz))
        return;
    if (rate->core_range_known != CORE_RANGE_MEASURED) {
        use_measured_core_clock(rate, after->min_ghz, after->max_ghz);
        return;
    }
    /* The runs lie between the two samples: the cores may have had any clock either saw. */
    rate->core_min_ghz = fmin(rate->core_min_ghz, after->min_ghz);
    rate->core_max_ghz = fmax(rate->core_max_ghz, after->max_ghz);
}

const char *core_range_source_text(const CycleRate *rate)
{
    return rate->core_range_known == CORE_RANGE_MEASURED ? "measured"
           : rate->core_range_known == CORE_RANGE_CPUFREQ ? "cpufreq" : "unknown";
}

/* threads > 0: the team's core clock is measured too (timing/core_clock.h),
 * before the timed runs, and the verdicts count core cycles over its range. */
CycleRate calibrate_cycle_rate(double given_ghz, int threads)
{
    CycleRate rate;
    memset(&rate, 0, sizeof rate);
    if (given_ghz > 0.0) {
        rate.source = CYCLES_GIVEN;
        rate.ghz = given_ghz;
    } else if (calibrate_tsc(&rate.ghz) == 0) {
        rate.source = CYCLES_TSC;
        core_clock_range(&rate);
    } else {
        rate.source = CYCLES_UNAVAILABLE;
        rate.ghz = 0.0;
        snprintf(rate.why, sizeof rate.why, "%s", COUNTER_MISSING);
    }
    if (threads > 0 && measure_core_clock(&rate.clock_before, threads) == 0)
        use_measured_core_clock(&rate, rate.clock_before.min_ghz, rate.clock_before.max_ghz);
    return rate;
}

double cycles_from_us(const CycleRate *rate, double us)
{
    return rate->source == CYCLES_UNAVAILABLE ? NAN : us * 1e3 * rate->ghz;
}

const char *cycle_clock_text(const CycleRate *rate)
{
    return rate->source == CYCLES_TSC ? "nominal TSC cycles" : rate->source == CYCLES_GIVEN ? "core cycles (--ghz)" : "no cycles";
}

const char *cycle_source_text(const CycleRate *rate)
{
    switch (rate->source) {
    case CYCLES_TSC:
        return "invariant TSC calibrated against CLOCK_MONOTONIC: nominal cycles; under turbo the cores run more";
    case CYCLES_GIVEN:
        return "--ghz";
    default:
        return "unavailable";
    }
}
