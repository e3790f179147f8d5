/* Where the mesh's pages really are, against where the threads that compute
 * them run: "NUMA friendly" measured instead of assumed. Measures into the
 * run record's LocalitySummary; the reports print it. */
#ifndef CLOMP_LOCALITY_H
#define CLOMP_LOCALITY_H

#include "record.h"

/* Pages of one block that are queried: all of them up to `max_samples`,
 * otherwise `max_samples` evenly spread ones. */
long sampled_page_count(long total_pages, long max_samples);
/* Index (0..total_pages-1) of the k-th sampled page. */
long sampled_page_index(long k, long samples, long total_pages);

/* Adds one block's page nodes to the totals: per_node[n] counts pages on node
 * n (0..max_node), *local those on owner_node, *unknown those the kernel
 * could not place (negative node). */
void tally_pages(const int *page_nodes, long count, int owner_node, int max_node, long *per_node, long *local,
                 long *unknown);

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
