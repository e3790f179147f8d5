/* The benchmark's clock: monotonic, so NTP steps never land inside a timing. */
#ifndef CLOMP_CLOCK_H
#define CLOMP_CLOCK_H

#include <stddef.h>
#include <time.h>

#include "process_cost.h"

static inline double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Local time of day as CLOMP 1.2 prints it ("Sun Nov 22 05:30:03 2026"). */
static inline void wall_time_text(char *buf, size_t size)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(buf, size, "%a %b %e %H:%M:%S %Y", &tm);
}

/* The process's CPU cost (process_cost.c): marks the start of its wall
 * time (call first thing in main). */
void process_cost_start(void);

/* The cost so far (getrusage RUSAGE_SELF). */
ProcessCost process_cost_now(void);

#endif
