/* Dynamic OMP: the original loop under parallel for schedule(dynamic). Its
 * parts have no fixed owners; chunks are verified under the static
 * assignment, the closest to where the data last was. */
#include "parallel_for.h"

LOOP_SCHEDULE(PARALLEL_FOR_SUBCYCLE, schedule(dynamic), verify_static_owners)

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

const Schedule schedule_dynamic_omp = {"Dynamic OMP", "dynamic", ROLE_CHECKED, 1, 1, pseudocode, run, NULL, 0, 0, 0, 0};
