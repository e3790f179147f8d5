/* The construct table's shape, before anything is timed: the values a
 * row is measured at (chunks, array sizes, map bytes) and level 2's shape;
 * and where level 2's inner threads run, observed in one untimed nested
 * region just before level 2 is measured (measure/constructs.c uses it). */
#ifndef CLOMP_CONSTRUCT_SHAPE_H
#define CLOMP_CONSTRUCT_SHAPE_H

#include "record.h"

/* The values row `c` is measured at, into `chunks` (at most
 * CONSTRUCT_MAX_CHUNKS): one 0 for a row without a parameter. Returns how many. */
int construct_row_params(const RunSetup *run, const Construct *c, long *chunks);

/* The table's iterations, wait policy and CPUs, and level 2's shape (or why
 * it is N/A). */
void set_construct_shape(const RunSetup *run, ConstructTable *t);

/* Where the inner threads of one untimed nested region of level 2's shape
 * run (t->level2_team; its `nested` set once observed). Called when level 2
 * is about to be measured, not before level 1: a runtime's idle inner
 * threads may spin on after the region (measure/constructs.c says why). */
void observe_level2_team(ConstructTable *t);

#endif
