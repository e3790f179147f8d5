/* Static OMP: the original loop under parallel for schedule(static). */
#include "parallel_for.h"

LOOP_SCHEDULE(PARALLEL_FOR_SUBCYCLE, schedule(static), verify_static_owners)

static const char *const pseudocode[] = {
    "------ Start Static OMP Pseudocode ------",
    "/* Use OpenMP parallel for schedule(static) on original loop */",
    "deposit = calc_deposit ();",
    "#pragma omp parallel for schedule(static)",
    "for (pidx = 0; pidx lt numParts; pidx++)",
    "  update_part (partArray[pidx], deposit);",
    "------- End Static OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_static_omp = {"Static OMP", "static", ROLE_CHECKED, 1, 1, pseudocode, run, NULL, 0, 0, 0, 0};
