/* The clock the cores had (issue 31, item 4): on each thread of the team, a
 * dependent chain of integer additions (one cycle each on every core clomp
 * targets) timed against the monotonic clock (the TSC through the vDSO on
 * x86 Linux): additions per nanosecond are the core's GHz, lmbench's
 * method. And, where the kernel allows perf_event_open, the thread's own
 * cycles and ref-cycles over the same chain. A few milliseconds, outside
 * every timed region. */
#ifndef CLOMP_CORE_CLOCK_H
#define CLOMP_CORE_CLOCK_H

#include "cycle_rate.h"   /* CoreClockSample */

/* Additions in one timed chain, and repeats per thread (the fastest counts:
 * an interrupted repeat only looks slower). */
#define CORE_CLOCK_ADDS 200000L
#define CORE_CLOCK_REPEATS 15

/* Measures on `threads` threads (an OpenMP region of that many); 0, or -1 when no thread measured. */
int measure_core_clock(CoreClockSample *s, int threads);

/* The clock of the calling thread alone (one chain; for tests): GHz. */
double core_clock_one_thread(void);

#endif
