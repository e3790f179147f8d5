#include "arena.h"

#include <omp.h>
#include <stdlib.h>
#include <unistd.h>

/* Arena chunks: large enough that a mesh of tiny parts needs a handful of
 * mappings; untouched parts of a chunk cost address space, not memory. */
#define ARENA_CHUNK_BYTES ((size_t)32 << 20)
/* Pieces start on a cache line, as malloc'd ones nearly do. */
#define ARENA_ALIGN ((size_t)64)

typedef struct ArenaChunk {
    struct ArenaChunk *next;
    unsigned char *base;
    size_t size, used;
} ArenaChunk;

/* The chunks of one node (or the interleaved ones), behind one lock. */
typedef struct NodeArena {
    omp_lock_t lock;
    ArenaChunk *chunks;   /* newest first: carving goes on in the head */
} NodeArena;

struct PlacementArena {
    Placement policy;
    int count;            /* nodes[0..count-1]: one per node for local, else one */
    NodeArena *nodes;
    size_t mapped;        /* updated under the node locks, read after the build */
    omp_lock_t mapped_lock;
};

static size_t round_up(size_t bytes, size_t unit)
{
    return (bytes + unit - 1) / unit * unit;
}

/* A mapping of `bytes` under the arena's policy for slot `slot`. */
static void *map_chunk(const PlacementArena *a, size_t bytes, int slot)
{
    Placement p = a->policy;
    if (p.kind == PLACEMENT_LOCAL) {
        p.kind = PLACEMENT_NODE;
        p.node = slot;
    }
    return placement_alloc(&p, bytes, slot);
}

static void unmap_chunk(const PlacementArena *a, void *base, size_t bytes)
{
    placement_free(&a->policy, base, bytes);
}

PlacementArena *placement_arena_create(const Placement *p, int *failed)
{
    *failed = 0;
    if (p->kind == PLACEMENT_FIRST_TOUCH || !numa_support_built())
        return NULL;
    PlacementArena *a = calloc(1, sizeof *a);
    int count = p->kind == PLACEMENT_LOCAL ? numa_node_max() + 1 : 1;
    if (a != NULL)
        a->nodes = calloc((size_t)count, sizeof *a->nodes);
    if (a == NULL || a->nodes == NULL) {
        free(a);
        *failed = 1;
        return NULL;
    }
    a->policy = *p;
    a->count = count;
    for (int i = 0; i < count; i++)
        omp_init_lock(&a->nodes[i].lock);
    omp_init_lock(&a->mapped_lock);
    return a;
}

void *placement_arena_alloc(PlacementArena *a, size_t bytes, int local_node)
{
    int slot = a->policy.kind == PLACEMENT_LOCAL && local_node >= 0 && local_node < a->count ? local_node : 0;
    NodeArena *n = &a->nodes[slot];
    size_t need = round_up(bytes > 0 ? bytes : 1, ARENA_ALIGN);
    void *piece = NULL;
    omp_set_lock(&n->lock);
    ArenaChunk *c = n->chunks;
    if (c == NULL || c->size - c->used < need) {
        /* A block larger than a chunk gets a mapping of its own (page
         * aligned, as every block used to be); otherwise a fresh chunk. */
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        size_t size = need >= ARENA_CHUNK_BYTES ? round_up(need, page) : ARENA_CHUNK_BYTES;
        ArenaChunk *fresh = malloc(sizeof *fresh);
        void *base = fresh != NULL ? map_chunk(a, size, slot) : NULL;
        if (base == NULL) {
            free(fresh);
            omp_unset_lock(&n->lock);
            return NULL;
        }
        fresh->base = base;
        fresh->size = size;
        fresh->used = 0;
        if (need >= ARENA_CHUNK_BYTES && c != NULL) {
            /* Keep carving the current chunk: the big one goes behind it. */
            fresh->next = c->next;
            c->next = fresh;
        } else {
            fresh->next = c;
            n->chunks = fresh;
        }
        c = fresh;
        omp_set_lock(&a->mapped_lock);
        a->mapped += size;
        omp_unset_lock(&a->mapped_lock);
    }
    piece = c->base + c->used;
    c->used += need;
    omp_unset_lock(&n->lock);
    return piece;
}

size_t placement_arena_mapped_bytes(const PlacementArena *a)
{
    return a == NULL ? 0 : a->mapped;
}

void placement_arena_destroy(PlacementArena *a)
{
    if (a == NULL)
        return;
    for (int i = 0; i < a->count; i++) {
        for (ArenaChunk *c = a->nodes[i].chunks, *next; c != NULL; c = next) {
            next = c->next;
            unmap_chunk(a, c->base, c->size);
            free(c);
        }
        omp_destroy_lock(&a->nodes[i].lock);
    }
    omp_destroy_lock(&a->mapped_lock);
    free(a->nodes);
    free(a);
}
