/* clomp-stats: the statistics of timing/ for the shell drivers, so that the
 * suite's between-process summary and run_clomp.sh --compare use the same
 * tested code as clomp itself. Built by `make clomp-stats` into $(BUILD).
 *
 *   clomp-stats summary V1 V2 ...
 *       n, median, min, max, ci_low, ci_high, ci_coverage (95% order-statistic
 *       interval of the median; NA below 6 values), range_coverage (how
 *       often [min, max] holds the median: 1 - 2^(1-n)), then median, min,
 *       max, ci_low, ci_high as text to the precision the spread supports.
 *   clomp-stats compare [--level L] A1,A2,... B1,B2,...
 *       n_a, n_b, median_a, median_b, scale (ratio or difference),
 *       estimate, low, high, coverage (NA without an interval), u, p,
 *       test (exact or normal), detected (1 when the interval at level L,
 *       default 0.95, excludes "no change" and p < 1 - L), then estimate, low, high as text (ratios
 *       to three significant digits, up to five when a ratio other than 1 would read 1.00 or the
 *       interval's ends would read alike; differences to their uncertainty).
 *   clomp-stats comparison-json --level L < RECORDS
 *       the document run_clomp.sh --compare writes (docs/compare.md), with
 *       report/json.c's writer, to stdout: each figure is compared here as
 *       by `compare`, from tab-separated records on stdin, one per line
 *       (the last field of each takes the rest of the line):
 *         date TEXT | host TEXT | arguments TEXT | replicates N |
 *         order NAME (ABBA) | sequence SIDES (e.g. ABBAAB...: the sides in the
 *         order their processes ran) | figures_compared M |
 *         side A|B SPEC WHAT BINARY LD_LIBRARY_PATH_FIRST (empty: none)
 *             RUNTIME_PATH RUNTIME_VERSION |
 *         setting A|B VAR VALUE |
 *         figure NAME A1,A2,... B1,B2,... VERDICT
 *
 * summary and compare print one tab-separated line. Exit status 2 with a
 * one-line message on bad input. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timing/statistics.h"
#include "figure_comparison.h"

static void print_number(double v, const char *separator)
{
    if (isnan(v))
        printf("NA%s", separator);
    else
        printf("%.15g%s", v, separator);   /* 15 digits: decimal inputs read back as written */
}

static void print_text(double v, double uncertainty, const char *separator)
{
    if (isnan(v))
        printf("NA%s", separator);
    else
        printf("%.*f%s", decimals_for_uncertainty(uncertainty, 3), v, separator);
}

/* A ratio to DIGITS significant digits (3: 0.0520, 1.04, 12.0, 180) into
 * TEXT: a +4% change reads 1.04, and an interval of ratios can span
 * decades. A value that is not 1 but would read 1.00 gets up to two more
 * digits (1.004), so a detected change never reads as no change. */
static void format_ratio(char *text, size_t size, double v, int digits)
{
    if (isnan(v) || !(v > 0.0)) {
        snprintf(text, size, "NA");
        return;
    }
    int magnitude = (int)floor(log10(v));
    do {
        int decimals = digits - 1 - magnitude;
        snprintf(text, size, "%.*f", decimals < 0 ? 0 : decimals, v);
        digits++;
    } while (v != 1.0 && strtod(text, NULL) == 1.0 && digits <= 5);
}

/* Estimate, low and high of a ratio as text: three significant digits, or
 * up to five when the interval's two ends would otherwise read alike. */
static void print_ratios(double estimate, double low, double high)
{
    char e[64], l[64], h[64];
    int digits = 3;
    do {
        format_ratio(e, sizeof e, estimate, digits);
        format_ratio(l, sizeof l, low, digits);
        format_ratio(h, sizeof h, high, digits);
    } while (low < high && strcmp(l, h) == 0 && ++digits <= 5);
    printf("%s\t%s\t%s\n", e, l, h);
}

