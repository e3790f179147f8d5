/* Manual OMP: one parallel region for the whole run; threads partition the
 * parts by hand and synchronise with a barrier and a single per subcycle. */
#include "deposit.h"
#include "fault.h"
#include "schedule.h"
#include "slice.h"
#include "update_part.h"

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    Part **parts = pb->mesh.partArray;
    long numParts = pb->mesh.shape.numParts, flopScale = pb->mesh.shape.flopScale, closed = 0;
    /* Shared by the team: one thread computes it in the single. */
    // cppcheck-suppress [variableScope, unreadVariable]
    double deposit = 0.0;

    chunk_timer_start(timer);
#pragma omp parallel
    {
        long start, end, next = 0;
        claim_thread_slice(numParts, seen, &start, &end);
        for (long s = 0; s < subcycles; s++) {
            /* Every thread must have finished its parts before part 0's
             * residue is read for the next deposit. */
            if (!SKIP_BARRIER(s)) {
#pragma omp barrier
            }
            /* Past that barrier the previous subcycle is complete: a chunk
             * ending there is closed (and verified) by thread 0 while the
             * others wait, so no thread touches the mesh meanwhile. The
             * waiting threads may have fallen asleep: the first barrier
             * wakes them, the second finds them all awake, and only then
             * does the next chunk's clock start. */
            if (s > 0 && chunk_timer_inner_boundary(timer, s - 1, next)) {
                if (omp_get_thread_num() == 0)
                    chunk_timer_close(timer, &next);
                else
                    next++;
#pragma omp barrier
#pragma omp barrier
                if (omp_get_thread_num() == 0)
                    chunk_timer_restart(timer);
            }
#pragma omp single
            deposit = CALC_DEPOSIT(pb, s);
            DELAY_THREAD(s);
            for (long p = start; p <= end; p++)
                UPDATE_PART(parts[p], deposit, flopScale, s);
        }
        if (omp_get_thread_num() == 0)
            closed = next;
    }
    chunk_timer_finish(timer, &closed);
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

const Schedule schedule_manual_omp = {"Manual OMP", "manual", ROLE_CHECKED, 1, 1, pseudocode, run};
