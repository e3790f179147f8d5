/* The run as resolved from the command line (setup.h). */
#include "setup.h"

#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli/exit_status.h"
#include "../offload/device.h"
#include "../measure/chunk_plan.h"
#include "../measure/sequence.h"
#include "../ompt/tool.h"

/* CLOMP 1.2 caps the scaled iteration count. */
#define MAX_ITERATIONS 2000000000L
/* Larger zones could not be rounded up to the zone alignment (spread layout) without overflow. */
#define MAX_ZONE_SIZE (LONG_MAX - 64)

/* A step that cannot go on: its status, with the reason in `why`. */
#define FAIL(status, ...) return (snprintf(why, why_size, __VA_ARGS__), (status))

/* _SC_PHYS_PAGES (all memory) or _SC_AVPHYS_PAGES (free now). */
size_t setup_memory_bytes(int which)
{
    long pages = sysconf(which), page_size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0)
        return SIZE_MAX;
    return (size_t)pages * (size_t)page_size;
}

static void build_invocation(RunSetup *run, int argc, char **argv)
{
    size_t used = 0;
    run->invocation[0] = '\0';
    for (int i = 0; i < argc && used + 1 < sizeof run->invocation; i++)
        used += (size_t)snprintf(run->invocation + used, sizeof run->invocation - used, "%s%s",
                                 i > 0 ? " " : "", argv[i]);
}

int setup_chunk_plan(RunSetup *run, char *why, size_t why_size)
{
    run->chunk_end = calloc((size_t)run->trials, sizeof *run->chunk_end);
    if (run->chunk_end == NULL)
        FAIL(EXIT_RESOURCE, "out of memory for a plan of %ld chunks", run->trials);
    plan_chunks(run->iterations, run->trials, SUBCYCLES_PER_ITERATION, run->chunk_end);
    return 0;
}

/* --trials=K, known before anything is built: at most one chunk per
 * iteration, and checkpoints that fit in memory. */
static int plan_requested_trials(RunSetup *run, char *why, size_t why_size)
{
    if (run->requested_trials == 0)
        return 0;
    double per_part = (double)CHECKPOINT_BYTES_PER_PART * (double)run->numParts;
    run->trials = run->requested_trials < run->iterations ? run->requested_trials : run->iterations;
    if (per_part * (double)run->trials > (double)setup_memory_bytes(_SC_PHYS_PAGES))
        FAIL(EXIT_RESOURCE, "--trials=%ld: the per-chunk checkpoints would need %.4g bytes, more than this "
                            "machine's memory", run->trials, per_part * (double)run->trials);
    return setup_chunk_plan(run, why, why_size);
}

/* --schedules=LIST: names or keys, comma-separated; Serial Ref always runs
 * because every other schedule is verified against it. Without the option,
 * every entry of the table that is not optional runs. */
static int select_schedules(RunSetup *run, const char *list, char *why, size_t why_size)
{
    if (clomp_schedule_count > sizeof run->selected / sizeof run->selected[0])
        FAIL(EXIT_RESOURCE, "internal: more schedules than RunSetup.selected holds");
    for (size_t i = 0; i < clomp_schedule_count; i++)
        run->selected[i] = list == NULL ? !clomp_schedules[i]->optional : clomp_schedules[i]->role == ROLE_REFERENCE;
    if (list == NULL)
        return 0;
    char item[64];
    for (const char *at = list; *at != '\0';) {
        size_t len = strcspn(at, ",");
        if (len == 0 || len >= sizeof item)
            FAIL(EXIT_USAGE, "--schedules: '%s' has an empty or overlong name", list);
        memcpy(item, at, len);
        item[len] = '\0';
        const Schedule *s = find_schedule(item);
        if (s == NULL) {
            char keys[2][512];
            FAIL(EXIT_USAGE, "--schedules: '%s' is not a measurement (default: %s; optional: %s)", item,
                 schedule_keys(keys[0], sizeof keys[0], 0), schedule_keys(keys[1], sizeof keys[1], 1));
        }
        for (size_t i = 0; i < clomp_schedule_count; i++)
            run->selected[i] |= clomp_schedules[i] == s;
        at += len;
        if (*at == ',' && *++at == '\0')
            FAIL(EXIT_USAGE, "--schedules: '%s' ends with a comma", list);
    }
    return 0;
}

