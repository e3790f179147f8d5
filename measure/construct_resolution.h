/* After a construct row is measured: each level whose figure is not the
 * construct's cost becomes CONSTRUCT_UNRESOLVED with the reason, by the rule
 * of construct_unresolved (construct_overhead.h; docs/constructs.md,
 * "Unresolved rows"): the census found the machine busy, level 2's inner
 * threads shared a CPU (the table's level-2 team observation), too few
 * instances, preempted repetitions, no interval or one containing 0. */
#ifndef CLOMP_CONSTRUCT_RESOLUTION_H
#define CLOMP_CONSTRUCT_RESOLUTION_H

#include "record.h"

/* Level index l (0, 1: level 1; 2: level 2) of `row`, measured in table `t`. */
void judge_resolution(const ConstructTable *t, ConstructResult *row, int l);

#endif
