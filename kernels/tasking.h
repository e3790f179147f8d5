/* The subcycles of the tasking schedules, in the shape of
 * PARALLEL_FOR_SUBCYCLE (parallel_for.h) so that LOOP_SCHEDULE defines their
 * iteration and run() alike: calc_deposit in serial code, then one parallel
 * region whose single thread creates the tasks that update the parts; the
 * region ends when every task has run (taskloop's implicit taskgroup, the
 * barrier of single). CLAUSE is a literal token: taskloop's grainsize, or
 * nothing for the runtime's default; a task's clauses for TASKS_SUBCYCLE.
 * The taskloop's variable is unsigned: with a signed one clang's taskloop
 * code compares signed and unsigned counts (-Wsign-compare). */
#ifndef CLOMP_TASKING_H
#define CLOMP_TASKING_H

#include <stddef.h>

#include "parallel_for.h"

#define TASKLOOP_SUBCYCLE(CLAUSE, k, OBSERVE)                                               \
    {                                                                                       \
        Part **parts = pb->mesh.partArray;                                                  \
        long numParts = pb->mesh.shape.numParts, flopScale = pb->mesh.shape.flopScale;      \
        double deposit = CALC_DEPOSIT(pb, CLOMP_SUBCYCLE_INDEX(it, k));                     \
        CLOMP_PRAGMA(omp parallel)                                                          \
        CLOMP_PRAGMA(omp single)                                                            \
        CLOMP_PRAGMA(omp taskloop CLAUSE)                                                   \
        for (size_t p = 0; p < (size_t)numParts; p++) {                                    \
            OBSERVE;                                                                        \
            UPDATE_PART(parts[p], deposit, flopScale, CLOMP_SUBCYCLE_INDEX(it, k));         \
        }                                                                                   \
    }

/* One explicit task per part. */
#define TASKS_SUBCYCLE(CLAUSE, k, OBSERVE)                                                  \
    {                                                                                       \
        Part **parts = pb->mesh.partArray;                                                  \
        long numParts = pb->mesh.shape.numParts, flopScale = pb->mesh.shape.flopScale;      \
        double deposit = CALC_DEPOSIT(pb, CLOMP_SUBCYCLE_INDEX(it, k));                     \
        CLOMP_PRAGMA(omp parallel)                                                          \
        CLOMP_PRAGMA(omp single)                                                            \
        for (long p = 0; p < numParts; p++) {                                               \
            CLOMP_PRAGMA(omp task CLAUSE)                                                   \
            {                                                                               \
                OBSERVE;                                                                    \
                UPDATE_PART(parts[p], deposit, flopScale, CLOMP_SUBCYCLE_INDEX(it, k));     \
            }                                                                               \
        }                                                                                   \
    }

#endif
