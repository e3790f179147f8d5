/* clomp --limits (limits.h): the group in order, and the bound that
 * follows from the pairs. */
#include "limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/exit_status.h"
#include "../kernels/ref_barrier.h"
#include "../numa/cpu_place.h"
#include "../timing/clock.h"
#include "../timing/core_clock.h"
#include "llnl_targets.h"

/* Where the CPUs' topology is read: sysfs, or its place under the stand-in
 * root CLOMP_TOPOLOGY_ROOT names (tests; a container whose /sys hides it),
 * as the job's cores are counted (numa/job_cores.h). */
static const char *topology_root(void)
{
    static char path[1024];
    const char *root = getenv("CLOMP_TOPOLOGY_ROOT");
    if (root == NULL || root[0] == '\0' ||
        snprintf(path, sizeof path, "%s%s", root, SYSFS_CPU_ROOT) >= (int)sizeof path)
        return SYSFS_CPU_ROOT;
    return path;
}

/* The core clock the cycles count: --ghz's, else the team's, measured now. */
static void measure_clock(const RunSetup *run, LimitsRecord *l)
{
    if (run->cycles.source == CYCLES_GIVEN) {
        l->cycles_ghz = run->cycles.ghz;
        l->cycles_source = "--ghz";
        return;
    }
    if (measure_core_clock(&l->clock, l->threads) == 0) {
        l->cycles_ghz = l->clock.median_ghz;
        l->cycles_source = "measured";
    }
}

/* rounds x one-way latency: a barrier built from line transfers between
 * pairs, as the dissemination barrier is, passes ceil(log2 T) of them one
 * after another (the critical path), each half a round trip. */
static void derive_bound(LimitsRecord *l)
{
    LimitDerived *b = &l->bound;
    memset(&b->stats, 0, sizeof b->stats);
    b->stats.median = (double)l->rounds * l->all.median_ns / 2.0;
    b->not_a_result[0] = '\0';
    if (l->all.pairs == 0)
        snprintf(b->not_a_result, sizeof b->not_a_result, "no pair's round trip is a result");
    else if (l->busy)
        snprintf(b->not_a_result, sizeof b->not_a_result, "%s", LIMITS_BUSY);
}

static int measure_limits(const RunSetup *run, LimitsRecord *l, char *why, size_t why_size)
{
    l->threads = (int)run->numThreads;
    l->best_reference = -1;
    l->topology_root = topology_root();
    l->rounds = ref_rounds(l->threads);
    l->llnl_barrier_cycles = NAN;
    for (size_t t = 0; t < llnl_target_count; t++)
        if (strcmp(llnl_targets[t].key, "barrier_latency") == 0)
            l->llnl_barrier_cycles = llnl_targets[t].below_cycles;
    if (l->threads < 2) {
        snprintf(l->not_measured, sizeof l->not_measured, "needs at least 2 threads; numThreads is %d", l->threads);
        return 0;
    }
    measure_clock(run, l);
    if (measure_limit_pairs(run, l, l->topology_root) != 0) {
        snprintf(why, why_size, "out of memory for --limits' %d threads' pairs", l->threads);
        return EXIT_RESOURCE;
    }
    derive_bound(l);
    return measure_limit_timings(run, l, why, why_size);
}

int measure_asked_limits(const RunSetup *run, RunRecord *record, LimitsRecord *l, char *why, size_t why_size)
{
    if (!run->limits.asked)
        return 0;
    double from = process_cost_now().wall_seconds;
    record->limits = l;
    const NoiseCensus *c = record->noise;
    l->busy = c != NULL && c->busy_judged && c->busy;
    snprintf(l->busy_reason, sizeof l->busy_reason, "%s", l->busy ? c->busy_reason : "");
    int status = measure_limits(run, l, why, why_size);
    record->measured_until = process_cost_now().wall_seconds;
    record->limits_seconds = record->measured_until - from;
    return status;
}

void free_limits(LimitsRecord *l)
{
    free(l->pairs);
    l->pairs = NULL;
    l->pair_count = 0;
}
