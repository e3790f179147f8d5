#include "sequence.h"

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/exit_status.h"
#include "../kernels/chunk_timer.h"
#include "../kernels/deposit.h"
#include "../kernels/fault.h"
#include "../ompt/tool.h"
#include "chunk_plan.h"
#include "noise.h"
#include "paired_overhead.h"
#include "summarize.h"
#include "warnings.h"
#include "../timing/clock.h"
#include "../timing/core_clock.h"

volatile sig_atomic_t clomp_openmp_running;

/* The most chunks a probe may take: the run's when --trials set them,
 * else DEFAULT_TRIALS (the run's may be fewer because the mesh is big or
 * slow; a probe's chunks are not the mesh's), never more than its
 * iterations. */
static long probe_chunk_limit(const RunSetup *run)
{
    long limit = run->requested_trials > 0 ? run->trials : (run->trials > DEFAULT_TRIALS ? run->trials : DEFAULT_TRIALS);
    long iterations = probe_iterations(run->iterations);
    return limit < iterations ? limit : iterations;
}

int prepare_measurements(const RunSetup *run, Measurement *results, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        Measurement *m = &results[i];
        /* Serial Ref's checkpoints are per chunk: whatever is verified must be chunked alike. */
        if ((m->schedule->role == ROLE_REFERENCE || m->schedule->role == ROLE_CHECKED) && !m->schedule->chunked)
            return -1;
        m->chunks = m->schedule->chunked ? run->trials : 1;
        m->chunk_end = run->chunk_end;
        long slots = m->chunks;   /* chunks per round that chunk_seconds holds */
        if (m->schedule->role == ROLE_PROBE) {
            /* Probes get a plan of their own once their warm-up has been
             * timed, over at least PROBE_MIN_ITERATIONS whatever the mesh. */
            slots = m->schedule->chunked ? probe_chunk_limit(run) : 1;
            m->own_chunk_end = calloc((size_t)slots, sizeof *m->own_chunk_end);
            if (m->own_chunk_end == NULL)
                return -1;
            m->own_chunk_end[0] = probe_iterations(run->iterations) * SUBCYCLES_PER_ITERATION;
            m->chunk_end = m->own_chunk_end;
        }
        if (m->schedule->role == ROLE_BESTCASE) {
            m->thread_marks = calloc((size_t)run->numThreads * (size_t)m->chunks, sizeof *m->thread_marks);
            if (m->thread_marks == NULL)
                return -1;
        }
        if (m->schedule->role == ROLE_REFERENCE || m->schedule->role == ROLE_CHECKED) {
            m->part_value_sum = calloc((size_t)run->numParts, sizeof *m->part_value_sum);
            m->part_residue = calloc((size_t)run->numParts, sizeof *m->part_residue);
            if (m->part_value_sum == NULL || m->part_residue == NULL)
                return -1;
        }
        m->chunk_seconds = calloc((size_t)(run->rounds * slots), sizeof *m->chunk_seconds);
        m->round_seconds = calloc((size_t)run->rounds, sizeof *m->round_seconds);
        m->round_median_us = calloc((size_t)run->rounds, sizeof *m->round_median_us);
        if (m->chunk_seconds == NULL || m->round_seconds == NULL || m->round_median_us == NULL)
            return -1;
    }
    return 0;
}

void free_measurements(Measurement *results, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        free(results[i].chunk_seconds);
        free(results[i].round_seconds);
        free(results[i].round_median_us);
        free(results[i].own_chunk_end);
        free(results[i].thread_marks);
        free(results[i].part_value_sum);
        free(results[i].part_residue);
    }
}

/* What verification between chunks needs. */
typedef struct ChunkCheck {
    Problem *pb;
    const RunSetup *run;
    Measurement *m;
    FILE *out;
    long round;
    long failures;
    long failed_chunk;
    long part_failures;       /* this chunk: parts that failed their owners' check */
    double *part_value_sum;   /* per part, written by its owner: sum of its zone values */
    double *part_residue;     /* per part, written by its owner: its residue */
} ChunkCheck;

/* Where the chunk ends and what must hold there. */
static VerifyExpectations chunk_expectations(const ChunkCheck *ck, long chunk, char *where, size_t where_size)
{
    const RunSetup *run = ck->run;
    int records = ck->m->schedule->role == ROLE_REFERENCE && ck->round == 0;
    long first = chunk > 0 ? run->chunk_end[chunk - 1] / SUBCYCLES_PER_ITERATION + 1 : 1;
    int n = 0;
    where[0] = '\0';
    if (run->trials > 1)
        n = snprintf(where, where_size, "in chunk %ld of %ld (iterations %ld..%ld of %ld)", chunk + 1, run->trials,
                     first, run->chunk_end[chunk] / SUBCYCLES_PER_ITERATION, run->iterations);
    if (run->rounds > 1)
        snprintf(where + n, where_size - (size_t)n, "%sin round %ld of %ld", n > 0 ? ", " : "", ck->round + 1,
                 run->rounds);
    VerifyExpectations expect = {run->chunk_end[chunk], chunk, where[0] != '\0' ? where : NULL,
                                 ck->pb->deposit.max_residue, ck->pb->deposit.order_violations,
                                 ck->pb->deposit.first_violation_count, !records};
    return expect;
}

