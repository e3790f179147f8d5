/* The OpenMP runtime configured, the team observed, the mesh built (setup.h). */
#include "setup.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/exit_status.h"
#include "../kernels/delay.h"
#include "../kernels/deposit.h"
#include "../measure/chunk_plan.h"
#include "../measure/sequence.h"
#include "../mesh/verify.h"
#include "../mpi/cluster.h"
#include "../numa/thread_placement.h"
#include "../ompt/tool.h"
#include "../timing/clock.h"

#define FAIL(status, ...) return (snprintf(why, why_size, __VA_ARGS__), (status))

/* Nested OMP's default shape, from this job's domains (numa/job_cores.h:
 * the same in every process on the node, whatever the threads' placement).
 * Below 2x2 nothing is nested at both levels: the measurement is N/A
 * instead of a figure that would pass for nested overhead. */
static void choose_nested_shape(RunSetup *run)
{
    if (run->nested_shape_source[0] != '\0')
        return;   /* --nested */
    run->nestedOuter = run->nestedInner = 1;
    if (run->numThreads < 4) {
        snprintf(run->nested_unavailable, sizeof run->nested_unavailable, "needs at least 2x2 threads");
        for (size_t i = 0; i < clomp_schedule_count; i++)
            if (clomp_schedules[i]->nests)
                run->unavailable[i] = run->nested_unavailable;
        return;
    }
    default_nested_shape(&run->job, run->numThreads, &run->nestedOuter, &run->nestedInner, run->nested_shape_source,
                         sizeof run->nested_shape_source);
}

int configure_openmp(RunSetup *run, TeamPlacement *placement, char *why, size_t why_size)
{
    memset(placement, 0, sizeof *placement);
    int status = check_thread_limits(run, why, why_size);   /* before the first parallel region */
    if (status != 0)
        return status;
    omp_set_dynamic(0);
    /* Two levels for Nested OMP and the nested constructs, unless the user
     * set OMP_MAX_ACTIVE_LEVELS: then theirs stays, and is reported. */
    run->max_active_levels_from_env = getenv("OMP_MAX_ACTIVE_LEVELS") != NULL;
    if (!run->max_active_levels_from_env)
        omp_set_max_active_levels(2);
    run->max_active_levels = omp_get_max_active_levels();
    omp_set_num_threads((int)run->numThreads);
    /* Once, in a region of the timed team's size and pool: the placement table. */
    clomp_openmp_running = 1;
    if (observe_team_placement((int)run->numThreads, placement) != 0)
        memset(placement, 0, sizeof *placement);
    clomp_openmp_running = 0;
    ompt_tool_setup(&run->ompt);   /* the runtime has started: did it call ompt_start_tool? */
    choose_nested_shape(run);
    return 0;
}

/* A serial iteration's time, from sweeps of update_part over every part on
 * one thread (a subcycle's work, without the deposit arithmetic): as many
 * as CALIBRATION_SECONDS allow, at most two iterations' worth, after one
 * untimed sweep. On a 2 GiB mesh that is 2 passes where two whole serial
 * iterations and their resets took 24. */
#define CALIBRATION_SECONDS 0.05
static double serial_iteration_estimate(Problem *pb)
{
    sweep_parts_serially(pb);
    double start = now_seconds(), elapsed;
    long sweeps = 0;
    do {
        sweep_parts_serially(pb);
        sweeps++;
        elapsed = now_seconds() - start;
    } while (elapsed < CALIBRATION_SECONDS && sweeps < 2L * SUBCYCLES_PER_ITERATION);
    return elapsed / (double)sweeps * SUBCYCLES_PER_ITERATION;
}

/* The default chunk count, from the estimate of a serial iteration; then
 * room for Serial Ref's checkpoints. */
static int plan_trials(Problem *pb, RunSetup *run, char *why, size_t why_size)
{
    if (run->trials == 0) {
        double per_part = (double)CHECKPOINT_BYTES_PER_PART * (double)run->numParts;
        double seconds = serial_iteration_estimate(pb);
        /* clomp_mpi: every rank times the same chunks, the fewest any rank's calibration chose. */
        run->trials = cluster_min(default_trials(run->iterations, seconds, run->numThreads));
        double budget = fmax((double)run->memory_bytes, CHECKPOINT_BYTES_FLOOR);
        while (run->trials > 1 && per_part * (double)run->trials > budget)
            run->trials--;
        int status = setup_chunk_plan(run, why, why_size);
        if (status != 0)
            return status;
    }
    if (reserve_reference_checkpoints(&pb->mesh, run->trials) != 0)
        FAIL(EXIT_RESOURCE, "out of memory for %ld chunk checkpoints", run->trials);
    return 0;
}

int build_problem(Problem *pb, RunSetup *run, double *build_seconds, char *why, size_t why_size)
{
    /* The Parallel For probe's delay, to EPCC's stated time (kernels/delay.h). */
    run->delay = calibrate_delay(clomp_delay, CLOMP_DELAY_TARGET_US);
    MeshShape shape = run_mesh_shape(run);
    int *local_nodes = NULL;
    clomp_openmp_running = 1;
    if (run->placement.kind == PLACEMENT_LOCAL) {
        /* Bind each part to the node its Static OMP thread runs on. */
        int *thread = calloc((size_t)run->numParts, sizeof *thread), *cpu = calloc((size_t)run->numParts, sizeof *cpu);
        local_nodes = calloc((size_t)run->numParts, sizeof *local_nodes);
        if (thread != NULL && cpu != NULL && local_nodes != NULL)
            observe_static_owners(run->numParts, (int)run->numThreads, thread, cpu, local_nodes);
        free(thread);
        free(cpu);
        if (thread == NULL || cpu == NULL || local_nodes == NULL) {
            free(local_nodes);
            clomp_openmp_running = 0;
            FAIL(EXIT_RESOURCE, "out of memory");
        }
    }
    double start = now_seconds();
    MeshStatus status = build_mesh(&pb->mesh, &shape, (int)run->allocThreads, &run->placement, local_nodes);
    *build_seconds = now_seconds() - start;
    clomp_openmp_running = 0;
    free(local_nodes);
    if (status != MESH_OK)
        FAIL(EXIT_RESOURCE, "could not allocate the mesh: %zu bytes requested", run->memory_bytes);
    pb->numThreads = (int)run->numThreads;
    pb->nestedOuter = run->nestedOuter;
    pb->nestedInner = run->nestedInner;
    pb->delay_length = run->delay.length;
    pb->warmup = NULL;
    calibrate_deposit(pb);
    clomp_openmp_running = 1;
    int warmup_failed = build_warmup_problem(pb, run);
    clomp_openmp_running = 0;
    if (warmup_failed)
        FAIL(EXIT_RESOURCE, "out of memory for the warm-up mesh");
    return plan_trials(pb, run, why, why_size);
}
