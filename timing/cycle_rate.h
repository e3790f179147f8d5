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
 * cores run between core_min_ghz and core_max_ghz: the clock measured on
 * every thread of the team before and after the timed runs (the lowest and
 * highest of both samples: timing/core_clock.h), or
 * cpufreq's limits until it is measured, so a TSC count is a core count
 * only within that range. Nothing is assumed: with neither, the core
 * cycles (and the verdicts on them) are unavailable. --ghz states the core
 * clock itself. */
typedef enum {
    CORE_RANGE_UNKNOWN,   /* neither measured nor cpufreq */
    CORE_RANGE_CPUFREQ,   /* cpufreq's cpuinfo_min_freq .. cpuinfo_max_freq */
    CORE_RANGE_MEASURED   /* the team's clock, measured (min .. max over the threads) */
} CoreRangeSource;

/* The team's core clock as measured (timing/core_clock.h measures it). */
#define CORE_CLOCK_MAX_THREADS 256

typedef struct CoreClockSample {
    int measured;              /* 0: not taken (or no thread measured) */
    int threads;               /* ghz[0..threads-1] */
    double ghz[CORE_CLOCK_MAX_THREADS];   /* per thread: the fastest of its repeats (additions per ns) */
    double min_ghz, max_ghz, median_ghz;  /* over the threads */
    double seconds;            /* wall time the measurement took */
    int perf;                  /* 1: perf_event_open counted cycles and ref-cycles on every thread */
    char perf_why[96];         /* perf 0: why not */
    double perf_ratio_min, perf_ratio_max;   /* cycles / ref-cycles over the chain, over the threads */
} CoreClockSample;

typedef struct CycleRate {
    CycleSource source;
    double ghz;           /* cycles per nanosecond; 0 when unavailable */
    char why[96];         /* for CYCLES_UNAVAILABLE: the reason */
    double core_min_ghz;  /* CYCLES_TSC: the range the cores' clock may take */
    double core_max_ghz;
    CoreRangeSource core_range_known;   /* where core_min_ghz .. core_max_ghz come from */
    CoreClockSample clock_before;       /* the team's clock right before the timed runs (the range above, */
                                        /* widened by clock_after once the runs are done) */
    CoreClockSample clock_after;        /* ... right after them (and before the construct table) */
} CycleRate;

/* Microseconds to cycles at `rate` (NAN when unavailable). */
double cycles_from_us(const CycleRate *rate, double us);

const char *cycle_source_text(const CycleRate *rate);

/* The core clock range from the team's measured clock (timing/cycles.c;
 * TSC rates only): the verdicts count core cycles over min..max. */
void use_measured_core_clock(CycleRate *rate, double min_ghz, double max_ghz);

/* After the timed runs: the range widened to hold the clock measured after
 * them too (rate->clock_after), so the verdicts cover both samples; taken
 * alone when the one before was not measured. TSC rates only. */
void widen_core_clock_range(CycleRate *rate);

/* "measured", "cpufreq" or "unknown". */
const char *core_range_source_text(const CycleRate *rate);

/* What the cycle figures count: "nominal TSC cycles", "core cycles
 * (--ghz)" or "no cycles". */
const char *cycle_clock_text(const CycleRate *rate);

#endif
