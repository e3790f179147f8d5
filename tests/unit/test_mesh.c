/* build_mesh lays out each part as one contiguous, fully written block of
 * zones linked in address order, built by the part's static-schedule owner. */
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh.h"
#include "tap.h"

static int zones_are_contiguous_and_linked(const Mesh *m, long p)
{
    const Part *part = m->partArray[p];
    const unsigned char *base = (const unsigned char *)part->firstZone;
    const Zone *zone = part->firstZone;
    for (long z = 0; z < m->shape.zonesPerPart; z++, zone = zone->nextZone) {
        if (zone == NULL || (const unsigned char *)zone != base + z * m->shape.zoneSize)
            return 0;
        if (zone->zoneId != z + 1 || zone->partId != p || zone->value != 0.0)
            return 0;
        if (z == m->shape.zonesPerPart - 1 && (zone != part->lastZone || zone->nextZone != NULL))
            return 0;
    }
    return 1;
}

static int padding_is_zeroed(const Mesh *m)
{
    for (long p = 0; p < m->shape.numParts; p++) {
        const unsigned char *base = (const unsigned char *)m->partArray[p]->firstZone;
        for (long z = 0; z < m->shape.zonesPerPart; z++)
            for (long b = (long)sizeof(Zone); b < m->shape.zoneSize; b++)
                if (base[z * m->shape.zoneSize + b] != 0)
                    return 0;
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

static void test_layout(void)
{
    MeshShape shape = {5, 7, mesh_zone_size(48), 1};
    Mesh m;
    dirty_the_heap();
    ok(build_mesh(&m, &shape, 1, NULL, NULL) == MESH_OK, "a 5x7 mesh of 48-byte zones builds");
    int all = 1;
    for (long p = 0; p < shape.numParts; p++)
        all &= zones_are_contiguous_and_linked(&m, p) && m.partArray[p]->partId == p &&
                m.partArray[p]->zoneCount == 7 && m.partArray[p]->update_count == 0 &&
                m.partArray[p]->residue == 0.0;
    ok(all, "each part's zones sit zoneSize apart in one block, ids 1..7, linked in address order");
    ok(padding_is_zeroed(&m), "every padding byte of every zone is written at build time");
    ok(m.partArray[0]->firstZone != m.partArray[1]->firstZone, "parts have separate blocks");
    free_mesh(&m);
}

static void test_zone_size(void)
{
    ok(sizeof(Zone) == 32, "a zone is 32 bytes, as in CLOMP 1.2 on x86-64");
    ok(mesh_zone_size(1) == (long)sizeof(Zone), "a zoneSize below the zone structure is raised to it");
    ok(mesh_zone_size(32) == 32 && mesh_zone_size(512) == 512, "zoneSize 32 and 512 are kept as given");
    ok(mesh_zone_size(33) == 40, "zoneSize 33 is rounded up to 40 so every zone stays 8-byte aligned");

    MeshShape huge = {INT64_MAX / 2, 4, 32, 1};
    int overflow = 0;
    mesh_zone_bytes(&huge, &overflow);
    ok(overflow, "a byte count that overflows size_t is reported, not wrapped");
    MeshShape small = {3, 5, 64, 1};
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
        MeshShape shape = {n, 3, 32, 1};
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
    MeshShape shape = {64, 100, 32, 1};
    ok(mesh_deposit_model(&shape) == DEPOSIT_MODEL_CLOMP12, "zonesPerPart 100 uses the CLOMP 1.2 ratio");
    ok(same_bits(mesh_deposit_ratio(&shape, DEPOSIT_MODEL_CLOMP12, 3), (96.0 + 3.0) / 6400.0),
       "part 3 of 64x100 has ratio (1.5*64 + 3) / (100*64)");

    int below_one = 1, distinct = 1;
    for (long f = 1; f <= 1000; f *= 10) {
        MeshShape single = {64, 1, 32, f};
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
