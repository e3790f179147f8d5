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

/* Half-width of a sample's median interval, or its standard deviation
 * when there are too few samples for an interval. */
double median_uncertainty(const SampleStats *st);

/* The WARNING lines of a block (or of the set-up, label "") that are shown `shown`. */
void print_warnings(FILE *out, const char *label, const WarningList *warnings, WarningShown shown);

/* The locality lines of the set-up (text_numa.c). */
void print_locality(FILE *out, const LocalitySummary *l);
/* After the timed runs, when the locality was measured again. */
void print_locality_after(FILE *out, const LocalitySummary *l);

#endif
