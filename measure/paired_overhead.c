#include "paired_overhead.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kernels/chunk_timer.h"
#include "../kernels/deposit.h"
#include "../timing/clock.h"
#include "sequence.h"

long last_level_cache_bytes(void)
{
    long best_level = 0, bytes = 0;
    for (int index = 0; index < 16; index++) {
        char path[96], text[64];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", index);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            break;
        long level = fgets(text, sizeof text, f) != NULL ? strtol(text, NULL, 10) : 0;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
        f = fopen(path, "r");
        if (f == NULL)
            continue;
        long size = 0;
        if (fgets(text, sizeof text, f) != NULL) {
            char *unit;
            size = strtol(text, &unit, 10);
            size *= *unit == 'K' ? 1024L : *unit == 'M' ? 1024L * 1024 : 1;
        }
        fclose(f);
        if (level >= best_level && size > 0) {
            best_level = level;
            bytes = size;
        }
    }
    return bytes;
}

/* Bestcase's copy of the mesh where two copies fit in the last-level cache. */
static void prepare_bench(PairedBench *bench, const Problem *pb, const RunSetup *run)
{
    bench->prepared = 1;
    long llc = last_level_cache_bytes();
    if (run->paired_blocks == 0) {
        snprintf(bench->why_sequential, sizeof bench->why_sequential, "--paired-blocks=0");
        return;
    }
    if (llc <= 0) {
        snprintf(bench->why_sequential, sizeof bench->why_sequential, "the last-level cache's size is unknown");
        return;
    }
    if (2.0 * (double)run->memory_bytes > (double)llc) {
        snprintf(bench->why_sequential, sizeof bench->why_sequential,
                 "two copies of the mesh (2 x %zu bytes) do not fit in the last-level cache (%ld bytes)",
                 run->memory_bytes, llc);
        return;
    }
    Problem *copy = malloc(sizeof *copy);
    bench->thread_marks = calloc((size_t)run->numThreads, sizeof *bench->thread_marks);
    if (copy == NULL || bench->thread_marks == NULL) {
        free(copy);
        snprintf(bench->why_sequential, sizeof bench->why_sequential, "out of memory for Bestcase's copy");
        return;
    }
    *copy = *pb;
    copy->warmup = NULL;
    MeshShape shape = run_mesh_shape(run);
    clomp_openmp_running = 1;
    MeshStatus status = build_mesh(&copy->mesh, &shape, (int)run->numThreads, NULL, NULL);
    clomp_openmp_running = 0;
    if (status != MESH_OK) {
        free(copy);
        snprintf(bench->why_sequential, sizeof bench->why_sequential, "out of memory for Bestcase's copy");
        return;
    }
    calibrate_deposit(copy);
    bench->bestcase_pb = copy;
}

void free_paired_bench(PairedBench *bench)
{
    if (bench->bestcase_pb != NULL) {
        free_mesh(&bench->bestcase_pb->mesh);
        free(bench->bestcase_pb);
    }
    free(bench->thread_marks);
    memset(bench, 0, sizeof *bench);
}

/* One chunk of `subcycles` of s on pb, timed; no verification, no census
 * (for neither side: the blocks are symmetric). */
static double time_chunk(const Schedule *s, Problem *pb, long subcycles, double *thread_marks)
{
    double seconds = 0.0;
    ChunkTimer timer = {1, &subcycles, &seconds, 0.0, NULL, thread_marks, NULL};
    clomp_openmp_running = 1;
    s->run(pb, subcycles, &timer, NULL);
    clomp_openmp_running = 0;
    return seconds;
}

/* The figures of m->paired from the two series in time order (us/Loop). */
static void estimate(PairedOverhead *p, const double *schedule_us, const double *bestcase_us, long n)
{
    double *d = malloc((size_t)(n > 0 ? n : 1) * sizeof *d);
    if (d == NULL || n < 1) {
        free(d);
        p->order = PAIRED_NOT_MEASURED;
        return;
    }
    for (long i = 0; i < n; i++)
        d[i] = schedule_us[i] - bestcase_us[i];
    p->blocks = n;
    p->schedule_us = median_of(schedule_us, n);
    p->bestcase_us = median_of(bestcase_us, n);
    p->lag1 = lag1_autocorrelation(d, n);
    p->lag1_schedule = lag1_autocorrelation(schedule_us, n);
    p->lag1_bestcase = lag1_autocorrelation(bestcase_us, n);
    /* Positively correlated neighbours make n differences worth fewer
     * independent ones: the interval is widened to their effective number
     * (timing/signed_rank.h widen_for_correlation). */
    p->lag1_corrected = lag1_bias_corrected(p->lag1, n);
    p->effective_blocks = effective_sample_size(d, n);
    p->shift = signed_rank_shift(d, n, CLOMP_CI_LEVEL);
    widen_for_correlation(&p->shift, p->effective_blocks, CLOMP_CI_LEVEL);
    free(d);
}

