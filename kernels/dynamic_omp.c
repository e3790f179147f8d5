/* Dynamic OMP: the original loop under parallel for schedule(dynamic). */
#include <omp.h>

#include "deposit.h"
#include "fault.h"
#include "schedule.h"
#include "update_part.h"

static void run(Problem *pb, long subcycles, TeamObservation *seen)
{
    Part **parts = pb->mesh.partArray;
    long numParts = pb->mesh.shape.numParts, flopScale = pb->mesh.shape.flopScale;

    for (long s = 0; s < subcycles; s++) {
        double deposit = CALC_DEPOSIT(pb, s);
#pragma omp parallel for schedule(dynamic)
        for (long p = 0; p < numParts; p++) {
            if (seen != NULL && p == 0)
                seen->threads = omp_get_num_threads();
            UPDATE_PART(parts[p], deposit, flopScale, s);
        }
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

const Schedule schedule_dynamic_omp = {"Dynamic OMP", ROLE_CHECKED, 1, pseudocode, run};
