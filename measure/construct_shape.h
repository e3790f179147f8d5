/* The construct table's shape, before anything is timed: the values a
 * row is measured at (chunks, array sizes, map bytes) and level 2's shape,
 * observed in one untimed nested region (measure/constructs.c uses it). */
#ifndef CLOMP_CONSTRUCT_SHAPE_H
#define CLOMP_CONSTRUCT_SHAPE_H

#include "record.h"

/* The values row `c` is measured at, into `chunks` (at most
 * CONSTRUCT_MAX_CHUNKS): one 0 for a row without a parameter. Returns how many. */
int construct_row_params(const RunSetup *run, const Construct *c, long *chunks);

/* The table's iterations, wait policy and CPUs, and level 2's shape (or why
 * it is N/A) with where its inner threads ran. */
void set_construct_shape(const RunSetup *run, ConstructTable *t);

#endif