/* Run by the threads that own parts first..last, concurrently: the silent
 * per-part checks, each part's sums kept for the whole-mesh checks. After a
 * failure the state has diverged, and later chunks are not checked again. */
static void check_owned_parts(void *context, long chunk, long first, long last)
{
    ChunkCheck *ck = context;
    char where[160];
    if (ck->failures > 0)
        return;
    VerifyExpectations expect = chunk_expectations(ck, chunk, where, sizeof where);
    long failed = 0;
    unsigned long long hash;
    for (long p = first; p <= last; p++) {
        failed += !part_verifies(&ck->pb->mesh, p, &expect, &ck->part_value_sum[p], &ck->part_residue[p], &hash);
        /* Serial Ref's first round: each owner records its parts' checkpoint. */
        if (!expect.compare_to_reference)
            record_reference_part(&ck->pb->mesh, chunk, p, hash);
    }
    if (failed > 0) {
#pragma omp atomic
        ck->part_failures += failed;
    }
}

/* One thread, once every part is checked (and, in Serial Ref's first round,
 * recorded as the checkpoint every later run must reproduce): the whole-mesh
 * checks run on the owners' sums. After the last chunk, when no timed chunk
 * follows, one serial pass computes the checksum in CLOMP 1.2's order and
 * the whole-mesh checks are repeated on it; the full serial verification,
 * which names every failure, runs only when something failed. */
static void conclude_chunk(void *context, long chunk)
{
    ChunkCheck *ck = context;
    const Schedule *s = ck->m->schedule;
    char where[160];
    if (ck->failures > 0)
        return;
    VerifyExpectations expect = chunk_expectations(ck, chunk, where, sizeof where);
    double value_sum = 0.0, residue_sum = 0.0;
    for (long p = 0; p < ck->pb->mesh.shape.numParts; p++) {
        value_sum += ck->part_value_sum[p];
        residue_sum += ck->part_residue[p];
    }
    int passed = ck->part_failures == 0 && mesh_totals_pass(&expect, value_sum, residue_sum);
    ck->part_failures = 0;
    if (passed && chunk == ck->m->chunks - 1) {
        ck->m->checksum = mesh_checksum(&ck->pb->mesh);
        passed = mesh_totals_pass(&expect, ck->m->checksum.sum, ck->m->checksum.residue);
    }
    if (!passed) {
        ck->failures = verify_against_reference(&ck->pb->mesh, &expect, s->name, ck->out, &ck->m->checksum);
        if (ck->failures == 0) {
            fprintf(ck->out, "%13s VERIFY FAILED: the owners' check of the parts failed, the full check did not "
                             "(internal error)%s%s\n", s->name, expect.where != NULL ? " " : "",
                    expect.where != NULL ? expect.where : "");
            ck->failures = 1;
        }
    }
    if (ck->failures > 0)
        ck->failed_chunk = chunk;
    else
        ck->m->verified_chunks++;
}

/* Numbers labelled with N threads must have run on N threads. */
static int check_team(const RunSetup *run, const Measurement *m, char *why, size_t why_size)
{
    const Schedule *s = m->schedule;
    long wanted = m->team.nested ? run->nestedOuter : run->numThreads;
    if (s->uses_threads && m->team.threads != wanted) {
        snprintf(why, why_size, "%s: the OpenMP runtime gave %d threads, %ld requested", s->name, m->team.threads,
                 wanted);
        return EXIT_RESOURCE;
    }
    return 0;
}

static int bits_differ(double a, double b)
{
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x != y;
}

/* A probe (barrier, fork/join) is not verified, so its chunks need not end
 * where Serial Ref's do: it gets as many of the run's chunks as keep each
 * at least MIN_PROBE_CHUNK_SECONDS long, so that thread 0's clock read stays
 * a negligible part of a chunk even on inputs with few iterations. The
 * estimate is an untimed run of up to 10 iterations: one iteration is too
 * short, its fork, join and thread wake-up would outweigh 10 barriers. */
