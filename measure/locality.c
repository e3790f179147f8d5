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

static int compare_refs(const void *a, const void *b)
{
    const PageRef *x = a, *y = b;
    uintptr_t a_page = (uintptr_t)x->page, b_page = (uintptr_t)y->page;
    if (a_page != b_page)
        return a_page < b_page ? -1 : 1;
    return (x->part > y->part) - (x->part < y->part);
}

void sort_page_refs(PageRef *refs, long count)
{
    if (count > 1)
        qsort(refs, (size_t)count, sizeof *refs, compare_refs);
}

void tally_zone_pages(const PageRef *refs, long count, PartLocality *part, long parts, int max_node,
                      LocalityFigures *f, long *unknown)
{
    for (long p = 0; p < parts; p++)
        part[p].local_pages = part[p].known_pages = part[p].counted_local = part[p].counted_known = 0;
    for (long i = 0; i < count; i++) {
        const PageRef *r = &refs[i];
        int known = r->node >= 0 && r->node <= max_node, local = known && r->node == part[r->part].node;
        part[r->part].known_pages += known;
        part[r->part].local_pages += local;
        if (i > 0 && refs[i - 1].page == r->page)
            continue;   /* counted with a lower-numbered part */
        f->queried_pages++;
        f->shared_pages += i + 1 < count && refs[i + 1].page == r->page;
        if (!known) {
            (*unknown)++;
            continue;
        }
        f->pages_per_node[r->node]++;
        f->known_pages++;
        f->local_pages += local;
        part[r->part].counted_known++;
        part[r->part].counted_local += local;
    }
}

void tally_record_pages(PageRef *refs, long count, const PartLocality *part, int max_node, RecordLocality *r)
{
    for (long i = 0, j; i < count; i = j) {
        int known = 1, local = 1;
        for (j = i; j < count && refs[j].part == refs[i].part; j++) {
            known &= refs[j].node >= 0 && refs[j].node <= max_node;
            local &= refs[j].node == part[refs[i].part].node;
        }
        r->records++;
        r->known_records += known;
        r->local_records += known && local;
    }
    sort_page_refs(refs, count);
    for (long i = 0; i < count; i++) {
        if (i > 0 && refs[i - 1].page == refs[i].page)
            continue;
        r->pages++;
        if (refs[i].node >= 0 && refs[i].node <= max_node)
            r->pages_per_node[refs[i].node]++;
    }
    r->max_node = max_node;
    r->measured = r->known_records > 0;
    r->percent = locality_percent(r->local_records, r->known_records);
}

static int compare_spans(const void *a, const void *b)
{
    const PageSpan *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

long distinct_span_pages(PageSpan *spans, long count)
{
    if (count > 1)
        qsort(spans, (size_t)count, sizeof *spans, compare_spans);
    long pages = 0;
    uintptr_t next = 0;   /* first page not yet counted */
    for (long i = 0; i < count; i++) {
        uintptr_t from = i > 0 && spans[i].first < next ? next : spans[i].first;
        if (spans[i].last >= from)
            pages += (long)(spans[i].last - from + 1);
        if (i == 0 || spans[i].last + 1 > next)
            next = spans[i].last + 1;
    }
    return pages;
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
    summary->records.percent = -1.0;
    summary->after_records.percent = -1.0;
    summary->threads_bound = omp_get_proc_bind() != omp_proc_bind_false;
    summary->numa_balancing = numa_balancing_mode();
}

#ifdef CLOMP_HAVE_LIBNUMA

/* Appends to refs the sampled pages of [start, start+bytes), for part p;
 * returns how many and sets *span (the block's whole page range). */
static long add_block_pages(PageRef *refs, long p, const void *start, size_t bytes, PageSpan *span)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t first = (uintptr_t)start / page, last = ((uintptr_t)start + (bytes > 0 ? bytes : 1) - 1) / page;
    const char *first_page = (const char *)start - (uintptr_t)start % page;   /* the page holding the first byte */
    long total = (long)(last - first + 1), samples = sampled_page_count(total, MAX_SAMPLES_PER_PART);
    for (long k = 0; k < samples; k++)
        refs[k] = (PageRef){first_page + (size_t)sampled_page_index(k, samples, total) * page, p, -1};
    *span = (PageSpan){first, last};
    return samples;
}

/* Every ref's node, from the kernel (move_pages without targets); -1 where
 * the call fails. */
static void query_nodes(PageRef *refs, long count)
{
    enum { BATCH = 4096 };
    void *pages[BATCH];
    int nodes[BATCH];
    for (long at = 0; at < count; at += BATCH) {
        long n = count - at < BATCH ? count - at : BATCH;
        for (long k = 0; k < n; k++)
            pages[k] = (void *)refs[at + k].page;
        int failed = numa_move_pages(0, (unsigned long)n, pages, NULL, nodes, 0) != 0;
        for (long k = 0; k < n; k++)
            refs[at + k].node = failed ? -1 : nodes[k];
    }
}

