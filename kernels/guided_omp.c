/* Guided OMP (clomp, optional): schedule(guided), claims that shrink from
 * about numParts/numThreads parts to one (the runtime's default minimum).
 * Verified under the static assignment. */
#include "parallel_for.h"

LOOP_SCHEDULE(PARALLEL_FOR_SUBCYCLE, schedule(guided), verify_static_owners)

static const char *const pseudocode[] = {
    "------ Start Guided OMP Pseudocode ------",
    "/* clomp: parallel for schedule(guided), shrinking claims */",
    "deposit = calc_deposit ();",
    "#pragma omp parallel for schedule(guided)",
    "for (pidx = 0; pidx lt numParts; pidx++)",
    "  update_part (partArray[pidx], deposit);",
    "------- End Guided OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_guided_omp = {"Guided OMP", "guided", ROLE_CHECKED, 1, 1, pseudocode, run, NULL, 0, 1, 0, 0};
