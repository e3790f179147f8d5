/* The small mesh the untimed observation and warm-up run on when the mesh
 * itself is too large for the caches (kernels/problem.h: Problem.warmup). */
#include "setup.h"

#include <stdlib.h>

#include "../kernels/deposit.h"

/* Meshes whose iteration touches up to this many bytes warm up on
 * themselves, as they always did (one iteration of them is short, and their
 * data may stay in the caches). */
#define WARMUP_OWN_MESH_BYTES (64.0 * 1024 * 1024)
/* The warm-up mesh's zones in all: small enough to stay in a core's caches. */
#define WARMUP_MESH_BYTES (2.0 * 1024 * 1024)

long warmup_zones_per_part(const RunSetup *run)
{
    /* By what an iteration touches, not the allocation: the mem-bound
     * input (zoneSize 512, CLOMP 1.2's layout) allocates 312 MiB and touches
     * 20 MiB; warmed up on a small copy, its first timed pass ran cold
     * (Serial Ref 1.28x CLOMP 1.2's at timeScale 1: issue 35). */
    MeshShape shape = run_mesh_shape(run);
    double touched = mesh_touched_bytes(&shape);
    if (touched <= WARMUP_OWN_MESH_BYTES)
        return 0;
    double zones = WARMUP_MESH_BYTES / touched * (double)run->zonesPerPart;
    /* At least two zones: the CLOMP 1.2 deposit model, as the mesh's. */
    long z = zones < 2.0 ? 2 : (long)zones;
    return z < run->zonesPerPart ? z : 0;
}

int build_warmup_problem(Problem *pb, const RunSetup *run)
{
    pb->warmup = NULL;
    long zones = run->warmup_zones_per_part;
    if (zones == 0)
        return 0;
    Problem *warm = malloc(sizeof *warm);
    if (warm == NULL)
        return -1;
    *warm = *pb;
    warm->warmup = NULL;
    MeshShape shape = run_mesh_shape(run);
    shape.zonesPerPart = zones;
    /* First touch by the timed team, under schedule(static), default policy. */
    if (build_mesh(&warm->mesh, &shape, (int)run->numThreads, NULL, NULL) != MESH_OK) {
        free(warm);
        return -1;
    }
    calibrate_deposit(warm);
    pb->warmup = warm;
    return 0;
}

void free_problem(Problem *pb)
{
    if (pb->warmup != NULL) {
        free_mesh(&pb->warmup->mesh);
        free(pb->warmup);
        pb->warmup = NULL;
    }
    free_mesh(&pb->mesh);
}
