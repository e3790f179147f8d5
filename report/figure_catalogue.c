#include "figure_catalogue.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"

const char *const figure_set_names[FIGURE_SET_COUNT] = {"key",     "headline", "sweep",  "replicates", "run",
                                                        "primary", "cliff",    "limits", "cluster",
                                                        "grain",   "harness"};
const char *const figure_set_uses[FIGURE_SET_COUNT] = {
    "the target input's key figures: the between-process table, the buyer's key table",
    "the answer: the HTML headline and the suite's closing lines",
    "over threads or settings: run_clomp.sh --sweep, the buyer's thread sweep",
    "run_clomp.sh --replicates auto plans its processes on these",
    "the suite's lines after each key run (CLOMP 1.2's run script's)",
    "the project's overhead: --verdict, the Static OMP block, the headline, --compare's and the buyer's primary",
    "the suite's team-size cliff: one thread below the cores, at the cores, one above (results/clomp_results/core/cliff.py)",
    "clomp --limits: its text block, the JSON's limits.figures and the CSV's limits_* columns (docs/limits.md)",
    "the cluster report: what each node is judged on against its peers (results/clomp_results/cluster/cluster.py)",
    ("run_clomp.sh --grain: the smallest loop worth threading per team size, METG(50%), the best team per loop size "
     "(results/clomp_results/grain/grain_*.py; docs/grain.md)"),
    "the harnesses' figures of merit: ReFrame's performance variables, JUBE's result table (integrations/clomp_figures.py)",
};

#define PROBE (1u << ROLE_PROBE)
#define REFERENCE (1u << ROLE_REFERENCE)
#define BESTCASE (1u << ROLE_BESTCASE)
#define CHECKED (1u << ROLE_CHECKED)
#define ANY_ROLE (PROBE | REFERENCE | BESTCASE | CHECKED)

#define RUNTIME_12 "CLOMP 1.2's definition, from the Runtime (every chunk's time: the mean over the chunks; with --rounds the median round)"
#define OVERHEAD_MEASURES "time per loop beyond Bestcase OMP's: what the threading costs (0 for Bestcase OMP by definition)"

