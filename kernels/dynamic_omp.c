/* Dynamic OMP: the original loop under parallel for schedule(dynamic). Its
 * parts have no fixed owners; chunks are verified under the static
 * assignment, the closest to where the data last was. */
#include "owned_check.h"
#include "parallel_for.h"
#include "schedule.h"

#define TIMED_SUBCYCLE(k) PARALLEL_FOR_SUBCYCLE(schedule(dynamic), k, (void)0)
#define OBSERVED_SUBCYCLE(k) PARALLEL_FOR_SUBCYCLE(schedule(dynamic), k, PARALLEL_FOR_OBSERVE_TEAM)
PARALLEL_FOR_CYCLES(TIMED_SUBCYCLE, OBSERVED_SUBCYCLE)

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    if (seen != NULL) {
        for (long it = 0; it < subcycles / SUBCYCLES_PER_ITERATION; it++)
            observed_cycle(pb, it, seen);
        return;
    }
#define ITERATION(it) timed_cycle(pb, it)
#define VERIFY(c) verify_static_owners(timer, c, pb->mesh.shape.numParts, pb->numThreads)
    RUN_CHUNKED_ITERATIONS(timer, subcycles, ITERATION, VERIFY)
}

static const char *const pseudocode[] = {
    "------ Start Dynamic OMP Pseudocode ------",
    "/* Use OpenMP parallel for schedule(dynamic) on original loop */",
    "deposit = calc_deposit ();",
    "#pragma omp parallel for schedule(dynamic)",
    "for (pidx = 0; pidx lt numParts; pidx++)",
    "  update_part (partArray[pidx], deposit);",
    "------- End Dynamic OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_dynamic_omp = {"Dynamic OMP", "dynamic", ROLE_CHECKED, 1, 1, pseudocode, run};
