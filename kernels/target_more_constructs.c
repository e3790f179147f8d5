/* The target probes after launch and mapping (offload builds only,
 * docs/offload.md): EPCC's target-offload methods of distributed atomics,
 * an array-section reduction, map(alloc), and target teams with one and
 * with many inner parallel regions (Tu, Bull, Richings, IWOMP 2026),
 * host-observed, each around EPCC's delay on the device and measured against
 * the same reference as the other target rows (target_probe.h).
 *
 * Each row's check runs its test untimed with a probe, and verifies from
 * what the device mapped back that the construct did its job: every atomic
 * add arrived, the reduced array holds every iteration's contribution, an
 * alloc'd section was writable on the device and copied nothing back, and
 * every inner parallel region was one (level 1) with all its threads
 * counted. CLOMP_FAULT=construct-wrong (fault build) runs each without
 * that effect, and its check must catch it (tests/offload.t). */
#ifdef CLOMP_OFFLOAD

#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../offload/device.h"
#include "construct.h"
#include "construct_probe.h"
#include "fault.h"
#include "target_probe.h"

/* A host buffer of at least `bytes`, kept between calls (the probes run on
 * the initial thread only); one per row so that rows never share one. */
static void *grown_buffer(void **buffer, long *size, long bytes)
{
    if (bytes > *size) {
        void *grown = realloc(*buffer, (size_t)bytes);
        if (grown == NULL)
            abort();
        memset(grown, 0, (size_t)bytes);
        *buffer = grown;
        *size = bytes;
    }
    return *buffer;
}

/* ---- distributed atomics: target teams distribute parallel for of one
 * delay per iteration (threads iterations, as TARGET TDPF), each iteration
 * an atomic add to one counter that every team shares. seen[]: the adds
 * that arrived, whether iteration 0 ran on the host, its team's size. */
static void test_target_atomic(const ConstructWork *w)
{
    int n = w->threads, length = w->delay_length;
    long first_on_host = 1, threads = 0;
    for (long j = 0; j < w->innerreps; j++) {
        long seen[3] = {0, 1, 0};
        if (CONSTRUCT_WRONG_BODY("target_atomic")) {
            /* The counter mapped to the device only: the adds never come back. */
#pragma omp target teams distribute parallel for device(offload_device()) map(to : seen[0:3]) firstprivate(length)
            for (int i = 0; i < n; i++) {
                device_delay(length);
#pragma omp atomic update
                seen[0] += 1;
            }
        } else {
#pragma omp target teams distribute parallel for device(offload_device()) map(tofrom : seen[0:3]) firstprivate(length)
            for (int i = 0; i < n; i++) {
                if (i == 0) {
                    seen[1] = omp_is_initial_device();
                    seen[2] = omp_get_num_threads();
                }
                device_delay(length);
#pragma omp atomic update
                seen[0] += 1;
            }
        }
        if (j == 0) {
            first_on_host = seen[1];
            threads = seen[2];
        }
        if (w->probe != NULL && seen[0] != n)
            probe_fail(w->probe, "instance %ld: %ld atomic adds arrived, not %d", j + 1, seen[0], n);
    }
    target_note_device_region(w, (int)first_on_host, (int)threads);
}

/* ---- array-section reduction: the same loop with reduction(+: a[0:n])
 * over an array of n doubles (arraybench's sizes), iteration i adding 1
 * to a[i % n]. Probed, the array starts at 0 in each instance. */
static void test_target_reduction(const ConstructWork *w)
{
    static void *buffer;
    static long size;
    int n = w->threads, length = w->delay_length;
    long len = w->chunk;
    double *a = grown_buffer(&buffer, &size, len * (long)sizeof(double));
    long first_on_host = 1;
    for (long j = 0; j < w->innerreps; j++) {
        long on_host = 1;
        if (w->probe != NULL)
            memset(a, 0, (size_t)len * sizeof *a);
        if (CONSTRUCT_WRONG_BODY("target_reduction")) {
            /* The reduced section mapped to the device only: never combined into the host's. */
#pragma omp target teams distribute parallel for device(offload_device()) map(to : a[0:len]) reduction(+ : a[0:len]) firstprivate(length, len)
            for (int i = 0; i < n; i++) {
                device_delay(length);
                a[i % len] += 1.0;
            }
        } else {
#pragma omp target teams distribute parallel for device(offload_device()) map(tofrom : a[0:len], on_host) reduction(+ : a[0:len]) firstprivate(length, len)
            for (int i = 0; i < n; i++) {
                if (i == 0)
                    on_host = omp_is_initial_device();
                device_delay(length);
                a[i % len] += 1.0;
            }
        }
        if (j == 0)
            first_on_host = on_host;
        if (w->probe == NULL)
            continue;
        for (long k = 0; k < len; k++) {
            long want = n / len + (k < n % len ? 1 : 0);   /* the iterations i < n with i % len == k */
            if (a[k] != (double)want) {
                probe_fail(w->probe, "instance %ld: a[%ld] of the reduced section is %g, not %ld", j + 1, k, a[k], want);
                break;
            }
        }
    }
    target_note_device_region(w, (int)first_on_host, 1);
}