static void plan_probe_chunks(Problem *pb, const RunSetup *run, Measurement *m)
{
    long iterations = probe_iterations(run->iterations);
    long sample = iterations < 10 ? iterations : 10;
    long sample_end = sample * SUBCYCLES_PER_ITERATION;
    double sample_seconds;
    ChunkTimer timer = {1, &sample_end, &sample_seconds, 0.0, NULL, NULL, NULL};
    clomp_openmp_running = 1;
    m->schedule->run(pb, sample_end, &timer, NULL);
    clomp_openmp_running = 0;

    long k = probe_chunk_limit(run);
    double total = sample_seconds / (double)sample * (double)iterations;
    while (k > 1 && total / (double)k < MIN_PROBE_CHUNK_SECONDS)
        k--;
    m->chunks = k;
    plan_chunks(iterations, k, SUBCYCLES_PER_ITERATION, m->own_chunk_end);
}

/* One timed run of one schedule in round `round`. */
static int measure_once(Problem *pb, const RunSetup *run, Measurement *m, long round, const SequenceHooks *hooks,
                        char *why, size_t why_size)
{
    const Schedule *s = m->schedule;
    int checked = s->role == ROLE_REFERENCE || s->role == ROLE_CHECKED;

    /* Two untimed iterations before the timed run. The first observes the
     * team sizes the runtime gives (`seen` non-NULL: a schedule records them
     * inside its own regions, in a copy of its iteration that carries the
     * recording, so that the timed copy carries none). The second is the
     * warm-up, and it runs the very code that is timed: run() as the timed
     * run calls it (seen NULL, a one-chunk timer), so its iteration function,
     * regions and call sites are the ones chunk 0 uses - instruction cache,
     * branch predictors, the runtime's thread pool and per-region state are
     * warm for the timed copy, and chunk 0 is not the timed code's first run.
     * The observation comes first so that the warm-up is the last code run
     * before the clock starts. (Warming up with the observing copy left the
     * timed copy cold: docs/statistics.md, bench/warmup.sh.) */
    /* On a mesh too large for the caches both run on pb->warmup, a small
     * mesh of the same parts (kernels/problem.h): the code, the regions and
     * the team are warmed as on the mesh itself, while an iteration of the
     * mesh (seconds long) would only stream it through the caches again. */
    Problem *warm_pb = pb->warmup != NULL && s->role != ROLE_PROBE ? pb->warmup : pb;
    long warm_end = SUBCYCLES_PER_ITERATION;
    double warm_seconds, phase_start = now_seconds();
    ChunkTimer warm = {1, &warm_end, &warm_seconds, 0.0, NULL, m->thread_marks, NULL};
    if (s->role != ROLE_PROBE)
        reinitialize_parts(warm_pb);
    memset(&m->team, 0, sizeof m->team);
    clomp_openmp_running = 1;
    s->run(warm_pb, SUBCYCLES_PER_ITERATION, NULL, &m->team);
    clomp_openmp_running = 0;
    int status = check_team(run, m, why, why_size);
    if (status != 0)
        return status;
    /* --ompt: the tool's census counts the warm-up, the timed code untimed. */
    if (round == 0)
        ompt_census_begin();
    clomp_openmp_running = 1;
    s->run(warm_pb, SUBCYCLES_PER_ITERATION, &warm, NULL);
    clomp_openmp_running = 0;
    if (round == 0)
        ompt_census_end(&m->census);
    if (round == 0 && m->own_chunk_end != NULL && s->chunked)
        plan_probe_chunks(pb, run, m);
    clomp_openmp_running = 0;
    double reset_start = now_seconds();
    m->warmup_seconds += reset_start - phase_start;
    /* Probes time no work on the mesh (calc_deposit's satisfies its own check). */
    if (s->role != ROLE_PROBE) {
        clomp_openmp_running = 1;
        reinitialize_parts(pb);
        clomp_openmp_running = 0;
    }
    m->reset_seconds += now_seconds() - reset_start;

    if (round == 0) {
        wall_time_text(m->started, sizeof m->started);
        if (run->rounds == 1 && hooks->starting != NULL)
            hooks->starting(hooks->context, m);
    }

    ChunkCheck check = {pb, run, m, hooks->failures, round, 0, -1, 0, m->part_value_sum, m->part_residue};
    ChunkVerifier verifier = {check_owned_parts, conclude_chunk, &check};
    ChunkTimer timer = {m->chunks, m->chunk_end, m->chunk_seconds + round * m->chunks, 0.0,
                        checked ? &verifier : NULL, m->thread_marks,
                        hooks->noise != NULL ? noise_run_begin(hooks->noise, m) : NULL};
    MeshChecksum first_round = m->checksum;
    if (s->role == ROLE_CHECKED)
        FAULT_ARM(s->name, run->subcycles, run->numParts, run->zonesPerPart);
    if (hooks->before_timed != NULL)
        hooks->before_timed(hooks->context, m);
    double run_start = now_seconds();
    clomp_openmp_running = 1;
    /* The run's subcycles; a probe's own count (at least PROBE_MIN_ITERATIONS). */
    s->run(pb, m->chunk_end[m->chunks - 1], &timer, NULL);
    clomp_openmp_running = 0;
    double run_end = now_seconds();
    FAULT_DISARM();
    if (hooks->noise != NULL)
        noise_run_end(hooks->noise, m);

    double total = 0.0;
    for (long c = 0; c < m->chunks; c++)
        total += m->chunk_seconds[round * m->chunks + c];
    m->round_seconds[round] = total;
    m->rounds_done = round + 1;
    /* The run's wall time beyond its timed chunks: the checks between them. */
    m->check_seconds += fmax(run_end - run_start - total, 0.0);

    if (check.failures > 0) {
        int n = snprintf(why, why_size, "%s failed verification%s", s->name,
                         s->role == ROLE_REFERENCE && round == 0 ? " of its own invariants" : " against Serial Ref");
        if (run->trials > 1)
            n += snprintf(why + n, why_size - (size_t)n, " in chunk %ld of %ld", check.failed_chunk + 1, run->trials);
        if (run->rounds > 1)
            snprintf(why + n, why_size - (size_t)n, " in round %ld of %ld", round + 1, run->rounds);
        return EXIT_VERIFY_FAILED;
    }
    /* Every round starts from the same state and does the same work. */
    if (checked && round > 0 &&
        (bits_differ(first_round.sum, m->checksum.sum) || bits_differ(first_round.residue, m->checksum.residue))) {
        fprintf(hooks->failures, "%13s VERIFY FAILED: checksum of round %ld (Sum=%.17g Residue=%.17g) differs "
                               "from round 1's (Sum=%.17g Residue=%.17g)\n",
                s->name, round + 1, m->checksum.sum, m->checksum.residue, first_round.sum, first_round.residue);
        snprintf(why, why_size, "%s: round %ld's checksum differs from round 1's", s->name, round + 1);
        return EXIT_VERIFY_FAILED;
    }
    if (s->role != ROLE_PROBE) {
        double count_start = now_seconds();
        clomp_openmp_running = 1;
        m->subnormals = count_subnormals(&pb->mesh, pb->numThreads);
        clomp_openmp_running = 0;
        m->check_seconds += now_seconds() - count_start;
    }
    return 0;
}

