/* A chunk's verification run by the threads that own the parts under the
 * schedule just timed (same team size, same assignment of parts), so the
 * check reads each part where the schedule left it and moves no data
 * between caches; see chunk_timer.h. Each ends with the verifier's
 * conclude() on the calling thread. */
#ifndef CLOMP_OWNED_CHECK_H
#define CLOMP_OWNED_CHECK_H

#include "chunk_timer.h"

/* Serial Ref: every part belongs to the main thread. */
void verify_on_main(ChunkTimer *t, long chunk, long numParts);

/* Static OMP (and Dynamic OMP and the other schedules without fixed
 * owners - the static assignment is the closest): parallel for
 * schedule(static). */
void verify_static_owners(ChunkTimer *t, long chunk, long numParts, int threads);

/* Static,1 OMP: part p belongs to thread p mod threads, schedule(static, 1). */
void verify_cyclic_owners(ChunkTimer *t, long chunk, long numParts, int threads);

/* Manual OMP's slices (thread_slice), from a region of `threads`. */
void verify_slice_owners(ChunkTimer *t, long chunk, long numParts, int threads);

/* Nested OMP: OUTER groups of consecutive parts, each split statically
 * among INNER threads. */
void verify_nested_owners(ChunkTimer *t, long chunk, long numParts, int outer, int inner);

#endif
