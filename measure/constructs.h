/* clomp --constructs: each selected construct of the table measured by
 * EPCC's method at the first level, at the inner team's size and inside
 * nested teams (Dimakopoulos, Hadjidoukas & Philos, IWOMP 2008: every outer
 * thread runs the test with its own inner team at the same time), with what
 * the runtime gave inside every inner region verified (docs/constructs.md). */
#ifndef CLOMP_CONSTRUCTS_H
#define CLOMP_CONSTRUCTS_H

#include <stddef.h>

#include "record.h"

/* Fills `table`: every row listed first (each level that cannot run here
 * with why), then measured level by level - every row's level 1, then
 * level 1 at INNER threads, then level 2 - so that no level-1 test shares
 * the CPUs with a nested team's threads still spinning (constructs.c says
 * why). A run that fails keeps what was measured; each level not reached
 * says where the run ended. 0; EXIT_VERIFY_FAILED with the
 * reason when a construct was measured outside its construct (no region of
 * it ran, or at the wrong level or under the wrong outer thread);
 * EXIT_RESOURCE when out of memory. A serialized or smaller inner team is
 * recorded as such, not as a failure. */
int measure_constructs(const RunSetup *run, ConstructTable *table, char *why, size_t why_size);

/* When --constructs was given: the record points at `table`, then
 * measure_constructs fills it (0 without --constructs). Either way the record
 * gets the end of the measuring and the table's own wall time. */
int measure_asked_constructs(const RunSetup *run, RunRecord *record, ConstructTable *table, char *why,
                             size_t why_size);

void free_constructs(ConstructTable *table);

#endif
