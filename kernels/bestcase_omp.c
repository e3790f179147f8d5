/* Bestcase OMP: each thread updates only its own parts with a fixed deposit,
 * never synchronising, then the serial calc_deposit() calls are added. No
 * schedule can beat it; its results are wrong by design and not checked. */
#include <assert.h>

#include "cycle.h"
#include "deposit.h"
#include "chunk_timer.h"
#include "schedule.h"
#include "slice.h"
#include "update_part.h"

#define BESTCASE_SUBCYCLE(k)                                                            \
    {                                                                                   \
        Part **parts = pb->mesh.partArray;                                              \
        long flopScale = pb->mesh.shape.flopScale;                                      \
        for (long p = start; p <= end; p++)                                             \
            update_part(parts[p], deposit, flopScale);                                  \
    }

CLOMP_MODULES(bestcase, (const Problem *pb, long it, long start, long end, double deposit),
              (pb, it, start, end, deposit), BESTCASE_SUBCYCLE)

/* Chunk c of the parallel part ends when the last thread finishes it:
 * threads never wait for each other here, so each notes its own times and
 * the chunk's time is measured between the latest ones. Thread 0's marks
 * leave out the time it spent reading the census (census_seconds in all),
 * so it really finished the last chunk census_seconds after its last mark;
 * the region's join is what follows the last thread's real finish, and the
 * last chunk gets that much on top of its latest mark, as the join it would
 * have had without the census - never the census reads themselves, which
 * would otherwise all land in the last chunk and grow with the number of
 * chunks. The serial calc_deposit() calls of each chunk are timed after the
 * region and added. */
static void time_chunks(Problem *pb, ChunkTimer *timer, const double *finished, int nthreads, double start,
                        double joined, double census_seconds)
{
    double previous = start;
    long last = timer->count - 1;
    double last_real = finished[last] + census_seconds;   /* thread 0's real finish */
    for (int t = 1; t < nthreads; t++)
        if (finished[(long)t * timer->count + last] > last_real)
            last_real = finished[(long)t * timer->count + last];
    for (long c = 0; c < timer->count; c++) {
        double latest = previous;
        for (int t = 0; t < nthreads; t++)
            if (finished[(long)t * timer->count + c] > latest)
                latest = finished[(long)t * timer->count + c];
        if (c == last && joined > last_real)
            latest += joined - last_real;
        timer->seconds[c] = latest - previous;
        previous = latest;
    }
    for (long c = 0; c < timer->count; c++) {
        double t0 = now_seconds();
        run_fooled_calc_deposits(pb, timer->end_subcycle[c] - (c > 0 ? timer->end_subcycle[c - 1] : 0));
        timer->seconds[c] += now_seconds() - t0;
    }
}

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    double deposit = (1.0 + pb->deposit.max_residue) / (double)pb->mesh.shape.numParts;
    int nthreads = pb->numThreads;
    long chunks = chunk_count(timer);
    double *finished = timer != NULL ? timer->thread_marks : NULL;
    /* The noise census reads at Bestcase's chunk boundaries as at every
     * other schedule's (chunk_timer.h): thread 0 reads at its own, and the
     * time it spends reading is left out of its chunk ends. */
    const ChunkSampler *census = timer != NULL ? timer->sampler : NULL;

    assert(timer == NULL || finished != NULL);   /* the caller's part of the contract, see chunk_timer.h */
    if (census != NULL)
        census->sample(census->context, 0);
    double census_seconds = 0.0;   /* thread 0's, in all: written by it before the join */
    double start = now_seconds();
#pragma omp parallel
    {
        long first, last;
        int tid = omp_get_thread_num();
        double census_time = 0.0;   /* thread 0: spent reading the census so far */
        claim_thread_slice(pb->mesh.shape.numParts, seen, &first, &last);
        for (long c = 0, it = 0; c < chunks; c++) {
            for (long end = chunk_end_iteration(timer, c, subcycles); it < end; it++)
                bestcase_cycle(pb, it, first, last, deposit);
            if (timer != NULL && tid < nthreads) {
                double now = now_seconds();
                finished[(long)tid * chunks + c] = now - census_time;
                if (tid == 0 && census != NULL && c + 1 < chunks) {
                    census->sample(census->context, 1);
                    census->sample(census->context, 0);
                    census_time += now_seconds() - now;
                }
            }
        }
        if (tid == 0)
            census_seconds = census_time;
    }
    if (timer == NULL) {
        run_fooled_calc_deposits(pb, subcycles);
        return;
    }
    double joined = now_seconds();
    if (census != NULL)
        census->sample(census->context, 1);
    time_chunks(pb, timer, finished, nthreads, start, joined, census_seconds);
}

static const char *const pseudocode[] = {
    "------ Start Bestcase OMP Pseudocode ------",
    "/* Ideal: no synchronisation, each thread updates only its own parts */",
    "#pragma omp parallel",
    "{",
    "  /* startPidx..endPidx: this thread's slice of the parts */",
    "  for (subcycle = 0; subcycle lt num_iterations*10; subcycle++)",
    "    for (pidx = startPidx; pidx lte endPidx; pidx++)",
    "      update_part (partArray[pidx], (1 + max_residue)/numParts);",
    "}",
    "/* then the serial calc_deposit () calls, num_iterations*10 of them */",
    "------- End Bestcase OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_bestcase_omp = {"Bestcase OMP", "bestcase", ROLE_BESTCASE, 1, 1, pseudocode, run, NULL, 0, 0, 0, 0};
