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

#define CLOMP_MODULES(PREFIX, PARAMS, ARGS, SUBCYCLE)                                    \
    static void PREFIX##_module1 PARAMS { (void)it; SUBCYCLE(0) }                                  \
    static void PREFIX##_module2 PARAMS { (void)it; SUBCYCLE(1) SUBCYCLE(2) }                      \
    static void PREFIX##_module3 PARAMS { (void)it; SUBCYCLE(3) SUBCYCLE(4) SUBCYCLE(5) }          \
    static void PREFIX##_module4 PARAMS { (void)it; SUBCYCLE(6) SUBCYCLE(7) SUBCYCLE(8) SUBCYCLE(9) } \
    static void PREFIX##_cycle PARAMS                                                   \
    {                                                                                   \
        PREFIX##_module1 ARGS;                                                          \
        PREFIX##_module2 ARGS;                                                          \
        PREFIX##_module3 ARGS;                                                          \
        PREFIX##_module4 ARGS;                                                          \
    }

#endif