typedef struct PageTotals {
    long unknown, pages, sampled_parts;
} PageTotals;

/* Queries every part's zone pages (sampled when large) and Part record
 * against the node of the thread computing it (part[p].node, observed
 * first). With `by_node` (numParts x (max_node+1) longs), each part's
 * pages per node too. Returns 0 when out of memory. */
static int query_mesh(const Mesh *mesh, PartLocality *part, int max_node, LocalityFigures *f, RecordLocality *rec,
                      long *by_node, PageTotals *t)
{
    long numParts = mesh->shape.numParts, count = 0, records = 0;
    size_t bytes = mesh_block_bytes(&mesh->shape);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    long per_part = sampled_page_count((long)((bytes + page - 1) / page) + 1, MAX_SAMPLES_PER_PART);
    PageRef *refs = malloc((size_t)numParts * (size_t)per_part * sizeof *refs);
    PageRef *record_refs = malloc((size_t)numParts * 2 * sizeof *record_refs);
    PageSpan *spans = malloc((size_t)numParts * sizeof *spans), ignored;
    int ok = refs != NULL && record_refs != NULL && spans != NULL;
    memset(f, 0, sizeof *f);
    memset(rec, 0, sizeof *rec);
    memset(t, 0, sizeof *t);
    for (long p = 0; ok && p < numParts; p++) {
        long n = add_block_pages(refs + count, p, mesh->partArray[p]->firstZone, bytes, &spans[p]);
        count += n;
        t->sampled_parts += n < (long)(spans[p].last - spans[p].first + 1);
        records += add_block_pages(record_refs + records, p, mesh->partArray[p], sizeof(Part), &ignored);
    }
    if (ok) {
        query_nodes(refs, count);
        query_nodes(record_refs, records);
        for (long i = 0; by_node != NULL && i < count; i++)
            if (refs[i].node >= 0 && refs[i].node <= max_node)
                by_node[refs[i].part * (max_node + 1) + refs[i].node]++;
        sort_page_refs(refs, count);
        tally_zone_pages(refs, count, part, numParts, max_node, f, &t->unknown);
        tally_record_pages(record_refs, records, part, max_node, rec);
        t->pages = distinct_span_pages(spans, numParts);
        f->max_node = max_node;
        f->measured = f->known_pages > 0;
        f->percent = locality_percent(f->local_pages, f->known_pages);
    }
    free(refs);
    free(record_refs);
    free(spans);
    return ok;
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
            part[p] = (PartLocality){thread[p], cpu[p], node[p], 0, 0, 0, 0};
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
    /* Each part's pages by node, kept only for parts with remote pages. */
    long *by_node = calloc((size_t)numParts * (size_t)(max_node + 1), sizeof(long));
    PageTotals t;
    LocalityFigures f;
    if (summary->part == NULL || by_node == NULL || !observe_owners(numParts, numThreads, summary->part) ||
        !query_mesh(mesh, summary->part, max_node, &f, &summary->records, by_node, &t)) {
        snprintf(summary->note, sizeof summary->note, "out of memory");
        free(by_node);
        free_locality(summary);
        return;
    }
    summary->queried = 1;
    summary->parts = numParts;
    summary->nodes = numa_node_total();
    int remote = 0;
    for (long p = 0; p < numParts && !remote; p++)
        remote = summary->part[p].local_pages != summary->part[p].known_pages;
    if (remote) {
        summary->part_max_node = max_node;
        summary->part_pages_by_node = by_node;
    } else {
        free(by_node);
    }

    summary->local_pages = f.local_pages;
    summary->known_pages = f.known_pages;
    summary->queried_pages = f.queried_pages;
    summary->shared_pages = f.shared_pages;
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
     * average hides a thread that has no local page at all. Each page
     * counts for the thread of the part it is counted with. */
    for (long p = 0; p < numParts; p++) {
        const PartLocality *pl = &summary->part[p];
        if (pl->thread < 0 || pl->thread >= LOCALITY_MAX_THREADS)
            continue;
        if (pl->thread >= summary->threads)
            summary->threads = pl->thread + 1;
        summary->per_thread[pl->thread].node = pl->node;
        summary->per_thread[pl->thread].local_pages += pl->counted_local;
        summary->per_thread[pl->thread].known_pages += pl->counted_known;
    }
}

void remeasure_locality(const Mesh *mesh, int numThreads, LocalitySummary *summary)
{
    summary->remeasured = 0;
    if (!summary->measured || summary->numa_balancing <= 0)
        return;
    long numParts = mesh->shape.numParts;
    summary->remeasured = 1;
    PartLocality *part = calloc((size_t)numParts, sizeof *part);
    PageTotals t;
    if (part == NULL || !observe_owners(numParts, numThreads, part) ||
        !query_mesh(mesh, part, summary->max_node, &summary->after, &summary->after_records, NULL, &t)) {
        snprintf(summary->after_note, sizeof summary->after_note, "out of memory");
    } else if (!summary->after.measured) {
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