/* ---- map(alloc: n bytes): the section exists on the device for the
 * region, nothing is copied either way. Probed, the host's bytes hold 1;
 * the device writes 7 at both ends and reads them back (meta[2]), and says
 * where its copy is (meta[1]): a device copy apart from the host's must
 * leave the host's bytes as they were. */
static int alloc_instance(int device, char *buf, long bytes, int length, long long *meta, int wrong)
{
    if (meta == NULL) {
#pragma omp target device(device) map(alloc : buf[0:bytes]) firstprivate(length)
        device_delay(length);
        return 0;
    }
    if (wrong) {
        /* tofrom for alloc: the device's bytes are copied back. */
#pragma omp target device(device) map(from : meta[0:3]) map(tofrom : buf[0:bytes]) firstprivate(length, bytes)
        {
            meta[0] = omp_is_initial_device();
            meta[1] = (long long)(uintptr_t)buf;
            buf[0] = buf[bytes - 1] = 7;
            meta[2] = buf[0] + buf[bytes - 1];
            device_delay(length);
        }
        return (int)meta[0];
    }
#pragma omp target device(device) map(from : meta[0:3]) map(alloc : buf[0:bytes]) firstprivate(length, bytes)
    {
        meta[0] = omp_is_initial_device();
        meta[1] = (long long)(uintptr_t)buf;
        buf[0] = buf[bytes - 1] = 7;
        meta[2] = buf[0] + buf[bytes - 1];
        device_delay(length);
    }
    return (int)meta[0];
}

static void test_target_map_alloc(const ConstructWork *w)
{
    static void *buffer;
    static long size;
    long bytes = w->chunk;
    char *buf = grown_buffer(&buffer, &size, bytes);
    int device = offload_device(), wrong = CONSTRUCT_WRONG_BODY("target_map_alloc"), on_host = 1;
    for (long j = 0; j < w->innerreps; j++) {
        long long meta[3] = {1, 0, 0};
        if (j > 0 && w->probe == NULL) {
            alloc_instance(device, buf, bytes, w->delay_length, NULL, wrong);
            continue;
        }
        if (w->probe != NULL)
            memset(buf, 1, (size_t)bytes);
        int here = alloc_instance(device, buf, bytes, w->delay_length, meta, wrong);
        if (j == 0)
            on_host = here;
        if (w->probe == NULL)
            continue;
        if (meta[2] != 14)
            probe_fail(w->probe, "instance %ld: the device could not write its %ld allocated bytes", j + 1, bytes);
        else if ((uintptr_t)meta[1] != (uintptr_t)buf && (buf[0] != 1 || buf[bytes - 1] != 1))
            probe_fail(w->probe, "instance %ld: map(alloc) of %ld bytes copied the device's bytes back", j + 1, bytes);
    }
    target_note_device_region(w, on_host, 1);
}

/* ---- target teams with inner parallel regions: each team of one target
 * teams region opens `regions` parallel regions in turn, each thread one
 * delay. Counted (c != NULL, the check): c[0] delays run, c[1] the inner
 * teams' sizes summed (what c[0] must be), c[2] inner regions opened,
 * c[3] regions that were not at level 1 (no parallel region: the team's
 * own thread alone), c[4] the teams. Otherwise on_host (may be NULL) is
 * set from team 0's first region. */
static void teams_parallels(int device, long regions, int length, long *c, long *on_host, int wrong)
{
    if (c != NULL && wrong) {
        /* The inner parallel construct dropped: each team's own thread runs
         * the delays alone, and no inner region counts itself. (Nothing but
         * omp_get_team_num and omp_get_num_teams may be called, and no
         * atomic may be, directly in a teams region.) */
#pragma omp target teams device(device) map(tofrom : c[0:5]) firstprivate(regions, length)
        {
            if (omp_get_team_num() == 0)
                c[4] = omp_get_num_teams();
            for (long r = 0; r < regions; r++)
                device_delay(length);
        }
    } else if (c != NULL) {
#pragma omp target teams device(device) map(tofrom : c[0:5]) firstprivate(regions, length)
        {
            if (omp_get_team_num() == 0)
                c[4] = omp_get_num_teams();
            for (long r = 0; r < regions; r++) {
#pragma omp parallel
                {
                    if (omp_get_thread_num() == 0) {
                        if (omp_get_level() != 1) {
#pragma omp atomic update
                            c[3] += 1;
                        }
#pragma omp atomic update
                        c[1] += omp_get_num_threads();
#pragma omp atomic update
                        c[2] += 1;
                    }
                    device_delay(length);
#pragma omp atomic update
                    c[0] += 1;
                }
            }
        }
    } else if (on_host != NULL) {
#pragma omp target teams device(device) map(from : on_host[0:1]) firstprivate(regions, length)
        for (long r = 0; r < regions; r++) {
#pragma omp parallel
            {
                if (r == 0 && omp_get_team_num() == 0 && omp_get_thread_num() == 0)
                    on_host[0] = omp_is_initial_device();
                device_delay(length);
            }
        }
    } else {
#pragma omp target teams device(device) firstprivate(regions, length)
        for (long r = 0; r < regions; r++) {
#pragma omp parallel
            device_delay(length);
        }
    }
}

