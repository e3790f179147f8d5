/* Memory for the mesh under the libnuma policies, in large chunks. */
#ifndef CLOMP_ARENA_H
#define CLOMP_ARENA_H

#include <stddef.h>

#include "placement.h"

/* The libnuma policies allocate from arenas: per node (interleave: one
 * interleaved arena) the memory is mapped in large chunks, each given its
 * policy once, and carved into 64-byte aligned pieces; everything is
 * released at once by placement_arena_destroy. 100,000 tiny parts then cost
 * their bytes, not two page-sized mappings each. Thread-safe. */
typedef struct PlacementArena PlacementArena;

/* NULL under first touch (plain malloc, so the first writer places the
 * pages) or when out of memory (*failed set then). */
PlacementArena *placement_arena_create(const Placement *p, int *failed);
/* `bytes` under the arena's policy; `local_node` is used by PLACEMENT_LOCAL. */
void *placement_arena_alloc(PlacementArena *arena, size_t bytes, int local_node);
/* Bytes mapped for the arena's chunks (not all of it touched). */
size_t placement_arena_mapped_bytes(const PlacementArena *arena);
void placement_arena_destroy(PlacementArena *arena);

#endif
