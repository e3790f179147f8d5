/* OMP Barrier: the cost of one barrier across the team, the floor under
 * every synchronised schedule. */
#include <omp.h>

#include "schedule.h"

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    (void)pb;
    long closed = 0;

    chunk_timer_start(timer);
#pragma omp parallel
    {
        int master = omp_get_thread_num() == 0;
        long next = 0;
        if (seen != NULL && master)
            seen->threads = omp_get_num_threads();
        for (long s = 0; s < subcycles; s++) {
#pragma omp barrier
            /* Thread 0 reads the clock as it leaves the barrier that ends a
             * chunk; nothing to verify, so no one waits for it. */
            if (chunk_timer_inner_boundary(timer, s, next)) {
                if (master)
                    chunk_timer_close(timer, &next);
                else
                    next++;
            }
        }
        if (master)
            closed = next;
    }
    chunk_timer_finish(timer, &closed);
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

const Schedule schedule_omp_barrier = {"OMP Barrier", "barrier", ROLE_PROBE, 1, 1, pseudocode, run};
