/* clomp: what OpenMP threading really costs on an unstructured mesh.
 *
 * The story of a run: parse the CLOMP 1.2 command line, build the mesh,
 * calibrate the deposit, then run each measurement in CLOMP 1.2 order
 * (warm up, reset, time, verify, report) and print the summary. */
#include <errno.h>
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
#include "measure/chunk_plan.h"
#include "measure/sequence.h"
#include "measure/warnings.h"
#include "mesh/mesh.h"
#include "mesh/verify.h"
#include "mpi/cluster.h"
#include "mpi/rank_view.h"
#include "numa/locality.h"
#include "numa/placement.h"
#include "numa/thread_placement.h"
#include "report/build_info.h"
#include "report/csv_report.h"
#include "report/json_report.h"
#include "report/report.h"
#include "timing/clock.h"
#include "timing/cycles.h"
#include "timing/process_cost.h"

/* CLOMP 1.2 caps the scaled iteration count. */
#define MAX_ITERATIONS 2000000000L
/* Larger zones could not be rounded up to the zone alignment (spread layout) without overflow. */
#define MAX_ZONE_SIZE (LONG_MAX - 64)

/* Set before every deliberate exit; an exit without it came from inside the
 * OpenMP runtime (libgomp exits 1 when it cannot create a thread), which
 * must not masquerade as a verification failure. */
static volatile int exit_is_ours;

/* While a --json document or --csv table is pending, a run that ends early
 * still writes it (status "failed", the reason, what was measured so far);
 * set once the outputs are open. The temporary files are removed if even
 * that fails. */
static void (*write_failure_record)(int status, const char *why);
static char pending_tmp[2][4096];

static void catch_runtime_exit(void)
{
    if (!exit_is_ours) {
        static const char why[] = "the OpenMP runtime ended the run (could it create the threads?)";
        fprintf(stderr, "clomp: %s\n", why);
        if (write_failure_record != NULL)
            write_failure_record(EXIT_RESOURCE, why);
        _exit(EXIT_RESOURCE);
    }
}

/* LLVM's libomp aborts instead of exiting when it cannot create a thread.
 * Only aborts while OpenMP regions run are attributed to the runtime. */
static void catch_runtime_abort(int sig)
{
    static const char msg[] = "clomp: the OpenMP runtime aborted the run (could it create the threads?)\n";
    if (!clomp_openmp_running) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
        /* nothing more can be said */
    }
    for (int i = 0; i < 2; i++)
        if (pending_tmp[i][0] != '\0')
            unlink(pending_tmp[i]);   /* async-signal-safe; a document cannot be written here */
    _exit(EXIT_RESOURCE);
}

/* How a run that cannot go on stops, once its message and failure record
 * are out: exit() here; clomp_mpi stops every rank together (cluster_abort). */
static void exit_process(int status)
{
    exit(status);
}
static void (*stop_run)(int status) = exit_process;

/* clomp_mpi: the failure is one every rank knows of (a usage error, which
 * every rank finds in the same arguments, or a verdict the ranks agreed on):
 * rank 0 says it, and every rank ends normally with the same status. */
static int failure_agreed;

/* Killed by SIGTERM (mpirun ending a job whose rank died, a batch system's
 * time limit): no half-written --json or --csv file is left behind, and an
 * earlier complete one stays as it was. */
