/* The CLOMP mesh: numParts parts, each a contiguous block of zonesPerPart x
 * zoneSize bytes holding zonesPerPart zones linked in address order. Zone
 * and Part are CLOMP 1.2's records, and by default the zones sit one record
 * (32 bytes) apart at the start of the block, as in 1.2, whatever zoneSize
 * says: zoneSize only pads the allocation. The spread layout (zone k at
 * k x zoneSize) is an explicit option. */
#ifndef CLOMP_MESH_H
#define CLOMP_MESH_H

#include <stddef.h>

#include "../numa/arena.h"
#include "../numa/placement.h"

typedef struct Zone {
    long zoneId;             /* 1..zonesPerPart within its part */
    long partId;
    double value;
    struct Zone *nextZone;   /* NULL after the last zone */
} Zone;

typedef struct Part {
    long partId;
    long zoneCount;
    long update_count;       /* calc_deposit() uses part 0's to detect reordering */
    Zone *firstZone;
    Zone *lastZone;
    double deposit_ratio;
    double residue;
    /* Unused: kept so that a Part is CLOMP 1.2's 72 bytes (its memory
     * figure and traffic); clomp's expectations are the Mesh checkpoints. */
    double expected_first_value;
    double expected_residue;
} Part;

/* How each part's deposit_ratio is chosen (see docs/deposit-model.md). */
typedef enum {
    DEPOSIT_MODEL_CLOMP12,       /* (1.5*numParts + p) / (zonesPerPart*numParts) */
    DEPOSIT_MODEL_SINGLE_ZONE    /* zonesPerPart == 1: the 1.2 ratio is >= 1.5 */
} DepositModel;

/* Where zone k of a part sits in its block. */
typedef enum {
    ZONE_LAYOUT_CLOMP12 = 0,   /* k x sizeof(Zone): CLOMP 1.2's, the default */
    ZONE_LAYOUT_SPREAD         /* k x zoneSize (rounded up to the zone alignment) */
} ZoneLayout;

typedef struct MeshShape {
    long numParts;
    long zonesPerPart;
    long zoneSize;      /* bytes per zone as CLOMP 1.2 uses it: raised to sizeof(Zone) by mesh_zone_size() */
    long flopScale;
    ZoneLayout layout;
} MeshShape;

typedef struct Mesh {
    MeshShape shape;
    DepositModel deposit_model;
    Part **partArray;
    int *builder_thread;   /* per part: OpenMP thread number that allocated and first wrote it */
    Placement placement;   /* how parts and zone blocks were allocated */
    PlacementArena *arena; /* the libnuma policies' memory (NULL under first touch: malloc) */
    /* Serial Ref's state at the end of every chunk, [checkpoint * numParts + part]. */
    long checkpoint_count;
    double *checkpoint_first_value;
    double *checkpoint_residue;
    unsigned long long *checkpoint_zone_hash;   /* zone_value_hash() of the part */
} Mesh;

typedef enum {
    MESH_OK = 0,
    MESH_TOO_LARGE,        /* byte count overflows size_t or exceeds physical memory */
    MESH_OUT_OF_MEMORY     /* an allocation failed */
} MeshStatus;

/* The zoneSize a run uses: as given, raised to sizeof(Zone) as CLOMP 1.2
 * does (it never rounds). */
long mesh_zone_size(long requested);

/* Bytes from one zone of a part to the next under the shape's layout. */
long mesh_zone_stride(const MeshShape *shape);

/* The bytes one sweep of the mesh reads and writes: numParts x zonesPerPart
 * x the zone stride. Not the allocation: in CLOMP 1.2's layout the zones lie
 * sizeof(Zone) apart whatever zoneSize is, and the rest of each zoneSize is
 * never touched. */
double mesh_touched_bytes(const MeshShape *shape);

/* Bytes of one part's zone block: zonesPerPart x zoneSize, or x the stride
 * when the spread layout rounds it up. */
size_t mesh_block_bytes(const MeshShape *shape);

/* Bytes of zone data (numParts blocks); 0 with *overflow set when the
 * product does not fit in size_t. */
size_t mesh_zone_bytes(const MeshShape *shape, int *overflow);

const char *mesh_zone_layout_name(ZoneLayout layout);   /* "clomp12" or "spread" */

DepositModel mesh_deposit_model(const MeshShape *shape);
double mesh_deposit_ratio(const MeshShape *shape, DepositModel model, long partId);
const char *mesh_deposit_model_text(DepositModel model);

/* Builds the mesh with allocThreads threads: each part is allocated and every
 * byte of it first written by the thread that owns it under
 * schedule(static) with allocThreads threads. `placement` (NULL: first
 * touch) may bind the memory explicitly instead; PLACEMENT_LOCAL puts part p
 * on local_nodes[p]. */
MeshStatus build_mesh(Mesh *mesh, const MeshShape *shape, int allocThreads, const Placement *placement,
                      const int *local_nodes);
void free_mesh(Mesh *mesh);

#endif
