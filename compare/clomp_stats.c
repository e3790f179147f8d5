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
 *   clomp-stats comparison-json --level L < RECORDS
 *       the document run_clomp.sh --compare writes (docs/compare.md), with
 *       report/json.c's writer, to stdout: each figure is compared here as
 *       by `compare`, from tab-separated records on stdin, one per line
 *       (the last field of each takes the rest of the line):
 *         date TEXT | host TEXT | arguments TEXT | replicates N |
 *         figures_compared M |
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

#include "../report/json.h"
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

/* One figure's comparison: what `compare` prints and the JSON holds. */
typedef struct FigureComparison {
    long n_a, n_b;
    double median_a, median_b;
    RankTest test;
    ShiftInterval shift;
    int detected;   /* the interval excludes "no change" and p < 1 - level */
} FigureComparison;

static int compare_samples(const double *a, long m, const double *b, long n, double level, FigureComparison *c)
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
        print_ratio(s->estimate, "\t");
        print_ratio(s->has_ci ? s->low : NAN, "\t");
        print_ratio(s->has_ci ? s->high : NAN, "\n");
    } else {
        print_text(s->estimate, u, "\t");
        print_text(s->has_ci ? s->low : NAN, u, "\t");
        print_text(s->has_ci ? s->high : NAN, u, "\n");
    }
    return 0;
}

/* ---- comparison-json ------------------------------------------------------------------ */

#define MAX_FIELDS 8

typedef struct Records {
    char **line;
    long count;
} Records;

/* Every line of stdin, without its newline; exits 3 when out of memory. */
static Records read_records(void)
{
    Records r = {NULL, 0};
    long capacity = 0;
    char *buf = NULL;
    size_t size = 0;
    ssize_t len;
    while ((len = getline(&buf, &size, stdin)) >= 0) {
        if (len > 0 && buf[len - 1] == '\n')
            buf[len - 1] = '\0';
        if (r.count == capacity) {
            capacity = capacity ? 2 * capacity : 64;
            char **grown = realloc(r.line, (size_t)capacity * sizeof *grown);
            if (grown == NULL) {
                fprintf(stderr, "clomp-stats: comparison-json: out of memory\n");
                exit(3);
            }
            r.line = grown;
        }
        r.line[r.count++] = buf;
        buf = NULL;
        size = 0;
    }
    free(buf);
    return r;
}

/* Splits LINE in place at tabs into at most MAX fields (the last keeps any
 * further tabs); returns how many. */
static int split_fields(char *line, char **field, int max)
{
    int n = 0;
    field[n++] = line;
    while (n < max) {
        char *tab = strchr(field[n - 1], '\t');
        if (tab == NULL)
            break;
        *tab = '\0';
        field[n++] = tab + 1;
    }
    return n;
}

/* The one field of the first record of TYPE, or NULL. */
static const char *record_value(const Records *r, const char *type)
{
    size_t len = strlen(type);
    for (long i = 0; i < r->count; i++)
        if (strncmp(r->line[i], type, len) == 0 && r->line[i][len] == '\t')
            return r->line[i] + len + 1;
    return NULL;
}

static long record_count(const Records *r, const char *type)
{
    const char *text = record_value(r, type);
    char *end;
    long value = text ? strtol(text, &end, 10) : 0;
    if (text == NULL || end == text || *end != '\0') {
        fprintf(stderr, "clomp-stats: comparison-json: no '%s' count\n", type);
        exit(2);
    }
    return value;
}

static void write_side(JsonWriter *w, const Records *r, char **side)
{
    char *field[MAX_FIELDS];
    json_object_begin(w, NULL);
    json_string(w, "side", side[1]);
    json_string(w, "spec", side[2]);
    json_string(w, "what", side[3]);
    json_string(w, "binary", side[4]);
    json_string(w, "ld_library_path_first", side[5][0] != '\0' ? side[5] : NULL);
    json_object_begin(w, "runtime_library");
    json_string(w, "path", side[6]);
    json_string(w, "version", side[7]);
    json_object_end(w);
    json_object_begin(w, "settings");
    for (long i = 0; i < r->count; i++) {
        if (strncmp(r->line[i], "setting\t", 8) != 0)
            continue;
        char *copy = strdup(r->line[i]);
        if (copy == NULL || split_fields(copy, field, 4) != 4) {
            fprintf(stderr, "clomp-stats: comparison-json: bad setting record\n");
            exit(2);
        }
        if (strcmp(field[1], side[1]) == 0)
            json_string(w, field[2], field[3]);
        free(copy);
    }
    json_object_end(w);
    json_object_end(w);
}

