/* The metrics of a Caliper profile (--caliper-json): one list. Each value
 * is read from the table every other writer reads (figure_columns,
 * construct_columns, the catalogue's limit_figures) by its CSV column or key, so the
 * profile, the CSV and the JSON never disagree; column_metadata names the
 * record member each column equals, which the validator checks
 * (results/clomp_results/bundle/profile_check.py). */
#include "caliper_sections.h"

#include <math.h>
#include <string.h>

#include "construct_columns.h"
#include "figure_catalogue.h"
#include "figures.h"

const char *const profile_node_kind_names[PROFILE_NODE_KINDS] = {"group", "measurement", "construct", "limits"};

/* A measurement's metrics are the figure catalogue's kinds (figure_kinds,
 * `clomp --list-figures`): the column is the kind's suffix, so that a
 * figure's catalogue key is the measurement's prefix, '_', the column
 * (static_omp_median_overhead_us), with the kind's label, unit, CSV column,
 * JSON member and interval. CLOMP 1.2's figures (from the Runtime) and
 * clomp's own (from the median chunk) are separate kinds, as they are
 * separate keys. Then the measurement's facts that are no figure: its
 * Runtime, its team and its verification. */
static const struct {
    const char *column, *label, *unit;
    const char *csv;                 /* figure_columns' CSV column it is read from */
    const char *member;              /* the measurement's JSON member it equals */
} measurement_facts[] = {
    {"runtime_seconds", "Runtime seconds (CLOMP 1.2)", "s", "runtime_seconds", "runtime_seconds"},
    {"threads", "threads the runtime gave", "threads", "threads", "threads"},
    {"verified_chunks", "chunks verified bit for bit", "chunks", "verified_chunks", "verification.verified_chunks"},
};

