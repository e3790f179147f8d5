/* Tasks OMP (clomp, optional): one explicit task per part, created by one
 * thread of a parallel region; the single's barrier waits for them all.
 * Verified under the static assignment. */
#include "tasking.h"

LOOP_SCHEDULE(TASKS_SUBCYCLE, , verify_static_owners)

static const char *const pseudocode[] = {
    "------ Start Tasks OMP Pseudocode ------",
    "/* clomp: one explicit task per part, created by a single thread */",
    "deposit = calc_deposit ();",
    "#pragma omp parallel",
    "#pragma omp single",
    "for (pidx = 0; pidx lt numParts; pidx++)",
    "  #pragma omp task",
    "  update_part (partArray[pidx], deposit);",
    "------- End Tasks OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_tasks_omp = {"Tasks OMP", "tasks", ROLE_CHECKED, 1, 1, pseudocode, run, NULL, 0, 1, 0, 0};
