#define _GNU_SOURCE
#include "locality.h"

#include <omp.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "placement.h"

#ifdef CLOMP_HAVE_LIBNUMA
#include <numa.h>
#include <numaif.h>
#endif

/* Pages queried per part at most: enough for a percentage to the first
 * decimal, cheap for a 64-million-zone mesh. */
#define MAX_SAMPLES_PER_PART 1024

long sampled_page_count(long total_pages, long max_samples)
{
    return total_pages < max_samples ? total_pages : max_samples;
}

long sampled_page_index(long k, long samples, long total_pages)
{
    return (long)((double)k * (double)total_pages / (double)samples);
}

void tally_pages(const int *page_nodes, long count, int owner_node, int max_node, long *per_node, long *local,
                 long *unknown)
{
    for (long i = 0; i < count; i++) {
        int n = page_nodes[i];
        if (n < 0 || n > max_node) {
            (*unknown)++;
            continue;
        }
        per_node[n]++;
        *local += n == owner_node;
    }
}

double locality_percent(long local, long known)
{
    return known == 0 ? -1.0 : 100.0 * (double)local / (double)known;
}

int numa_balancing_mode(void)
{
    char text[32], *end;
    FILE *f = fopen("/proc/sys/kernel/numa_balancing", "r");
    if (f == NULL)
        return -1;
    int ok = fgets(text, sizeof text, f) != NULL;
    fclose(f);
    long mode = ok ? strtol(text, &end, 10) : -1;
    return !ok || end == text || mode < 0 || mode > 255 ? -1 : (int)mode;
}

void observe_static_owners(long numParts, int numThreads, int *thread, int *cpu, int *node)
{
#pragma omp parallel for schedule(static) num_threads(numThreads)
    for (long p = 0; p < numParts; p++) {
        thread[p] = omp_get_thread_num();
        cpu[p] = sched_getcpu();
    }
    /* After the region: libnuma's CPU-to-node tables are filled lazily and
     * not thread-safe (concurrent first calls leak a buffer). */
    for (long p = 0; p < numParts; p++)
        node[p] = node_of_cpu(cpu[p]);
}

#ifdef CLOMP_HAVE_LIBNUMA

/* Node of each sampled page of [start, start+bytes); returns the number of
 * pages queried and sets *total_pages. */
static long query_block(const void *start, size_t bytes, int *nodes, long *total_pages)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t offset = (size_t)((uintptr_t)start % page);
    const char *first = (const char *)start - offset;   /* the page holding the block's first byte */
    *total_pages = (long)((offset + bytes + page - 1) / page);
    long samples = sampled_page_count(*total_pages, MAX_SAMPLES_PER_PART);
    void *pages[MAX_SAMPLES_PER_PART];
    for (long k = 0; k < samples; k++)
        pages[k] = (void *)(first + (size_t)sampled_page_index(k, samples, *total_pages) * page);
    if (numa_move_pages(0, (unsigned long)samples, pages, NULL, nodes, 0) != 0)
        for (long k = 0; k < samples; k++)
            nodes[k] = -1;
    return samples;
}

/* Every part's sampled pages against the node of the thread computing it
 * (node[p]): per-part local and known counts, pages per node, totals. */
typedef struct PageTotals {
    long unknown, queried, pages, sampled_parts, local;
} PageTotals;

/* What both locality measurements fill: per part, the thread that computes
 * it under schedule(static), that thread's CPU and node, its local and known
 * pages; per node, the pages of all parts and of the part being queried. */
typedef struct PartPages {
    int *thread, *cpu, *node;
    long *local, *known;
    long *per_node, *part_per_node;
} PartPages;

static int part_pages_alloc(PartPages *pp, long numParts, int max_node)
{
    pp->thread = calloc((size_t)numParts, sizeof *pp->thread);
    pp->cpu = calloc((size_t)numParts, sizeof *pp->cpu);
    pp->node = calloc((size_t)numParts, sizeof *pp->node);
    pp->local = calloc((size_t)numParts, sizeof *pp->local);
    pp->known = calloc((size_t)numParts, sizeof *pp->known);
    pp->per_node = calloc((size_t)max_node + 1, sizeof *pp->per_node);
    pp->part_per_node = calloc((size_t)max_node + 1, sizeof *pp->part_per_node);
    return pp->thread && pp->cpu && pp->node && pp->local && pp->known && pp->per_node && pp->part_per_node;
}

static void part_pages_free(PartPages *pp)
{
    free(pp->thread);
    free(pp->cpu);
    free(pp->node);
    free(pp->local);
    free(pp->known);
    free(pp->per_node);
    free(pp->part_per_node);
}

