/* The locality lines of the text report (append-only set-up lines), from
 * the run record's LocalitySummary (measure/locality.c measured it). */
#include "text_format.h"

static void print_pages_per_node(FILE *out, const long *per_node, int max_node)
{
    for (int n = 0; n <= max_node; n++)
        fprintf(out, " node %d: %ld%s", n, per_node[n], n < max_node ? "," : "");
}

/* "measured after the mesh build ..." and what numa_balancing means for it. */
static void print_measured_when(FILE *out, int balancing)
{
    fprintf(out, "    NUMA measured: after the mesh build, before the timed runs; ");
    if (balancing > 0)
        fprintf(out, "numa_balancing is on (%d): the kernel may move pages during the run, so locality is measured "
                     "again after the timed runs\n", balancing);
    else if (balancing == 0)
        fprintf(out, "numa_balancing is off: pages stay where they are, measured once\n");
    else
        fprintf(out, "this kernel has no numa_balancing setting: measured once\n");
}

/* Consecutive fully local parts on the same node share a line, so 1024
 * parts do not print 1024 lines; any part with remote pages gets its own,
 * with where all its pages are. Each line counts the pages counted with its
 * parts (a page several parts share: with the lowest-numbered one), so the
 * lines add up to the total, and says how many more they share. */
static void print_part_pages(FILE *out, const LocalitySummary *l)
{
    const PartLocality *part = l->part;
    for (long p = 0, q; p < l->parts; p = q + 1) {
        long local = part[p].counted_local, known = part[p].counted_known;
        long shared = part[p].known_pages - part[p].counted_known;
        for (q = p; q + 1 < l->parts && part[q + 1].node == part[p].node && part[p].local_pages == part[p].known_pages &&
                    part[q + 1].local_pages == part[q + 1].known_pages;
             q++) {
            local += part[q + 1].counted_local;
            known += part[q + 1].counted_known;
            shared += part[q + 1].known_pages - part[q + 1].counted_known;
        }
        fprintf(out, "  NUMA part pages: part%s %ld", q > p ? "s" : "", p);
        if (q > p)
            fprintf(out, "-%ld", q);
        fprintf(out, " (computed on node %d): %ld of %ld pages local", part[p].node, local, known);
        if (shared > 0)
            fprintf(out, " (+%ld shared with a lower-numbered part, counted with it)", shared);
        if (part[p].local_pages != part[p].known_pages && l->part_pages_by_node != NULL) {
            fprintf(out, "; all its pages by node:");
            for (int n = 0; n <= l->part_max_node; n++) {
                long count = l->part_pages_by_node[p * (l->part_max_node + 1) + n];
                if (count > 0)
                    fprintf(out, " %d:%ld", n, count);
            }
        }
        fputc('\n', out);
    }
}

/* The Part records: their own figure, not in the zone pages'. */
static void print_records(FILE *out, const char *label, const RecordLocality *r)
{
    if (!r->measured) {
        fprintf(out, "%s not measured (the kernel placed none of their pages)\n", label);
        return;
    }
    fprintf(out, "%s %.1f%% of the %ld Part records (written every subcycle by the thread that computes the part) "
                 "on that thread's node (%ld of %ld records placed; on %ld distinct page%s:",
            label, r->percent, r->records, r->local_records, r->known_records, r->pages, r->pages == 1 ? "" : "s");
    print_pages_per_node(out, r->pages_per_node, r->max_node);
    fprintf(out, "; not in the zone page figures)\n");
}

typedef struct ThreadNode {
    int thread, node;
} ThreadNode;

static void name_locality_thread(FILE *out, int i, const void *ctx)
{
    const ThreadNode *t = &((const ThreadNode *)ctx)[i];
    fprintf(out, "thread %d@node%d", t->thread, t->node);
}

/* Beyond 16 threads: the threads on each node, then each thread's local
 * share of its pages summarised (the JSON's per_thread has every thread). */