static int write_figure(JsonWriter *w, char **figure, double level)
{
    static double a[MAX_VALUES], b[MAX_VALUES];
    long m = parse_list(figure[2], a, "A"), n = parse_list(figure[3], b, "B");
    FigureComparison c;
    int status = compare_samples(a, m, b, n, level, &c);
    if (status != 0)
        return status;
    json_object_begin(w, NULL);
    json_string(w, "figure", figure[1]);
    json_string(w, "scale", c.shift.ratio ? "ratio" : "difference");
    json_array_begin(w, "a");
    for (long i = 0; i < m; i++)
        json_number(w, NULL, a[i]);
    json_array_end(w);
    json_array_begin(w, "b");
    for (long i = 0; i < n; i++)
        json_number(w, NULL, b[i]);
    json_array_end(w);
    json_number(w, "median_a", c.median_a);
    json_number(w, "median_b", c.median_b);
    json_number(w, "estimate", c.shift.estimate);
    if (c.shift.has_ci) {
        json_array_begin(w, "ci_95");
        json_number(w, NULL, c.shift.low);
        json_number(w, NULL, c.shift.high);
        json_array_end(w);
        json_number(w, "ci_coverage", c.shift.coverage);
    } else {
        json_null(w, "ci_95");
        json_null(w, "ci_coverage");
    }
    json_number(w, "u", c.test.u);
    json_number(w, "p", c.test.p_two_sided);
    json_string(w, "test", c.test.exact ? "exact" : "normal");
    json_bool(w, "detected", c.detected);
    json_string(w, "verdict", figure[4]);
    json_object_end(w);
    return 0;
}

static int comparison_json(double level)
{
    Records r = read_records();
    char *field[MAX_FIELDS];
    JsonWriter w;
    int status = 0;
    json_start(&w, stdout);
    json_object_begin(&w, NULL);
    json_string(&w, "schema", "clomp-comparison");
    json_integer(&w, "schema_version", 1);
    json_string(&w, "date", record_value(&r, "date"));
    json_string(&w, "host", record_value(&r, "host"));
    json_string(&w, "arguments", record_value(&r, "arguments"));
    json_integer(&w, "replicates", record_count(&r, "replicates"));
    json_string(&w, "order", "ABAB");
    json_string(&w, "interval", "distribution-free (Moses) over the A x B process pairs: between processes");
    json_integer(&w, "figures_compared", record_count(&r, "figures_compared"));
    json_number(&w, "familywise_level", CLOMP_CI_LEVEL);
    json_number(&w, "interval_coverage_each", level);
    json_array_begin(&w, "sides");
    for (long i = 0; i < r.count; i++) {
        if (strncmp(r.line[i], "side\t", 5) != 0)
            continue;
        char *copy = strdup(r.line[i]);
        if (copy == NULL || split_fields(copy, field, 8) != 8) {
            fprintf(stderr, "clomp-stats: comparison-json: bad side record\n");
            exit(2);
        }
        write_side(&w, &r, field);
        free(copy);
    }
    json_array_end(&w);
    json_array_begin(&w, "figures");
    for (long i = 0; i < r.count && status == 0; i++) {
        if (strncmp(r.line[i], "figure\t", 7) != 0)
            continue;
        if (split_fields(r.line[i], field, 5) != 5) {
            fprintf(stderr, "clomp-stats: comparison-json: bad figure record\n");
            exit(2);
        }
        status = write_figure(&w, field, level);
    }
    json_array_end(&w);
    json_object_end(&w);
    for (long i = 0; i < r.count; i++)
        free(r.line[i]);
    free(r.line);
    if (status != 0)
        return status;
    if (json_finish(&w) != 0) {
        fprintf(stderr, "clomp-stats: comparison-json: the document could not be written\n");
        return 1;
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
