/* OMP Barrier: the cost of one barrier across the team, the floor under
 * every synchronised schedule. */
#include <omp.h>

#include "chunk_timer.h"
#include "schedule.h"

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    (void)pb;
    long chunks = chunk_count(timer);

    chunk_timer_start(timer);
#pragma omp parallel
    {
        int master = omp_get_thread_num() == 0;
        if (seen != NULL && master)
            seen->threads = omp_get_num_threads();
        for (long c = 0, it = 0; c < chunks; c++) {
            for (long end = chunk_end_iteration(timer, c, subcycles); it < end; it++)
                for (int s = 0; s < SUBCYCLES_PER_ITERATION; s++) {
#pragma omp barrier
                }
            /* Thread 0 reads the clock as it leaves the barrier that ends a
             * chunk; nothing to verify, so no one waits for it. The last
             * chunk closes after the join, as CLOMP 1.2's timing does. */
            if (master && c < chunks - 1) {
                chunk_timer_stop(timer, c);
                chunk_timer_start(timer);
            }
        }
    }
    chunk_timer_stop(timer, chunks - 1);
}

static const char *const pseudocode[] = {
    "------ Start OMP Barrier Pseudocode ------",
    "/* Measure *only* OpenMP barrier cost */",
    "#pragma omp parallel",
    "for (subcycle = 0; subcycle lt num_iterations*10; subcycle++)",
    "  #pragma omp barrier",
    "------- End OMP Barrier Pseudocode -------",
    NULL,
};

const Schedule schedule_omp_barrier = {"OMP Barrier", "barrier", ROLE_PROBE, 1, 1, pseudocode, run, NULL, 0, 0, 0, 0};