static void query_parts(const Mesh *mesh, PartPages *pp, int max_node, PageTotals *t)
{
    const int *node = pp->node;
    long *local = pp->local, *known = pp->known, *per_node = pp->per_node, *part_per_node = pp->part_per_node;
    size_t bytes = mesh_block_bytes(&mesh->shape);
    int nodes[MAX_SAMPLES_PER_PART];
    memset(t, 0, sizeof *t);
    memset(per_node, 0, ((size_t)max_node + 1) * sizeof *per_node);
    for (long p = 0; p < mesh->shape.numParts; p++) {
        long part_pages, before = t->unknown;
        long samples = query_block(mesh->partArray[p]->firstZone, bytes, nodes, &part_pages);
        memset(part_per_node, 0, ((size_t)max_node + 1) * sizeof *part_per_node);
        local[p] = 0;
        tally_pages(nodes, samples, node[p], max_node, part_per_node, &local[p], &t->unknown);
        for (int n = 0; n <= max_node; n++)
            per_node[n] += part_per_node[n];
        known[p] = samples - (t->unknown - before);
        t->queried += samples;
        t->pages += part_pages;
        t->sampled_parts += samples < part_pages;
        t->local += local[p];
    }
}

static void fill_figures(LocalityFigures *f, const PageTotals *t, const long *per_node, int max_node)
{
    memset(f, 0, sizeof *f);
    f->local_pages = t->local;
    f->known_pages = t->queried - t->unknown;
    f->queried_pages = t->queried;
    f->measured = f->known_pages > 0;
    f->percent = locality_percent(f->local_pages, f->known_pages);
    f->max_node = max_node < LOCALITY_MAX_NODES ? max_node : LOCALITY_MAX_NODES - 1;
    for (int n = 0; n <= f->max_node; n++)
        f->pages_per_node[n] = per_node[n];
}

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

void print_locality_report(FILE *out, const Mesh *mesh, int numThreads, LocalitySummary *summary)
{
    memset(summary, 0, sizeof *summary);
    summary->percent = -1.0;
    summary->after.percent = -1.0;
    summary->threads_bound = omp_get_proc_bind() != omp_proc_bind_false;
    summary->numa_balancing = numa_balancing_mode();
    long numParts = mesh->shape.numParts;
    size_t bytes = mesh_block_bytes(&mesh->shape);
    int max_node = numa_available() < 0 ? 0 : numa_max_node();
    PartPages pp;
    int allocated = part_pages_alloc(&pp, numParts, max_node);
    const int *thread = pp.thread, *cpu = pp.cpu, *node = pp.node;
    const long *local = pp.local, *known = pp.known, *per_node = pp.per_node;
    int nodes[MAX_SAMPLES_PER_PART];
    PageTotals t;

    if (!allocated) {
        fprintf(out, "    NUMA locality: not measured (out of memory)\n");
        snprintf(summary->note, sizeof summary->note, "out of memory");
        goto done;
    }
    if (numa_available() < 0) {
        fprintf(out, "    NUMA locality: not measured (NUMA is not available on this system)\n");
        snprintf(summary->note, sizeof summary->note, "NUMA is not available on this system");
        goto done;
    }
    summary->nodes = numa_node_total();
    fprintf(out, "       NUMA nodes: %d\n", numa_node_total());
    observe_static_owners(numParts, numThreads, pp.thread, pp.cpu, pp.node);
    fprintf(out, "     NUMA threads:");
    for (long p = 0; p < numParts; p++)
        if (p == 0 || thread[p] != thread[p - 1])
            fprintf(out, " %d@cpu%d/node%d", thread[p], cpu[p], node[p]);
    fprintf(out, " (thread@cpu/node under schedule(static))\n");

    query_parts(mesh, &pp, max_node, &t);

    /* Consecutive fully local parts on the same node share a line, so 1024
     * parts do not print 1024 lines; any part with remote pages gets its own. */
    for (long p = 0, q; p < numParts; p = q + 1) {
        long run_local = local[p], run_known = known[p];
        for (q = p; q + 1 < numParts && node[q + 1] == node[p] && local[p] == known[p] &&
                    local[q + 1] == known[q + 1];
             q++) {
            run_local += local[q + 1];
            run_known += known[q + 1];
        }
        fprintf(out, "  NUMA part pages: part%s %ld", q > p ? "s" : "", p);
        if (q > p)
            fprintf(out, "-%ld", q);
        fprintf(out, " (computed on node %d): %ld of %ld queried pages local", node[p], run_local, run_known);
        if (run_local != run_known) {
            /* A part with remote pages: say where they are. */
            long part_pages;
            long samples = query_block(mesh->partArray[p]->firstZone, bytes, nodes, &part_pages);
            fprintf(out, "; pages by node:");
            for (int n = 0; n <= max_node; n++) {
                long count = 0;
                for (long k = 0; k < samples; k++)
                    count += nodes[k] == n;
                if (count > 0)
                    fprintf(out, " %d:%ld", n, count);
            }
        }
        fputc('\n', out);
    }

    LocalityFigures f;
    fill_figures(&f, &t, per_node, max_node);
    summary->local_pages = f.local_pages;
    summary->known_pages = f.known_pages;
    summary->queried_pages = f.queried_pages;
    summary->total_pages = t.pages;
    summary->sampled_parts = t.sampled_parts;
    summary->max_node = f.max_node;
    memcpy(summary->pages_per_node, f.pages_per_node, sizeof f.pages_per_node);
    summary->measured = f.measured;
    summary->percent = f.percent;
    if (!f.measured) {
        snprintf(summary->note, sizeof summary->note, "the kernel reported no page's node: move_pages failed");
        fprintf(out, "    NUMA locality: not measured (%s)\n", summary->note);
    } else
        fprintf(out, "    NUMA locality: %.1f%% of zone pages on the node of the thread that computes them "
                     "(%ld of %ld pages queried%s)\n",
                f.percent, f.local_pages, f.known_pages, t.unknown > 0 ? "; some pages not placed yet" : "");
    if (t.sampled_parts > 0)
        fprintf(out, "    NUMA sampling: %ld parts larger than %d pages were sampled evenly (%ld of %ld pages)\n",
                t.sampled_parts, MAX_SAMPLES_PER_PART, t.queried, t.pages);
    fprintf(out, "  NUMA pages/node:");
    print_pages_per_node(out, per_node, max_node);
    fputc('\n', out);

    /* The same figure per thread: with a policy that favours one node the
     * average hides a thread that has no local page at all. */
    for (long p = 0; p < numParts; p++) {
        if (thread[p] < 0 || thread[p] >= LOCALITY_MAX_THREADS)
            continue;
        if (thread[p] >= summary->threads)
            summary->threads = thread[p] + 1;
        summary->per_thread[thread[p]].node = node[p];
        summary->per_thread[thread[p]].local_pages += local[p];
        summary->per_thread[thread[p]].known_pages += known[p];
    }
    if (f.measured) {
        fprintf(out, "  NUMA per thread:");
        for (int th = 0; th < summary->threads; th++) {
            long l = summary->per_thread[th].local_pages, k = summary->per_thread[th].known_pages;
            if (k > 0)
                fprintf(out, "%s %d@node%d %.1f%% (%ld of %ld)", th > 0 ? "," : "", th, summary->per_thread[th].node,
                        locality_percent(l, k), l, k);
            else
                fprintf(out, "%s %d@node%d no pages", th > 0 ? "," : "", th, summary->per_thread[th].node);
        }
        fprintf(out, " (thread@node: local share of the pages it computes)\n");
    }
    print_measured_when(out, summary->numa_balancing);
    if (omp_get_proc_bind() == omp_proc_bind_false)
        fprintf(out, "          WARNING: threads are not bound (OMP_PROC_BIND unset or false): they may migrate, "
                     "so locality can change mid-run\n");
done:
    part_pages_free(&pp);
}

