/* The figures of clomp --limits, each described once (key, label, unit,
 * what it measures, its estimator, which way is better) with how its value
 * comes from the record: the text block, the JSON's `limits.figures` and
 * the CSV's limits_* columns all loop over this one table (docs/limits.md
 * explains each). A new figure is one row. */
#ifndef CLOMP_LIMITS_FIGURES_H
#define CLOMP_LIMITS_FIGURES_H

#include <stddef.h>

#include "../measure/record.h"

/* One figure's value in a record. */
typedef struct LimitValue {
    int available;             /* measured (else every number NAN) */
    double value;
    int has_ci;                /* a 95% interval (within this process) */
    double low, high;
    const char *not_a_result;  /* NULL, or why it is not one */
    int withheld;              /* with not_a_result: a figure derived from others, withheld (N/A, null); else
                                * a timing's own, shown flagged (as a measurement's INVALID figures are) */
    const char *note;          /* NULL, or what it was taken from ("Dissemination") */
} LimitValue;

typedef struct LimitFigure {
    const char *key;           /* JSON member of limits.figures; CSV column limits_<key> */
    const char *label;         /* the text block's label */
    const char *unit;          /* "ns", "cycles", "x" (a ratio) */
    const char *measures;      /* what it measures */
    const char *estimator;     /* how the value is estimated */
    const char *better;        /* "lower" or "higher" */
    int timing;                /* its LimitTimingId, or -1: not one timing's own */
    LimitValue (*value)(const LimitsRecord *l);
} LimitFigure;

extern const LimitFigure limit_figures[];
extern const size_t limit_figure_count;

#endif