static int run_sequence(Problem *pb, const RunSetup *run, Measurement *results, size_t count,
                        const SequenceHooks *hooks, PairedBench *paired, char *why, size_t why_size)
{
    for (long round = 0; round < run->rounds; round++) {
        double round_start = now_seconds();
        long measured = 0;
        for (size_t i = 0; i < count; i++) {
            Measurement *m = &results[i];
            if (!measurement_runs(m)) {
                if (round == run->rounds - 1 && hooks->skipped != NULL)
                    hooks->skipped(hooks->context, m);
                continue;
            }
            ompt_samples_for((int)i);   /* --ompt=sampling: its samples count for this measurement */
            int status = measure_once(pb, run, m, round, hooks, why, why_size);
            ompt_samples_for(-1);
            int last_round = round == run->rounds - 1;
            if (last_round)
                ompt_samples_take((int)i, &m->samples);
            if (status == 0 && last_round) {
                const Measurement *bestcase = find_measurement(results, count, ROLE_BESTCASE, NULL);
                measure_paired_overhead(paired, pb, run, m, bestcase);
                finish_measurement(run, m, bestcase);
                if (hooks->noise != NULL)
                    noise_measurement_warnings(hooks->noise, run, m, bestcase);
            }
            if (hooks->after_run != NULL)
                status = hooks->after_run(hooks->context, m, round, status, why, why_size);
            if (status != 0)
                return status;
            measured++;
            if (last_round && hooks->finished != NULL)
                hooks->finished(hooks->context, results, count, i);
        }
        if (run->rounds > 1 && hooks->round_done != NULL)
            hooks->round_done(hooks->context, round, now_seconds() - round_start, measured);
    }
    return 0;
}

int run_measurements(Problem *pb, const RunSetup *run, Measurement *results, size_t count,
                     const SequenceHooks *hooks, char *why, size_t why_size)
{
    PairedBench paired = {0};
    int status = run_sequence(pb, run, results, count, hooks, &paired, why, why_size);
    free_paired_bench(&paired);
    if (hooks->cycles != NULL && measure_core_clock(&hooks->cycles->clock_after, (int)run->numThreads) == 0)
        widen_core_clock_range(hooks->cycles);   /* the verdicts' range holds the clock after the runs too */
    return status;
}
