/* The manual partition of CLOMP 1.2: thread tid of nthreads owns the parts
 * [*start, *end]; an empty slice has *start > *end. */
#ifndef CLOMP_SLICE_H
#define CLOMP_SLICE_H

#include <math.h>
#include <omp.h>

#include "problem.h"

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

/* Called by every thread of a region: its own slice, and in the observation
 * (seen != NULL) the team size and how many threads got no part. */
static inline void claim_thread_slice(long numParts, TeamObservation *seen, long *start, long *end)
{
    thread_slice(numParts, omp_get_thread_num(), omp_get_num_threads(), start, end);
    if (seen != NULL) {
#pragma omp atomic
        seen->idle_threads += *start > *end;
        if (omp_get_thread_num() == 0)
            seen->threads = omp_get_num_threads();
    }
}

#endif
