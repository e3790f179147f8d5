/* Every pair of the team's threads bounces one cache line (limits.h): one
 * pair at a time, inside one region of the team, the others waiting at an
 * OpenMP barrier; each pair's CPUs are read as it begins and ends, and
 * classed by the topology afterwards. */
#define _GNU_SOURCE   /* sched_getcpu */
#include "limits.h"

#include <omp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/exit_status.h"
#include "../kernels/line_pingpong.h"
#include "../numa/cpu_place.h"
#include "sequence.h"

/* The places of the CPUs seen, read once each. */
typedef struct PlaceCache {
    const char *root;
    int count;
    CpuPlace place[1024];   /* CLOMP_MAX_CPUS: more are read again each time */
} PlaceCache;

static const CpuPlace *place_of(PlaceCache *c, int cpu, CpuPlace *spare)
{
    for (int i = 0; i < c->count; i++)
        if (c->place[i].cpu == cpu)
            return &c->place[i];
    CpuPlace *p = c->count < (int)(sizeof c->place / sizeof c->place[0]) ? &c->place[c->count++] : spare;
    read_cpu_place(c->root, cpu, p);
    return p;
}

static void run_pairs(LimitsRecord *l, long batches, double *batch_ns, PingPongLine *line)
{
    int end_cpu[2];
#pragma omp parallel num_threads(l->threads)
    {
        int t = omp_get_thread_num();
        for (long p = 0; p < l->pair_count; p++) {
            LimitPair *pair = &l->pairs[p];
            int side = t == pair->thread_a ? 0 : t == pair->thread_b ? 1 : -1;
            if (side == 0)
                pair->cpu_a = sched_getcpu();
            else if (side == 1)
                pair->cpu_b = sched_getcpu();
#pragma omp barrier
            /* Two threads on one CPU would time the scheduler, not a line between cores. */
            int measured = pair->cpu_a < 0 || pair->cpu_a != pair->cpu_b;
            if (side >= 0 && measured) {
                line_pingpong(line, side, batches, side == 0 ? batch_ns : NULL);
                end_cpu[side] = sched_getcpu();
            }
#pragma omp barrier
            if (t == 0 && measured) {
                pair->moved = end_cpu[0] != pair->cpu_a || end_cpu[1] != pair->cpu_b;
                pair->batches = batches;
                pair->round_trip_ns = median_of(batch_ns, batches);
                double sum = 0.0;
                for (long b = 0; b < batches; b++)
                    sum += batch_ns[b];
                pair->mean_ns = sum / (double)batches;
            }
        }
    }
}

int measure_limit_pairs(const RunSetup *run, LimitsRecord *l, const char *root)
{
    int threads = l->threads;
    long batches = (run->limits.trips + PINGPONG_TRIPS_PER_BATCH - 1) / PINGPONG_TRIPS_PER_BATCH;
    l->trips_per_pair = batches * PINGPONG_TRIPS_PER_BATCH;
    l->pair_count = (long)threads * (threads - 1) / 2;
    l->pairs = calloc((size_t)l->pair_count, sizeof *l->pairs);
    double *batch_ns = malloc((size_t)batches * sizeof *batch_ns);
    PingPongLine *line = aligned_alloc(REF_LINE, sizeof *line);
    if (l->pairs == NULL || batch_ns == NULL || line == NULL) {
        free(l->pairs);
        free(batch_ns);
        free(line);
        l->pairs = NULL;
        l->pair_count = 0;   /* the record lists no pair it does not hold */
        return EXIT_RESOURCE;
    }
    atomic_init(&line->count, 0);
    for (int a = 0, p = 0; a < threads; a++)
        for (int b = a + 1; b < threads; b++, p++)
            l->pairs[p] = (LimitPair){a, b, -1, -1, 0, PAIR_UNKNOWN, 0, NAN, NAN, 0};
    clomp_openmp_running = 1;
    run_pairs(l, batches, batch_ns, line);
    clomp_openmp_running = 0;
    free(batch_ns);
    free(line);

    PlaceCache *cache = malloc(sizeof *cache);
    if (cache == NULL)
        return EXIT_RESOURCE;
    cache->root = root;
    cache->count = 0;
    for (long p = 0; p < l->pair_count; p++) {
        LimitPair *pair = &l->pairs[p];
        CpuPlace spare_a, spare_b;
        const CpuPlace *a = place_of(cache, pair->cpu_a, &spare_a), *b = place_of(cache, pair->cpu_b, &spare_b);
        pair->pair_class = pair->batches == 0 ? PAIR_SAME_CPU : classify_cpu_pair(a, b);
        pair->invalid = pair->batches > 0 && !(pair->mean_ns <= CLOMP_MEAN_MEDIAN_FACTOR * pair->round_trip_ns &&
                                               pair->round_trip_ns <= CLOMP_MEAN_MEDIAN_FACTOR * pair->mean_ns);
    }
    free(cache);
    summarize_limit_pairs(l);
    return 0;
}

static LimitSpread spread_of(double *ns, long n)
{
    LimitSpread s = {n, NAN, NAN, NAN};
    if (n == 0)
        return s;
    s.median_ns = median_of(ns, n);
    s.min_ns = s.max_ns = ns[0];
    for (long i = 1; i < n; i++) {
        s.min_ns = ns[i] < s.min_ns ? ns[i] : s.min_ns;
        s.max_ns = ns[i] > s.max_ns ? ns[i] : s.max_ns;
    }
    return s;
}

void summarize_limit_pairs(LimitsRecord *l)
{
    double *ns = malloc((size_t)(l->pair_count > 0 ? l->pair_count : 1) * sizeof *ns);
    l->pairs_measured = l->pairs_invalid = l->pairs_same_cpu = l->pairs_moved = 0;
    for (int c = 0; c <= PAIR_CLASSES; c++) {
        long n = 0;
        for (long p = 0; p < l->pair_count; p++) {
            const LimitPair *pair = &l->pairs[p];
            if (pair->batches == 0 || pair->invalid || (c < PAIR_CLASSES && pair->pair_class != (PairClass)c))
                continue;
            if (ns != NULL)
                ns[n] = pair->round_trip_ns;
            n++;
        }
        LimitSpread s = ns != NULL ? spread_of(ns, n) : (LimitSpread){0, NAN, NAN, NAN};
        if (c < PAIR_CLASSES)
            l->classes[c] = s;
        else
            l->all = s;
    }
    for (long p = 0; p < l->pair_count; p++) {
        const LimitPair *pair = &l->pairs[p];
        l->pairs_measured += pair->batches > 0;
        l->pairs_invalid += pair->invalid;
        l->pairs_same_cpu += pair->batches == 0;
        l->pairs_moved += pair->moved;
    }
    free(ns);
}
