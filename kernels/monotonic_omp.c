/* MonoDyn OMP (clomp, optional): schedule(monotonic: dynamic), each thread
 * claiming parts in increasing order - OpenMP 4.5's dynamic. OpenMP 5 makes
 * plain dynamic nonmonotonic (gcc 12 calls libgomp's nonmonotonic entry for
 * Dynamic OMP), so this is the other side of EPCC's monotonic/nonmonotonic
 * comparison. Verified under the static assignment. */
#include "parallel_for.h"

LOOP_SCHEDULE(PARALLEL_FOR_SUBCYCLE, schedule(monotonic: dynamic), verify_static_owners)

static const char *const pseudocode[] = {
    "------ Start MonoDyn OMP Pseudocode ------",
    "/* clomp: parallel for schedule(monotonic: dynamic) */",
    "deposit = calc_deposit ();",
    "#pragma omp parallel for schedule(monotonic: dynamic)",
    "for (pidx = 0; pidx lt numParts; pidx++)",
    "  update_part (partArray[pidx], deposit);",
    "------- End MonoDyn OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_monotonic_omp = {"MonoDyn OMP", "monotonic:dynamic", ROLE_CHECKED, 1, 1, pseudocode, run, NULL, 0, 1, 0, 0};
