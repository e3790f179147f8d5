/* What clomp-stats compares (stats/clomp_stats.c, comparison_json.c):
 * parsing the values it is given, and one figure's A/B comparison. */
#ifndef CLOMP_FIGURE_COMPARISON_H
#define CLOMP_FIGURE_COMPARISON_H

#include "../timing/comparison.h"

#define MAX_VALUES 10000

/* 0 when TEXT is a whole finite number, else -1. */
int parse_value(const char *text, double *value);

/* Values from a comma-separated list; exits 2 on anything but numbers. */
long parse_list(const char *list, double *values, const char *what);

/* One figure's comparison: what `compare` prints and the JSON holds. */
typedef struct FigureComparison {
    long n_a, n_b;
    double median_a, median_b;
    RankTest test;
    ShiftInterval shift;
    int detected;   /* the interval excludes "no change" and p < 1 - level */
} FigureComparison;

/* 0, or 3 (said on stderr) when out of memory. */
int compare_samples(const double *a, long m, const double *b, long n, double level, FigureComparison *c);

/* clomp-stats comparison-json --level L < RECORDS (see clomp_stats.c). */
int comparison_json(double level);

#endif
