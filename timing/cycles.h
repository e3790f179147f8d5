/* CPU cycles for LLNL's targets (barrier < 200 cycles, parallel for < 500
 * cycles): a rate calibrated against the monotonic clock, or given. */
#ifndef CLOMP_CYCLES_H
#define CLOMP_CYCLES_H

typedef enum {
    CYCLES_UNAVAILABLE,   /* no usable counter and no --ghz */
    CYCLES_TSC,           /* x86 invariant time-stamp counter, calibrated at start */
    CYCLES_GIVEN          /* --ghz=F */
} CycleSource;

typedef struct CycleRate {
    CycleSource source;
    double ghz;           /* cycles per nanosecond; 0 when unavailable */
    char why[96];         /* for CYCLES_UNAVAILABLE: the reason */
} CycleRate;

/* given_ghz > 0 wins; otherwise calibrates the invariant TSC for ~20 ms. */
CycleRate calibrate_cycle_rate(double given_ghz);

/* Microseconds to cycles at `rate` (NAN when unavailable). */
double cycles_from_us(const CycleRate *rate, double us);

const char *cycle_source_text(const CycleRate *rate);

#endif