/* A construct row's figures at one level (clomp --constructs, EPCC's method). */
static const struct {
    const char *column, *label, *unit;
    const char *csv;                 /* construct_columns' CSV column (its JSON member: the level object's) */
} construct_metrics[] = {
    {"construct_overhead_us", "construct overhead us (EPCC)", "us", "overhead_us"},
    {"construct_overhead_us_ci_low", "construct overhead us, 95% interval low", "us", "overhead_ci95_low_us"},
    {"construct_overhead_us_ci_high", "construct overhead us, 95% interval high", "us", "overhead_ci95_high_us"},
    {"construct_overhead_cycles", "construct overhead cycles", "cycles", "overhead_cycles"},
    {"construct_test_us", "construct test time us", "us", "test_us"},
    {"construct_reference_us", "construct reference time us", "us", "reference_us"},
    {"outer_threads", "outer team threads", "threads", "outer_threads"},
    {"inner_threads", "inner team threads", "threads", "inner_threads"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int figure_index(const char *csv)
{
    for (size_t c = 0; c < figure_column_count; c++)
        if (strcmp(figure_columns[c].csv, csv) == 0)
            return (int)c;
    return -1;
}

static int construct_index(const char *csv)
{
    for (size_t c = 0; c < construct_column_count; c++)
        if (strcmp(construct_columns[c].csv, csv) == 0 && construct_columns[c].json != NULL)
            return (int)c;
    return -1;
}

static ProfileColumn *add(ProfileColumn *columns, size_t *n, size_t max, const char *name, const char *suffix,
                          const char *label, const char *label_suffix, const char *unit)
{
    if (*n >= max)
        return NULL;
    ProfileColumn *c = &columns[(*n)++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s%s", name, suffix);
    snprintf(c->label, sizeof c->label, "%s%s", label, label_suffix);
    c->unit = unit;
    c->figure = c->construct = -1;
    return c;
}

/* A kind's figure, and its interval's two bounds where the CSV has them. */
static int add_kind(ProfileColumn *columns, size_t *n, size_t max, const FigureKind *k)
{
    const char *csv[3] = {k->csv, k->csv_low, k->csv_high};
    const char *suffix[3] = {"", "_ci_low", "_ci_high"}, *label[3] = {"", ", 95% interval low", ", 95% interval high"};
    for (int part = 0; part < 3 && csv[part] != NULL; part++) {
        ProfileColumn *c = add(columns, n, max, k->suffix, suffix[part], k->label, label[part], k->unit);
        if (c == NULL || (c->figure = figure_index(csv[part])) < 0)
            return -1;
        if (part == 0)
            snprintf(c->member, sizeof c->member, "%s", k->json);
        else
            snprintf(c->member, sizeof c->member, "%s[%d]", k->interval, part - 1);
    }
    return 0;
}

size_t profile_columns(ProfileColumn *columns, size_t max)
{
    size_t n = 0;
    for (size_t k = 0; k < figure_kind_count; k++)
        if (add_kind(columns, &n, max, &figure_kinds[k]) != 0)
            return 0;
    for (size_t i = 0; i < COUNT(measurement_facts); i++) {
        ProfileColumn *c = add(columns, &n, max, measurement_facts[i].column, "", measurement_facts[i].label, "",
                               measurement_facts[i].unit);
        if (c == NULL || (c->figure = figure_index(measurement_facts[i].csv)) < 0)
            return 0;
        snprintf(c->member, sizeof c->member, "%s", measurement_facts[i].member);
    }
    /* Whether a figure is a result at all: a measurement's (judge_validity) and a --limits figure's. */
    ProfileColumn *valid = add(columns, &n, max, "valid", "", "a result (1) or not (0)", "", "bool");
    if (valid == NULL || (valid->figure = figure_index("valid")) < 0)
        return 0;
    snprintf(valid->member, sizeof valid->member, "valid");
    valid->limit = LIMIT_PART_VALID;
    for (size_t i = 0; i < COUNT(construct_metrics); i++) {
        ProfileColumn *c = add(columns, &n, max, construct_metrics[i].column, "", construct_metrics[i].label, "",
                               construct_metrics[i].unit);
        if (c == NULL || (c->construct = construct_index(construct_metrics[i].csv)) < 0)
            return 0;
    }
    /* --limits: one value column per unit its table uses (ns, cycles, x), with the interval's bounds. */
    for (size_t f = 0; f < limit_figure_count; f++) {
        int seen = 0;
        for (size_t g = 0; g < f; g++)
            seen |= strcmp(limit_figures[g].unit, limit_figures[f].unit) == 0;
        if (seen)
            continue;
        const char *suffix[3] = {"", "_ci_low", "_ci_high"}, *label[3] = {"", ", 95% interval low", ", 95% interval high"};
        for (int part = 0; part < 3; part++) {
            char name[32], text[64];
            snprintf(name, sizeof name, "limits_%s", limit_figures[f].unit);
            snprintf(text, sizeof text, "--limits figure in %s", limit_figures[f].unit);
            ProfileColumn *c = add(columns, &n, max, name, suffix[part], text, label[part], limit_figures[f].unit);
            if (c == NULL)
                return 0;
            c->limit = (LimitPart)(LIMIT_PART_VALUE + part);
            c->limit_unit = limit_figures[f].unit;
        }
    }
    return n;
}

const char *profile_column_member(const ProfileColumn *c, ProfileNodeKind kind)
{
    static const char *const limit_members[] = {NULL, "value", "ci_95[0]", "ci_95[1]", "valid"};
    switch (kind) {
    case PROFILE_NODE_MEASUREMENT:
        return c->figure >= 0 ? c->member : NULL;
    case PROFILE_NODE_CONSTRUCT:
        return c->construct >= 0 ? construct_columns[c->construct].json : NULL;
    case PROFILE_NODE_LIMIT:
        return limit_members[c->limit];
    default:
        return NULL;
    }
}

double profile_limit_part(const ProcessFigure *f, const LimitsRecord *l, LimitPart part)
{
    LimitValue v = f->value(l);
    /* As the JSON's limits.figures: a figure derived from others that are not results is withheld. */
    int shown = v.available && !v.withheld, interval = v.has_ci && !v.withheld;
    switch (part) {
    case LIMIT_PART_VALUE:
        return shown ? v.value : NAN;
    case LIMIT_PART_LOW:
        return interval ? v.low : NAN;
    case LIMIT_PART_HIGH:
        return interval ? v.high : NAN;
    case LIMIT_PART_VALID:
        return v.available && v.not_a_result == NULL ? 1.0 : 0.0;
    default:
        return NAN;
    }
}
