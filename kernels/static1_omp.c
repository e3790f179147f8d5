/* Static,1 OMP (clomp, optional): schedule(static, 1), the parts dealt out
 * cyclically - thread t updates parts t, t + T, t + 2T... Same fixed owners
 * from one subcycle to the next, but neighbouring parts on different
 * threads: EPCC's STATIC,1 on CLOMP's loop. Each chunk is verified by those
 * cyclic owners. */
#include "parallel_for.h"

#define STATIC1_CHUNK 1

LOOP_SCHEDULE(PARALLEL_FOR_SUBCYCLE, schedule(static, STATIC1_CHUNK), verify_cyclic_owners)

static const char *const pseudocode[] = {
    "------ Start Static,1 OMP Pseudocode ------",
    "/* clomp: parallel for schedule(static, 1), parts dealt out cyclically */",
    "deposit = calc_deposit ();",
    "#pragma omp parallel for schedule(static, 1)",
    "for (pidx = 0; pidx lt numParts; pidx++)",
    "  update_part (partArray[pidx], deposit);",
    "------- End Static,1 OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_static1_omp = {"Static,1 OMP", "static_1", ROLE_CHECKED, 1, 1, pseudocode, run, "chunk size", STATIC1_CHUNK, 1, 0, 0};
