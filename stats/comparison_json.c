/* clomp-stats comparison-json: the document run_clomp.sh --compare writes
 * (docs/compare.md), with report/json.c's writer. */
#include "figure_comparison.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../report/json.h"
#include "../timing/decision.h"
#include "../timing/signed_rank.h"
#include "../timing/statistics.h"
#include "paired_figure.h"

/* ---- comparison-json ------------------------------------------------------------------ */

#define MAX_FIELDS 10

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

/* One side: the driver's cells, the runtime library ldd resolved, and (a 10th cell) which
 * library its processes loaded, by their records (compare_report.loaded_libraries). */
static void write_side(JsonWriter *w, const Records *r, char **side, int cells)
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
    if (cells > 9)
        json_string(w, "loaded_by_processes", side[9]);
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
    json_string(w, "placement", side[8]);
    json_object_end(w);
}

/* The paired statistics of one figure (pair i: a[i], b[i]) at interval level `ci_level`. */
static void write_paired(JsonWriter *w, const double *a, const double *b, long n, double ci_level, const char *role,
                         const char *adjusted)
{
    static double d[MAX_VALUES];
    PairedFigure f;
    if (paired_figure(a, b, n, ci_level > 0.0 && ci_level < 1.0 ? ci_level : 0.95, d, &f) != 0) {
        fprintf(stderr, "clomp-stats: comparison-json: out of memory\n");
        exit(3);
    }
    const ShiftEstimate s = f.shift;
    BrunnerMunzel bm;
    int have_bm = brunner_munzel(a, n, b, n, &bm) == 0;
    char *end;
    double holm = strtod(adjusted, &end);
    json_object_begin(w, "paired");
    json_integer(w, "pairs", n);
    json_string(w, "role", role);
    json_number(w, "shift", s.estimate);
    if (s.has_ci && ci_level > 0.0 && ci_level < 1.0) {
        json_array_begin(w, "shift_ci");
        json_number(w, NULL, s.low);
        json_number(w, NULL, s.high);
        json_array_end(w);
        json_number(w, "ci_level_asked", ci_level);
        json_number(w, "ci_coverage", s.coverage);
    } else {
        json_null(w, "shift_ci");
        json_null(w, "ci_level_asked");
        json_null(w, "ci_coverage");
    }
    json_number(w, "w_plus", s.w_plus);
    json_number(w, "p", s.p_value);
    json_string(w, "test", s.exact ? "exact signed-rank (conditional on ties and zeros)"
                                   : "normal signed-rank (> 50 non-zero pairs)");
    json_number(w, "holm_adjusted_p", end != adjusted && *end == '\0' ? holm : NAN);
    json_number(w, "p_b_greater", have_bm ? bm.p_b_greater : NAN);
    json_number(w, "brunner_munzel_p", have_bm ? bm.p_value : NAN);
    json_bool(w, "shift_ci_low_open", s.has_ci && s.low_open);
    json_bool(w, "shift_ci_high_open", s.has_ci && s.high_open);
    json_number(w, "serial_lag1", f.lag1);
    json_number(w, "effective_pairs", f.effective_pairs);
    json_number(w, "serial_p", f.serial_p);
    json_bool(w, "serial_correlation_widened", f.serial);
    json_object_end(w);
}

/* figure KEY ROLE DECIDED HOLM_ADJUSTED_P CI_LEVEL NAME A1,... B1,... VERDICT */
static int write_figure(JsonWriter *w, char **figure, double level)
{
    static double a[MAX_VALUES], b[MAX_VALUES];
    long m = parse_list(figure[7], a, "A"), n = parse_list(figure[8], b, "B");
    FigureComparison c;
    int status = compare_samples(a, m, b, n, level, &c);
    if (status != 0)
        return status;
    double ci_level;
    if (parse_value(figure[5], &ci_level) != 0)
        ci_level = NAN;
    json_object_begin(w, NULL);
    json_string(w, "figure", figure[6]);
    json_string(w, "key", figure[1]);
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
    json_bool(w, "unpaired_detected", c.detected);
    if (m == n && strcmp(figure[2], "constant") != 0)
        write_paired(w, a, b, n, ci_level, figure[2], figure[4]);
    else
        json_null(w, "paired");
    json_bool(w, "detected", strcmp(figure[3], "1") == 0);
    json_string(w, "verdict", figure[9]);
    json_object_end(w);
    return 0;
}

int comparison_json(double level)
{
    Records r = read_records();
    char *field[MAX_FIELDS];
    JsonWriter w;
    int status = 0;
    json_document_begin(&w, stdout, "clomp-comparison", 2);
    json_string(&w, "date", record_value(&r, "date"));
    json_string(&w, "host", record_value(&r, "host"));
    json_string(&w, "arguments", record_value(&r, "arguments"));
    json_integer(&w, "replicates", record_count(&r, "replicates"));
    json_string(&w, "order", record_value(&r, "order"));
    json_string(&w, "sequence", record_value(&r, "sequence"));
    json_string(&w, "primary", record_value(&r, "primary"));
    json_number(&w, "alpha", 0.05);
    const char *looks = record_value(&r, "looks");
    json_string(&w, "looks", looks != NULL && strcmp(looks, "NA") != 0 ? looks : NULL);
    json_string(&w, "interval", "paired: the Hodges-Lehmann shift of B - A over the pairs with its signed-rank "
                                "interval; unpaired (u, p, ci_95): distribution-free (Moses) over the A x B process pairs");
    json_integer(&w, "figures_compared", record_count(&r, "figures_compared"));
    json_number(&w, "familywise_level", CLOMP_CI_LEVEL);
    json_number(&w, "interval_coverage_each", level);
    json_array_begin(&w, "sides");
    for (long i = 0; i < r.count; i++) {
        if (strncmp(r.line[i], "side\t", 5) != 0)
            continue;
        char *copy = strdup(r.line[i]);
        int cells = copy != NULL ? split_fields(copy, field, 10) : 0;
        if (cells != 9 && cells != 10) {
            fprintf(stderr, "clomp-stats: comparison-json: bad side record\n");
            exit(2);
        }
        write_side(&w, &r, field, cells);
        free(copy);
    }
    json_array_end(&w);
    json_array_begin(&w, "figures");
    for (long i = 0; i < r.count && status == 0; i++) {
        if (strncmp(r.line[i], "figure\t", 7) != 0)
            continue;
        if (split_fields(r.line[i], field, 10) != 10) {
            fprintf(stderr, "clomp-stats: comparison-json: bad figure record\n");
            exit(2);
        }
        status = write_figure(&w, field, level);
    }
    json_array_end(&w);
    /* dropped KEY SIDE PROCESSES REASON: the processes of a side that could give a figure and did not */
    json_array_begin(&w, "dropped");
    for (long i = 0; i < r.count; i++) {
        if (strncmp(r.line[i], "dropped\t", 8) != 0)
            continue;
        char *copy = strdup(r.line[i]);
        char *end;
        long processes;
        if (copy == NULL || split_fields(copy, field, 5) != 5 || (processes = strtol(field[3], &end, 10)) < 1 ||
            *end != '\0') {
            fprintf(stderr, "clomp-stats: comparison-json: bad dropped record\n");
            exit(2);
        }
        json_object_begin(&w, NULL);
        json_string(&w, "key", field[1]);
        json_string(&w, "side", field[2]);
        json_integer(&w, "processes", processes);
        json_string(&w, "reason", field[4]);
        json_object_end(&w);
        free(copy);
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

