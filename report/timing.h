/* The benchmark's clock: monotonic, so NTP steps never land inside a timing. */
#ifndef CLOMP_TIMING_H
#define CLOMP_TIMING_H

#include <time.h>

static inline double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
