#include "owned_check.h"

#include <omp.h>

#include "slice.h"

static void check_parts(const ChunkTimer *t, long chunk, long first, long last)
{
    t->verify->check_parts(t->verify->context, chunk, first, last);
}

void verify_on_main(ChunkTimer *t, long chunk, long numParts)
{
    check_parts(t, chunk, 0, numParts - 1);
    t->verify->conclude(t->verify->context, chunk);
}

void verify_static_owners(ChunkTimer *t, long chunk, long numParts, int threads)
{
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long p = 0; p < numParts; p++)
        check_parts(t, chunk, p, p);
    t->verify->conclude(t->verify->context, chunk);
}

void verify_cyclic_owners(ChunkTimer *t, long chunk, long numParts, int threads)
{
#pragma omp parallel for schedule(static, 1) num_threads(threads)
    for (long p = 0; p < numParts; p++)
        check_parts(t, chunk, p, p);
    t->verify->conclude(t->verify->context, chunk);
}

void verify_slice_owners(ChunkTimer *t, long chunk, long numParts, int threads)
{
#pragma omp parallel num_threads(threads)
    {
        long start, end;
        claim_thread_slice(numParts, NULL, &start, &end);
        if (start <= end)
            check_parts(t, chunk, start, end);
    }
    t->verify->conclude(t->verify->context, chunk);
}

void verify_nested_owners(ChunkTimer *t, long chunk, long numParts, int outer, int inner)
{
#pragma omp parallel for schedule(static) num_threads(outer)
    for (int g = 0; g < outer; g++) {
        long first = numParts * g / outer, last = numParts * (g + 1) / outer;
#pragma omp parallel for schedule(static) num_threads(inner)
        for (long p = first; p < last; p++)
            check_parts(t, chunk, p, p);
    }
    t->verify->conclude(t->verify->context, chunk);
}
