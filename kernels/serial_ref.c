/* Serial Ref: the original loop on one thread; every checked schedule must
 * reproduce its results bit for bit. */
#include "deposit.h"
#include "schedule.h"
#include "update_part.h"

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    (void)seen;
    Part **parts = pb->mesh.partArray;
    long numParts = pb->mesh.shape.numParts, flopScale = pb->mesh.shape.flopScale, next = 0;

    chunk_timer_start(timer);
    for (long s = 0; s < subcycles; s++) {
        double deposit = calc_deposit(pb);
        for (long p = 0; p < numParts; p++)
            update_part(parts[p], deposit, flopScale);
        chunk_timer_after_subcycle(timer, s, &next);
    }
}

static const char *const pseudocode[] = {
    "------ Start Serial Ref Pseudocode ------",
    "/* Serial reference: the original loop, no OpenMP */",
    "deposit = calc_deposit ();",
    "for (pidx = 0; pidx lt numParts; pidx++)",
    "  update_part (partArray[pidx], deposit);",
    "------- End Serial Ref Pseudocode -------",
    NULL,
};

const Schedule schedule_serial_ref = {"Serial Ref", "serial", ROLE_REFERENCE, 0, 1, pseudocode, run};
