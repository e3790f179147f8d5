/* The libnuma policies' arena: many small pieces share a few large
 * mappings, every piece is aligned and apart from the others, a block larger
 * than a chunk gets a page-aligned mapping of its own, and first touch uses
 * no arena at all. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "numa/arena.h"
#include "tap.h"

int main(void)
{
    Placement first_touch = {PLACEMENT_FIRST_TOUCH, 0}, node0 = {PLACEMENT_NODE, 0};
    int failed = 1;
    ok(placement_arena_create(&first_touch, &failed) == NULL && failed == 0,
       "first touch has no arena: malloc lets the first writer place the pages");

    char why[256];
    if (!numa_support_built() || numa_placement_check(&node0, why, sizeof why) != 0) {
        printf("ok 2 # SKIP no libnuma or no NUMA support here\n1..2\n");
        return 0;
    }
    PlacementArena *a = placement_arena_create(&node0, &failed);
    ok(a != NULL && failed == 0, "node:0 gets an arena");
    enum { PIECES = 100000 };
    unsigned char **piece = calloc(PIECES, sizeof *piece);
    int aligned = 1, apart = 1;
    for (int i = 0; i < PIECES; i++) {
        piece[i] = placement_arena_alloc(a, 32, 0);
        if (piece[i] == NULL)
            return printf("Bail out! arena allocation %d failed\n", i), 255;
        memset(piece[i], 0xab, 32);
        aligned &= (uintptr_t)piece[i] % 64 == 0;
        if (i > 0)
            apart &= piece[i] >= piece[i - 1] + 32 || piece[i] + 32 <= piece[i - 1];
    }
    ok(aligned, "every piece starts on a 64-byte boundary");
    ok(apart, "consecutive pieces do not overlap");
    size_t small = placement_arena_mapped_bytes(a);
    ok(small > 0 && small <= (size_t)2 * (32 << 20),
       "100,000 pieces of 32 bytes share at most two 32 MiB chunks (%zu bytes mapped), not 100,000 mappings", small);

    size_t big_bytes = (size_t)40 << 20, page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *big = placement_arena_alloc(a, big_bytes, 0);
    ok(big != NULL && (uintptr_t)big % page == 0, "a 40 MiB block gets a page-aligned mapping of its own");
    ok(placement_arena_mapped_bytes(a) == small + big_bytes, "of exactly its size");
    unsigned char *after = placement_arena_alloc(a, 32, 0);
    ok(after == piece[PIECES - 1] + 64, "and small pieces go on where they left off in the current chunk");
    placement_arena_destroy(a);
    free(piece);
    return done_testing();
}
