/* One construct at one level by EPCC's method: the row's body checked
 * where its test will run, innerreps calibrated as EPCC's getinnerreps,
 * then the repetitions of reference and test in alternating order, and what
 * the runtime gave inside every inner region verified (measure/constructs.c
 * runs the table's rows and levels through it; docs/constructs.md). */
#ifndef CLOMP_CONSTRUCT_LEVEL_H
#define CLOMP_CONSTRUCT_LEVEL_H

#include "record.h"

/* Measures row->level[l]: l 0 is level 1 with the run's threads, 1 level 1
 * with INNER threads, 2 OUTER x INNER (the table's shape, t). Sets the
 * level's status and problem (CONSTRUCT_WRONG: its body does the wrong
 * thing, or it was measured outside its construct), figures and
 * repetitions. `logs` has room for t->outer region logs (1 at least).
 * 0, or EXIT_RESOURCE when out of memory for the repetitions. */
int measure_construct_level(const RunSetup *run, const ConstructTable *t, ConstructResult *row, int l,
                            OwnLineLog *logs);

#endif