void remeasure_locality(FILE *out, const Mesh *mesh, int numThreads, LocalitySummary *summary)
{
    summary->remeasured = 0;
    if (!summary->measured || summary->numa_balancing <= 0)
        return;
    long numParts = mesh->shape.numParts;
    int max_node = numa_max_node();
    PartPages pp;
    if (!part_pages_alloc(&pp, numParts, max_node)) {
        fprintf(out, "NUMA locality after the timed runs: not measured (out of memory)\n");
    } else {
        PageTotals t;
        observe_static_owners(numParts, numThreads, pp.thread, pp.cpu, pp.node);
        query_parts(mesh, &pp, max_node, &t);
        fill_figures(&summary->after, &t, pp.per_node, max_node);
        summary->remeasured = 1;
        if (summary->after.measured)
            fprintf(out, "NUMA locality after the timed runs: %.1f%% (%ld of %ld pages queried); after the mesh "
                         "build: %.1f%%; numa_balancing is on (%d)\n",
                    summary->after.percent, summary->after.local_pages, summary->after.known_pages, summary->percent,
                    summary->numa_balancing);
        else
            fprintf(out, "NUMA locality after the timed runs: not measured (the kernel reported no page's node)\n");
        fprintf(out, "NUMA pages/node after the timed runs:");
        print_pages_per_node(out, pp.per_node, max_node);
        fputc('\n', out);
    }
    part_pages_free(&pp);
}

#else

void print_locality_report(FILE *out, const Mesh *mesh, int numThreads, LocalitySummary *summary)
{
    (void)mesh;
    (void)numThreads;
    memset(summary, 0, sizeof *summary);
    summary->percent = -1.0;
    summary->after.percent = -1.0;
    summary->numa_balancing = numa_balancing_mode();
    summary->threads_bound = omp_get_proc_bind() != omp_proc_bind_false;
    snprintf(summary->note, sizeof summary->note, "clomp built without libnuma");
    fprintf(out, "    NUMA locality: not measured (clomp built without libnuma)\n");
}

void remeasure_locality(FILE *out, const Mesh *mesh, int numThreads, LocalitySummary *summary)
{
    (void)out;
    (void)mesh;
    (void)numThreads;
    summary->remeasured = 0;
}

#endif