/* clang-format off */
const FigureKind figure_kinds[] = {
    {"us_per_loop", "us/Loop (CLOMP 1.2)", "us",
     "time per loop: one subcycle (the deposit and every part's update), or one construct of a probe",
     RUNTIME_12 ": Runtime over the subcycles", BETTER_LOWER,
     "runtime_us_per_loop", "runtime_us_per_loop", NULL, "us/Loop", ANY_ROLE, 0, NULL, NULL, NULL},
    {"median_us_per_loop", "us/Loop (median chunk)", "us",
     "time per loop: one subcycle (the deposit and every part's update), or one construct of a probe",
     "the median of the chunks' us/Loop (every round's chunks pooled; a delay probe's chunk is its region's time "
     "minus the same delays run serially, EPCC's method); interval: order statistics of the chunks",
     BETTER_LOWER, "us_per_loop", "us_per_loop", "statistics.median_ci_95", NULL, ANY_ROLE, 1, "us_per_loop",
     "us_per_loop_ci_low", "us_per_loop_ci_high"},
    {"speedup", "speedup (CLOMP 1.2)", "x", "how many times faster than Serial Ref",
     RUNTIME_12 ": Serial Ref's Runtime over this Runtime", BETTER_HIGHER,
     "runtime_speedup", "runtime_speedup", NULL, "Speedup", REFERENCE | BESTCASE | CHECKED, 0, NULL, NULL, NULL},
    {"median_speedup", "speedup (median chunks)", "x", "how many times faster than Serial Ref",
     "Serial Ref's median chunk over this median chunk; interval: the two medians' 97.5% intervals (Bonferroni)",
     BETTER_HIGHER, "speedup", "speedup", "speedup_ci_95", NULL, BESTCASE | CHECKED, 0, NULL,
     "speedup_ci_low", "speedup_ci_high"},
    {"efficacy_percent", "efficacy % (CLOMP 1.2)", "%", "Bestcase OMP's time as a share of this one's (100%: no overhead)",
     RUNTIME_12 ": Bestcase's Runtime over this Runtime", BETTER_HIGHER,
     "runtime_efficacy_percent", "runtime_efficacy_percent", NULL, "Efficacy", BESTCASE | CHECKED, 0, NULL, NULL, NULL},
    {"median_efficacy_percent", "efficacy % (median chunks)", "%",
     "Bestcase OMP's time as a share of this one's (100%: no overhead)",
     "Bestcase's median chunk over this median chunk (with --rounds: the median over rounds)", BETTER_HIGHER,
     "efficacy_percent", "efficacy_percent", NULL, NULL, BESTCASE | CHECKED, 0, NULL, NULL, NULL},
    {"overhead_us", "overhead us/Loop (CLOMP 1.2)", "us", OVERHEAD_MEASURES,
     RUNTIME_12 ": this Runtime minus Bestcase's, over the subcycles", BETTER_LOWER,
     "runtime_overhead_us_per_loop", "runtime_overhead_us", NULL, "Overhead", BESTCASE | CHECKED, 0, NULL, NULL, NULL},
    {"median_overhead_us", "overhead us/Loop (median chunks)", "us", OVERHEAD_MEASURES,
     "this median chunk minus Bestcase's median chunk (with --rounds: the median over rounds of each round's "
     "difference); interval: the two medians' 97.5% intervals (Bonferroni), with 6+ rounds the rounds' differences'",
     BETTER_LOWER, "overhead_us_per_loop", "overhead_us", "overhead_ci_95", NULL, BESTCASE | CHECKED, 0, "overhead",
     "overhead_ci_low", "overhead_ci_high"},
    {"paired_overhead_us", "overhead us/Loop (paired chunks)", "us", OVERHEAD_MEASURES,
     "Hodges-Lehmann shift of the paired differences (each chunk minus the Bestcase chunk beside it; "
     "--paired-blocks: interleaved blocks in random order); interval: the signed-rank interval, widened to the "
     "blocks' effective number when they are serially correlated", BETTER_LOWER,
     "paired_overhead.us_per_loop", "paired_overhead_us", "paired_overhead.ci_95", NULL, CHECKED, 0, NULL,
     "paired_overhead_ci_low", "paired_overhead_ci_high"},
    /* Only for a measurement with a judged LLNL target (figure_of). */
    {"llnl_target_cycles", "cycles (LLNL target)", "cycles", "the figure LLNL's target judges, in CPU cycles",
     "the median chunk (an overhead: the median-chunk overhead) at the run's cycle rate: nominal TSC cycles, or "
     "--ghz's; judged in core cycles over the cores' clock range", BETTER_LOWER,
     "llnl_targets.TARGET.cycles", "llnl_target_cycles", "llnl_targets.TARGET.cycles_ci_95", NULL, ANY_ROLE, 0,
     "llnl_target_cycles", NULL, NULL},
};
/* clang-format on */
const size_t figure_kind_count = sizeof figure_kinds / sizeof figure_kinds[0];

#define KIND_PROJECT_OVERHEAD 7   /* median_overhead_us: chosen by bench/overhead_estimator.sh (docs/statistics.md) */
const FigureKind *const project_overhead_kind = &figure_kinds[KIND_PROJECT_OVERHEAD];
#define LLNL_KIND (&figure_kinds[figure_kind_count - 1])

