/* The construct table's shape (construct_shape.h): each row's parameter
 * values and level 2's OUTER x INNER, with where its inner threads ran. */
#define _GNU_SOURCE   /* sched_getcpu */
#include "construct_shape.h"

#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void observe_level2_team(ConstructTable *t)
{
    TeamObservation *seen = &t->level2_team;
    long slots = (long)t->outer * t->inner;
    seen->nested = 1;
    seen->cpu_slots = slots < TEAM_MAX_CPU_SLOTS ? (int)slots : TEAM_MAX_CPU_SLOTS;
    for (int i = 0; i < seen->cpu_slots; i++)
        seen->cpu[i] = -1;
    int inner = t->inner, min = inner, max = 0, total = 0, outer_seen = 0;
#pragma omp parallel num_threads(t->outer) reduction(min : min) reduction(max : max, outer_seen) reduction(+ : total)
    {
        int k = omp_get_thread_num();
        outer_seen = omp_get_num_threads();
#pragma omp parallel num_threads(inner)
        {
            long slot = (long)k * inner + omp_get_thread_num();
            if (slot < seen->cpu_slots)
                seen->cpu[slot] = sched_getcpu();
            if (omp_get_thread_num() == 0) {
                min = omp_get_num_threads();
                max = min;
                total = min;
            }
        }
    }
    seen->threads = outer_seen;
    seen->inner_min = min;
    seen->inner_max = max;
    seen->inner_total = total;
}

/* The chunk sizes of a row: one (0) without a chunk; the list given; or
 * schedbench's powers of two up to iters_per_thread (GUIDED and TASKLOOP:
 * up to iters_per_thread / threads, as schedbench). An array row's sizes:
 * --construct-sizes, or arraybench's 1, 3, 9, ... 59049. */
int construct_row_params(const RunSetup *run, const Construct *c, long *chunks)
{
    if (!c->takes_chunk) {
        chunks[0] = 0;
        return 1;
    }
    if (c->takes_chunk == CONSTRUCT_SIZE) {
        memcpy(chunks, run->constructs.sizes, (size_t)run->constructs.size_count * sizeof *chunks);
        return run->constructs.size_count;
    }
    if (c->kind == CONSTRUCT_TARGET && run->constructs.chunk_count == 0) {   /* map rows: bytes, 8 B .. 2 MiB */
        int n = 0;
        for (long bytes = 8; bytes <= 2L * 1024 * 1024 && n < CONSTRUCT_MAX_CHUNKS; bytes *= 8)
            chunks[n++] = bytes;
        return n;
    }
    if (run->constructs.chunk_count > 0) {
        memcpy(chunks, run->constructs.chunks, (size_t)run->constructs.chunk_count * sizeof *chunks);
        return run->constructs.chunk_count;
    }
    long largest = run->constructs.iters_per_thread;
    if (c->chunk_share)
        largest = run->numThreads > 1 ? largest / run->numThreads : largest;
    int n = 0;
    for (long k = 1; k <= largest && n < CONSTRUCT_MAX_CHUNKS; k *= 2)
        chunks[n++] = k;
    return n;
}

void set_construct_shape(const RunSetup *run, ConstructTable *t)
{
    t->iters_per_thread = run->constructs.iters_per_thread;
    t->wait_policy = getenv("OMP_WAIT_POLICY");
    t->cpus = omp_get_num_procs();
    if (run->nested_unavailable[0] != '\0' || run->nestedOuter < 2 || run->nestedInner < 2) {
        if (run->nested_unavailable[0] != '\0')
            snprintf(t->level2_unavailable, sizeof t->level2_unavailable, "%s", run->nested_unavailable);
        else
            snprintf(t->level2_unavailable, sizeof t->level2_unavailable, "needs at least 2x2 threads, not %dx%d",
                     run->nestedOuter, run->nestedInner);
        return;
    }
    t->outer = run->nestedOuter;
    t->inner = run->nestedInner;
    t->oversubscribed = (long)t->outer * t->inner > t->cpus;
}