static void catch_termination(int sig)
{
    for (int i = 0; i < 2; i++)
        if (pending_tmp[i][0] != '\0')
            unlink(pending_tmp[i]);   /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

/* One line on stderr, after everything already printed has been flushed. */
__attribute__((format(printf, 2, 3), noreturn)) static void die(int status, const char *fmt, ...)
{
    char why[1024];
    va_list ap;
    exit_is_ours = 1;
    fflush(stdout);
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap); // NOLINT(clang-analyzer-valist.Uninitialized): va_start is just above
    va_end(ap);
    int agreed = failure_agreed || status == EXIT_USAGE;
    if (cluster_size() > 1 && !agreed)
        fprintf(stderr, "clomp: rank %d (%s): %s\n", cluster_rank(), cluster_self()->host, why);
    else if (cluster_rank() == 0)
        fprintf(stderr, "clomp: %s\n", why);
    if (write_failure_record != NULL) {
        void (*writer)(int, const char *) = write_failure_record;
        write_failure_record = NULL;
        writer(status, why);
    }
    if (agreed) {
        cluster_finish();
        exit(status);
    }
    stop_run(status);
    exit(status);   /* stop_run does not return */
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

/* Checkpoints of Serial Ref: one per chunk and part. */
#define CHECKPOINT_BYTES_PER_PART (2 * sizeof(double) + sizeof(unsigned long long))
/* The default never lets them outgrow the mesh itself, or this much. */
#define CHECKPOINT_BYTES_FLOOR (64.0 * 1024 * 1024)

/* Where each of run->trials chunks ends. */
static void set_chunk_plan(RunSetup *run)
{
    run->chunk_end = calloc((size_t)run->trials, sizeof *run->chunk_end);
    if (run->chunk_end == NULL)
        die(EXIT_RESOURCE, "out of memory for a plan of %ld chunks", run->trials);
    plan_chunks(run->iterations, run->trials, SUBCYCLES_PER_ITERATION, run->chunk_end);
}

/* --trials=K, known before anything is built: at most one chunk per
 * iteration, and checkpoints that fit in memory. */
static void plan_requested_trials(RunSetup *run)
{
    if (run->requested_trials == 0)
        return;
    double per_part = (double)CHECKPOINT_BYTES_PER_PART * (double)run->numParts;
    run->trials = run->requested_trials < run->iterations ? run->requested_trials : run->iterations;
    if (per_part * (double)run->trials > (double)memory_bytes(_SC_PHYS_PAGES))
        die(EXIT_RESOURCE, "--trials=%ld: the per-chunk checkpoints would need %.4g bytes, more than this "
                           "machine's memory", run->trials, per_part * (double)run->trials);
    set_chunk_plan(run);
}

/* --schedules=LIST: names or keys, comma-separated; Serial Ref always runs
 * because every other schedule is verified against it. Without the option,
 * every entry of the table that is not optional runs. */
static void select_schedules(RunSetup *run, const char *list)
{
    if (clomp_schedule_count > sizeof run->selected / sizeof run->selected[0])
        die(EXIT_RESOURCE, "internal: more schedules than RunSetup.selected holds");
    for (size_t i = 0; i < clomp_schedule_count; i++)
        run->selected[i] = list == NULL ? !clomp_schedules[i]->optional : clomp_schedules[i]->role == ROLE_REFERENCE;
    if (list == NULL)
        return;
    char item[64];
    for (const char *at = list; *at != '\0';) {
        size_t len = strcspn(at, ",");
        if (len == 0 || len >= sizeof item)
            die(EXIT_USAGE, "--schedules: '%s' has an empty or overlong name", list);
        memcpy(item, at, len);
        item[len] = '\0';
        const Schedule *s = find_schedule(item);
        if (s == NULL) {
            char keys[2][512];
            die(EXIT_USAGE, "--schedules: '%s' is not a measurement (default: %s; optional: %s)", item,
                schedule_keys(keys[0], sizeof keys[0], 0), schedule_keys(keys[1], sizeof keys[1], 1));
        }
        for (size_t i = 0; i < clomp_schedule_count; i++)
            run->selected[i] |= clomp_schedules[i] == s;
        at += len;
        if (*at == ',' && *++at == '\0')
            die(EXIT_USAGE, "--schedules: '%s' ends with a comma", list);
    }
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
    run.zoneLayout = opts->zone_layout;
    run.flopScale = opts->flopScale;
    run.timeScale = opts->timeScale;

    if (opts->nestedOuter > 0) {
        run.nestedOuter = (int)opts->nestedOuter;
        run.nestedInner = (int)opts->nestedInner;
        snprintf(run.nested_shape_source, sizeof run.nested_shape_source, "--nested");
    }

    /* NUMA placement is refused before anything is printed or allocated. */
    char why[256];
    run.placement = opts->placement;
    if (opts->placement_given && !numa_support_built())
        die(EXIT_USAGE, "--numa: this clomp was built without libnuma; install libnuma-dev and rebuild");
    if (numa_placement_check(&run.placement, why, sizeof why) != 0)
        die(EXIT_USAGE, "%s", why);

    MeshShape shape = run_mesh_shape(&run);
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

    run.requested_trials = opts->trials;
    run.rounds = opts->rounds;
    run.quiet = opts->quiet;
    run.json_path = opts->json_path;
    run.csv_path = opts->csv_path;
    run.schedule_list = opts->schedules;
    select_schedules(&run, opts->schedules);
    plan_requested_trials(&run);
    return run;
}

/* Nested OMP's default shape, once the runtime is configured: one outer
 * thread per NUMA node that has threads of the team on it (else per socket),
 * each leading an inner team of that node's share of the threads; threads on
 * one node and socket split in two halves. Below 2x2 nothing is nested at
 * both levels: the measurement is N/A instead of a figure that would pass
 * for nested overhead. */
static void choose_nested_shape(RunSetup *run)
{
    if (run->nested_shape_source[0] != '\0')
        return;   /* --nested */
    run->nestedOuter = run->nestedInner = 1;
    if (run->numThreads < 4) {
        snprintf(run->nested_unavailable, sizeof run->nested_unavailable, "needs at least 2x2 threads");
        for (size_t i = 0; i < clomp_schedule_count; i++)
            if (strcmp(clomp_schedules[i]->key, "nested") == 0)
                run->selected[i] = 0;
        return;
    }
    TeamPlacement team;
    int nodes = 0, sockets = 0;
    clomp_openmp_running = 1;   /* the team is observed in a parallel region */
    int observed = observe_team_placement((int)run->numThreads, &team);
    clomp_openmp_running = 0;
    if (observed == 0) {
        for (int t = 0; t < team.threads; t++) {
            int new_node = team.place[t].node >= 0, new_socket = team.place[t].socket >= 0;
            for (int u = 0; u < t; u++) {
                new_node &= team.place[u].node != team.place[t].node;
                new_socket &= team.place[u].socket != team.place[t].socket;
            }
            nodes += new_node;
            sockets += new_socket;
        }
        free_team_placement(&team);
    }
    const char *unit[] = {"NUMA node", "socket"};
    int count[] = {nodes, sockets};
    for (int k = 0; k < 2; k++)
        if (count[k] >= 2 && run->numThreads % count[k] == 0 && run->numThreads / count[k] >= 2) {
            run->nestedOuter = count[k];
            run->nestedInner = (int)(run->numThreads / count[k]);
            snprintf(run->nested_shape_source, sizeof run->nested_shape_source,
                     "default: one outer thread per %s with threads on it (%d), its %d threads inner", unit[k],
                     count[k], run->nestedInner);
            return;
        }
    run->nestedOuter = 2;
    run->nestedInner = (int)(run->numThreads / 2);
    snprintf(run->nested_shape_source, sizeof run->nested_shape_source,
             "default: two halves, as the threads are on %d NUMA node%s and %d socket%s", nodes, nodes == 1 ? "" : "s", sockets, sockets == 1 ? "" : "s");
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
    MeshShape shape = run_mesh_shape(run);
    int *local_nodes = NULL;
    clomp_openmp_running = 1;
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
    clomp_openmp_running = 0;
    free(local_nodes);
    if (status != MESH_OK)
        die(EXIT_RESOURCE, "could not allocate the mesh: %zu bytes requested", run->memory_bytes);
    pb->numThreads = (int)run->numThreads;
    pb->nestedOuter = run->nestedOuter;
    pb->nestedInner = run->nestedInner;
    calibrate_deposit(pb);
}

/* The default chunk count, calibrated on one untimed serial iteration (the
 * second of two: the first warms caches); then room for Serial Ref's
 * checkpoints. */
static void plan_trials(Problem *pb, RunSetup *run)
{
    if (run->trials == 0) {
        const Schedule *serial = find_schedule("serial");
        double per_part = (double)CHECKPOINT_BYTES_PER_PART * (double)run->numParts;
        double seconds = 0.0;
        for (int pass = 0; pass < 2; pass++) {
            reinitialize_parts(pb);
            double start = now_seconds();
            serial->run(pb, SUBCYCLES_PER_ITERATION, NULL, NULL);
            seconds = now_seconds() - start;
        }
        /* clomp_mpi: every rank times the same chunks, the fewest any rank's calibration chose. */
        run->trials = cluster_min(default_trials(run->iterations, seconds, run->numThreads));
        double budget = fmax((double)run->memory_bytes, CHECKPOINT_BYTES_FLOOR);
        while (run->trials > 1 && per_part * (double)run->trials > budget)
            run->trials--;
        set_chunk_plan(run);
    }
    if (reserve_reference_checkpoints(&pb->mesh, run->trials) != 0)
        die(EXIT_RESOURCE, "out of memory for %ld chunk checkpoints", run->trials);
}

/* A --json or --csv file: written to a temporary file that is renamed
 * over the file only when complete, or standard output ("-"). */
typedef struct ResultFile {
    const char *option;    /* "--json", "--csv" */
    const char *path;      /* NULL: not asked for */
    int (*write)(FILE *out, const RunRecord *record);
    FILE *file;            /* NULL once written (or never opened) */
    char tmp[4096];
    char *pending;         /* pending_tmp[] slot naming tmp for the abort handler */
} ResultFile;

/* Where the text report, the JSON document and the CSV table go. */
typedef struct Outputs {
    FILE *text;        /* the report: stdout, or stderr when JSON or CSV has stdout */
    FILE *report;      /* header and blocks: `text`, or a sink under --quiet */
    ResultFile json;
    ResultFile csv;
} Outputs;

static void open_result_file(ResultFile *rf, Outputs *o)
{
    if (rf->path == NULL)
        return;
    if (strcmp(rf->path, "-") == 0) {
        o->text = stderr;
        rf->file = stdout;
        return;
    }
    /* An existing file is only replaced by a complete document. */
    if ((size_t)snprintf(rf->tmp, sizeof rf->tmp, "%s.tmp.%ld", rf->path, (long)getpid()) >= sizeof rf->tmp)
        die(EXIT_USAGE, "%s: the file name is too long", rf->option);
    rf->file = fopen(rf->tmp, "w");
    if (rf->file == NULL)
        die(EXIT_USAGE, "%s: cannot create '%s': %s", rf->option, rf->tmp, strerror(errno));
    snprintf(rf->pending, sizeof pending_tmp[0], "%s", rf->tmp);
}

static void open_outputs(Outputs *o, const RunSetup *run)
{
    memset(o, 0, sizeof *o);
    o->text = stdout;
    o->json = (ResultFile){"--json", run->json_path, write_json_report, NULL, "", pending_tmp[0]};
    o->csv = (ResultFile){"--csv", run->csv_path, write_csv_report, NULL, "", pending_tmp[1]};
    open_result_file(&o->json, o);
    open_result_file(&o->csv, o);
    o->report = o->text;
    if (run->quiet) {
        o->report = fopen("/dev/null", "w");
        if (o->report == NULL)
            die(EXIT_RESOURCE, "--quiet: cannot open /dev/null: %s", strerror(errno));
    }
}

/* Writes the file (if asked for); one that cannot be written is a resource
 * failure, reported after the run's own status. */
static int close_result_file(ResultFile *rf, const RunRecord *record)
{
    if (rf->file == NULL)
        return 0;
    int failed = rf->write(rf->file, record) != 0;
    if (rf->file != stdout) {
        failed |= fclose(rf->file) != 0;
        if (!failed && rename(rf->tmp, rf->path) != 0)
            failed = 1;
        if (failed)
            remove(rf->tmp);
    }
    rf->file = NULL;
    rf->pending[0] = '\0';
    if (failed)
        fprintf(stderr, "clomp: could not write the %s report to '%s'\n", rf->option + 2, rf->path);
    return failed ? EXIT_RESOURCE : 0;
}

static int close_outputs(Outputs *o, const RunRecord *record)
{
    int json_status = close_result_file(&o->json, record);
    int csv_status = close_result_file(&o->csv, record);
    return json_status != 0 ? json_status : csv_status;
}

/* What a failure record is written from: main fills it in as the run goes. */
static struct {
    Outputs *out;
    RunRecord record;
} pending;

static void write_pending_failure(int status, const char *why)
{
    if (pending.out == NULL)
        return;
    pending.record.exit_status = status;
    pending.record.failure = why;
    pending.record.cost = process_cost_now();
    close_outputs(pending.out, &pending.record);
}

/* The text report of the measurements, printed from their records as the
 * sequence finishes them: each block as its run ends when there is one
 * round, every block after the last round otherwise. In clomp_mpi every
 * timed run starts at a barrier and ends with the ranks sharing it: rank 0
 * reports, for each measurement, the rank CLOMP 1.2 would. */
typedef struct TextReport {
    FILE *out;
    const RunSetup *run;
    const Measurement *results;  /* this rank's */
    Measurement *shown;          /* what the report shows: `results`, or (MPI) the used ranks' */
    RankTable *table;            /* MPI, rank 0: every rank's */
    size_t last;                 /* the measurement whose run ended last (a failure's) */
    int lined_up;                /* MPI: this run's barrier is done */
} TextReport;

static void print_starting_block(void *context, const Measurement *m)
{
    TextReport *t = context;
    print_block_start(t->out, m);
    fflush(t->out);
}

static void line_up_ranks(void *context, const Measurement *m)
{
    TextReport *t = context;
    (void)m;
    cluster_barrier();
    t->lined_up = 1;
}

static int share_with_ranks(void *context, const Measurement *m, long round, int status, char *why, size_t why_size)
{
    TextReport *t = context;
    (void)round;
    t->last = (size_t)(m - t->results);
    if (!cluster_active())
        return status;
    t->shown[t->last] = *m;   /* until it is finished and the used rank's figures replace it */
    if (!t->lined_up)
        cluster_barrier();   /* it failed before its timed run: the others are waiting there */
    t->lined_up = 0;
    status = cluster_share(t->run, m, t->last, status, t->table, why, why_size);
    if (status != 0)
        failure_agreed = 1;
    return status;
}

static void print_results_block(const TextReport *t, const Measurement *results, size_t count, size_t i)
{
    print_block_results(t->out, t->run, &results[i], find_measurement(results, count, ROLE_REFERENCE, NULL),
                        find_measurement(results, count, ROLE_BESTCASE, NULL));
}

static void print_finished_block(void *context, Measurement *results, size_t count, size_t i)
{
    TextReport *t = context;
    (void)results;
    if (t->table != NULL)
        rank_view(t->run, t->table, i, find_measurement(t->shown, count, ROLE_BESTCASE, NULL), &t->shown[i]);
    if (t->run->rounds == 1)
        print_results_block(t, t->shown, count, i);
}

static void print_round_done(void *context, long round, double seconds, long measured)
{
    TextReport *t = context;
    fprintf(t->out, "            Round: %ld of %ld done in %.1f s (%ld measurements, every chunk of "
                    "every checked run verified)\n", round + 1, t->run->rounds, seconds, measured);
    fflush(t->out);
}

/* In place of a measurement that does not run: why, when it cannot run
 * here (Nested OMP below 2x2 threads); nothing when --schedules left it out. */
static void print_skipped_block(void *context, const Measurement *m)
{
    TextReport *t = context;
    if (t->run->rounds == 1)
        print_block_unavailable(t->out, t->run, m);
}

static void print_all_blocks(const TextReport *t, const Measurement *results, size_t count)
{
    fprintf(t->out, "---------------------\n");
    for (size_t i = 0; i < count; i++) {
        if (!results[i].selected) {
            print_block_unavailable(t->out, t->run, &results[i]);
            continue;
        }
        print_block_start(t->out, &results[i]);
        print_results_block(t, results, count, i);
    }
}

/* Output that could not be written is a lost result, not a success. */
static int finish(int status)
{
    exit_is_ours = 1;
    fflush(stderr);
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

    process_cost_start();
    atexit(catch_runtime_exit);
    signal(SIGABRT, catch_runtime_abort);
    signal(SIGTERM, catch_termination);

    /* clomp_mpi: MPI first (it may take its own arguments out of argv);
     * only rank 0 speaks for a failure every rank shares. */
    int status = cluster_start(&argc, &argv, error, sizeof error);
    int reporter = cluster_rank() == 0;
    if (status != 0) {
        if (reporter)
            fprintf(stderr, "clomp: %s\n", error);
        cluster_finish();
        return finish(status);
    }
    status = parse_options(argc, argv, &opts, error, sizeof error);
    if (status != 0 || opts.want_help || opts.want_schedule_list || opts.want_version) {
        if (status != 0 && error[0] != '\0' && reporter)
            fprintf(stderr, "clomp: %s\n", error);
        if (status != 0 && opts.show_usage && reporter) {
            print_usage(stderr, argv[0]);
        } else if (status == 0 && opts.want_help && reporter) {
            char keys[512];
            print_usage(stdout, argv[0]);
            printf("\nMeasurements (--schedules keys; details: --list-schedules, docs/output.md):\n");
            printf("  run by default: %s\n", schedule_keys(keys, sizeof keys, 0));
            printf("  only when named: %s\n", schedule_keys(keys, sizeof keys, 1));
        } else if (status == 0 && opts.want_schedule_list && reporter) {
            print_schedule_list(stdout);
        } else if (status == 0 && reporter) {
            print_version(stdout);
        }
        cluster_finish();
        return finish(status);
    }

    RunSetup run = resolve_run(&opts, argc, argv);
    char host[256] = "unknown", started[64];
    gethostname(host, sizeof host - 1);
    wall_time_text(started, sizeof started);
    if (cluster_active()) {
        run.mpi = (MpiSetup){cluster_size(), cluster_thread_level(), cluster_ranks(),
                             opts.mpi_timeout > 0 ? opts.mpi_timeout : 60};
        cluster_set_timeout((double)run.mpi.timeout);
        stop_run = cluster_abort;
    } else if (opts.mpi_timeout > 0) {
        die(EXIT_USAGE, "--mpi-timeout: this clomp has no ranks to wait for; build clomp_mpi with make MPI=1");
    }
    if (!reporter) {   /* rank 0 writes the report and the files */
        run.json_path = run.csv_path = NULL;
        run.quiet = 1;
    }
    Outputs out;
    open_outputs(&out, &run);
    if (!reporter)
        out.text = out.report;
    pending.out = &out;
    pending.record = (RunRecord){&run, NULL, NULL, NULL, 0, host, started, 0.0, 0, NULL, NULL, NULL, NULL, NULL, {0}};
    write_failure_record = write_pending_failure;
    cluster_on_abort(write_pending_failure);
    configure_openmp(&run);
    choose_nested_shape(&run);
    run.cycles = calibrate_cycle_rate(opts.ghz);

    print_header(out.report, &run, host, started);
    if (opts.dry_run) {
        print_plan(out.report, &run);
        RunRecord record = {&run, NULL, NULL, NULL, 0, host, started, 0.0, 0, NULL, NULL, NULL, NULL, NULL, {0}};
        int files_status = close_outputs(&out, &record);
        free(run.chunk_end);
        if (out.report != out.text)
            fclose(out.report);
        cluster_finish();
        return finish(files_status);
    }
    fflush(out.report);

    Problem pb;
    double build_seconds;
    LocalitySummary locality;
    build_problem(&pb, &run, &build_seconds);
    pending.record.pb = &pb;
    pending.record.build_seconds = build_seconds;
    plan_trials(&pb, &run);
    WarningList setup_warnings = {0};
    mesh_setup_warnings(&pb, &setup_warnings);
    if (run.mpi.info != NULL)
        rank_layout_warnings(run.mpi.info, run.mpi.ranks, &setup_warnings);
    pending.record.setup_warnings = &setup_warnings;
    clomp_openmp_running = 1;   /* the locality report runs a parallel region */
    print_setup(out.report, &run, &pb, build_seconds, &locality, &setup_warnings);
    clomp_openmp_running = 0;
    locality_setup_warnings(&locality, &setup_warnings);

    Measurement *results = calloc(clomp_schedule_count, sizeof *results);
    if (results == NULL)
        die(EXIT_RESOURCE, "out of memory");
    for (size_t i = 0; i < clomp_schedule_count; i++) {
        results[i].schedule = clomp_schedules[i];
        results[i].selected = run.selected[i];
    }
    if (prepare_measurements(&run, results, clomp_schedule_count) != 0)
        die(EXIT_RESOURCE, "out of memory for the timings of %ld rounds", run.rounds);
    /* What the report shows: this rank's measurements, or in an MPI run
     * the rank 1.2 reports for each (filled in as each one finishes). */
    RankTable table = {0};
    Measurement *shown = results;
    if (cluster_active()) {
        shown = calloc(clomp_schedule_count, sizeof *shown);
        if (shown == NULL)
            die(EXIT_RESOURCE, "out of memory");
        memcpy(shown, results, clomp_schedule_count * sizeof *shown);
    }
    pending.record.locality = &locality;
    pending.record.results = shown;
    pending.record.count = clomp_schedule_count;
    pending.record.rank_table = reporter && cluster_active() ? &table : NULL;

    char why[512] = "";
    TextReport text = {out.report, &run, results, shown, reporter && cluster_active() ? &table : NULL, 0, 0};
    SequenceHooks hooks = {&text, run.quiet && reporter ? stderr : out.report, print_starting_block,
                           cluster_active() ? line_up_ranks : NULL, share_with_ranks, print_finished_block,
                           print_round_done, print_skipped_block};
    if (!reporter)
        hooks.failures = stderr;
    status = run_measurements(&pb, &run, results, clomp_schedule_count, &hooks, why, sizeof why);
    if (status == 0 && run.rounds > 1)
        print_all_blocks(&text, shown, clomp_schedule_count);
    RankOutliers outliers;
    RunRecord record = {&run, &pb, &locality, shown, clomp_schedule_count, host, started, build_seconds,
                        status, status != 0 ? why : NULL, NULL, &setup_warnings, pending.record.rank_table, NULL,
                        {0}};
    record.cost = process_cost_now();
    if (status != 0) {
        if (status == EXIT_VERIFY_FAILED)
            record.failed = &shown[text.last];
        close_outputs(&out, &record);
        die(status, "%s", why);
    }
    clomp_openmp_running = 1;   /* the locality is measured again in a parallel region */
    remeasure_locality(out.report, &pb.mesh, (int)run.numThreads, &locality);
    clomp_openmp_running = 0;
    if (record.rank_table != NULL) {
        rank_outliers(&table, &outliers);
        record.outliers = &outliers;
    }
    print_targets(out.report, &run, shown, clomp_schedule_count);
    print_process_cost(out.report, &record.cost);   /* this rank's process (rank 0's in the report) */
    if (record.outliers != NULL)
        print_rank_outliers(out.report, &run, record.outliers);
    print_summary(out.text, &run, shown, clomp_schedule_count);
    int files_status = close_outputs(&out, &record);

    free_rank_table(&table);
    if (shown != results)
        free(shown);
    free_measurements(results, clomp_schedule_count);
    free(results);
    free(run.chunk_end);
    free_mesh(&pb.mesh);
    free_team_placement(&locality.team);
    if (out.report != out.text)
        fclose(out.report);
    cluster_finish();
    return finish(files_status);
}
