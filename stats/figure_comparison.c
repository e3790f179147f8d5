#include "figure_comparison.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timing/statistics.h"
#include "answer_fields.h"

int parse_value(const char *text, double *value)
{
    char *end;
    errno = 0;
    *value = strtod(text, &end);
    return end != text && *end == '\0' && errno == 0 && isfinite(*value) ? 0 : -1;
}

long parse_list(const char *list, double *values, const char *what)
{
    long n = 0;
    char buf[64];
    const char *p = list;
    while (*p != '\0') {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof buf || n >= MAX_VALUES) {
            fprintf(stderr, "clomp-stats: %s: bad list '%s'\n", what, list);
            answer_exit(2);
        }
        memcpy(buf, p, len);
        // cppcheck-suppress arrayIndexOutOfBoundsCond  ; answer_exit above does not return: len < sizeof buf here
        buf[len] = '\0';
        if (parse_value(buf, &values[n]) != 0) {
            fprintf(stderr, "clomp-stats: %s: '%s' is not a number\n", what, buf);
            answer_exit(2);
        }
        n++;
        p += len;
        if (*p == ',')
            p++;
    }
    if (n == 0) {
        fprintf(stderr, "clomp-stats: %s: no values\n", what);
        answer_exit(2);
    }
    return n;
}

int compare_samples(const double *a, long m, const double *b, long n, double level, FigureComparison *c)
{
    if (mann_whitney(a, m, b, n, &c->test) != 0 || shift_interval(a, m, b, n, level, &c->shift) != 0) {
        fprintf(stderr, "clomp-stats: compare: out of memory\n");
        return 3;
    }
    double none = c->shift.ratio ? 1.0 : 0.0;
    c->n_a = m;
    c->n_b = n;
    c->median_a = median_of(a, m);
    c->median_b = median_of(b, n);
    c->detected = c->shift.has_ci && (c->shift.low > none || c->shift.high < none) && c->test.p_two_sided < 1.0 - level;
    return 0;
}

