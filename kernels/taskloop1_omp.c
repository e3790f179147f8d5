/* Taskloop,1 (clomp, optional): the taskloop with grainsize(1), one task
 * per part - the tasking runtime's cost per task on CLOMP's loop. Verified
 * under the static assignment. */
#include "tasking.h"

#define TASKLOOP1_GRAINSIZE 1

LOOP_SCHEDULE(TASKLOOP_SUBCYCLE, grainsize(TASKLOOP1_GRAINSIZE), verify_static_owners)

static const char *const pseudocode[] = {
    "------ Start Taskloop,1 Pseudocode ------",
    "/* clomp: taskloop from a single thread, one part per task */",
    "deposit = calc_deposit ();",
    "#pragma omp parallel",
    "#pragma omp single",
    "#pragma omp taskloop grainsize(1)",
    "for (pidx = 0; pidx lt numParts; pidx++)",
    "  update_part (partArray[pidx], deposit);",
    "------- End Taskloop,1 Pseudocode -------",
    NULL,
};

const Schedule schedule_taskloop1_omp = {"Taskloop,1", "taskloop_1", ROLE_CHECKED, 1, 1, pseudocode, run, "grainsize", TASKLOOP1_GRAINSIZE, 1, 0, 0};
