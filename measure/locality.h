/* Where the mesh's pages really are, against where the threads that compute
 * them run: "NUMA friendly" measured instead of assumed. Measures into the
 * run record's LocalitySummary; the reports print it. */
#ifndef CLOMP_LOCALITY_H
#define CLOMP_LOCALITY_H

#include <stdint.h>

#include "record.h"

/* Pages of one block that are queried: all of them up to `max_samples`,
 * otherwise `max_samples` evenly spread ones. */
long sampled_page_count(long total_pages, long max_samples);
/* Index (0..total_pages-1) of the k-th sampled page. */
long sampled_page_index(long k, long samples, long total_pages);

/* One queried page and the part whose zone block (or Part record) lies on
 * it: a page several parts share has one PageRef per part. */
typedef struct PageRef {
    const char *page;      /* the page's first byte */
    long part;
    int node;              /* the kernel's answer; negative: unknown */
} PageRef;

/* Orders refs by page, then part: each page's first ref is its
 * lowest-numbered part, the one it is counted with. */
void sort_page_refs(PageRef *refs, long count);

/* Zone pages, from refs sorted by sort_page_refs: part[p].known_pages and
 * local_pages count every page part p touches (a shared page for each of
 * its parts); the totals in *f (per node, local, shared) and
 * part[p].counted_* count each distinct page once, for its lowest-numbered
 * part. Local: on part[p].node. Nodes outside 0..max_node (negative: the
 * kernel could not place it) add to *unknown instead. */
void tally_zone_pages(const PageRef *refs, long count, PartLocality *part, long parts, int max_node,
                      LocalityFigures *f, long *unknown);

/* Part records, from refs in part order (each record's one or two pages
 * together): a record is known when all its pages are, local when they are
 * all on part[p].node; r->pages and pages_per_node count distinct pages
 * (refs is sorted on return). */
void tally_record_pages(PageRef *refs, long count, const PartLocality *part, int max_node, RecordLocality *r);

/* The pages of one block, first to last inclusive (page numbers). */
typedef struct PageSpan {
    uintptr_t first, last;
} PageSpan;

/* Pages in the union of the spans (reorders them). */
long distinct_span_pages(PageSpan *spans, long count);

/* Percentage of known pages that are local; -1 when no page is known
 * (nothing was measured, which must never read as 100%). */
double locality_percent(long local, long known);

/* /proc/sys/kernel/numa_balancing: 0 off, > 0 on (1 NUMA balancing, 2 memory
 * tiering, 3 both), -1 when the kernel has no such setting. */
int numa_balancing_mode(void);

/* After the mesh build: queries the kernel for each page's node
 * (move_pages without targets; sampled when large) against the node of the
 * thread that computes its part under schedule(static), observed in a
 * parallel region of numThreads threads. Fills *summary (free_locality). */
void measure_locality(const Mesh *mesh, int numThreads, LocalitySummary *summary);

/* After the timed runs: when numa_balancing is on, the same measurement
 * once more (threads re-observed, every page re-queried) into
 * summary->after; otherwise nothing. */
void remeasure_locality(const Mesh *mesh, int numThreads, LocalitySummary *summary);

void free_locality(LocalitySummary *summary);

#endif
