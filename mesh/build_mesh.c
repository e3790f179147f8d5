#include "mesh.h"

#include <omp.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

long mesh_zone_size(long requested)
{
    return requested < (long)sizeof(Zone) ? (long)sizeof(Zone) : requested;
}

long mesh_zone_stride(const MeshShape *shape)
{
    if (shape->layout == ZONE_LAYOUT_CLOMP12)
        return (long)sizeof(Zone);
    /* Spread zones must stay aligned for their doubles and pointers. */
    long align = (long)alignof(Zone);
    return (shape->zoneSize + align - 1) / align * align;
}

double mesh_touched_bytes(const MeshShape *shape)
{
    return (double)shape->numParts * (double)shape->zonesPerPart * (double)mesh_zone_stride(shape);
}

/* zonesPerPart x the larger of zoneSize and the stride, or 0 on overflow. */
static size_t block_bytes_checked(const MeshShape *shape, int *overflow)
{
    long stride = mesh_zone_stride(shape);
    size_t per_zone = (size_t)(shape->zoneSize > stride ? shape->zoneSize : stride), bytes;
    *overflow = __builtin_mul_overflow((size_t)shape->zonesPerPart, per_zone, &bytes);
    return *overflow ? 0 : bytes;
}

size_t mesh_block_bytes(const MeshShape *shape)
{
    int overflow;
    return block_bytes_checked(shape, &overflow);
}

size_t mesh_zone_bytes(const MeshShape *shape, int *overflow)
{
    size_t block = block_bytes_checked(shape, overflow), bytes = 0;
    if (!*overflow)
        *overflow = __builtin_mul_overflow((size_t)shape->numParts, block, &bytes);
    return *overflow ? 0 : bytes;
}

const char *mesh_zone_layout_name(ZoneLayout layout)
{
    return layout == ZONE_LAYOUT_SPREAD ? "spread" : "clomp12";
}

DepositModel mesh_deposit_model(const MeshShape *shape)
{
    /* With one zone per part the 1.2 ratio is >= 1.5: the residue turns
     * negative or grows without bound, so the run cannot verify. */
    return shape->zonesPerPart == 1 ? DEPOSIT_MODEL_SINGLE_ZONE : DEPOSIT_MODEL_CLOMP12;
}

double mesh_deposit_ratio(const MeshShape *shape, DepositModel model, long partId)
{
    double numParts = (double)shape->numParts;
    double numerator = 1.5 * numParts + (double)partId;
    if (model == DEPOSIT_MODEL_SINGLE_ZONE)
        /* The part's flopScale deposit steps stand in for zones; the +2 keeps
         * the largest ratio, (2.5N-1)/(3N) at flopScale 1, below 1. */
        return numerator / (((double)shape->flopScale + 2.0) * numParts);
    return numerator / ((double)shape->zonesPerPart * numParts);
}

const char *mesh_deposit_model_text(DepositModel model)
{
    if (model == DEPOSIT_MODEL_SINGLE_ZONE)
        return "single-zone (zonesPerPart = 1): ratio = (1.5*numParts + p) / ((flopScale + 2)*numParts)";
    return "CLOMP 1.2: ratio = (1.5*numParts + p) / (zonesPerPart*numParts)";
}

/* Memory for a record or a block: from the arena under the libnuma
 * policies (released with it), else its own allocation. */
static void *mesh_alloc(Mesh *mesh, size_t bytes, int local_node)
{
    if (mesh->arena != NULL)
        return placement_arena_alloc(mesh->arena, bytes, local_node);
    return placement_alloc(&mesh->placement, bytes, local_node);
}

/* Allocates part p's record and writes it. CLOMP 1.2 allocates every Part
 * record first and the zone blocks after them, so that the records lie side
 * by side in the heap and no zone block lies between two of them; clomp
 * does the same, in the same order, because where a record lies decides
 * which cache lines the threads share (a record next to the last zones of
 * another thread's part is written by both every subcycle). */
static int add_part(Mesh *mesh, long p, int local_node)
{
    Part *part = mesh_alloc(mesh, sizeof *part, local_node);
    if (part == NULL)
        return -1;
    memset(part, 0, sizeof *part);
    part->partId = p;
    part->zoneCount = mesh->shape.zonesPerPart;
    part->deposit_ratio = mesh_deposit_ratio(&mesh->shape, mesh->deposit_model, p);
    mesh->partArray[p] = part;
    return 0;
}

