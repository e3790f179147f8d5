/* The small mesh the untimed observation and warm-up run on when the mesh
 * itself is too large for the caches (kernels/problem.h: Problem.warmup). */
#include "setup.h"

#include <stdlib.h>

#include "../kernels/deposit.h"

/* Meshes up to this size warm up on themselves, as they always did (one
 * iteration of them is short, and their data may stay in the caches). */
#define WARMUP_OWN_MESH_BYTES (64.0 * 1024 * 1024)
/* The warm-up mesh's zones in all: small enough to stay in a core's caches. */
#define WARMUP_MESH_BYTES (2.0 * 1024 * 1024)

long warmup_zones_per_part(const RunSetup *run)
{
    if ((double)run->memory_bytes <= WARMUP_OWN_MESH_BYTES)
        return 0;
    MeshShape shape = run_mesh_shape(run);
    double per_zone = (double)mesh_zone_stride(&shape) > (double)run->zoneSize ? (double)mesh_zone_stride(&shape)
                                                                                : (double)run->zoneSize;
    double zones = WARMUP_MESH_BYTES / ((double)run->numParts * per_zone);
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
