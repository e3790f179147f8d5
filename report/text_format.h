/* How the text report writes values: escaped outside text, numbers to the
 * precision their spread supports, WARNING lines. Shared by the text
 * report's files only. */
#ifndef CLOMP_TEXT_FORMAT_H
#define CLOMP_TEXT_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include "../measure/record.h"

/* Escaped as in the report: bytes outside printable ASCII as \xNN. */
void print_escaped(FILE *out, const char *text);

/* `value` rounded to the first significant digit of `uncertainty` (one
 * digit more is never supported by the data); plain %.*f with max_decimals
 * when there is no uncertainty. Never "-0", and a nonzero value never
 * rounds to 0 (it keeps its own first significant digit). Returns buf. */
const char *measured_text(char *buf, size_t size, double value, double uncertainty, int max_decimals);
const char *bound_text(char *buf, size_t size, double bound, double uncertainty, int max_decimals, int direction);

/* Half-width of a sample's median interval, or its standard deviation
 * when there are too few samples for an interval. */
double median_uncertainty(const SampleStats *st);

/* The WARNING lines of a block (or of the set-up, label "") that are shown `shown`. */
void print_warnings(FILE *out, const char *label, const WarningList *warnings, WarningShown shown);

/* Per-thread and per-rank tables (text_tables.c): in full up to this many
 * rows, summarised beyond; the JSON always has them in full. */
#define TEXT_FULL_TABLE_ROWS 16
/* Prints the name of row i of a table (ctx: the table). */
typedef void (*RowNamer)(FILE *out, int i, const void *ctx);
/* "LABEL: min a (row), median b, max c (row); outliers: row (v), ..." over
 * v[0..n-1]; a row stands out by the outlier rule of timing/outlier_rule.h
 * (the MPI ranks' and the cluster report's) with no interval and no floor:
 * beyond 3.5 scaled MADs, or, when most rows are equal, by differing at all. */
void print_table_summary(FILE *out, const char *label, const double *v, int n, RowNamer name, const void *ctx);
/* Beyond TEXT_FULL_TABLE_ROWS threads: threads per core, CPUs per thread, threads by node. */
void print_thread_placement_summary(FILE *out, const TeamPlacement *tp);
/* Beyond TEXT_FULL_TABLE_ROWS ranks: ranks per host, CPUs per rank. */
void print_rank_layout_summary(FILE *out, const RankInfo *info, int ranks);

/* The locality lines of the set-up (text_numa.c). */
void print_locality(FILE *out, const LocalitySummary *l);
/* After the timed runs, when the locality was measured again. */
void print_locality_after(FILE *out, const LocalitySummary *l);

#endif
