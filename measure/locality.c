#define _GNU_SOURCE
#include "locality.h"

#include <omp.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../numa/placement.h"
#include "../numa/thread_placement.h"

#ifdef CLOMP_HAVE_LIBNUMA
#include <numa.h>
#include <numaif.h>
#endif

#define MAX_SAMPLES_PER_PART LOCALITY_MAX_SAMPLES_PER_PART

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


void free_locality(LocalitySummary *summary)
{
    free(summary->part);
    free(summary->part_pages_by_node);
    summary->part = NULL;
    summary->part_pages_by_node = NULL;
}

static void start_summary(LocalitySummary *summary)
{
    memset(summary, 0, sizeof *summary);
    summary->percent = -1.0;
    summary->after.percent = -1.0;
    summary->threads_bound = omp_get_proc_bind() != omp_proc_bind_false;
    summary->numa_balancing = numa_balancing_mode();
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

typedef struct PageTotals {
    long unknown, queried, pages, sampled_parts, local;
} PageTotals;

/* Every part's sampled pages against the node of the thread computing it
 * (part[p].node, observed first): per-part local and known counts, pages
 * per node, totals; with `by_node`, each part's pages per node too. */
static void query_parts(const Mesh *mesh, PartLocality *part, int max_node, long *per_node, long *by_node,
                        PageTotals *t)
{
    size_t bytes = mesh_block_bytes(&mesh->shape);
    int nodes[MAX_SAMPLES_PER_PART];
    long part_per_node[LOCALITY_MAX_NODES];
    memset(t, 0, sizeof *t);
    memset(per_node, 0, ((size_t)max_node + 1) * sizeof *per_node);
    for (long p = 0; p < mesh->shape.numParts; p++) {
        long part_pages, before = t->unknown;
        long samples = query_block(mesh->partArray[p]->firstZone, bytes, nodes, &part_pages);
        memset(part_per_node, 0, sizeof part_per_node);
        part[p].local_pages = 0;
        tally_pages(nodes, samples, part[p].node, max_node, part_per_node, &part[p].local_pages, &t->unknown);
        for (int n = 0; n <= max_node; n++) {
            per_node[n] += part_per_node[n];
            if (by_node != NULL)
                by_node[p * (max_node + 1) + n] = part_per_node[n];
        }
        part[p].known_pages = samples - (t->unknown - before);
        t->queried += samples;
        t->pages += part_pages;
        t->sampled_parts += samples < part_pages;
        t->local += part[p].local_pages;
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
    f->max_node = max_node;
    for (int n = 0; n <= f->max_node; n++)
        f->pages_per_node[n] = per_node[n];
}

/* The static owners of the parts, observed in a region of the timed team's size. */
static int observe_owners(long numParts, int numThreads, PartLocality *part)
{
    int *thread = calloc((size_t)numParts, sizeof *thread), *cpu = calloc((size_t)numParts, sizeof *cpu);
    int *node = calloc((size_t)numParts, sizeof *node);
    int ok = thread != NULL && cpu != NULL && node != NULL;
    if (ok) {
        observe_static_owners(numParts, numThreads, thread, cpu, node);
        for (long p = 0; p < numParts; p++)
            part[p] = (PartLocality){thread[p], cpu[p], node[p], 0, 0};
    }
    free(thread);
    free(cpu);
    free(node);
    return ok;
}

void measure_locality(const Mesh *mesh, int numThreads, LocalitySummary *summary)
{
    start_summary(summary);
    long numParts = mesh->shape.numParts;
    /* Nodes beyond the record's table are counted as unknown. */
    int max_node = numa_available() < 0 ? 0 : numa_max_node();
    if (max_node >= LOCALITY_MAX_NODES)
        max_node = LOCALITY_MAX_NODES - 1;
    if (numa_available() < 0) {
        snprintf(summary->note, sizeof summary->note, "NUMA is not available on this system");
        return;
    }
    summary->part = calloc((size_t)numParts, sizeof *summary->part);
    if (summary->part == NULL || !observe_owners(numParts, numThreads, summary->part)) {
        snprintf(summary->note, sizeof summary->note, "out of memory");
        free_locality(summary);
        return;
    }
    summary->queried = 1;
    summary->parts = numParts;
    summary->nodes = numa_node_total();
    PageTotals t;
    long per_node[LOCALITY_MAX_NODES];
    query_parts(mesh, summary->part, max_node, per_node, NULL, &t);

    /* Parts with remote pages: where those pages are, part by part (every
     * part is queried again only when there is one). */
    int remote = 0;
    for (long p = 0; p < numParts && !remote; p++)
        remote = summary->part[p].local_pages != summary->part[p].known_pages;
    if (remote) {
        summary->part_pages_by_node = calloc((size_t)numParts * (size_t)(max_node + 1), sizeof(long));
        if (summary->part_pages_by_node != NULL) {
            summary->part_max_node = max_node;
            query_parts(mesh, summary->part, max_node, per_node, summary->part_pages_by_node, &t);
        }
    }

    LocalityFigures f;
    fill_figures(&f, &t, per_node, max_node);
    summary->local_pages = f.local_pages;
    summary->known_pages = f.known_pages;
    summary->queried_pages = f.queried_pages;
    summary->unknown_pages = t.unknown;
    summary->total_pages = t.pages;
    summary->sampled_parts = t.sampled_parts;
    summary->max_node = f.max_node;
    memcpy(summary->pages_per_node, f.pages_per_node, sizeof f.pages_per_node);
    summary->measured = f.measured;
    summary->percent = f.percent;
    if (!f.measured)
        snprintf(summary->note, sizeof summary->note, "the kernel reported no page's node: move_pages failed");

    /* The same figure per thread: with a policy that favours one node the
     * average hides a thread that has no local page at all. */
    for (long p = 0; p < numParts; p++) {
        const PartLocality *pl = &summary->part[p];
        if (pl->thread < 0 || pl->thread >= LOCALITY_MAX_THREADS)
            continue;
        if (pl->thread >= summary->threads)
            summary->threads = pl->thread + 1;
        summary->per_thread[pl->thread].node = pl->node;
        summary->per_thread[pl->thread].local_pages += pl->local_pages;
        summary->per_thread[pl->thread].known_pages += pl->known_pages;
    }
}

void remeasure_locality(const Mesh *mesh, int numThreads, LocalitySummary *summary)
{
    summary->remeasured = 0;
    if (!summary->measured || summary->numa_balancing <= 0)
        return;
    long numParts = mesh->shape.numParts;
    int max_node = summary->max_node;
    summary->remeasured = 1;
    PartLocality *part = calloc((size_t)numParts, sizeof *part);
    if (part == NULL || !observe_owners(numParts, numThreads, part)) {
        snprintf(summary->after_note, sizeof summary->after_note, "out of memory");
    } else {
        PageTotals t;
        long per_node[LOCALITY_MAX_NODES];
        query_parts(mesh, part, max_node, per_node, NULL, &t);
        fill_figures(&summary->after, &t, per_node, max_node);
        if (!summary->after.measured)
            snprintf(summary->after_note, sizeof summary->after_note, "the kernel reported no page's node");
    }
    free(part);
}

#else

void measure_locality(const Mesh *mesh, int numThreads, LocalitySummary *summary)
{
    (void)mesh;
    (void)numThreads;
    start_summary(summary);
    snprintf(summary->note, sizeof summary->note, "clomp built without libnuma");
}

void remeasure_locality(const Mesh *mesh, int numThreads, LocalitySummary *summary)
{
    (void)mesh;
    (void)numThreads;
    summary->remeasured = 0;
}

#endif