/* Chunk c of round r of the schedule against the same chunk of Bestcase's run. */
static void sequential_pairs(PairedOverhead *p, const Measurement *m, const Measurement *bestcase)
{
    long n = m->rounds_done * m->chunks;
    double *a = malloc((size_t)(n > 0 ? n : 1) * sizeof *a), *b = malloc((size_t)(n > 0 ? n : 1) * sizeof *b);
    if (a != NULL && b != NULL && bestcase->chunks == m->chunks) {
        for (long i = 0; i < n; i++) {
            long c = i % m->chunks;
            a[i] = m->chunk_seconds[i] * 1e6 / (double)chunk_subcycles(m, c);
            b[i] = bestcase->chunk_seconds[i] * 1e6 / (double)chunk_subcycles(bestcase, c);
        }
        p->order = PAIRED_SEQUENTIAL;
        estimate(p, a, b, n);
    }
    free(a);
    free(b);
}

static void interleaved_blocks(PairedBench *bench, Problem *pb, const RunSetup *run, Measurement *m,
                               const Measurement *bestcase)
{
    PairedOverhead *p = &m->paired;
    long blocks = run->paired_blocks > 0 ? run->paired_blocks : run->trials;
    long subcycles = run->chunk_end[0];
    double *a = malloc((size_t)blocks * sizeof *a), *b = malloc((size_t)blocks * sizeof *b);
    if (a == NULL || b == NULL) {
        free(a);
        free(b);
        snprintf(p->why_sequential, sizeof p->why_sequential, "out of memory for the blocks");
        sequential_pairs(p, m, bestcase);
        return;
    }
    double start = now_seconds();
    p->subcycles = subcycles;
    p->seed = (uint64_t)(start * 1e9) ^ ((uint64_t)getpid() << 32);
    ClompRng rng = {p->seed};
    clomp_openmp_running = 1;
    reinitialize_parts(pb);
    reinitialize_parts(bench->bestcase_pb);
    clomp_openmp_running = 0;
    /* One untimed chunk of each first: both copies in the cache, both teams awake. */
    time_chunk(m->schedule, pb, subcycles, NULL);
    time_chunk(bestcase->schedule, bench->bestcase_pb, subcycles, bench->thread_marks);
    for (long k = 0; k < blocks; k++) {
        int schedule_first = (int)(rng_next(&rng) >> 63);
        p->schedule_first += schedule_first;
        double schedule_s, bestcase_s;
        if (schedule_first) {
            schedule_s = time_chunk(m->schedule, pb, subcycles, NULL);
            bestcase_s = time_chunk(bestcase->schedule, bench->bestcase_pb, subcycles, bench->thread_marks);
        } else {
            bestcase_s = time_chunk(bestcase->schedule, bench->bestcase_pb, subcycles, bench->thread_marks);
            schedule_s = time_chunk(m->schedule, pb, subcycles, NULL);
        }
        a[k] = schedule_s * 1e6 / (double)subcycles;
        b[k] = bestcase_s * 1e6 / (double)subcycles;
    }
    p->order = PAIRED_INTERLEAVED;
    estimate(p, a, b, blocks);
    p->seconds = now_seconds() - start;
    free(a);
    free(b);
}

void measure_paired_overhead(PairedBench *bench, Problem *pb, const RunSetup *run, Measurement *m,
                             const Measurement *bestcase)
{
    memset(&m->paired, 0, sizeof m->paired);
    if (m->schedule->role != ROLE_CHECKED || bestcase == NULL || bestcase->rounds_done != m->rounds_done ||
        m->rounds_done < 1)
        return;
    if (!bench->prepared)
        prepare_bench(bench, pb, run);
    if (bench->bestcase_pb != NULL && m->schedule->chunked) {
        interleaved_blocks(bench, pb, run, m, bestcase);
        return;
    }
    snprintf(m->paired.why_sequential, sizeof m->paired.why_sequential, "%s",
             bench->bestcase_pb == NULL ? bench->why_sequential : "the schedule is timed whole");
    sequential_pairs(&m->paired, m, bestcase);
}
