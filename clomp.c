/* clomp: what OpenMP threading really costs on an unstructured mesh.
 *
 * The story of a run: parse the CLOMP 1.2 command line, build the mesh,
 * calibrate the deposit, then run each measurement in CLOMP 1.2 order
 * (warm up, reset, time, verify, report) and print the summary. */
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/exit_status.h"
#include "cli/options.h"
#include "kernels/deposit.h"
#include "kernels/fault.h"
#include "kernels/schedule.h"
#include "mesh/mesh.h"
#include "mesh/verify.h"
#include "numa/locality.h"
#include "numa/placement.h"
#include "report/build_info.h"
#include "report/report.h"
#include "report/timing.h"

/* CLOMP 1.2 caps the scaled iteration count. */
#define MAX_ITERATIONS 2000000000L
/* Larger zones could not be rounded up to the zone alignment without overflow. */
#define MAX_ZONE_SIZE (LONG_MAX - 64)

/* Set before every deliberate exit; an exit without it came from inside the
 * OpenMP runtime (libgomp exits 1 when it cannot create a thread), which
 * must not masquerade as a verification failure. */
static volatile int exit_is_ours;

static void catch_runtime_exit(void)
{
    if (!exit_is_ours) {
        fprintf(stderr, "clomp: the OpenMP runtime ended the run (could it create the threads?)\n");
        _exit(EXIT_RESOURCE);
    }
}

/* LLVM's libomp aborts instead of exiting when it cannot create a thread.
 * Only aborts while OpenMP regions run are attributed to the runtime. */
static volatile sig_atomic_t openmp_running;

static void catch_runtime_abort(int sig)
{
    static const char msg[] = "clomp: the OpenMP runtime aborted the run (could it create the threads?)\n";
    if (!openmp_running) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
        /* nothing more can be said */
    }
    _exit(EXIT_RESOURCE);
}

/* One line on stderr, after everything already printed has been flushed. */
__attribute__((format(printf, 2, 3), noreturn)) static void die(int status, const char *fmt, ...)
{
    va_list ap;
    exit_is_ours = 1;
    fflush(stdout);
    fprintf(stderr, "clomp: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(status);
}

static void current_time_text(char *buf, size_t size)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(buf, size, "%a %b %e %H:%M:%S %Y", &tm);
}

/* _SC_PHYS_PAGES (all memory) or _SC_AVPHYS_PAGES (free now). */
static size_t memory_bytes(int which)
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

/* Turns the parsed command line into the run: -1 thread counts, zone size,
 * iteration count, nested shape, and the memory the mesh will need. */