/* The mesh's bytes, checked against what this machine can hold. */
static int size_the_mesh(RunSetup *run, char *why, size_t why_size)
{
    MeshShape shape = run_mesh_shape(run);
    int overflow;
    run->memory_bytes = mesh_zone_bytes(&shape, &overflow);
    if (overflow)
        FAIL(EXIT_RESOURCE, "numParts x zonesPerPart x zoneSize = %.4g bytes, more than this machine can address",
             (double)run->numParts * (double)run->zonesPerPart * (double)run->zoneSize);
    if (run->memory_bytes > setup_memory_bytes(_SC_PHYS_PAGES))
        FAIL(EXIT_RESOURCE, "the mesh needs %zu bytes, more than this machine's %zu bytes of physical memory",
             run->memory_bytes, setup_memory_bytes(_SC_PHYS_PAGES));
    if (run->memory_bytes > setup_memory_bytes(_SC_AVPHYS_PAGES))
        fprintf(stderr, "clomp: warning: the mesh needs %zu bytes, more than the %zu bytes free now: "
                        "expect swapping or the OOM killer\n", run->memory_bytes, setup_memory_bytes(_SC_AVPHYS_PAGES));
    return 0;
}

int topology_query(int argc, char **argv, int (*answer)(FILE *out, const JobCores *jc))
{
    int asked = 0;
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        asked |= strcmp(argv[i], "--topology") == 0;
    if (!asked)
        return -1;
    Options opts;
    char why[256];
    int status = parse_options(argc, argv, &opts, why, sizeof why);
    if (status != 0) {
        fprintf(stderr, "clomp: %s\n", why);
        return status;
    }
    JobCores jc;
    count_job_cores((int)opts.cores, &jc);
    return answer(stdout, &jc);
}

/* The job's cores, counted once (numa/job_cores.h), and the team against
 * them: more than ABSURD_THREADS_PER_HW_THREAD threads per hardware thread
 * is a mistake (--nested=64x64 on 2 CPUs started 4,096 threads for 97 s),
 * refused in a line unless --oversubscribe; below that a team larger than
 * the cores runs, and the set-up lines say it is oversubscribed. */
static int count_team(const Options *opts, RunSetup *run, char *why, size_t why_size)
{
    count_job_cores((int)opts->cores, &run->job);
    run->oversubscribe = opts->oversubscribe;
    long team = run->numThreads > run->allocThreads ? run->numThreads : run->allocThreads;
    long nested = (long)run->nestedOuter * run->nestedInner;
    run->team_threads = nested > team ? nested : team;
    double per = (double)run->team_threads / run->job.hw_threads;
    if (per <= ABSURD_THREADS_PER_HW_THREAD || run->oversubscribe)
        return 0;
    char asked[64];
    if (nested > team)
        snprintf(asked, sizeof asked, "--nested=%dx%d", run->nestedOuter, run->nestedInner);
    else
        snprintf(asked, sizeof asked, "%s %ld", run->numThreads >= run->allocThreads ? "numThreads" : "allocThreads", team);
    FAIL(EXIT_USAGE, "%s: %ld threads on the %d hardware threads of this job (%.0f per hardware thread, above %d): "
                     "refused as a mistake; --oversubscribe runs it anyway", asked, run->team_threads, run->job.hw_threads,
         per, ABSURD_THREADS_PER_HW_THREAD);
}