/* Allocates part p's zone block and writes every byte of it (the padding
 * too), so the calling thread's first touch decides where all of its pages
 * live; links the zones in address order. */
static int add_zones(Mesh *mesh, long p, int local_node)
{
    const MeshShape *s = &mesh->shape;
    size_t block_bytes = mesh_block_bytes(s), stride = (size_t)mesh_zone_stride(s);
    unsigned char *block = mesh_alloc(mesh, block_bytes, local_node);
    if (block == NULL)
        return -1;
    memset(block, 0, block_bytes);

    Zone *prev = NULL;
    for (long z = 0; z < s->zonesPerPart; z++) {
        Zone *zone = (Zone *)(block + (size_t)z * stride);
        zone->zoneId = z + 1;
        zone->partId = p;
        zone->value = 0.0;
        zone->nextZone = NULL;
        if (prev != NULL)
            prev->nextZone = zone;
        prev = zone;
    }
    mesh->partArray[p]->firstZone = (Zone *)block;
    mesh->partArray[p]->lastZone = prev;
    mesh->builder_thread[p] = omp_get_thread_num();
    return 0;
}

MeshStatus build_mesh(Mesh *mesh, const MeshShape *shape, int allocThreads, const Placement *placement,
                      const int *local_nodes)
{
    int overflow;
    memset(mesh, 0, sizeof *mesh);
    if (placement != NULL)
        mesh->placement = *placement;
    mesh_zone_bytes(shape, &overflow);
    if (overflow || (size_t)shape->numParts > SIZE_MAX / sizeof(Part *))
        return MESH_TOO_LARGE;

    mesh->shape = *shape;
    mesh->deposit_model = mesh_deposit_model(shape);
    mesh->partArray = calloc((size_t)shape->numParts, sizeof(Part *)); // NOLINT(bugprone-sizeof-expression): an array of pointers
    mesh->builder_thread = calloc((size_t)shape->numParts, sizeof *mesh->builder_thread);
    int failed = 0;
    mesh->arena = placement_arena_create(&mesh->placement, &failed);
    if (mesh->partArray == NULL || mesh->builder_thread == NULL || failed) {
        free_mesh(mesh);
        return MESH_OUT_OF_MEMORY;
    }

    /* Same loop bounds and schedule as the Static OMP measurement, so with
     * allocThreads == numThreads each part is first touched by its owner;
     * records first, then zone blocks, as in CLOMP 1.2. */
#pragma omp parallel num_threads(allocThreads) reduction(| : failed)
    {
#pragma omp for schedule(static)
        for (long p = 0; p < shape->numParts; p++)
            failed |= add_part(mesh, p, local_nodes != NULL ? local_nodes[p] : 0) != 0;
#pragma omp for schedule(static)
        for (long p = 0; p < shape->numParts; p++)
            failed |= mesh->partArray[p] == NULL || add_zones(mesh, p, local_nodes != NULL ? local_nodes[p] : 0) != 0;
    }

    if (failed) {
        free_mesh(mesh);
        return MESH_OUT_OF_MEMORY;
    }
    return MESH_OK;
}

void free_mesh(Mesh *mesh)
{
    size_t block_bytes = mesh_block_bytes(&mesh->shape);
    if (mesh->arena != NULL) {
        placement_arena_destroy(mesh->arena);   /* every record and block at once */
    } else if (mesh->partArray != NULL) {
        for (long p = 0; p < mesh->shape.numParts; p++) {
            if (mesh->partArray[p] != NULL && mesh->partArray[p]->firstZone != NULL)
                placement_free(&mesh->placement, mesh->partArray[p]->firstZone, block_bytes);
            placement_free(&mesh->placement, mesh->partArray[p], sizeof(Part));
        }
    }
    free(mesh->partArray);
    free(mesh->builder_thread);
    free(mesh->checkpoint_first_value);
    free(mesh->checkpoint_residue);
    free(mesh->checkpoint_zone_hash);
    memset(mesh, 0, sizeof *mesh);
}
