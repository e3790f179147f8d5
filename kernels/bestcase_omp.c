/* Bestcase OMP: each thread updates only its own parts with a fixed deposit,
 * never synchronising, then the serial calc_deposit() calls are added. No
 * schedule can beat it; its results are wrong by design and not checked. */
#include <assert.h>

#include "deposit.h"
#include "schedule.h"
#include "slice.h"
#include "update_part.h"

/* Chunk c of the parallel part ends when the last thread finishes it:
 * threads never wait for each other here, so each notes its own times and
 * the chunk's time is measured between the latest ones. The serial
 * calc_deposit() calls of each chunk are timed after the region and added. */
static void time_chunks(Problem *pb, ChunkTimer *timer, const double *finished, int nthreads, double start,
                        double joined)
{
    double previous = start;
    for (long c = 0; c < timer->count; c++) {
        double latest = previous;
        for (int t = 0; t < nthreads; t++)
            if (finished[(long)t * timer->count + c] > latest)
                latest = finished[(long)t * timer->count + c];
        if (c == timer->count - 1 && joined > latest)
            latest = joined;
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
    Part **parts = pb->mesh.partArray;
    long numParts = pb->mesh.shape.numParts, flopScale = pb->mesh.shape.flopScale;
    double deposit = (1.0 + pb->deposit.max_residue) / (double)numParts;
    int nthreads = pb->numThreads;
    double *finished = timer != NULL ? timer->thread_marks : NULL;

    assert(timer == NULL || finished != NULL);   /* the caller's part of the contract, see chunk_timer.h */
    double start = now_seconds();
#pragma omp parallel
    {
        long start_part, end_part, next = 0;
        int tid = omp_get_thread_num();
        claim_thread_slice(numParts, seen, &start_part, &end_part);
        for (long s = 0; s < subcycles; s++) {
            for (long p = start_part; p <= end_part; p++)
                update_part(parts[p], deposit, flopScale);
            if (timer != NULL && s + 1 == timer->end_subcycle[next] && tid < nthreads)
                finished[(long)tid * timer->count + next++] = now_seconds();
        }
    }
    if (timer == NULL) {
        run_fooled_calc_deposits(pb, subcycles);
        return;
    }
    time_chunks(pb, timer, finished, nthreads, start, now_seconds());
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

const Schedule schedule_bestcase_omp = {"Bestcase OMP", "bestcase", ROLE_BESTCASE, 1, 1, pseudocode, run};
