/* clomp-stats outliers: the outlier rule of timing/outlier_rule.h (the MPI
 * rank-outlier table's) for many distributions at once - the cluster
 * report's every group of comparable nodes and every key figure in one
 * process (results/clomp_results/cluster/cluster.py), never one process per node.
 *
 *   clomp-stats outliers < REQUEST
 * REQUEST: lines of whitespace-separated words; a member line belongs to the
 * distribution line before it:
 *   distribution KEY none              no floor
 *   distribution KEY value X           the floor is X (the figure's unit)
 *   distribution KEY share F KEY2      the floor is F x |median| of distribution KEY2
 *                                      (an earlier one, or KEY itself)
 *   member ID VALUE HALF_WIDTH BUSY    its figure (NA: none), its own 95% interval's
 *                                      half-width (NA: none), BUSY 1 when its own
 *                                      noise census said busy (left out, never judged)
 * KEY and ID: 1 to 64 of A-Z a-z 0-9 _ . : - (they are echoed).
 * Answer: one JSON object per line, each distribution's then its members':
 *   {"distribution": KEY, "n", "busy", "missing", "judged", "median", "mad",
 *    "spread_cut", "floor"}
 *   {"member": ID, "distribution": KEY, "busy", "value", "stands_out",
 *    "deviation" (value - median), "threshold", "scaled_mads" (|deviation| over
 *    1.4826 x MAD; null when MAD is 0)}
 * null for what is not known. Exit 2 with a one-line message on bad input. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timing/outlier_rule.h"
#include "answer_fields.h"
#include "figure_comparison.h"

#define MAX_DISTRIBUTIONS 10000L
#define MAX_MEMBERS 1000000L
#define MAX_LINE 512
#define MAX_NAME 64

typedef struct Distribution {
    char key[MAX_NAME + 1];
    enum { FLOOR_NONE, FLOOR_VALUE, FLOOR_SHARE } floor_kind;
    double floor_value;        /* the floor, or the share */
    long floor_of;             /* FLOOR_SHARE: the distribution whose median it is a share of */
    long first, count;         /* its members */
    OutlierGroup group;
} Distribution;

typedef struct Member {
    char id[MAX_NAME + 1];
    double value, half_width;
    unsigned char busy;
} Member;

static int bad(long line, const char *what)
{
    fprintf(stderr, "clomp-stats: outliers: line %ld: %s\n", line, what);
    return 2;
}

static int good_name(const char *s)
{
    size_t n = strlen(s);
    if (n < 1 || n > MAX_NAME)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && strchr("_.:-", s[i]) == NULL)
            return 0;
    return 1;
}

/* A number, or NA: NaN. */
static int number_or_na(const char *s, double *v)
{
    if (strcmp(s, "NA") == 0) {
        *v = NAN;
        return 0;
    }
    return parse_value(s, v) != 0 || !isfinite(*v) ? -1 : 0;
}

static long find(const Distribution *d, long count, const char *key)
{
    for (long i = 0; i < count; i++)
        if (strcmp(d[i].key, key) == 0)
            return i;
    return -1;
}

/* Reads the request into d[] and m[]; 0, or the exit status after a message. */
static int read_request(Distribution *d, long *nd, Member *m, long *nm)
{
    char line[MAX_LINE + 2];
    long number = 0;
    while (fgets(line, sizeof line, stdin) != NULL) {
        number++;
        if (strchr(line, '\n') == NULL && !feof(stdin))
            return bad(number, "longer than 512 characters");
        char *w[8];
        int words = 0;
        for (char *t = strtok(line, " \t\r\n"); t != NULL; t = strtok(NULL, " \t\r\n"))
            if (words < 8)
                w[words++] = t;
            else
                return bad(number, "too many words");
        if (words == 0)
            continue;
        if (strcmp(w[0], "distribution") == 0) {
            if (*nd >= MAX_DISTRIBUTIONS)
                return bad(number, "more than 10000 distributions");
            Distribution *x = &d[*nd];
            if (words < 3 || !good_name(w[1]))
                return bad(number, "usage: distribution KEY none|value X|share F KEY2 (KEY: 1-64 of A-Za-z0-9_.:-)");
            if (find(d, *nd, w[1]) >= 0)
                return bad(number, "a distribution of that KEY came before");
            snprintf(x->key, sizeof x->key, "%s", w[1]);
            x->first = *nm, x->count = 0;
            if (strcmp(w[2], "none") == 0 && words == 3) {
                x->floor_kind = FLOOR_NONE;
            } else if (strcmp(w[2], "value") == 0 && words == 4 && number_or_na(w[3], &x->floor_value) == 0 &&
                       x->floor_value >= 0.0) {
                x->floor_kind = FLOOR_VALUE;
            } else if (strcmp(w[2], "share") == 0 && words == 5 && number_or_na(w[3], &x->floor_value) == 0 &&
                       x->floor_value >= 0.0) {
                x->floor_kind = FLOOR_SHARE;
                x->floor_of = strcmp(w[4], w[1]) == 0 ? *nd : find(d, *nd, w[4]);
                if (x->floor_of < 0)
                    return bad(number, "share of a distribution that did not come before");
            } else {
                return bad(number, "the floor is none, value X or share F KEY2 (X, F: numbers >= 0)");
            }
            (*nd)++;
        } else if (strcmp(w[0], "member") == 0) {
            if (*nd == 0)
                return bad(number, "a member before any distribution");
            if (*nm >= MAX_MEMBERS)
                return bad(number, "more than 1000000 members");
            Member *x = &m[*nm];
            if (words != 5 || !good_name(w[1]) || number_or_na(w[2], &x->value) != 0 ||
                number_or_na(w[3], &x->half_width) != 0 || (strcmp(w[4], "0") != 0 && strcmp(w[4], "1") != 0))
                return bad(number, "usage: member ID VALUE|NA HALF_WIDTH|NA 0|1");
            snprintf(x->id, sizeof x->id, "%s", w[1]);
            x->busy = w[4][0] == '1';
            d[*nd - 1].count++;
            (*nm)++;
        } else {
            return bad(number, "neither a distribution nor a member line");
        }
    }
    return 0;
}

