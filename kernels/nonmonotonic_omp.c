/* NonmonDyn OMP (clomp, optional): schedule(nonmonotonic: dynamic), which
 * lets the runtime hand out the parts in any order (work stealing where it
 * implements it). OpenMP 5 makes plain dynamic nonmonotonic by default, so
 * next to Dynamic OMP this shows whether the runtime treats the two alike.
 * Verified under the static assignment. */
#include "parallel_for.h"

LOOP_SCHEDULE(PARALLEL_FOR_SUBCYCLE, schedule(nonmonotonic: dynamic), verify_static_owners)

static const char *const pseudocode[] = {
    "------ Start NonmonDyn OMP Pseudocode ------",
    "/* clomp: parallel for schedule(nonmonotonic: dynamic) */",
    "deposit = calc_deposit ();",
    "#pragma omp parallel for schedule(nonmonotonic: dynamic)",
    "for (pidx = 0; pidx lt numParts; pidx++)",
    "  update_part (partArray[pidx], deposit);",
    "------- End NonmonDyn OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_nonmonotonic_omp = {"NonmonDyn OMP", "nonmonotonic:dynamic", ROLE_CHECKED, 1, 1, pseudocode, run, NULL, 0, 1, 0, 0};
