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
 *       to two significant digits, differences to their uncertainty).
 *
 * One tab-separated line. Exit status 2 with a one-line message on bad
 * input. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timing/comparison.h"
#include "../timing/statistics.h"

#define MAX_VALUES 10000

static int parse_value(const char *text, double *value)
{
    char *end;
    errno = 0;
    *value = strtod(text, &end);
    return end != text && *end == '\0' && errno == 0 && isfinite(*value) ? 0 : -1;
}

/* Values from a comma-separated list; exits 2 on anything but numbers. */
static long parse_list(const char *list, double *values, const char *what)
{
    long n = 0;
    char buf[64];
    const char *p = list;
    while (*p != '\0') {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof buf || n >= MAX_VALUES) {
            fprintf(stderr, "clomp-stats: %s: bad list '%s'\n", what, list);
            exit(2);
        }
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (parse_value(buf, &values[n]) != 0) {
            fprintf(stderr, "clomp-stats: %s: '%s' is not a number\n", what, buf);
            exit(2);
        }
        n++;
        p += len;
        if (*p == ',')
            p++;
    }
    if (n == 0) {
        fprintf(stderr, "clomp-stats: %s: no values\n", what);
        exit(2);
    }
    return n;
}

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

/* A ratio to two significant digits (0.56, 2.1, 14): an interval of ratios
 * can span decades, where one decimal place would print 0.56 as 1. */
static void print_ratio(double v, const char *separator)
{
    if (isnan(v))
        printf("NA%s", separator);
    else
        printf("%.*f%s", v >= 10.0 ? 0 : v >= 1.0 ? 1 : 1 - (int)floor(log10(v)), v, separator);
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
    RankTest t;
    ShiftInterval s;
    if (mann_whitney(a, m, b, n, &t) != 0 || shift_interval(a, m, b, n, level, &s) != 0) {
        fprintf(stderr, "clomp-stats: compare: out of memory\n");
        return 3;
    }
    double none = s.ratio ? 1.0 : 0.0;
    int detected = s.has_ci && (s.low > none || s.high < none) && t.p_two_sided < 1.0 - level;
    double u = s.has_ci ? 0.5 * (s.high - s.low) : 0.01 * fabs(s.estimate);
    printf("%ld\t%ld\t", m, n);
    print_number(median_of(a, m), "\t");
    print_number(median_of(b, n), "\t");
    printf("%s\t", s.ratio ? "ratio" : "difference");
    print_number(s.estimate, "\t");
    print_number(s.has_ci ? s.low : NAN, "\t");
    print_number(s.has_ci ? s.high : NAN, "\t");
    print_number(s.has_ci ? s.coverage : NAN, "\t");
    print_number(t.u, "\t");
    print_number(t.p_two_sided, "\t");
    printf("%s\t%d\t", t.exact ? "exact" : "normal", detected);
    if (s.ratio) {
        print_ratio(s.estimate, "\t");
        print_ratio(s.has_ci ? s.low : NAN, "\t");
        print_ratio(s.has_ci ? s.high : NAN, "\n");
    } else {
        print_text(s.estimate, u, "\t");
        print_text(s.has_ci ? s.low : NAN, u, "\t");
        print_text(s.has_ci ? s.high : NAN, u, "\n");
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "summary") == 0)
        return summary(argc - 2, argv + 2);
    if (argc == 4 && strcmp(argv[1], "compare") == 0)
        return compare(argv[2], argv[3], CLOMP_CI_LEVEL);
    if (argc == 6 && strcmp(argv[1], "compare") == 0 && strcmp(argv[2], "--level") == 0) {
        double level;
        if (parse_value(argv[3], &level) != 0 || !(level > 0.0 && level < 1.0)) {
            fprintf(stderr, "clomp-stats: --level: '%s' is not a number between 0 and 1\n", argv[3]);
            return 2;
        }
        return compare(argv[4], argv[5], level);
    }
    fprintf(stderr, "usage: clomp-stats summary V1 V2 ... | clomp-stats compare [--level L] A1,A2,... B1,B2,...\n");
    return 2;
}
