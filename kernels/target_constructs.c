/* The offload probes (offload builds only, docs/offload.md): rows of the
 * construct table of kind `target`, after the target-offload methods of
 * EPCC's suite (Tu, Bull, Richings, IWOMP 2026), host-observed. The test is
 * innerreps instances of the construct, each around one calibrated delay
 * run on the device; the reference is the same innerreps delays inside one
 * target region, so that what remains per instance is the construct's cost
 * (launch, mapping, waiting) and not the device's speed at the delay. The
 * delay's length is the one calibrated on the host: on a GPU one delay
 * lasts longer, the same in test and reference.
 *
 * Every test asks the device, in its first instance, whether it ran off the
 * host (omp_is_initial_device() mapped back) and how many threads its team
 * had: that is its RegionLog (a host fallback is never logged as a region,
 * so measure/construct_level.c fails it as measured outside its construct). */
#ifdef CLOMP_OFFLOAD

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../offload/device.h"
#include "construct.h"
#include "target_probe.h"

void target_note_device_region(const ConstructWork *w, int on_host, int threads)
{
    RegionLog *log = w->log;
    if (log == NULL || on_host)
        return;
    log->regions += w->innerreps;
    log->threads_min = log->threads_max = threads;
    log->level_min = log->level_max = 1;   /* one region of the device's, opened by the initial thread */
    log->active_min = log->active_max = threads > 1;
}

void target_device_delays(const ConstructWork *w)
{
    long innerreps = w->innerreps;
    int length = w->delay_length;
#pragma omp target device(offload_device()) firstprivate(innerreps, length)
    for (long j = 0; j < innerreps; j++)
        device_delay(length);
}

static void test_target(const ConstructWork *w)
{
    /* device is read by the device() clauses below, which cppcheck and clang's analyzer do not see. */
    // cppcheck-suppress unreadVariable
    int length = w->delay_length, on_host = 1, device = offload_device(); // NOLINT(clang-analyzer-deadcode.DeadStores)
#pragma omp target device(device) map(from : on_host) firstprivate(length)
    {
        on_host = omp_is_initial_device();
        device_delay(length);
    }
    for (long j = 1; j < w->innerreps; j++) {
#pragma omp target device(device) firstprivate(length)
        device_delay(length);
    }
    target_note_device_region(w, on_host, 1);
}

static void test_target_teams(const ConstructWork *w)
{
    /* device is read by the device() clauses below, which cppcheck and clang's analyzer do not see. */
    // cppcheck-suppress unreadVariable
    int length = w->delay_length, on_host = 1, teams = 0, device = offload_device(); // NOLINT(clang-analyzer-deadcode.DeadStores)
#pragma omp target teams device(device) map(from : on_host, teams) firstprivate(length)
    {
        if (omp_get_team_num() == 0) {
            teams = omp_get_num_teams();
            /* Only omp_get_num_teams and omp_get_team_num may be called directly in a teams region. */
#pragma omp parallel num_threads(1)
            on_host = omp_is_initial_device();
        }
        device_delay(length);
    }
    for (long j = 1; j < w->innerreps; j++) {
#pragma omp target teams device(device) firstprivate(length)
        device_delay(length);
    }
    target_note_device_region(w, on_host, teams > 0 ? 1 : 0);
}

/* One delay per iteration, as many iterations as the host team has threads
 * (syncbench's PARALLEL FOR shape). */
static void test_target_teams_dpf(const ConstructWork *w)
{
    /* device is read by the device() clauses below, which cppcheck and clang's analyzer do not see. */
    // cppcheck-suppress unreadVariable
    int length = w->delay_length, n = w->threads, on_host = 1, threads = 0, device = offload_device(); // NOLINT(clang-analyzer-deadcode.DeadStores)
#pragma omp target teams distribute parallel for device(device) map(tofrom : on_host, threads) firstprivate(length)
    for (int i = 0; i < n; i++) {
        if (i == 0) {
            on_host = omp_is_initial_device();
            threads = omp_get_num_threads();
        }
        device_delay(length);
    }
    for (long j = 1; j < w->innerreps; j++) {
#pragma omp target teams distribute parallel for device(device) firstprivate(length)
        for (int i = 0; i < n; i++)
            device_delay(length);
    }
    target_note_device_region(w, on_host, threads);
}

static void test_target_nowait(const ConstructWork *w)
{
    /* device is read by the device() clauses below, which cppcheck and clang's analyzer do not see. */
    // cppcheck-suppress unreadVariable
    int length = w->delay_length, on_host = 1, device = offload_device(); // NOLINT(clang-analyzer-deadcode.DeadStores)
#pragma omp target device(device) map(from : on_host) firstprivate(length) nowait
    {
        on_host = omp_is_initial_device();
        device_delay(length);
    }
#pragma omp taskwait
    for (long j = 1; j < w->innerreps; j++) {
#pragma omp target device(device) firstprivate(length) nowait
        device_delay(length);
#pragma omp taskwait
    }
    target_note_device_region(w, on_host, 1);
}

