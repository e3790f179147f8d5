/* The subcycle of every `parallel for` schedule, written once: calc_deposit
 * in serial code, then the original loop over the parts under
 * `#pragma omp parallel for CLAUSE`, the clause a literal token (no
 * schedule(runtime): it would add dispatch cost to what is timed). The
 * observing copy records the team size inside the very region it measures
 * (OBSERVE); the timed copy carries no such code. The observing copy runs
 * once, before the warm-up; the warm-up runs the timed copy (run() with
 * seen NULL), so that chunk 0 is not the timed copy's first run.
 *
 * A loop schedule is then one file: LOOP_SCHEDULE(SUBCYCLE_MACRO, CLAUSE)
 * defines its iteration (CLOMP 1.2's four modules, cycle.h) and its run(),
 * and the file adds its pseudocode and its Schedule row. tasking.h gives
 * the same shape to taskloop and to explicit tasks. */
#ifndef CLOMP_PARALLEL_FOR_H
#define CLOMP_PARALLEL_FOR_H

#include <omp.h>

#include "cycle.h"
#include "deposit.h"
#include "fault.h"
#include "owned_check.h"
#include "schedule.h"
#include "update_part.h"

#define CLOMP_PRAGMA(text) _Pragma(#text)

#define PARALLEL_FOR_SUBCYCLE(CLAUSE, k, OBSERVE)                                           \
    {                                                                                       \
        Part **parts = pb->mesh.partArray;                                                  \
        long numParts = pb->mesh.shape.numParts, flopScale = pb->mesh.shape.flopScale;      \
        double deposit = CALC_DEPOSIT(pb, CLOMP_SUBCYCLE_INDEX(it, k));                     \
        CLOMP_PRAGMA(omp parallel for CLAUSE)                                               \
        for (long p = 0; p < numParts; p++) {                                               \
            OBSERVE;                                                                        \
            UPDATE_PART(parts[p], deposit, flopScale, CLOMP_SUBCYCLE_INDEX(it, k));         \
        }                                                                                   \
    }

/* In the observation only: the team size, seen from the task or iteration that
 * updates part 0 (omp_get_num_threads() is the team's size in tasks too). */
#define PARALLEL_FOR_OBSERVE_TEAM if (p == 0) seen->threads = omp_get_num_threads()

/* A loop schedule's iteration (timed, and observed before the warm-up) from its
 * subcycle macro SUBCYCLE(CLAUSE, k, OBSERVE) and its literal CLAUSE, and its
 * run(): CLOMP 1.2's loop of iterations in the timer's chunks, each chunk
 * verified with the clock stopped by OWNERS (owned_check.h): the threads
 * that own the parts under the schedule, or under schedule(static) when it
 * has no fixed owners (the closest to where the data last was). */
#define LOOP_SCHEDULE(SUBCYCLE, CLAUSE, OWNERS)                                                  \
    CLOMP_MODULES_WITH(timed, (Problem *pb, long it), (pb, it), SUBCYCLE, CLAUSE, (void)0)      \
    CLOMP_MODULES_WITH(observed, (Problem *pb, long it, TeamObservation *seen), (pb, it, seen),  \
                       SUBCYCLE, CLAUSE, PARALLEL_FOR_OBSERVE_TEAM)                              \
    static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)       \
    {                                                                                            \
        void (*const verify_owners)(ChunkTimer *, long, long, int) = OWNERS;                     \
        if (seen != NULL) {                                                                      \
            for (long it = 0; it < subcycles / SUBCYCLES_PER_ITERATION; it++)                    \
                observed_cycle(pb, it, seen);                                                    \
            return;                                                                              \
        }                                                                                        \
        RUN_CHUNKED_ITERATIONS(timer, subcycles, LOOP_SCHEDULE_ITERATION_, LOOP_SCHEDULE_VERIFY_) \
    }

#define LOOP_SCHEDULE_ITERATION_(it) timed_cycle(pb, it)
#define LOOP_SCHEDULE_VERIFY_(c) verify_owners(timer, c, pb->mesh.shape.numParts, pb->numThreads)

#endif
