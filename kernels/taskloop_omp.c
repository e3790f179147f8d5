/* Taskloop OMP (clomp, optional): the original loop as a taskloop created
 * by one thread of a parallel region, the grainsize left to the runtime
 * (libgomp: min(numParts, team size) tasks). Tasks have no fixed owners:
 * chunks are verified under the static assignment. */
#include "tasking.h"

LOOP_SCHEDULE(TASKLOOP_SUBCYCLE, , verify_static_owners)

static const char *const pseudocode[] = {
    "------ Start Taskloop OMP Pseudocode ------",
    "/* clomp: taskloop from a single thread, default grainsize */",
    "deposit = calc_deposit ();",
    "#pragma omp parallel",
    "#pragma omp single",
    "#pragma omp taskloop",
    "for (pidx = 0; pidx lt numParts; pidx++)",
    "  update_part (partArray[pidx], deposit);",
    "------- End Taskloop OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_taskloop_omp = {"Taskloop OMP", "taskloop", ROLE_CHECKED, 1, 1, pseudocode, run, NULL, 0, 1, 0, 0};
