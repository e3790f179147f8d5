/* Dynamic,4 OMP (clomp, optional): schedule(dynamic, 4), threads take the
 * parts four at a time from a shared counter - a quarter of Dynamic OMP's
 * dispatches on CLOMP's 64 parts. Verified under the static assignment. */
#include "parallel_for.h"

#define DYNAMIC4_CHUNK 4

LOOP_SCHEDULE(PARALLEL_FOR_SUBCYCLE, schedule(dynamic, DYNAMIC4_CHUNK), verify_static_owners)

static const char *const pseudocode[] = {
    "------ Start Dynamic,4 OMP Pseudocode ------",
    "/* clomp: parallel for schedule(dynamic, 4), parts claimed four at a time */",
    "deposit = calc_deposit ();",
    "#pragma omp parallel for schedule(dynamic, 4)",
    "for (pidx = 0; pidx lt numParts; pidx++)",
    "  update_part (partArray[pidx], deposit);",
    "------- End Dynamic,4 OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_dynamic4_omp = {"Dynamic,4 OMP", "dynamic_4", ROLE_CHECKED, 1, 1, pseudocode, run, "chunk size", DYNAMIC4_CHUNK, 1, 0, 0};