/* Which figures each set holds, by measurement key and kind suffix ("" : the project's overhead). */
#define KEY FIGURE_SET_KEY
#define HEADLINE FIGURE_SET_HEADLINE
#define SWEEP FIGURE_SET_SWEEP
#define REPLICATES FIGURE_SET_REPLICATES
#define RUN FIGURE_SET_RUN
#define PRIMARY FIGURE_SET_PRIMARY
#define CLIFF FIGURE_SET_CLIFF
#define CLUSTER FIGURE_SET_CLUSTER
#define HARNESS FIGURE_SET_HARNESS
static const struct {
    const char *schedule, *suffix;
    unsigned sets;
} choices[] = {
    {"serial", "us_per_loop", KEY},
    {"serial", "median_us_per_loop", CLUSTER},
    {"barrier", "us_per_loop", KEY | REPLICATES | RUN},
    {"barrier", "median_us_per_loop", HEADLINE | SWEEP | CLIFF | CLUSTER | HARNESS},
    {"barrier", "llnl_target_cycles", HARNESS},
    {"bestcase", "speedup", KEY | RUN},
    {"bestcase", "median_speedup", HEADLINE},
    {"static", "speedup", KEY | REPLICATES | RUN | HARNESS},
    {"static", "median_speedup", HEADLINE | CLUSTER | HARNESS},
    {"static", "efficacy_percent", KEY | RUN},
    {"static", "median_efficacy_percent", HEADLINE},
    {"static", "overhead_us", KEY | REPLICATES | RUN},
    {"static", "", KEY | HEADLINE | SWEEP | PRIMARY | CLIFF | CLUSTER | HARNESS},
    {"dynamic", "overhead_us", KEY | REPLICATES},
    {"manual", "overhead_us", KEY},
    {"nested", "overhead_us", KEY},
    {"parallel", "us_per_loop", KEY},
    {"parallel", "median_us_per_loop", HEADLINE | SWEEP | CLIFF | CLUSTER | HARNESS},
    {"parallel_for", "median_us_per_loop", KEY | HEADLINE | SWEEP | CLIFF | HARNESS},
    {"parallel_for", "llnl_target_cycles", HARNESS},
};

/* Keys the tools printed before issue 43 that the rule (a kind's former
 * suffix under the measurement's key) does not give: --sweep's, and the
 * cluster report's node summaries' (issue 50). */
static const struct {
    const char *schedule, *suffix, *former;
} former_keys[] = {
    {"parallel", "median_us_per_loop", "fork_join_us"},
    {"barrier", "median_us_per_loop", "barrier_us"},
    {"parallel_for", "median_us_per_loop", "parallel_for_us"},
    {"static", "median_overhead_us", "static_overhead_us"},
    {"serial", "median_us_per_loop", "serial_us"},
    {"static", "median_speedup", "static_speedup"},
};

const char *figure_better_text(FigureBetter b)
{
    return b == BETTER_HIGHER ? "higher" : "lower";
}

/* A name as a key part: lower case, each run of other characters one '_', none at either end. */
static void key_part(char *out, size_t size, const char *name)
{
    size_t n = 0;
    int gap = 0;
    for (const char *c = name; *c != '\0' && n + 2 < size; c++) {
        if (isalnum((unsigned char)*c)) {
            if (gap && n > 0)
                out[n++] = '_';
            out[n++] = (char)tolower((unsigned char)*c);
            gap = 0;
        } else {
            gap = 1;
        }
    }
    out[n] = '\0';
}

static const LlnlTarget *judged_target(const Schedule *s)
{
    const LlnlTarget *t = llnl_target_of(s);
    return t != NULL && t->below_cycles > 0.0 ? t : NULL;
}

static int kind_applies(const Schedule *s, const FigureKind *k)
{
    if (!(k->roles & (1u << s->role)))
        return 0;
    /* A delay probe's Runtime is EPCC's difference of two runtimes, no us/Loop of its own: its figure is the median chunk. */
    if (strcmp(k->json, "runtime_us_per_loop") == 0 && s->delays)
        return 0;
    return k != LLNL_KIND || judged_target(s) != NULL;
}

