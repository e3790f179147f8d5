/* --csv: one row per measurement, from the same record as the text and the
 * JSON reports; header and rows both come from figure_columns (figures.h). */
#ifndef CLOMP_CSV_REPORT_H
#define CLOMP_CSV_REPORT_H

#include <stdio.h>

#include "../measure/record.h"

/* Writes the header row and one row per measurement; 0, or -1 when it
 * could not be written. */
int write_csv_report(FILE *out, const RunRecord *record);

#endif
