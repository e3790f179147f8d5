/* The clock the cores had (issue 31, item 4): on each thread of the team, a
 * dependent chain of integer additions (one cycle each on every core clomp
 * targets) timed against the monotonic clock (the TSC through the vDSO on
 * x86 Linux): additions per nanosecond are the core's GHz, lmbench's
 * method. And, where the kernel allows perf_event_open, the thread's own
 * cycles and ref-cycles over the same chain. A few milliseconds, outside
 * every timed region. */
#ifndef CLOMP_CORE_CLOCK_H
#define CLOMP_CORE_CLOCK_H

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

/* Additions in one timed chain, and repeats per thread (the fastest counts:
 * an interrupted repeat only looks slower). */
#define CORE_CLOCK_ADDS 200000L
#define CORE_CLOCK_REPEATS 15

/* Measures on `threads` threads (an OpenMP region of that many). */
void measure_core_clock(CoreClockSample *s, int threads);

/* The clock of the calling thread alone (one chain; for tests): GHz. */
double core_clock_one_thread(void);

#endif
