#include "rank_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../measure/summarize.h"
#include "../timing/outlier_rule.h"

static const Measurement *table_entry(const RankTable *t, int rank, size_t i)
{
    return &t->results[(size_t)rank * t->count + i];
}

RankSpread rank_spread(const RankTable *t, size_t i)
{
    RankSpread sp;
    memset(&sp, 0, sizeof sp);
    sp.ranks = t->ranks;
    double sum = 0.0;
    for (int r = 0; r < t->ranks; r++) {
        double s = table_entry(t, r, i)->seconds;
        /* Ties go to the lowest rank, as MPI_MINLOC and MPI_MAXLOC do. */
        if (r == 0 || s < sp.min_seconds)
            sp.min_seconds = s, sp.min_rank = r;
        if (r == 0 || s > sp.max_seconds)
            sp.max_seconds = s, sp.max_rank = r;
        sum += s;
    }
    sp.avg_seconds = t->ranks > 0 ? sum / t->ranks : NAN;
    ScheduleRole role = table_entry(t, 0, i)->schedule->role;
    sp.used_fastest = role == ROLE_REFERENCE || role == ROLE_BESTCASE;
    sp.used_rank = sp.used_fastest ? sp.min_rank : sp.max_rank;
    return sp;
}

void rank_view(const RunSetup *run, const RankTable *t, size_t i, const Measurement *view_bestcase,
               Measurement *view)
{
    RankSpread sp = rank_spread(t, i);
    *view = *table_entry(t, sp.used_rank, i);
    finish_measurement(run, view, view_bestcase);
    view->spread = sp;
}

/* One figure over the ranks by the outlier rule (timing/outlier_rule.h): the
 * busy ranks left out, judged only when every other rank has the figure;
 * `floor` NAN: 1% of its own median. Returns 1 when it was judged. */
static int judge_figure(const RankTable *t, const unsigned char *busy, RankOutliers *o, size_t i, int overhead,
                         double floor, double *median)
{
    double *v = malloc((size_t)t->ranks * sizeof *v);
    int judged = 0;
    *median = NAN;
    if (v == NULL)
        return 0;
    for (int r = 0; r < t->ranks; r++) {
        const Measurement *m = table_entry(t, r, i);
        v[r] = overhead ? (m->has_overhead ? m->overhead_us : NAN) : m->us;
    }
    OutlierGroup g;
    if (outlier_group(v, busy, t->ranks, &g) == 0 && g.n > 0 && g.missing == 0) {
        *median = g.median;
        judged = g.judged;
        if (isnan(floor))
            floor = RANK_OUTLIER_FLOOR * fabs(g.median);
        for (int r = 0; r < t->ranks; r++) {
            if (busy[r])
                continue;
            const Measurement *m = table_entry(t, r, i);
            double noise = overhead ? (m->has_overhead_ci ? 0.5 * (m->overhead_high - m->overhead_low) : 0.0)
                                    : (m->stats.has_ci ? 0.5 * (m->stats.ci_high - m->stats.ci_low) : 0.0);
            double threshold = outlier_threshold(&g, noise, floor);
            if (outlier_stands_out(&g, v[r], threshold) && o->count < CLOMP_MAX_OUTLIERS)
                o->item[o->count++] = (RankOutlier){r, overhead ? "Static OMP overhead" : "Serial Ref us/Loop", v[r],
                                                    g.median, v[r] - g.median, threshold};
        }
    }
    free(v);
    return judged;
}

void rank_outliers(const RankTable *t, const RankInfo *info, RankOutliers *o)
{
    memset(o, 0, sizeof *o);
    o->ranks = t->ranks;
    o->serial_median = o->overhead_median = NAN;
    size_t serial = t->count, stat = t->count;
    for (size_t i = 0; i < t->count; i++) {
        const Measurement *m = table_entry(t, 0, i);
        if (!measurement_runs(m))
            continue;
        if (m->schedule->role == ROLE_REFERENCE)
            serial = i;
        else if (m->schedule->role == ROLE_CHECKED && strcmp(m->schedule->key, "static") == 0)
            stat = i;
    }
    unsigned char *busy = calloc((size_t)(t->ranks > 0 ? t->ranks : 1), 1);
    if (busy == NULL)
        return;
    for (int r = 0; info != NULL && r < t->ranks; r++)
        if (info[r].busy_judged && info[r].busy) {
            busy[r] = 1;
            o->busy++;
        }
    if (serial != t->count && t->ranks >= 1) {
        o->judged = judge_figure(t, busy, o, serial, 0, NAN, &o->serial_median);
        if (stat != t->count)
            judge_figure(t, busy, o, stat, 1, RANK_OUTLIER_FLOOR * o->serial_median, &o->overhead_median);
    }
    free(busy);
}

void cpu_list_text(const unsigned char *mask, char *buf, size_t size, int *count)
{
    size_t used = 0;
    *count = 0;
    buf[0] = '\0';
    for (int c = 0; c < CLOMP_MAX_CPUS; c++) {
        if (!(mask[c / 8] & (1u << (c % 8))))
            continue;
        int last = c;
        while (last + 1 < CLOMP_MAX_CPUS && (mask[(last + 1) / 8] & (1u << ((last + 1) % 8))))
            last++;
        *count += last - c + 1;
        if (used < size) {
            int n = last == c ? snprintf(buf + used, size - used, "%s%d", used > 0 ? "," : "", c)
                              : snprintf(buf + used, size - used, "%s%d-%d", used > 0 ? "," : "", c, last);
            used += (size_t)n;
        }
        c = last;
    }
    if (used >= size && size > 4)
        memcpy(buf + size - 4, "...", 4);
}

void rank_layout_warnings(const RankInfo *info, int ranks, WarningList *list)
{
    long shared = 0;
    int first_a = -1, first_b = -1;
    for (int a = 0; a < ranks; a++)
        for (int b = a + 1; b < ranks; b++) {
            if (strcmp(info[a].host, info[b].host) != 0)
                continue;
            int overlap = 0;
            for (size_t k = 0; k < sizeof info[a].cpu_mask && !overlap; k++)
                overlap = (info[a].cpu_mask[k] & info[b].cpu_mask[k]) != 0;
            if (overlap && shared++ == 0)
                first_a = a, first_b = b;
        }
    if (shared > 0)
        add_warning(list, WARNING_LINE, "%ld pair%s of ranks on one host share CPUs (first: ranks %d and %d on %s): they "
                             "compete for cores; bind them apart (mpirun --map-by, srun --cpu-bind)",
                    shared, shared == 1 ? "" : "s", first_a, first_b, info[first_a].host);
}