/* The host buffer the map rows move: w->chunk bytes (the sweep's N),
 * kept between calls (the probes run on the initial thread only). */
static char *map_buffer(long bytes)
{
    static char *buffer;
    static long size;
    if (bytes > size) {
        char *grown = realloc(buffer, (size_t)bytes);
        if (grown == NULL)
            abort();
        memset(grown, 1, (size_t)bytes);
        buffer = grown;
        size = bytes;
    }
    return buffer;
}

/* `target map(DIRECTION: buf[0:N])` around the delay, written out once per
 * direction: clang 14 names a target region by its source line, and two
 * regions expanded from one macro line share a name the runtime cannot
 * tell apart ("does not have a matching target pointer"). */
typedef enum { MAP_TO, MAP_FROM, MAP_TOFROM } MapDirection;

static int map_instance(MapDirection direction, char *buf, long bytes, int length, int device, int first)
{
    (void)buf;   /* named only in map clauses: gcc's nvptx compile of this function sees no use */
    int on_host = 1;
    switch (direction) {
    case MAP_TO:
        if (first) {
#pragma omp target device(device) map(from : on_host) map(to : buf[0:bytes]) firstprivate(length)
            {
                on_host = omp_is_initial_device();
                device_delay(length);
            }
        } else {
#pragma omp target device(device) map(to : buf[0:bytes]) firstprivate(length)
            device_delay(length);
        }
        break;
    case MAP_FROM:
        if (first) {
#pragma omp target device(device) map(from : on_host) map(from : buf[0:bytes]) firstprivate(length)
            {
                on_host = omp_is_initial_device();
                device_delay(length);
            }
        } else {
#pragma omp target device(device) map(from : buf[0:bytes]) firstprivate(length)
            device_delay(length);
        }
        break;
    default:
        if (first) {
#pragma omp target device(device) map(from : on_host) map(tofrom : buf[0:bytes]) firstprivate(length)
            {
                on_host = omp_is_initial_device();
                device_delay(length);
            }
        } else {
#pragma omp target device(device) map(tofrom : buf[0:bytes]) firstprivate(length)
            device_delay(length);
        }
        break;
    }
    return on_host;
}

static void map_test(const ConstructWork *w, MapDirection direction)
{
    char *buf = map_buffer(w->chunk);
    int on_host = map_instance(direction, buf, w->chunk, w->delay_length, offload_device(), 1);
    for (long j = 1; j < w->innerreps; j++)
        map_instance(direction, buf, w->chunk, w->delay_length, offload_device(), 0);
    target_note_device_region(w, on_host, 1);
}

static void test_target_map_to(const ConstructWork *w)
{
    map_test(w, MAP_TO);
}

static void test_target_map_from(const ConstructWork *w)
{
    map_test(w, MAP_FROM);
}

static void test_target_map_tofrom(const ConstructWork *w)
{
    map_test(w, MAP_TOFROM);
}

const Construct construct_target = {"target", "TARGET", CONSTRUCT_TARGET, 0, test_target, target_device_delays,
                                    "an empty target region around one delay on the device", .check = NULL};
const Construct construct_target_teams = {"target_teams", "TARGET TEAMS", CONSTRUCT_TARGET, 0, test_target_teams,
                                          target_device_delays, "target teams, one delay per team", .check = NULL};
const Construct construct_target_teams_dpf = {"target_teams_dpf", "TARGET TDPF",
                                              CONSTRUCT_TARGET, 0, test_target_teams_dpf, target_device_delays,
                                              "target teams distribute parallel for: one delay per iteration, "
                                              "threads iterations", .check = NULL};
const Construct construct_target_nowait = {"target_nowait", "TARGET NOWAIT", CONSTRUCT_TARGET, 0,
                                           test_target_nowait, target_device_delays,
                                           "target nowait around one delay, then taskwait", .check = NULL};
const Construct construct_target_map_to = {"target_map_to", "MAP TO n", CONSTRUCT_TARGET, 1,
                                           test_target_map_to, target_device_delays,
                                           "target map(to: n bytes) around one delay (n swept)", .check = NULL};
const Construct construct_target_map_from = {"target_map_from", "MAP FROM n", CONSTRUCT_TARGET, 1,
                                             test_target_map_from, target_device_delays,
                                             "target map(from: n bytes) around one delay (n swept)", .check = NULL};
const Construct construct_target_map_tofrom = {"target_map_tofrom", "MAP TOFROM n", CONSTRUCT_TARGET, 1,
                                               test_target_map_tofrom, target_device_delays,
                                               "target map(tofrom: n bytes) around one delay (n swept)", .check = NULL};

#else

/* ISO C forbids an empty translation unit. */
typedef int clomp_target_constructs_build_only;

#endif
