/* The measurement groups a run asks for after its timed sequence, in this
 * order: the construct table (--constructs, constructs.h), then the node's
 * limits (--limits, limits.h). Each points the record at its part of
 * `groups` once it begins. */
#ifndef CLOMP_GROUPS_H
#define CLOMP_GROUPS_H

#include "constructs.h"
#include "limits.h"

typedef struct MeasuredGroups {
    ConstructTable constructs;
    LimitsRecord limits;
} MeasuredGroups;

/* 0, or the first group's failure (its status and `why`); the record gets
 * the end of the measuring either way. */
int measure_asked_groups(const RunSetup *run, RunRecord *record, MeasuredGroups *groups, char *why, size_t why_size);

void free_groups(MeasuredGroups *groups);

#endif
