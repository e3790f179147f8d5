/* --json: everything a run knows, for tools (schema: docs/json-schema.md). */
#ifndef CLOMP_JSON_REPORT_H
#define CLOMP_JSON_REPORT_H

#include <stdio.h>

#include "../measure/record.h"

/* The integer version changes only when a member is renamed, removed or
 * changes meaning; CLOMP_JSON_SCHEMA_MINOR counts additions (readers may
 * ignore it). */
#define CLOMP_JSON_SCHEMA_VERSION 1
#define CLOMP_JSON_SCHEMA_MINOR 16

/* clomp --list-figures --json (json_figures.c): the catalogue of figures;
 * 0, or -1 when it could not be written. */
int write_figure_list_json(FILE *out);

/* Writes the whole document; 0, or -1 when it could not be written. */
int write_json_report(FILE *out, const RunRecord *record);

#endif