static void print_numa_threads_summary(FILE *out, const LocalitySummary *l)
{
    static double share[LOCALITY_MAX_THREADS];
    static ThreadNode who[LOCALITY_MAX_THREADS];
    int n = 0;
    fprintf(out, "     NUMA threads: %d, summarised (more than %d; every thread's node and pages are in the JSON's "
                 "numa locality per_thread):", l->threads, TEXT_FULL_TABLE_ROWS);
    for (int node = 0; node <= l->max_node; node++) {
        int k = 0;
        for (int th = 0; th < l->threads; th++)
            k += l->per_thread[th].node == node;
        if (k > 0)
            fprintf(out, " node %d: %d", node, k);
    }
    fputc('\n', out);
    for (int th = 0; l->measured && th < l->threads; th++) {
        if (l->per_thread[th].known_pages <= 0)
            continue;
        share[n] = 100.0 * (double)l->per_thread[th].local_pages / (double)l->per_thread[th].known_pages;
        who[n] = (ThreadNode){th, l->per_thread[th].node};
        n++;
    }
    if (l->measured)
        print_table_summary(out, "NUMA local %/thr", share, n, name_locality_thread, who);
}

void print_locality(FILE *out, const LocalitySummary *l)
{
    if (!l->queried) {
        fprintf(out, "    NUMA locality: not measured (%s)\n", l->note);
        return;
    }
    fprintf(out, "       NUMA nodes: %d\n", l->nodes);
    if (l->threads > TEXT_FULL_TABLE_ROWS) {
        print_numa_threads_summary(out, l);
    } else {
        fprintf(out, "     NUMA threads:");
        for (long p = 0; p < l->parts; p++)
            if (p == 0 || l->part[p].thread != l->part[p - 1].thread)
                fprintf(out, " %d@cpu%d/node%d", l->part[p].thread, l->part[p].cpu, l->part[p].node);
        fprintf(out, " (thread@cpu/node under schedule(static))\n");
    }
    print_part_pages(out, l);
    if (!l->measured)
        fprintf(out, "    NUMA locality: not measured (%s)\n", l->note);
    else
        fprintf(out, "    NUMA locality: %.1f%% of zone pages on the node of the thread that computes them "
                     "(%ld of %ld distinct pages; %ld of them shared by two or more parts, each counted once, for the "
                     "lowest-numbered part%s)\n",
                l->percent, l->local_pages, l->known_pages, l->shared_pages,
                l->unknown_pages > 0 ? "; some pages not placed yet" : "");
    if (l->sampled_parts > 0)
        fprintf(out, "    NUMA sampling: %ld parts larger than %d pages were sampled evenly (%ld of %ld distinct pages)\n",
                l->sampled_parts, LOCALITY_MAX_SAMPLES_PER_PART, l->queried_pages, l->total_pages);
    fprintf(out, "  NUMA pages/node:");
    print_pages_per_node(out, l->pages_per_node, l->max_node);
    fputc('\n', out);
    if (l->measured && l->threads <= TEXT_FULL_TABLE_ROWS) {
        fprintf(out, "  NUMA per thread:");
        for (int th = 0; th < l->threads; th++) {
            long local = l->per_thread[th].local_pages, known = l->per_thread[th].known_pages;
            if (known > 0)
                fprintf(out, "%s %d@node%d %.1f%% (%ld of %ld)", th > 0 ? "," : "", th, l->per_thread[th].node,
                        100.0 * (double)local / (double)known, local, known);
            else
                fprintf(out, "%s %d@node%d none", th > 0 ? "," : "", th, l->per_thread[th].node);
        }
        fprintf(out, " (thread@node: local share of the pages counted with its parts)\n");
    }
    print_records(out, "NUMA part records:", &l->records);
    print_measured_when(out, l->numa_balancing);
    if (!l->threads_bound)
        fprintf(out, "          WARNING: threads are not bound (OMP_PROC_BIND unset or false): they may migrate, "
                     "so locality can change mid-run\n");
}

void print_locality_after(FILE *out, const LocalitySummary *l)
{
    if (!l->remeasured)
        return;
    if (l->after_note[0] != '\0' && !l->after.measured && l->after.queried_pages == 0) {
        fprintf(out, "NUMA locality after the timed runs: not measured (%s)\n", l->after_note);
        return;
    }
    if (l->after.measured)
        fprintf(out, "NUMA locality after the timed runs: %.1f%% (%ld of %ld distinct pages); after the mesh "
                     "build: %.1f%%; numa_balancing is on (%d)\n",
                l->after.percent, l->after.local_pages, l->after.known_pages, l->percent, l->numa_balancing);
    else
        fprintf(out, "NUMA locality after the timed runs: not measured (%s)\n", l->after_note);
    fprintf(out, "NUMA pages/node after the timed runs:");
    print_pages_per_node(out, l->after.pages_per_node, l->after.max_node);
    fputc('\n', out);
    print_records(out, "NUMA part records after the timed runs:", &l->after_records);
}
