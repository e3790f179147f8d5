/* OMP Barrier: the cost of one barrier across the team, the floor under
 * every synchronised schedule. */
#include <omp.h>

#include "schedule.h"

static void run(Problem *pb, long subcycles, TeamObservation *seen)
{
    (void)pb;
#pragma omp parallel
    {
        if (seen != NULL && omp_get_thread_num() == 0)
            seen->threads = omp_get_num_threads();
        for (long s = 0; s < subcycles; s++) {
#pragma omp barrier
        }
    }
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

const Schedule schedule_omp_barrier = {"OMP Barrier", ROLE_PROBE, 1, pseudocode, run};
