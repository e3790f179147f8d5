/* The manual partition of CLOMP 1.2: thread tid of nthreads owns the parts
 * [*start, *end]; an empty slice has *start > *end. */
#ifndef CLOMP_SLICE_H
#define CLOMP_SLICE_H

#include <math.h>

static inline void thread_slice(long numParts, int tid, int nthreads, long *start, long *end)
{
    double dparts = (double)numParts / (double)nthreads;
    if (dparts < 1.0)
        dparts = 1.0;
    *start = (long)nearbyint((double)tid * dparts);
    *end = (long)nearbyint((double)(tid + 1) * dparts) - 1;
    if (*end > numParts - 1)
        *end = numParts - 1;
}

#endif
