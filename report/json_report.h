/* --json: everything a run knows, for tools (schema: docs/json-schema.md). */
#ifndef CLOMP_JSON_REPORT_H
#define CLOMP_JSON_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "../numa/locality.h"
#include "../timing/process_cost.h"
#include "report.h"

/* The integer version changes only when a member is renamed, removed or
 * changes meaning; CLOMP_JSON_SCHEMA_MINOR counts additions (readers may
 * ignore it). */
#define CLOMP_JSON_SCHEMA_VERSION 1
#define CLOMP_JSON_SCHEMA_MINOR 1

typedef struct RunRecord {
    const RunSetup *run;
    const Problem *pb;                   /* NULL when the mesh was never built */
    const LocalitySummary *locality;     /* NULL when the set-up was not reached */
    const Measurement *results;
    size_t count;
    const char *host;
    const char *started;
    double build_seconds;
    int exit_status;                     /* what clomp exits with */
    const char *failure;                 /* one-line reason, NULL when exit_status is 0 */
    const Measurement *failed;           /* the measurement that failed verification, or NULL */
    ProcessCost cost;                    /* CPU and wall seconds at the end (measured = 0: not taken) */
} RunRecord;

/* Writes the whole document; 0, or -1 when it could not be written. */
int write_json_report(FILE *out, const RunRecord *record);

#endif
