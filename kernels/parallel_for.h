/* The subcycle of every `parallel for` schedule, written once: calc_deposit
 * in serial code, then the original loop over the parts under
 * `#pragma omp parallel for CLAUSE`, the clause a literal token (no
 * schedule(runtime): it would add dispatch cost to what is timed). The
 * warm-up's copy records the team size inside the very region it measures
 * (OBSERVE); the timed copy carries no such code. */
#ifndef CLOMP_PARALLEL_FOR_H
#define CLOMP_PARALLEL_FOR_H

#include <omp.h>

#include "cycle.h"
#include "deposit.h"
#include "fault.h"
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

#define PARALLEL_FOR_OBSERVE_TEAM if (p == 0) seen->threads = omp_get_num_threads()

/* Defines timed_cycle(pb, it) and observed_cycle(pb, it, seen): one
 * CLOMP 1.2 iteration of this schedule, without and with the team check. */
#define PARALLEL_FOR_CYCLES(TIMED_SUBCYCLE, OBSERVED_SUBCYCLE)                                  \
    CLOMP_MODULES(timed, (Problem *pb, long it), (pb, it), TIMED_SUBCYCLE)                      \
    CLOMP_MODULES(observed, (Problem *pb, long it, TeamObservation *seen), (pb, it, seen), OBSERVED_SUBCYCLE)

#endif
