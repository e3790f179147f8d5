/* build_mesh lays out each part as one contiguous, fully written block of
 * zonesPerPart x zoneSize bytes with its zones linked in address order - one
 * 32-byte record apart (CLOMP 1.2) or zoneSize apart (spread) - built by the
 * part's static-schedule owner. */
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh.h"
#include "tap.h"

/* Zone z of every part at byte z x stride of its block, in order. */
static int zones_sit_apart_and_linked(const Mesh *m, long p, long stride)
{
    const Part *part = m->partArray[p];
    const unsigned char *base = (const unsigned char *)part->firstZone;
    const Zone *zone = part->firstZone;
    for (long z = 0; z < m->shape.zonesPerPart; z++, zone = zone->nextZone) {
        if (zone == NULL || (const unsigned char *)zone != base + z * stride)
            return 0;
        if (zone->zoneId != z + 1 || zone->partId != p || zone->value != 0.0)
            return 0;
        if (z == m->shape.zonesPerPart - 1 && (zone != part->lastZone || zone->nextZone != NULL))
            return 0;
    }
    return 1;
}

/* Every byte of the block that no zone record occupies is zero: the
 * builder wrote (first touched) the whole block, padding included. */
static int padding_is_zeroed(const Mesh *m, long stride, long block_bytes)
{
    for (long p = 0; p < m->shape.numParts; p++) {
        const unsigned char *base = (const unsigned char *)m->partArray[p]->firstZone;
        for (long b = 0; b < block_bytes; b++) {
            int in_record = b / stride < m->shape.zonesPerPart && b % stride < (long)sizeof(Zone);
            if (!in_record && base[b] != 0)
                return 0;
        }
    }
    return 1;
}

/* Leaves freed heap memory full of 0xff, so a builder that skipped bytes
 * would be caught reading back garbage. */
static void dirty_the_heap(void)
{
    enum { N = 64 };
    void *blocks[N];
    for (int i = 0; i < N; i++) {
        blocks[i] = malloc(4096);
        memset(blocks[i], 0xff, 4096);
    }
    for (int i = 0; i < N; i++)
        free(blocks[i]);
}

/* Builds a 5-part mesh of 7 zones of zoneSize bytes under `layout` and
 * checks each zone's address against `stride` (worked out by the caller
 * from the layout's definition, not asked of the mesh). */
static void check_layout(long zoneSize, ZoneLayout layout, long stride, long block_bytes, const char *what)
{
    MeshShape shape = {5, 7, mesh_zone_size(zoneSize), 1, layout};
    Mesh m;
    dirty_the_heap();
    ok(build_mesh(&m, &shape, 1, NULL, NULL) == MESH_OK, "%s: a 5x7 mesh of %ld-byte zones builds", what, zoneSize);
    int all = 1;
    for (long p = 0; p < shape.numParts; p++)
        all &= zones_sit_apart_and_linked(&m, p, stride) && m.partArray[p]->partId == p &&
                m.partArray[p]->zoneCount == 7 && m.partArray[p]->update_count == 0 &&
                m.partArray[p]->residue == 0.0;
    ok(all, "%s: zone k of each part sits at byte k x %ld of its block, ids 1..7, linked in address order", what,
       stride);
    ok((long)mesh_block_bytes(&shape) == block_bytes, "%s: each part's block is %ld bytes", what, block_bytes);
    ok(padding_is_zeroed(&m, stride, block_bytes), "%s: every byte of every block outside the zone records is "
                                                   "written at build time", what);
    ok(m.partArray[0]->firstZone != m.partArray[1]->firstZone, "%s: parts have separate blocks", what);
    free_mesh(&m);
}

static void test_layout(void)
{
    /* CLOMP 1.2: zones one 32-byte record apart, the block zonesPerPart x zoneSize. */
    check_layout(48, ZONE_LAYOUT_CLOMP12, 32, 7 * 48, "1.2 layout, zoneSize 48");
    check_layout(100, ZONE_LAYOUT_CLOMP12, 32, 7 * 100, "1.2 layout, zoneSize 100");
    check_layout(512, ZONE_LAYOUT_CLOMP12, 32, 7 * 512, "1.2 layout, zoneSize 512");
    /* Spread: zone k at k x zoneSize, rounded up to 8 bytes to stay aligned. */
    check_layout(48, ZONE_LAYOUT_SPREAD, 48, 7 * 48, "spread layout, zoneSize 48");
    check_layout(100, ZONE_LAYOUT_SPREAD, 104, 7 * 104, "spread layout, zoneSize 100");
    check_layout(32, ZONE_LAYOUT_SPREAD, 32, 7 * 32, "spread layout, zoneSize 32");
}