int resolve_run(const Options *opts, int argc, char **argv, RunSetup *run, char *why, size_t why_size)
{
    memset(run, 0, sizeof *run);
    run->exe = argv[0];
    build_invocation(run, argc, argv);

    /* Before the runtime's first call, when an OMPT runtime asks for a tool. */
    ompt_tool_request(opts->ompt_mode, opts->ompt_rate_hz);
    run->ompt.mode = opts->ompt_mode;   /* the rest once the runtime has started (configure_openmp) */
    /* Offload builds: the device, or no run at all (never a host fallback); inert otherwise. */
    int offload_status = offload_open(opts->offload_device, why, why_size);
    if (offload_status != 0)
        return offload_status;
    run->inputNumThreads = opts->numThreads;
    run->numThreads = opts->numThreads == -1 ? omp_get_max_threads() : opts->numThreads;
    run->inputAllocThreads = opts->allocThreads;
    run->allocThreads = opts->allocThreads == -1 ? run->numThreads : opts->allocThreads;
    run->numParts = opts->numParts;
    run->zonesPerPart = opts->zonesPerPart;
    run->requestedZoneSize = opts->zoneSize;
    if (opts->zoneSize > MAX_ZONE_SIZE)
        FAIL(EXIT_RESOURCE, "zoneSize %ld: a single zone of that many bytes cannot be allocated", opts->zoneSize);
    run->zoneSize = mesh_zone_size(opts->zoneSize);
    run->zoneLayout = opts->zone_layout;
    run->flopScale = opts->flopScale;
    run->timeScale = opts->timeScale;

    if (opts->nestedOuter > 0) {
        run->nestedOuter = (int)opts->nestedOuter;
        run->nestedInner = (int)opts->nestedInner;
        snprintf(run->nested_shape_source, sizeof run->nested_shape_source, "--nested");
    }

    int status = count_team(opts, run, why, why_size);
    if (status != 0)
        return status;

    /* NUMA placement is refused before anything is printed or allocated. */
    run->placement = opts->placement;
    if (opts->placement_given && !numa_support_built())
        FAIL(EXIT_USAGE, "--numa: this clomp was built without libnuma; install libnuma-dev and rebuild");
    if (numa_placement_check(&run->placement, why, why_size) != 0)
        return EXIT_USAGE;
    status = size_the_mesh(run, why, why_size);
    if (status != 0)
        return status;

    double zone_flops = (double)run->numParts * (double)run->zonesPerPart * (double)run->flopScale;
    double iterations = 1e6 * (double)run->timeScale / zone_flops;
    run->uncapped_iterations = ceil(iterations);
    run->iterations = iterations >= (double)MAX_ITERATIONS ? MAX_ITERATIONS : (long)iterations;
    if ((double)run->iterations < iterations && run->iterations < MAX_ITERATIONS)
        run->iterations++;   /* ceil() without rounding the quotient twice */
    run->subcycles = run->iterations * SUBCYCLES_PER_ITERATION;
    run->warmup_zones_per_part = warmup_zones_per_part(run);

    run->requested_trials = opts->trials;
    run->rounds = opts->rounds;
    run->paired_blocks = opts->paired_blocks;
    run->quiet = opts->quiet;
    run->verdict = opts->verdict;
    run->detail = opts->detail;
    run->noise_census = !opts->noise_census_off;
    run->json_path = opts->json_path;
    run->csv_path = opts->csv_path;
    run->caliper_path = opts->caliper_path;
    run->schedule_list = opts->schedules;
    run->limits = opts->limits;
    status = select_schedules(run, opts->schedules, why, why_size);
    if (status == 0)
        status = resolve_constructs(opts, run, why, why_size);
    return status != 0 ? status : plan_requested_trials(run, why, why_size);
}

Measurement *create_measurements(const RunSetup *run)
{
    Measurement *results = calloc(clomp_schedule_count, sizeof *results);
    if (results == NULL)
        return NULL;
    for (size_t i = 0; i < clomp_schedule_count; i++) {
        results[i].schedule = clomp_schedules[i];
        results[i].selected = run->selected[i];
        results[i].unavailable = run->unavailable[i];
    }
    if (prepare_measurements(run, results, clomp_schedule_count) != 0) {
        free_measurements(results, clomp_schedule_count);
        free(results);
        return NULL;
    }
    return results;
}
