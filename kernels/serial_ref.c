/* Serial Ref: the original loop on one thread; every checked schedule must
 * reproduce its results bit for bit. */
#include "cycle.h"
#include "deposit.h"
#include "owned_check.h"
#include "chunk_timer.h"
#include "schedule.h"
#include "update_part.h"

#define SERIAL_SUBCYCLE(k)                                                              \
    {                                                                                   \
        Part **parts = pb->mesh.partArray;                                              \
        long numParts = pb->mesh.shape.numParts, flopScale = pb->mesh.shape.flopScale;  \
        double deposit = calc_deposit(pb);                                              \
        for (long p = 0; p < numParts; p++)                                             \
            update_part(parts[p], deposit, flopScale);                                  \
    }

CLOMP_MODULES(serial, (Problem *pb, long it), (pb, it), SERIAL_SUBCYCLE)

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    (void)seen;
#define ITERATION(it) serial_cycle(pb, it)
#define VERIFY(c) verify_on_main(timer, c, pb->mesh.shape.numParts)
    RUN_CHUNKED_ITERATIONS(timer, subcycles, ITERATION, VERIFY)
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

const Schedule schedule_serial_ref = {"Serial Ref", "serial", ROLE_REFERENCE, 0, 1, pseudocode, run, NULL, 0, 0, 0, 0};
