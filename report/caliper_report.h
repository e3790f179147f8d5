/* --caliper-json: the run as one Caliper "json-split" profile, the format
 * Hatchet's GraphFrame.from_caliper reads (Thicket through it): a tree
 * (clomp -> each measurement; constructs -> level -> row; limits ->
 * figure), one row of metrics per node with their units in column_metadata,
 * and the run's metadata (Adiak's names where Adiak has one) as the other
 * top-level keys (docs/harnesses.md). Written from the record only, as the
 * JSON and the CSV are. */
#ifndef CLOMP_CALIPER_REPORT_H
#define CLOMP_CALIPER_REPORT_H

#include <stdio.h>

#include "../measure/record.h"

/* The version of the profile's own layout (its tree, columns and metadata
 * keys): the top-level key clomp_profile. */
#define CLOMP_PROFILE_VERSION 1

/* Writes the whole profile; 0, or -1 when it could not be written. */
int write_caliper_report(FILE *out, const RunRecord *record);

#endif
