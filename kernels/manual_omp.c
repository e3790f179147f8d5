/* Manual OMP: one parallel region for the whole run; threads partition the
 * parts by hand and synchronise with a barrier and a single per subcycle. */
#include "deposit.h"
#include "fault.h"
#include "schedule.h"
#include "slice.h"
#include "update_part.h"

static void run(Problem *pb, long subcycles, TeamObservation *seen)
{
    Part **parts = pb->mesh.partArray;
    long numParts = pb->mesh.shape.numParts, flopScale = pb->mesh.shape.flopScale;
    /* Shared by the team: one thread computes it in the single. */
    // cppcheck-suppress [variableScope, unreadVariable]
    double deposit = 0.0;

#pragma omp parallel
    {
        long start, end;
        claim_thread_slice(numParts, seen, &start, &end);
        for (long s = 0; s < subcycles; s++) {
            /* Every thread must have finished its parts before part 0's
             * residue is read for the next deposit. */
            if (!SKIP_BARRIER(s)) {
#pragma omp barrier
            }
#pragma omp single
            deposit = CALC_DEPOSIT(pb, s);
            DELAY_THREAD(s);
            for (long p = start; p <= end; p++)
                UPDATE_PART(parts[p], deposit, flopScale, s);
        }
    }
}

static const char *const pseudocode[] = {
    "------ Start Manual OMP Pseudocode ------",
    "/* At top level, spawn threads and manually partition parts */",
    "#pragma omp parallel",
    "{",
    "  /* startPidx..endPidx: this thread's slice of the parts */",
    "  for (subcycle = 0; subcycle lt num_iterations*10; subcycle++)",
    "  {",
    "    #pragma omp barrier /* All threads must finish first! */",
    "    #pragma omp single  /* Only one thread calcs deposit! */",
    "    deposit = calc_deposit (); /* implicit barrier after single */",
    "    for (pidx = startPidx; pidx lte endPidx; pidx++)",
    "      update_part (partArray[pidx], deposit);",
    "  }",
    "}",
    "------- End Manual OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_manual_omp = {"Manual OMP", ROLE_CHECKED, 1, pseudocode, run};