static int summary(int argc, char **argv)
{
    static double values[MAX_VALUES];
    long n = 0;
    for (int i = 0; i < argc; i++) {
        if (n >= MAX_VALUES || parse_value(argv[i], &values[n]) != 0) {
            fprintf(stderr, "clomp-stats: summary: '%s' is not a number\n", argv[i]);
            return 2;
        }
        n++;
    }
    if (n == 0) {
        fprintf(stderr, "clomp-stats: summary: no values\n");
        return 2;
    }
    SampleStats s = summarize_samples(values, n, CLOMP_CI_LEVEL);
    double low = s.has_ci ? s.ci_low : NAN, high = s.has_ci ? s.ci_high : NAN;
    double u = s.has_ci ? 0.5 * (s.ci_high - s.ci_low) : 0.5 * (s.max - s.min);
    printf("%ld\t", s.n);
    print_number(s.median, "\t");
    print_number(s.min, "\t");
    print_number(s.max, "\t");
    print_number(low, "\t");
    print_number(high, "\t");
    print_number(s.has_ci ? s.ci_coverage : NAN, "\t");
    print_number(n >= 2 ? 1.0 - pow(2.0, (double)(1 - n)) : NAN, "\t");
    print_text(s.median, u, "\t");
    print_text(s.min, u, "\t");
    print_text(s.max, u, "\t");
    print_text(low, u, "\t");
    print_text(high, u, "\n");
    return 0;
}

static int compare(const char *list_a, const char *list_b, double level)
{
    static double a[MAX_VALUES], b[MAX_VALUES];
    long m = parse_list(list_a, a, "A"), n = parse_list(list_b, b, "B");
    FigureComparison c;
    int status = compare_samples(a, m, b, n, level, &c);
    if (status != 0)
        return status;
    const ShiftInterval *s = &c.shift;
    double u = s->has_ci ? 0.5 * (s->high - s->low) : 0.01 * fabs(s->estimate);
    printf("%ld\t%ld\t", m, n);
    print_number(c.median_a, "\t");
    print_number(c.median_b, "\t");
    printf("%s\t", s->ratio ? "ratio" : "difference");
    print_number(s->estimate, "\t");
    print_number(s->has_ci ? s->low : NAN, "\t");
    print_number(s->has_ci ? s->high : NAN, "\t");
    print_number(s->has_ci ? s->coverage : NAN, "\t");
    print_number(c.test.u, "\t");
    print_number(c.test.p_two_sided, "\t");
    printf("%s\t%d\t", c.test.exact ? "exact" : "normal", c.detected);
    if (s->ratio) {
        print_ratios(s->estimate, s->has_ci ? s->low : NAN, s->has_ci ? s->high : NAN);
    } else {
        print_text(s->estimate, u, "\t");
        print_text(s->has_ci ? s->low : NAN, u, "\t");
        print_text(s->has_ci ? s->high : NAN, u, "\n");
    }
    return 0;
}

/* The level of --level TEXT; exits 2 unless it is a number between 0 and 1. */
static double parse_level(const char *text)
{
    double level;
    if (parse_value(text, &level) != 0 || !(level > 0.0 && level < 1.0)) {
        fprintf(stderr, "clomp-stats: --level: '%s' is not a number between 0 and 1\n", text);
        exit(2);
    }
    return level;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "summary") == 0)
        return summary(argc - 2, argv + 2);
    if (argc == 4 && strcmp(argv[1], "compare") == 0)
        return compare(argv[2], argv[3], CLOMP_CI_LEVEL);
    if (argc == 6 && strcmp(argv[1], "compare") == 0 && strcmp(argv[2], "--level") == 0)
        return compare(argv[4], argv[5], parse_level(argv[3]));
    if (argc == 4 && strcmp(argv[1], "comparison-json") == 0 && strcmp(argv[2], "--level") == 0)
        return comparison_json(parse_level(argv[3]));
    fprintf(stderr, "usage: clomp-stats summary V1 V2 ... | clomp-stats compare [--level L] A1,A2,... B1,B2,...\n"
                    "     | clomp-stats comparison-json --level L < RECORDS\n");
    return 2;
}