static RunSetup resolve_run(const Options *opts, int argc, char **argv)
{
    RunSetup run;
    memset(&run, 0, sizeof run);
    run.exe = argv[0];
    build_invocation(&run, argc, argv);

    run.inputNumThreads = opts->numThreads;
    run.numThreads = opts->numThreads == -1 ? omp_get_max_threads() : opts->numThreads;
    run.inputAllocThreads = opts->allocThreads;
    run.allocThreads = opts->allocThreads == -1 ? run.numThreads : opts->allocThreads;
    run.numParts = opts->numParts;
    run.zonesPerPart = opts->zonesPerPart;
    run.requestedZoneSize = opts->zoneSize;
    if (opts->zoneSize > MAX_ZONE_SIZE)
        die(EXIT_RESOURCE, "zoneSize %ld: a single zone of that many bytes cannot be allocated", opts->zoneSize);
    run.zoneSize = mesh_zone_size(opts->zoneSize);
    run.flopScale = opts->flopScale;
    run.timeScale = opts->timeScale;

    if (opts->nestedOuter > 0) {
        run.nestedOuter = (int)opts->nestedOuter;
        run.nestedInner = (int)opts->nestedInner;
    } else {
        run.nestedOuter = run.numThreads == 1 ? 1 : 2;
        run.nestedInner = run.numThreads / run.nestedOuter > 1 ? (int)(run.numThreads / run.nestedOuter) : 1;
    }

    /* NUMA placement is refused before anything is printed or allocated. */
    char why[256];
    run.placement = opts->placement;
    if (opts->placement_given && !numa_support_built())
        die(EXIT_USAGE, "--numa: this clomp was built without libnuma; install libnuma-dev and rebuild");
    if (numa_placement_check(&run.placement, why, sizeof why) != 0)
        die(EXIT_USAGE, "%s", why);

    MeshShape shape = {run.numParts, run.zonesPerPart, run.zoneSize, run.flopScale};
    int overflow;
    run.memory_bytes = mesh_zone_bytes(&shape, &overflow);
    if (overflow)
        die(EXIT_RESOURCE, "numParts x zonesPerPart x zoneSize = %.4g bytes, more than this machine can address",
            (double)run.numParts * (double)run.zonesPerPart * (double)run.zoneSize);
    if (run.memory_bytes > memory_bytes(_SC_PHYS_PAGES))
        die(EXIT_RESOURCE, "the mesh needs %zu bytes, more than this machine's %zu bytes of physical memory",
            run.memory_bytes, memory_bytes(_SC_PHYS_PAGES));
    if (run.memory_bytes > memory_bytes(_SC_AVPHYS_PAGES))
        fprintf(stderr, "clomp: warning: the mesh needs %zu bytes, more than the %zu bytes free now: "
                        "expect swapping or the OOM killer\n", run.memory_bytes, memory_bytes(_SC_AVPHYS_PAGES));

    double zone_flops = (double)run.numParts * (double)run.zonesPerPart * (double)run.flopScale;
    double iterations = 1e6 * (double)run.timeScale / zone_flops;
    run.uncapped_iterations = ceil(iterations);
    run.iterations = iterations >= (double)MAX_ITERATIONS ? MAX_ITERATIONS : (long)iterations;
    if ((double)run.iterations < iterations && run.iterations < MAX_ITERATIONS)
        run.iterations++;   /* ceil() without rounding the quotient twice */
    run.subcycles = run.iterations * SUBCYCLES_PER_ITERATION;
    return run;
}

/* Exact team sizes, and room for nested teams. */
static void configure_openmp(const RunSetup *run)
{
    long limit = omp_get_thread_limit();
    long largest = run->numThreads > run->allocThreads ? run->numThreads : run->allocThreads;
    if (largest > limit)
        die(EXIT_RESOURCE, "%ld threads requested, above the OpenMP thread limit of %ld (OMP_THREAD_LIMIT)",
            largest, limit);
    omp_set_dynamic(0);
    omp_set_max_active_levels(2);
    omp_set_num_threads((int)run->numThreads);
}

static void build_problem(Problem *pb, const RunSetup *run, double *build_seconds)
{
    MeshShape shape = {run->numParts, run->zonesPerPart, run->zoneSize, run->flopScale};
    int *local_nodes = NULL;
    openmp_running = 1;
    if (run->placement.kind == PLACEMENT_LOCAL) {
        /* Bind each part to the node its Static OMP thread runs on. */
        int *thread = calloc((size_t)run->numParts, sizeof *thread), *cpu = calloc((size_t)run->numParts, sizeof *cpu);
        local_nodes = calloc((size_t)run->numParts, sizeof *local_nodes);
        if (thread == NULL || cpu == NULL || local_nodes == NULL)
            die(EXIT_RESOURCE, "out of memory");
        observe_static_owners(run->numParts, (int)run->numThreads, thread, cpu, local_nodes);
        free(thread);
        free(cpu);
    }
    double start = now_seconds();
    MeshStatus status = build_mesh(&pb->mesh, &shape, (int)run->allocThreads, &run->placement, local_nodes);
    *build_seconds = now_seconds() - start;
    openmp_running = 0;
    free(local_nodes);
    if (status != MESH_OK)
        die(EXIT_RESOURCE, "could not allocate the mesh: %zu bytes requested", run->memory_bytes);
    pb->numThreads = (int)run->numThreads;
    pb->nestedOuter = run->nestedOuter;
    pb->nestedInner = run->nestedInner;
    calibrate_deposit(pb);
}

/* Numbers labelled with N threads must have run on N threads. */
static void check_team(const RunSetup *run, const Measurement *m)
{
    const Schedule *s = m->schedule;
    long wanted = m->team.nested ? run->nestedOuter : run->numThreads;
    if (s->uses_threads && m->team.threads != wanted)
        die(EXIT_RESOURCE, "%s: the OpenMP runtime gave %d threads, %ld requested", s->name, m->team.threads,
            wanted);
}

