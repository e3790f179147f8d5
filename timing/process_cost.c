#include "clock.h"

#include <string.h>
#include <sys/resource.h>

static double started_at = -1.0;

void process_cost_start(void)
{
    started_at = now_seconds();
}

static double timeval_seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

ProcessCost process_cost_now(void)
{
    ProcessCost c;
    struct rusage usage;
    memset(&c, 0, sizeof c);
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return c;
    c.measured = 1;
    c.user_seconds = timeval_seconds(usage.ru_utime);
    c.system_seconds = timeval_seconds(usage.ru_stime);
    c.wall_seconds = started_at >= 0.0 ? now_seconds() - started_at : 0.0;
    return c;
}
