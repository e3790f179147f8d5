/* Dynamic OMP: the original loop under parallel for schedule(dynamic). */
#include <omp.h>

#include "deposit.h"
#include "fault.h"
#include "schedule.h"
#include "update_part.h"

/* The warm-up records the team size inside the very loop it measures; the
 * timed copy of the loop carries no such code (a branch per part would be
 * timed). One macro, so the two copies cannot drift apart. */
#define DYNAMIC_OMP_SUBCYCLES(OBSERVE)                                          \
    for (long s = 0; s < subcycles; s++) {                                   \
        double deposit = CALC_DEPOSIT(pb, s);                                \
        _Pragma("omp parallel for schedule(dynamic)")                         \
        for (long p = 0; p < numParts; p++) {                                \
            OBSERVE;                                                         \
            UPDATE_PART(parts[p], deposit, flopScale, s);                    \
        }                                                                    \
        chunk_timer_after_subcycle(timer, s, &next);                         \
    }

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    Part **parts = pb->mesh.partArray;
    long numParts = pb->mesh.shape.numParts, flopScale = pb->mesh.shape.flopScale, next = 0;

    chunk_timer_start(timer);

    if (seen == NULL) {
        DYNAMIC_OMP_SUBCYCLES((void)0)
    } else {
        DYNAMIC_OMP_SUBCYCLES(if (p == 0) seen->threads = omp_get_num_threads())
    }
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
