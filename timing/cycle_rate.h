/* A CPU cycle rate and what it converts: the data the reports read.
 * Calibrating one is timing/cycles.h. */
#ifndef CLOMP_CYCLE_RATE_H
#define CLOMP_CYCLE_RATE_H

typedef enum {
    CYCLES_UNAVAILABLE,   /* no usable counter and no --ghz */
    CYCLES_TSC,           /* x86 invariant time-stamp counter, calibrated at start */
    CYCLES_GIVEN          /* --ghz=F */
} CycleSource;

/* LLNL's targets are in core cycles. The TSC counts nominal cycles; the
 * cores run between core_min_ghz and core_max_ghz (cpufreq's limits, or an
 * assumed range when the kernel does not say), so a TSC count is a core
 * count only within that range. --ghz states the core clock itself. */
#define CORE_CLOCK_ASSUMED_LOW 0.5    /* x the TSC rate, when cpufreq does not say */
#define CORE_CLOCK_ASSUMED_HIGH 1.5

typedef struct CycleRate {
    CycleSource source;
    double ghz;           /* cycles per nanosecond; 0 when unavailable */
    char why[96];         /* for CYCLES_UNAVAILABLE: the reason */
    double core_min_ghz;  /* CYCLES_TSC: the range the cores' clock may take */
    double core_max_ghz;
    int core_range_known; /* 1: from cpufreq; 0: CORE_CLOCK_ASSUMED_* of the TSC rate */
} CycleRate;

/* Microseconds to cycles at `rate` (NAN when unavailable). */
double cycles_from_us(const CycleRate *rate, double us);

const char *cycle_source_text(const CycleRate *rate);

/* What the cycle figures count: "nominal TSC cycles", "core cycles
 * (--ghz)" or "no cycles". */
const char *cycle_clock_text(const CycleRate *rate);

#endif