static void measure(Problem *pb, const RunSetup *run, Measurement *m, const Measurement *serial,
                    const Measurement *bestcase)
{
    const Schedule *s = m->schedule;
    char started[64];

    /* One untimed cycle lets the runtime create its threads first. */
    reinitialize_parts(pb);
    openmp_running = 1;
    s->run(pb, SUBCYCLES_PER_ITERATION, &m->team);
    openmp_running = 0;
    check_team(run, m);
    reinitialize_parts(pb);

    current_time_text(started, sizeof started);
    print_block_start(stdout, m, started);
    fflush(stdout);

    if (s->role == ROLE_CHECKED)
        FAULT_ARM(s->name, run->subcycles, run->numParts, run->zonesPerPart);
    openmp_running = 1;
    double start = now_seconds();
    s->run(pb, run->subcycles, NULL);
    m->seconds = now_seconds() - start;
    openmp_running = 0;
    FAULT_DISARM();

    if (s->role == ROLE_REFERENCE && record_reference(&pb->mesh) != 0)
        die(EXIT_RESOURCE, "out of memory recording the reference");
    if (s->role == ROLE_REFERENCE || s->role == ROLE_CHECKED) {
        VerifyExpectations expect = {run->subcycles, pb->deposit.max_residue, pb->deposit.order_violations,
                                     pb->deposit.first_violation_count, s->role == ROLE_CHECKED};
        if (verify_against_reference(&pb->mesh, &expect, s->name, stdout, &m->checksum) != 0)
            die(EXIT_VERIFY_FAILED, "%s failed verification%s", s->name,
                s->role == ROLE_REFERENCE ? " of its own invariants" : " against Serial Ref");
    }
    if (s->role != ROLE_PROBE)
        m->subnormals = count_subnormals(&pb->mesh);
    print_block_results(stdout, run, m, serial, bestcase);
}

/* Output that could not be written is a lost result, not a success. */
static int finish(int status)
{
    exit_is_ours = 1;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "clomp: could not write the report to standard output\n");
        return EXIT_RESOURCE;
    }
    return status;
}

int main(int argc, char **argv)
{
    Options opts;
    char error[256];

    atexit(catch_runtime_exit);
    signal(SIGABRT, catch_runtime_abort);

    int status = parse_options(argc, argv, &opts, error, sizeof error);
    if (status != 0) {
        if (error[0] != '\0')
            fprintf(stderr, "clomp: %s\n", error);
        if (opts.show_usage)
            print_usage(stderr, argv[0]);
        return finish(status);
    }
    if (opts.want_help) {
        print_usage(stdout, argv[0]);
        return finish(EXIT_OK);
    }
    if (opts.want_version) {
        print_version(stdout);
        return finish(EXIT_OK);
    }

    RunSetup run = resolve_run(&opts, argc, argv);
    configure_openmp(&run);

    char host[256] = "unknown", started[64];
    gethostname(host, sizeof host - 1);
    current_time_text(started, sizeof started);
    print_header(stdout, &run, host, started);
    if (opts.dry_run) {
        print_plan(stdout, &run);
        return finish(EXIT_OK);
    }
    fflush(stdout);

    Problem pb;
    double build_seconds;
    build_problem(&pb, &run, &build_seconds);
    openmp_running = 1;   /* the locality report runs a parallel region */
    print_setup(stdout, &run, &pb, build_seconds);
    openmp_running = 0;

    Measurement *results = calloc(clomp_schedule_count, sizeof *results);
    if (results == NULL)
        die(EXIT_RESOURCE, "out of memory");
    const Measurement *serial = NULL, *bestcase = NULL;
    for (size_t i = 0; i < clomp_schedule_count; i++) {
        results[i].schedule = clomp_schedules[i];
        measure(&pb, &run, &results[i], serial, bestcase);
        if (clomp_schedules[i]->role == ROLE_REFERENCE)
            serial = &results[i];
        if (clomp_schedules[i]->role == ROLE_BESTCASE)
            bestcase = &results[i];
    }
    print_summary(stdout, &run, results, clomp_schedule_count);
    free(results);
    free_mesh(&pb.mesh);
    return finish(EXIT_OK);
}
