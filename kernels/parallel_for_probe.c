/* Parallel For: the overhead of one `parallel for`, by EPCC's method (the
 * syncbench PARALLEL FOR test): a short delay executed once by every
 * thread inside a parallel for, minus the same delay executed once by one
 * thread, serially. The difference is what the construct itself costs -
 * fork, work distribution, join - with no mesh traffic and no load
 * imbalance from the kernel in it: the quantity LLNL's 500-cycle target is
 * about. Static OMP minus Bestcase OMP, CLOMP's own overhead figure, also
 * carries calc_deposit's serial read of part 0 and the moving of the parts
 * between caches. Not in CLOMP 1.2: it runs after OMP Parallel, and its
 * summary column comes after 1.2's. */
#include <omp.h>

#include "chunk_timer.h"
#include "delay.h"
#include "schedule.h"

/* One iteration: a parallel for per subcycle, each thread running the
 * delay (delay.h: `length` additions, calibrated at start) once. The
 * observation's team check is one predictable branch. */
static void parallel_fors(int nthreads, int length, TeamObservation *seen)
{
    for (int s = 0; s < SUBCYCLES_PER_ITERATION; s++) {
#pragma omp parallel for schedule(static)
        for (int i = 0; i < nthreads; i++) {
            if (seen != NULL && i == 0)
                seen->threads = omp_get_num_threads();
            clomp_delay(length);
        }
    }
}

/* The reference: the same delays, one per subcycle, serially. */
static void serial_delays(int length)
{
    for (int s = 0; s < SUBCYCLES_PER_ITERATION; s++)
        clomp_delay(length);
}

/* Each chunk's time is its parallel for's minus its reference's, both
 * over the chunk's iterations, measured back to back. */
static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    int nthreads = pb->numThreads, length = pb->delay_length;
    for (long c = 0, it = 0; c < chunk_count(timer); c++) {
        long first = it, end = chunk_end_iteration(timer, c, subcycles);
        double start = now_seconds();
        for (; it < end; it++)
            parallel_fors(nthreads, length, seen);
        double tested = now_seconds();
        for (long r = first; r < end; r++)
            serial_delays(length);
        if (timer != NULL)
            timer->seconds[c] = (tested - start) - (now_seconds() - tested);
    }
}

static const char *const pseudocode[] = {
    "------ Start Parallel For Pseudocode ------",
    "/* EPCC's PARALLEL FOR overhead (clomp): a delay in a parallel for, */",
    "/* minus the same delay run serially; us/Loop is per parallel for  */",
    "for (subcycle = 0; subcycle lt num_iterations*10; subcycle++)",
    "  #pragma omp parallel for schedule(static)",
    "  for (i = 0; i lt numThreads; i++)",
    "    delay (L);   /* L dependent float additions: 0.1 us, calibrated */",
    "minus",
    "for (subcycle = 0; subcycle lt num_iterations*10; subcycle++)",
    "  delay (L);",
    "------- End Parallel For Pseudocode -------",
    NULL,
};

const Schedule schedule_parallel_for = {"Parallel For", "parallel_for", ROLE_PROBE, 1, 1, pseudocode, run, NULL, 0, 0, 0, 1};