static void test_zone_size(void)
{
    ok(sizeof(Zone) == 32, "a zone is 32 bytes, as in CLOMP 1.2 on x86-64");
    ok(mesh_zone_size(1) == (long)sizeof(Zone), "a zoneSize below the zone structure is raised to it");
    ok(mesh_zone_size(32) == 32 && mesh_zone_size(512) == 512, "zoneSize 32 and 512 are kept as given");
    ok(mesh_zone_size(33) == 33 && mesh_zone_size(100) == 100, "zoneSize 33 and 100 are kept as given (1.2 never rounds)");
    MeshShape s100 = {64, 100, 100, 1, ZONE_LAYOUT_CLOMP12};
    int overflow_100 = 1;
    ok(mesh_zone_bytes(&s100, &overflow_100) == 640000 && !overflow_100,
       "64 parts x 100 zones x zoneSize 100 allocate 640000 bytes of zones, as CLOMP 1.2 does");

    MeshShape huge = {INT64_MAX / 2, 4, 32, 1, ZONE_LAYOUT_CLOMP12};
    int overflow = 0;
    mesh_zone_bytes(&huge, &overflow);
    ok(overflow, "a byte count that overflows size_t is reported, not wrapped");
    MeshShape small = {3, 5, 64, 1, ZONE_LAYOUT_CLOMP12};
    ok(mesh_zone_bytes(&small, &overflow) == 960 && !overflow, "3 parts x 5 zones x 64 bytes is 960 bytes");
}

/* Which thread runs each iteration of a schedule(static) loop of n with t threads. */
static void static_owners(long n, int threads, int *owner)
{
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long p = 0; p < n; p++)
        owner[p] = omp_get_thread_num();
}

static void test_alloc_threads(void)
{
    omp_set_dynamic(0);
    long n = 11;
    for (int threads = 1; threads <= 4; threads++) {
        MeshShape shape = {n, 3, 32, 1, ZONE_LAYOUT_CLOMP12};
        Mesh m;
        int owner[11];
        static_owners(n, threads, owner);
        build_mesh(&m, &shape, threads, NULL, NULL);
        int same = 1, used = 0;
        for (long p = 0; p < n; p++) {
            same &= m.builder_thread[p] == owner[p];
            used |= 1 << m.builder_thread[p];
        }
        ok(same, "with allocThreads=%d each part is built by its schedule(static) owner", threads);
        ok(used == (1 << threads) - 1, "with allocThreads=%d all %d threads build parts", threads, threads);
        free_mesh(&m);
    }
}

static void test_deposit_ratios(void)
{
    MeshShape shape = {64, 100, 32, 1, ZONE_LAYOUT_CLOMP12};
    ok(mesh_deposit_model(&shape) == DEPOSIT_MODEL_CLOMP12, "zonesPerPart 100 uses the CLOMP 1.2 ratio");
    ok(same_bits(mesh_deposit_ratio(&shape, DEPOSIT_MODEL_CLOMP12, 3), (96.0 + 3.0) / 6400.0),
       "part 3 of 64x100 has ratio (1.5*64 + 3) / (100*64)");

    int below_one = 1, distinct = 1;
    for (long f = 1; f <= 1000; f *= 10) {
        MeshShape single = {64, 1, 32, f, ZONE_LAYOUT_CLOMP12};
        ok(mesh_deposit_model(&single) == DEPOSIT_MODEL_SINGLE_ZONE, "zonesPerPart 1 (flopScale %ld) uses the single-zone model", f);
        for (long p = 0; p < 64; p++) {
            double r = mesh_deposit_ratio(&single, DEPOSIT_MODEL_SINGLE_ZONE, p);
            below_one &= r > 0.0 && r < 1.0;
            if (p > 0)
                distinct &= r > mesh_deposit_ratio(&single, DEPOSIT_MODEL_SINGLE_ZONE, p - 1);
        }
    }
    ok(below_one, "every single-zone ratio lies strictly between 0 and 1");
    ok(distinct, "single-zone ratios still differ from part to part");
}

int main(void)
{
    test_layout();
    test_zone_size();
    test_alloc_threads();
    test_deposit_ratios();
    return done_testing();
}
