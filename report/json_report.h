/* --json: everything a run knows, for tools (schema: docs/json-schema.md). */
#ifndef CLOMP_JSON_REPORT_H
#define CLOMP_JSON_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "../numa/locality.h"
#include "report.h"

#define CLOMP_JSON_SCHEMA_VERSION 1

/* Writes the whole document; 0, or -1 when it could not be written. */
int write_json_report(FILE *out, const RunRecord *record);

#endif
