/* Bestcase OMP: each thread updates only its own parts with a fixed deposit,
 * never synchronising, then the serial calc_deposit() calls are added. No
 * schedule can beat it; its results are wrong by design and not checked. */
#include "deposit.h"
#include "schedule.h"
#include "slice.h"
#include "update_part.h"

static void run(Problem *pb, long subcycles, TeamObservation *seen)
{
    Part **parts = pb->mesh.partArray;
    long numParts = pb->mesh.shape.numParts, flopScale = pb->mesh.shape.flopScale;
    double deposit = (1.0 + pb->deposit.max_residue) / (double)numParts;

#pragma omp parallel
    {
        long start, end;
        claim_thread_slice(numParts, seen, &start, &end);
        for (long s = 0; s < subcycles; s++)
            for (long p = start; p <= end; p++)
                update_part(parts[p], deposit, flopScale);
    }
    run_fooled_calc_deposits(pb, subcycles);
}

static const char *const pseudocode[] = {
    "------ Start Bestcase OMP Pseudocode ------",
    "/* Ideal: no synchronisation, each thread updates only its own parts */",
    "#pragma omp parallel",
    "{",
    "  /* startPidx..endPidx: this thread's slice of the parts */",
    "  for (subcycle = 0; subcycle lt num_iterations*10; subcycle++)",
    "    for (pidx = startPidx; pidx lte endPidx; pidx++)",
    "      update_part (partArray[pidx], (1 + max_residue)/numParts);",
    "}",
    "/* then the serial calc_deposit () calls, num_iterations*10 of them */",
    "------- End Bestcase OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_bestcase_omp = {"Bestcase OMP", ROLE_BESTCASE, 1, pseudocode, run};