/* The check of both rows: `instances` target teams regions of `regions`
 * inner regions each, counted. */
static void count_teams_parallels(const ConstructWork *w, const char *key, long instances, long regions)
{
    (void)key;   /* read by the fault build's CONSTRUCT_WRONG_BODY only */
    for (long j = 0; j < instances; j++) {
        long c[5] = {0, 0, 0, 0, 0};
        teams_parallels(offload_device(), regions, w->delay_length, c, NULL, CONSTRUCT_WRONG_BODY(key));
        if (c[3] > 0)
            probe_fail(w->probe, "instance %ld: %ld of %ld inner regions ran outside a parallel region (level not 1)",
                       j + 1, c[3], c[2]);
        else if (c[4] < 1 || c[2] != c[4] * regions)
            probe_fail(w->probe, "instance %ld: %ld inner regions opened by %ld teams, not %ld each", j + 1, c[2], c[4],
                       regions);
        else if (c[0] != c[1])
            probe_fail(w->probe, "instance %ld: %ld delays ran in inner teams of %ld threads in all", j + 1, c[0], c[1]);
    }
}

/* One inner parallel region per instance: innerreps target teams regions. */
static void test_target_teams_parallel(const ConstructWork *w)
{
    int device = offload_device();
    if (w->probe != NULL) {
        count_teams_parallels(w, "target_teams_parallel", w->innerreps, 1);
        return;
    }
    long on_host = 1;
    teams_parallels(device, 1, w->delay_length, NULL, &on_host, 0);
    for (long j = 1; j < w->innerreps; j++)
        teams_parallels(device, 1, w->delay_length, NULL, NULL, 0);
    target_note_device_region(w, (int)on_host, 1);
}

/* Many: one target teams region whose teams each open innerreps parallel
 * regions: what remains per instance is an inner parallel region's cost
 * on the device, the launch spread over innerreps. */
static void test_target_teams_parallels(const ConstructWork *w)
{
    if (w->probe != NULL) {
        count_teams_parallels(w, "target_teams_parallels", 1, w->innerreps);
        return;
    }
    long on_host = 1;
    teams_parallels(offload_device(), w->innerreps, w->delay_length, NULL, &on_host, 0);
    target_note_device_region(w, (int)on_host, 1);
}

/* ---- the checks: the test, untimed, probed, a few instances. */
static int check_with(const ConstructWork *w, void (*test)(const ConstructWork *), long instances, char *why,
                      size_t why_size)
{
    ConstructProbe p;
    probe_start(&p, 0.0);
    ConstructWork c = probe_work(w, &p, instances);
    test(&c);
    return probe_verdict(&p, why, why_size);
}

static int check_atomic(const ConstructWork *w, char *why, size_t n) { return check_with(w, test_target_atomic, 3, why, n); }
static int check_reduction(const ConstructWork *w, char *why, size_t n) { return check_with(w, test_target_reduction, 3, why, n); }
static int check_map_alloc(const ConstructWork *w, char *why, size_t n) { return check_with(w, test_target_map_alloc, 2, why, n); }
static int check_teams_parallel(const ConstructWork *w, char *why, size_t n)
{
    return check_with(w, test_target_teams_parallel, 2, why, n);
}
static int check_teams_parallels(const ConstructWork *w, char *why, size_t n)
{
    return check_with(w, test_target_teams_parallels, 4, why, n);
}

const Construct construct_target_atomic = {
    "target_atomic", "TARGET ATOMIC", CONSTRUCT_TARGET, 0, test_target_atomic, target_device_delays,
    "target teams distribute parallel for, threads iterations, each one delay and an atomic add to one shared counter",
    .check = check_atomic};
const Construct construct_target_reduction = {
    "target_reduction", "TARGET REDUCTION n", CONSTRUCT_TARGET, CONSTRUCT_SIZE, test_target_reduction,
    target_device_delays,
    "target teams distribute parallel for with reduction(+: an array section of n doubles), threads iterations of one delay",
    .check = check_reduction};
const Construct construct_target_map_alloc = {
    "target_map_alloc", "MAP ALLOC n", CONSTRUCT_TARGET, CONSTRUCT_CHUNK, test_target_map_alloc, target_device_delays,
    "target map(alloc: n bytes) around one delay (n swept)", .check = check_map_alloc};
const Construct construct_target_teams_parallel = {
    "target_teams_parallel", "TEAMS 1 PARALLEL", CONSTRUCT_TARGET, 0, test_target_teams_parallel, target_device_delays,
    "target teams, each team one inner parallel region of one delay per thread", .check = check_teams_parallel};
const Construct construct_target_teams_parallels = {
    "target_teams_parallels", "TEAMS N PARALLEL", CONSTRUCT_TARGET, 0, test_target_teams_parallels,
    target_device_delays,
    "one target teams region, each team innerreps inner parallel regions of one delay per thread (per region)",
    .check = check_teams_parallels};

#else

/* ISO C forbids an empty translation unit. */
typedef int clomp_target_more_constructs_build_only;

#endif
