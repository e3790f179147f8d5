/* Where the mesh's pages really are, against where the threads that compute
 * them run: "NUMA friendly" measured instead of assumed. */
#ifndef CLOMP_LOCALITY_H
#define CLOMP_LOCALITY_H

#include <stdio.h>

#include "../mesh/mesh.h"
#include "thread_placement.h"

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

/* For each part, the thread that computes it under schedule(static) with
 * numThreads threads, and that thread's CPU and node (sched_getcpu() inside
 * the region). */
void observe_static_owners(long numParts, int numThreads, int *thread, int *cpu, int *node);

#define LOCALITY_MAX_NODES 64
#define LOCALITY_MAX_THREADS 1024

/* One measurement of where the zone pages are. */
typedef struct LocalityFigures {
    int measured;          /* some page's node was known */
    double percent;        /* local share of known pages; -1 when not measured */
    long local_pages, known_pages, queried_pages;
    int max_node;          /* pages_per_node[0..max_node] (capped at LOCALITY_MAX_NODES-1) */
    long pages_per_node[LOCALITY_MAX_NODES];
} LocalityFigures;

/* /proc/sys/kernel/numa_balancing: 0 off, > 0 on (1 NUMA balancing, 2 memory
 * tiering, 3 both), -1 when the kernel has no such setting. */
int numa_balancing_mode(void);

/* The report's figures, for the JSON record. */
typedef struct LocalitySummary {
    int measured;          /* 0: see `note` */
    char note[96];         /* why it was not measured */
    int nodes;             /* NUMA nodes configured */
    double percent;        /* local share of known pages; -1 when not measured */
    long local_pages, known_pages, queried_pages, total_pages, sampled_parts;
    int max_node;          /* pages_per_node[0..max_node] (capped at LOCALITY_MAX_NODES-1) */
    long pages_per_node[LOCALITY_MAX_NODES];
    int threads_bound;     /* OMP_PROC_BIND is not false */
    int numa_balancing;    /* numa_balancing_mode() when the pages were queried */
    int threads;           /* per_thread[0..threads-1] (capped at LOCALITY_MAX_THREADS) */
    struct {
        int node;          /* node of the thread's CPU in the static pass */
        long local_pages, known_pages;
    } per_thread[LOCALITY_MAX_THREADS];
    /* With numa_balancing on, pages move while the timed runs go: the same
     * measurement once more after them (after.measured 0 when not taken). */
    int remeasured;
    LocalityFigures after;
    /* Where the timed team's threads run (header's Thread placement lines). */
    TeamPlacement team;
} LocalitySummary;

/* Prints the locality report (append-only header lines) and fills *summary.
 * Queries the kernel for each page's node (move_pages without targets);
 * sampled when large. */
void print_locality_report(FILE *out, const Mesh *mesh, int numThreads, LocalitySummary *summary);

/* After the timed runs: when numa_balancing is on, measures the locality
 * again (threads re-observed, every page re-queried), prints one line with
 * both figures and fills summary->after; otherwise prints nothing. */
void remeasure_locality(FILE *out, const Mesh *mesh, int numThreads, LocalitySummary *summary);

#endif
