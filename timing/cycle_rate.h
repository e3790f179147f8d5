/* A CPU cycle rate and what it converts: the data the reports read.
 * Calibrating one is timing/cycles.h. */
#ifndef CLOMP_CYCLE_RATE_H
#define CLOMP_CYCLE_RATE_H

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

/* Microseconds to cycles at `rate` (NAN when unavailable). */
double cycles_from_us(const CycleRate *rate, double us);

const char *cycle_source_text(const CycleRate *rate);

#endif