/* What a kind and a process_figures.c row both say of their figures. */
static void describe(CatalogueFigure *f, const char *unit, const char *measures, const char *estimator,
                     FigureBetter better, const char *csv)
{
    f->unit = unit;
    f->measures = measures;
    f->estimator = estimator;
    f->better = better;
    f->csv = csv;
}

static void replace(char *out, size_t size, const char *pattern, const char *word, const char *with)
{
    const char *at = strstr(pattern, word);
    if (at == NULL)
        snprintf(out, size, "%s", pattern);
    else
        snprintf(out, size, "%.*s%s%s", (int)(at - pattern), pattern, with, at + strlen(word));
}

/* The figure without its set membership and former keys. */
static void fill(const Schedule *s, const FigureKind *k, CatalogueFigure *f)
{
    char prefix[64];
    memset(f, 0, sizeof *f);
    key_part(prefix, sizeof prefix, s->name);
    snprintf(f->key, sizeof f->key, "%s_%s", prefix, k->suffix);
    f->schedule = s;
    f->kind = k;
    describe(f, k->unit, k->measures, k->estimator, k->better, k->csv);
    f->text_line = k->text_line;
    f->target = llnl_target_of(s);
    if (f->target != NULL && !(f->target->below_cycles > 0.0))
        f->target = NULL;
    if (k == LLNL_KIND && f->target != NULL) {   /* kind_applies gives this kind only a judged target */
        snprintf(f->label, sizeof f->label, "%s cycles (LLNL target < %.0f)", s->name, f->target->below_cycles);
        replace(f->json, sizeof f->json, k->json, "TARGET", f->target->key);
        replace(f->interval, sizeof f->interval, k->interval, "TARGET", f->target->key);
    } else {
        snprintf(f->label, sizeof f->label, "%s %s", s->name, k->label);
        snprintf(f->json, sizeof f->json, "%s", k->json);
        snprintf(f->interval, sizeof f->interval, "%s", k->interval != NULL ? k->interval : "");
    }
    /* Only the figure LLNL's target counts is judged against it. */
    if (k != LLNL_KIND && !(f->target != NULL && f->target->figure == JUDGED_ON_US_PER_LOOP &&
                            strcmp(k->suffix, "median_us_per_loop") == 0))
        f->target = NULL;
}

static int same_key_exists(const char *key);

static void complete(CatalogueFigure *f)
{
    const Schedule *s = f->schedule;
    const FigureKind *k = f->kind;
    for (size_t i = 0; i < sizeof choices / sizeof choices[0]; i++)
        if (strcmp(choices[i].schedule, s->key) == 0 &&
            strcmp(choices[i].suffix[0] != '\0' ? choices[i].suffix : project_overhead_kind->suffix, k->suffix) == 0)
            f->sets |= choices[i].sets;
    if (k == LLNL_KIND)   /* every judged target's cycles: the headline's targets table */
        f->sets |= HEADLINE;
    if (k->former != NULL) {
        char former[80], part[64];
        key_part(part, sizeof part, s->key);
        snprintf(former, sizeof former, "%s_%s", part, k->former);
        if (strcmp(former, f->key) != 0 && !same_key_exists(former))
            snprintf(f->former, sizeof f->former, "%s", former);
    }
    for (size_t i = 0; i < sizeof former_keys / sizeof former_keys[0]; i++)
        if (strcmp(former_keys[i].schedule, s->key) == 0 && strcmp(former_keys[i].suffix, k->suffix) == 0) {
            size_t n = strlen(f->former);
            snprintf(f->former + n, sizeof f->former - n, "%s%s", n > 0 ? " " : "", former_keys[i].former);
        }
}

/* Position i: schedule i / kind_count, kind i % kind_count; then the other figures. A schedule's
   figure without its sets and former keys (complete() adds them, asking figure_at for the others). */
