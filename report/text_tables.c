/* The text report's per-thread and per-rank tables: one line per thread or
 * rank up to TEXT_FULL_TABLE_ROWS, a summary beyond (min, median, max and the
 * outliers by name), so that a 256-thread node or a job of thousands of ranks
 * stays readable; the full tables are always in the JSON (thread_placement,
 * mpi.per_rank). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text_format.h"
#include "../timing/outlier_rule.h"

/* At most this many outliers are named on a line, the rest counted: with
 * 3-digit threads and CPUs eight named took a summary line to 300 columns
 * (a 256-thread noise census); three keep it within one terminal line and a half. */
#define NAMED_OUTLIERS 3

void print_table_summary(FILE *out, const char *label, const double *v, int n, RowNamer name, const void *ctx)
{
    OutlierGroup g;
    if (n <= 0 || outlier_group(v, NULL, n, &g) != 0) {
        fprintf(out, "%17s: none\n", label);
        return;
    }
    int lo = 0, hi = 0;
    for (int i = 1; i < n; i++) {
        if (v[i] < v[lo])   /* ties: the first row */
            lo = i;
        if (v[i] > v[hi])
            hi = i;
    }
    fprintf(out, "%17s: min %g (", label, v[lo]);
    name(out, lo, ctx);
    fprintf(out, "), median %g, max %g (", g.median, v[hi]);
    name(out, hi, ctx);
    fputc(')', out);
    int outliers = 0;
    for (int i = 0; i < n; i++) {
        /* The outlier rule with no interval and no floor (the rows are counts and CPU lists). */
        if (!outlier_stands_out(&g, v[i], outlier_threshold(&g, NAN, NAN)))
            continue;
        if (outliers < NAMED_OUTLIERS) {
            fprintf(out, "%s", outliers == 0 ? "; outliers: " : ", ");
            name(out, i, ctx);
            fprintf(out, " (%g)", v[i]);
        }
        outliers++;
    }
    if (outliers > NAMED_OUTLIERS)
        fprintf(out, " and %d more", outliers - NAMED_OUTLIERS);
    fputc('\n', out);
}

/* ---- threads ------------------------------------------------------------------- */

static void name_thread(FILE *out, int i, const void *ctx)
{
    const ThreadPlace *p = &((const TeamPlacement *)ctx)->place[i];
    fprintf(out, "thread %d on cpu %d", p->thread, p->cpu);
}

static int same_core(const ThreadPlace *a, const ThreadPlace *b)
{
    if (a->core < 0 || b->core < 0)
        return a->cpu == b->cpu;
    return a->core == b->core && a->socket == b->socket;
}

static void name_core(FILE *out, int i, const void *ctx)
{
    const ThreadPlace *p = ((const ThreadPlace *const *)ctx)[i];
    if (p->core >= 0)
        fprintf(out, "core %d of socket %d", p->core, p->socket);
    else
        fprintf(out, "cpu %d", p->cpu);
}

void print_thread_placement_summary(FILE *out, const TeamPlacement *tp)
{
    int n = tp->threads, cores = 0;
    double *v = malloc((size_t)n * sizeof *v);
    const ThreadPlace **core_of = malloc((size_t)n * sizeof(const ThreadPlace *));   /* each core's first thread */
    if (v == NULL || core_of == NULL) {
        free(v);
        free(core_of);
        return;
    }
    fprintf(out, " Thread placement: %d threads, summarised (more than %d; every thread's cpu, core and node "
                 "are in the JSON's thread_placement)\n", n, TEXT_FULL_TABLE_ROWS);
    /* Threads per core, over the cores the team ran on. */
    for (int i = 0; i < n; i++) {
        int c = 0;
        while (c < cores && !same_core(core_of[c], &tp->place[i]))
            c++;
        if (c == cores) {
            core_of[cores++] = &tp->place[i];
            v[c] = 0;
        }
        v[c]++;
    }
    print_table_summary(out, "Threads per core", v, cores, name_core, core_of);
    for (int i = 0; i < n; i++)
        v[i] = tp->place[i].allowed_cpus;
    print_table_summary(out, "CPUs per thread", v, n, name_thread, tp);
    /* Threads per NUMA node: nodes are few, each is listed. */
    fprintf(out, "  Threads by node:");
    int listed = 0;
    for (int i = 0; i < n; i++) {
        int first = 1, k = 0;
        for (int j = 0; j < n; j++) {
            if (tp->place[j].node == tp->place[i].node) {
                first = first && j >= i;
                k++;
            }
        }
        if (!first)
            continue;
        if (tp->place[i].node >= 0)
            fprintf(out, "%s node %d: %d", listed++ ? "," : "", tp->place[i].node, k);
        else
            fprintf(out, "%s node unknown: %d", listed++ ? "," : "", k);
    }
    fputc('\n', out);
    free(v);
    free(core_of);
}

/* ---- ranks --------------------------------------------------------------------- */

typedef struct HostCount {
    const char *host;
    int ranks;
} HostCount;

static void name_rank(FILE *out, int i, const void *ctx)
{
    const RankInfo *info = &((const RankInfo *)ctx)[i];
    fprintf(out, "rank %d on ", info->rank);
    print_escaped(out, info->host);
}

static void name_host(FILE *out, int i, const void *ctx)
{
    print_escaped(out, ((const HostCount *)ctx)[i].host);
}

static int compare_host_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void print_rank_layout_summary(FILE *out, const RankInfo *info, int ranks)
{
    const char **names = malloc((size_t)ranks * sizeof(const char *));
    HostCount *hosts = malloc((size_t)ranks * sizeof *hosts);
    double *v = malloc((size_t)ranks * sizeof *v);
    if (names == NULL || hosts == NULL || v == NULL) {
        free(names);
        free(hosts);
        free(v);
        return;
    }
    /* Ranks per host: the host names sorted, then counted in runs. */
    for (int r = 0; r < ranks; r++)
        names[r] = info[r].host;
    qsort(names, (size_t)ranks, sizeof *names, compare_host_names);
    int nhosts = 0;
    for (int r = 0; r < ranks; r++) {
        if (nhosts > 0 && strcmp(hosts[nhosts - 1].host, names[r]) == 0)
            hosts[nhosts - 1].ranks++;
        else
            hosts[nhosts++] = (HostCount){names[r], 1};
    }
    fprintf(out, "        MPI ranks: %d on %d host%s, summarised (more than %d; every rank's host and CPUs are in "
                 "the JSON's mpi.per_rank)\n", ranks, nhosts, nhosts == 1 ? "" : "s", TEXT_FULL_TABLE_ROWS);
    for (int h = 0; h < nhosts; h++)
        v[h] = hosts[h].ranks;
    print_table_summary(out, "MPI ranks/host", v, nhosts, name_host, hosts);
    for (int r = 0; r < ranks; r++)
        v[r] = info[r].cpu_count;
    print_table_summary(out, "MPI CPUs/rank", v, ranks, name_rank, info);
    free(names);
    free(hosts);
    free(v);
}
