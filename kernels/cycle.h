/* CLOMP 1.2's iteration, defined once for every schedule: four "modules"
 * (the packages of a multiphysics code) of 1, 2, 3 and 4 subcycles, each a
 * function of its own whose subcycles are written out one after another, so
 * that every parallel region of an iteration is a region of its own, at its
 * own call site, as in 1.2. Run time depends on that shape (ten distinct
 * outlined regions and module calls per iteration, not one region called in
 * a loop), which is why clomp keeps it; see docs/output.md.
 *
 * CLOMP_MODULES(PREFIX, PARAMS, ARGS, SUBCYCLE) defines PREFIX_cycle PARAMS,
 * one iteration; SUBCYCLE(k) is subcycle k (0..9) of it, and PARAMS must
 * name the iteration `it` so that subcycle it x 10 + k can be computed (only
 * the fault-injection build uses it). */
#ifndef CLOMP_CYCLE_H
#define CLOMP_CYCLE_H

#include "problem.h"

#define CLOMP_SUBCYCLE_INDEX(it, k) ((it) * SUBCYCLES_PER_ITERATION + (k))

/* The four modules, written once. SUBCYCLE(A, k, B) is subcycle k; A and B
 * are passed through untouched (a loop schedule's clause and its team
 * observation, see parallel_for.h). */
#define CLOMP_MODULES_WITH(PREFIX, PARAMS, ARGS, SUBCYCLE, A, B)                                     \
    static void PREFIX##_module1 PARAMS { (void)it; SUBCYCLE(A, 0, B) }                                 \
    static void PREFIX##_module2 PARAMS { (void)it; SUBCYCLE(A, 1, B) SUBCYCLE(A, 2, B) }               \
    static void PREFIX##_module3 PARAMS { (void)it; SUBCYCLE(A, 3, B) SUBCYCLE(A, 4, B) SUBCYCLE(A, 5, B) } \
    static void PREFIX##_module4 PARAMS                                                                 \
    { (void)it; SUBCYCLE(A, 6, B) SUBCYCLE(A, 7, B) SUBCYCLE(A, 8, B) SUBCYCLE(A, 9, B) }              \
    static void PREFIX##_cycle PARAMS                                                                   \
    {                                                                                                   \
        PREFIX##_module1 ARGS;                                                                          \
        PREFIX##_module2 ARGS;                                                                          \
        PREFIX##_module3 ARGS;                                                                          \
        PREFIX##_module4 ARGS;                                                                          \
    }

#define CLOMP_SUBCYCLE_OF_(SUBCYCLE, k, unused) SUBCYCLE(k)
#define CLOMP_MODULES(PREFIX, PARAMS, ARGS, SUBCYCLE) \
    CLOMP_MODULES_WITH(PREFIX, PARAMS, ARGS, CLOMP_SUBCYCLE_OF_, SUBCYCLE, ~)

#endif
