/* A suite's <base>.csv read by column name (stats/suite_table.c). */
#ifndef CLOMP_SUITE_TABLE_H
#define CLOMP_SUITE_TABLE_H

/* Into VALUES (at most MAX_VALUES): COLUMN's cells of the rows of the table at PATH whose run
 * ran OK (run_status), is one of the space-separated RUNS, has the input INPUT ("T A P Z S F
 * TS POLICY") and the measurement KEY, and whose valid cell is not 0. Their count, or -1 after
 * a one-line message (a cell that is not a number); a missing table has none. *PROCESSES: the
 * distinct such runs, whatever their figures. */
long table_values(const char *path, const char *input, const char *runs, const char *key, const char *column,
                  double *values, long *processes);

#endif