static int figure_at(size_t i, CatalogueFigure *f)
{
    size_t per_schedule = figure_kind_count, schedules = clomp_schedule_count * per_schedule;
    if (i < schedules) {
        const Schedule *s = clomp_schedules[i / per_schedule];
        const FigureKind *k = &figure_kinds[i % per_schedule];
        if (!kind_applies(s, k))
            return -1;
        fill(s, k, f);
        return 1;
    }
    i -= schedules;
    if (i >= process_figure_count)
        return 0;
    const ProcessFigure *row = &process_figures[i];
    memset(f, 0, sizeof *f);
    f->row = row;
    snprintf(f->key, sizeof f->key, "%s", row->key);
    /* --limits' labels are its text block's, where the unit follows the value: here the unit says which. */
    if (row->member != NULL)
        snprintf(f->label, sizeof f->label, "%s (%s, --limits)", row->label, row->unit);
    else
        snprintf(f->label, sizeof f->label, "%s", row->label);
    snprintf(f->json, sizeof f->json, "%s", row->json != NULL ? row->json : "");
    snprintf(f->interval, sizeof f->interval, "%s", row->interval != NULL ? row->interval : "");
    describe(f, row->unit, row->measures, row->estimator, row->better, row->csv);
    f->sets = row->sets;
    return 1;
}

static int same_key_exists(const char *key)
{
    CatalogueFigure f;
    int got;
    for (size_t i = 0; (got = figure_at(i, &f)) != 0; i++)
        if (got > 0 && strcmp(f.key, key) == 0)
            return 1;
    return 0;
}

int figure_catalogue_next(size_t *index, CatalogueFigure *f)
{
    int got;
    while ((got = figure_at(*index, f)) < 0)
        (*index)++;
    if (got == 0)
        return 0;
    if (f->row == NULL)
        complete(f);
    (*index)++;
    return 1;
}

int figure_catalogue_find(const char *key, CatalogueFigure *f)
{
    size_t i = 0;
    while (figure_catalogue_next(&i, f)) {
        if (strcmp(f->key, key) == 0)
            return 1;
        for (const char *w = f->former; *w != '\0';) {
            size_t n = strcspn(w, " ");
            if (n == strlen(key) && strncmp(w, key, n) == 0)
                return 1;
            w += n + (w[n] == ' ');
        }
    }
    return 0;
}

int figure_kind_compared(const FigureKind *k)
{
    return k->compared || k == project_overhead_kind;
}

int figure_of(const Schedule *s, const FigureKind *k, CatalogueFigure *f)
{
    if (!kind_applies(s, k))
        return 0;
    fill(s, k, f);
    complete(f);
    return 1;
}

int project_overhead_of(const Measurement *m, int not_a_result, double *us, double *low, double *high)
{
    const char *which = project_overhead_kind->suffix;
    *us = *low = *high = NAN;
    if (not_a_result || !m->has_overhead)
        return 0;
    if (strcmp(which, "median_overhead_us") == 0) {
        *us = m->overhead_us;
        if (m->has_overhead_ci) {
            *low = m->overhead_low;
            *high = m->overhead_high;
        }
    } else if (strcmp(which, "paired_overhead_us") == 0 && m->paired.order != PAIRED_NOT_MEASURED) {
        *us = m->paired.shift.estimate;
        if (m->paired.shift.has_ci) {
            *low = m->paired.shift.low;
            *high = m->paired.shift.high;
        }
    } else if (strcmp(which, "overhead_us") == 0) {
        *us = m->runtime_overhead_us;
    }
    return !isnan(*us);
}

int project_overhead(const RunRecord *r, const Measurement *m, double *us, double *low, double *high)
{
    MeasurementFigures fig;
    measurement_figures(r, m, &fig);
    /* Not a result where the figures void it (judge_validity; an incomplete or invalid measurement, or its Bestcase's). */
    return project_overhead_of(m, !fig.complete || isnan(fig.overhead), us, low, high);
}