static void field_bool(const char *name, int v)
{
    field_raw(name, v ? "true" : "false", 0);
}

static void answer_distribution(const Distribution *x, double floor)
{
    const OutlierGroup *g = &x->group;
    field_raw("distribution", x->key, 1);
    field_long("n", g->n);
    field_long("busy", g->excluded);
    field_long("missing", g->missing);
    field_bool("judged", g->judged);
    field_number("median", g->median);
    field_number("mad", g->mad);
    field_number("spread_cut", g->spread_cut);
    field_number("floor", floor);
    answer_end();
}

static void answer_member(const Distribution *x, const Member *m, double floor)
{
    const OutlierGroup *g = &x->group;
    double threshold = m->busy ? NAN : outlier_threshold(g, m->half_width, floor);
    double deviation = m->busy ? NAN : m->value - g->median;
    field_raw("member", m->id, 1);
    field_raw("distribution", x->key, 1);
    field_bool("busy", m->busy);
    field_number("value", m->value);
    field_bool("stands_out", !m->busy && outlier_stands_out(g, m->value, threshold));
    field_number("deviation", deviation);
    field_number("threshold", g->judged ? threshold : NAN);
    field_number("scaled_mads", g->mad > 0.0 ? fabs(deviation) / (OUTLIER_MAD_SCALE * g->mad) : NAN);
    answer_end();
}

int outlier_answer(int argc, char **argv)
{
    (void)argv;
    if (argc != 0) {
        fprintf(stderr, "clomp-stats: outliers: usage: clomp-stats outliers < REQUEST (no arguments)\n");
        return 2;
    }
    Distribution *d = calloc((size_t)MAX_DISTRIBUTIONS, sizeof *d);
    Member *m = malloc((size_t)MAX_MEMBERS * sizeof *m);
    double *values = malloc((size_t)MAX_MEMBERS * sizeof *values);
    unsigned char *busy = malloc((size_t)MAX_MEMBERS);
    long nd = 0, nm = 0;
    int status = d == NULL || m == NULL || values == NULL || busy == NULL ? 3 : read_request(d, &nd, m, &nm);
    if (status == 3)
        fprintf(stderr, "clomp-stats: outliers: out of memory\n");
    for (long i = 0; status == 0 && i < nd; i++) {
        for (long k = 0; k < d[i].count; k++) {
            values[k] = m[d[i].first + k].value;
            busy[k] = m[d[i].first + k].busy;
        }
        if (outlier_group(values, busy, d[i].count, &d[i].group) != 0) {
            fprintf(stderr, "clomp-stats: outliers: out of memory\n");
            status = 3;
        }
    }
    json_output = 1;
    for (long i = 0; status == 0 && i < nd; i++) {
        double floor = d[i].floor_kind == FLOOR_VALUE ? d[i].floor_value
                     : d[i].floor_kind == FLOOR_SHARE ? d[i].floor_value * fabs(d[d[i].floor_of].group.median)
                                                      : NAN;
        answer_distribution(&d[i], floor);
        for (long k = 0; k < d[i].count; k++)
            answer_member(&d[i], &m[d[i].first + k], floor);
    }
    free(d);
    free(m);
    free(values);
    free(busy);
    return status;
}
