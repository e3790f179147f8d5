/* clomp: what OpenMP threading really costs on an unstructured mesh. The story of a run: parse the
 * CLOMP 1.2 command line, set the run up (setup/), measure everything into the run record (measure/),
 * and write it out (report/): the text report as it goes, then the JSON and CSV. This file keeps
 * main, the signal handlers and the hooks that tie them together. */
#include <omp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/exit_status.h"
#include "cli/options.h"
#include "measure/groups.h"
#include "measure/locality.h"
#include "measure/sequence.h"
#include "measure/warnings.h"
#include "mesh/verify.h"
#include "mpi/cluster.h"
#include "mpi/rank_view.h"
#include "report/build_info.h"
#include "report/progress.h"
#include "report/result_files.h"
#include "report/text_report.h"
#include "setup/setup.h"
#include "timing/clock.h"
#include "timing/cycles.h"

/* Set before every deliberate exit; an exit without it came from inside the
 * OpenMP runtime (libgomp exits 1 when it cannot create a thread), which
 * must not masquerade as a verification failure. */
static volatile int exit_is_ours;
static NoiseCensus census;   /* measure/noise.h; static: a table per thread of the team */

/* While a --json, --csv or --caliper-json file is pending, a run that ends early still writes it
 * (status "failed", the reason, what was measured so far); set once the outputs are open. The
 * temporary files are removed if even that fails. */
static void (*write_failure_record)(int status, const char *why);
static char pending_tmp[RESULT_FILE_COUNT][RESULT_PATH_MAX];

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
    for (int i = 0; i < RESULT_FILE_COUNT; i++)
        if (pending_tmp[i][0] != '\0')
            unlink(pending_tmp[i]);   /* async-signal-safe; a document cannot be written here */
    _exit(EXIT_RESOURCE);
}

/* How a run that cannot go on stops, once its message and failure record
 * are out: exit() here; clomp_mpi stops every rank together (cluster_abort). */
static void (*stop_run)(int status) = exit;

/* clomp_mpi: the failure is one every rank knows of (a usage error, which
 * every rank finds in the same arguments, or a verdict the ranks agreed on):
 * rank 0 says it, and every rank ends normally with the same status. */
static int failure_agreed;

/* Killed by SIGTERM (mpirun ending a job whose rank died, a batch system's
 * time limit): no half-written --json, --csv or --caliper-json file is left behind, and an
 * earlier complete one stays as it was. */
static void catch_termination(int sig)
{
    for (int i = 0; i < RESULT_FILE_COUNT; i++)
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

/* A setup step's status: 0 goes on, anything else stops the run with its reason. */
static void check(int status, const char *why)
{
    if (status != 0)
        die(status, "%s", why);
}

/* The sequence's hooks: the report's live progress (report/progress.c) and,
 * in clomp_mpi, the ranks: every timed run starts at a barrier and ends with
 * the ranks sharing it, and rank 0 reports, for each measurement, the rank
 * CLOMP 1.2 would (its figures replace this rank's in `shown`). */
typedef struct RunHooks {
    Progress progress;
    const Measurement *results;  /* this rank's */
    Measurement *shown;          /* what the report shows: `results`, or (MPI) the used ranks' */
    RankTable *table;            /* MPI, rank 0: every rank's */
    size_t last;                 /* the measurement whose run ended last (a failure's) */
    int lined_up;                /* MPI: this run's barrier is done */
} RunHooks;

static void starting(void *context, const Measurement *m)
{
    progress_starting(&((RunHooks *)context)->progress, m);
}

static void line_up_ranks(void *context, const Measurement *m)
{
    (void)m;
    cluster_barrier();
    ((RunHooks *)context)->lined_up = 1;
}

static int share_with_ranks(void *context, const Measurement *m, long round, int status, char *why, size_t why_size)
{
    RunHooks *h = context;
    (void)round;
    h->last = (size_t)(m - h->results);
    if (!cluster_active())
        return status;
    h->shown[h->last] = *m;   /* until it is finished and the used rank's figures replace it */
    if (!h->lined_up)
        cluster_barrier();   /* it failed before its timed run: the others are waiting there */
    h->lined_up = 0;
    status = cluster_share(h->progress.run, m, h->last, status, h->table, why, why_size);
    if (status != 0)
        failure_agreed = 1;
    return status;
}

static void finished(void *context, Measurement *results, size_t count, size_t i)
{
    RunHooks *h = context;
    (void)results;
    if (h->table != NULL)
        rank_view(h->progress.run, h->table, i, find_measurement(h->shown, count, ROLE_BESTCASE, NULL), &h->shown[i]);
    progress_finished(&h->progress, i);
}

static void round_done(void *context, long round, double seconds, long measured)
{
    progress_round_done(&((RunHooks *)context)->progress, round, seconds, measured);
}

static void skipped(void *context, const Measurement *m)
{
    progress_skipped(&((RunHooks *)context)->progress, m);
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

/* --help, --list-schedules, --list-figures, --list-constructs, --version, or a usage error: said, nothing run. */
static int answer_without_running(int status, const Options *opts, const char *error, const char *exe, int reporter)
{
    if (status != 0 && error[0] != '\0' && reporter)
        fprintf(stderr, "clomp: %s\n", error);
    if (status != 0 && opts->show_usage && reporter) {
        print_usage(stderr, exe);
    } else if (status == 0 && opts->want_help && reporter) {
        print_help(stdout, exe);
    } else if (status == 0 && opts->want_schedule_list && reporter) {
        print_schedule_list(stdout);
    } else if (status == 0 && opts->want_figure_list && reporter) {
        write_figure_list(stdout, opts->figure_list_json);
    } else if (status == 0 && opts->constructs.want_list && reporter) {
        print_construct_list(stdout);
    } else if (status == 0 && reporter) {
        print_version(stdout, cluster_active());
    }
    cluster_finish();
    return finish(status);
}

int main(int argc, char **argv)
{
    Options opts;
    char error[256], why[512] = "";

    process_cost_start();
    atexit(catch_runtime_exit);
    signal(SIGABRT, catch_runtime_abort);
    signal(SIGTERM, catch_termination);

    int status = topology_query(argc, argv, print_topology);   /* --topology, before MPI: the suite asks clomp_mpi too */
    if (status >= 0)
        return finish(status);
    /* clomp_mpi: MPI next (it may take its own arguments out of argv); rank 0 speaks for a failure all share. */
    status = cluster_start(&argc, &argv, error, sizeof error);
    int reporter = cluster_rank() == 0;
    if (status != 0) {
        if (reporter)
            fprintf(stderr, "clomp: %s\n", error);
        cluster_finish();
        return finish(status);
    }
    status = parse_options(argc, argv, &opts, error, sizeof error);
    if (status != 0 || opts.answers_without_running)
        return answer_without_running(status, &opts, error, argv[0], reporter);

    RunSetup run;
    check(resolve_run(&opts, argc, argv, &run, why, sizeof why), why);
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
    if (!reporter)   /* rank 0 writes the report and the files */
        run.json_path = run.csv_path = run.caliper_path = NULL, run.quiet = 1;
    Outputs out;
    check(open_outputs(&out, &run, pending_tmp, why, sizeof why), why);
    pending.out = &out;
    pending.record = (RunRecord){.run = &run, .host = host, .started = started, .noise = &census};
    write_failure_record = write_pending_failure;
    cluster_on_abort(write_pending_failure);

    /* Measure first: the runtime, the team, the cycle rate, the mesh and its
     * locality are all in the record before the set-up lines are written. */
    TeamPlacement placement;
    check(configure_openmp(&run, &placement, why, sizeof why), why);
    pending.record.placement = &placement;
    run.cycles = calibrate_cycle_rate(opts.ghz, (int)run.numThreads);   /* and the team's core clock */
    if (opts.dry_run) {
        check(open_report(&out, why, sizeof why), why);
        print_header(out.report, &run, host, started);
        print_plan(out.report, &run);
        print_offload_device(out.report);   /* offload builds: the device the dry run opened (suite/offload.sh reads it) */
        int files_status = close_outputs(&out, &pending.record);
        free_team_placement(&placement);
        free(run.chunk_end);
        if (out.report != out.text)
            fclose(out.report);
        cluster_finish();
        return finish(files_status);
    }

    Problem pb;
    double build_seconds;
    check(build_problem(&pb, &run, &build_seconds, why, sizeof why), why);
    pending.record.pb = &pb;
    pending.record.build_seconds = build_seconds;
    LocalitySummary locality;
    clomp_openmp_running = 1;   /* the pages' owners are observed in a parallel region */
    measure_locality(&pb.mesh, (int)run.numThreads, &locality);
    clomp_openmp_running = 0;
    WarningList setup_warnings = {0};
    mesh_setup_warnings(&pb, &setup_warnings);
    if (run.mpi.info != NULL)
        rank_layout_warnings(run.mpi.info, run.mpi.ranks, &setup_warnings);
    locality_setup_warnings(&locality, &setup_warnings);
    team_placement_warnings(&placement, &run.job, &setup_warnings);
    pending.record.locality = &locality;
    pending.record.setup_warnings = &setup_warnings;
    Measurement *results = create_measurements(&run);
    if (results == NULL)
        die(EXIT_RESOURCE, "out of memory for the timings of %ld rounds", run.rounds);

    /* What the report shows: this rank's measurements, or (MPI) the rank 1.2 reports for each. */
    RankTable table = {0};
    Measurement *shown = results;
    if (cluster_active()) {
        shown = calloc(clomp_schedule_count, sizeof *shown);
        if (shown == NULL)
            die(EXIT_RESOURCE, "out of memory");
        memcpy(shown, results, clomp_schedule_count * sizeof *shown);
    }
    pending.record.results = shown;
    pending.record.count = clomp_schedule_count;
    pending.record.rank_table = reporter && cluster_active() ? &table : NULL;
    /* Nothing is written before this point: a stream's buffer would move
     * the heap under the mesh, and --quiet would count other pages. */
    check(open_report(&out, why, sizeof why), why);
    if (!reporter)
        out.text = out.report;
    probe_noise(&census, &run, &setup_warnings);   /* the team, before the set-up lines that report it */
    cluster_share_noise(&census);                   /* clomp_mpi: every rank's busy verdict to rank 0 */
    print_header(out.report, &run, host, started);
    print_setup(out.report, &pending.record);

    RunHooks hooks_context = {{out.report, &run, shown, clomp_schedule_count}, results, shown,
                              reporter && cluster_active() ? &table : NULL, 0, 0};
    SequenceHooks hooks = {&hooks_context, !reporter || run.quiet ? stderr : out.report, starting,
                           cluster_active() ? line_up_ranks : NULL, share_with_ranks, finished, round_done,
                           skipped, &census, &run.cycles};
    pending.record.measuring_from = process_cost_now().wall_seconds;
    status = run_measurements(&pb, &run, results, clomp_schedule_count, &hooks, why, sizeof why);
    MeasuredGroups groups = {0};
    if (status == 0)
        status = measure_asked_groups(&run, &pending.record, &groups, why, sizeof why);
    RunRecord record = pending.record;
    record.exit_status = status;
    record.failure = status != 0 ? why : NULL;
    if (status != 0) {
        record.cost = process_cost_now();
        if (status == EXIT_VERIFY_FAILED && record.constructs == NULL && record.limits == NULL)
            record.failed = &shown[hooks_context.last];
        close_outputs(&out, &record);
        die(status, "%s", why);
    }
    if (run.rounds > 1)
        progress_all_blocks(&hooks_context.progress);
    clomp_openmp_running = 1;   /* the locality is measured again in a parallel region */
    remeasure_locality(&pb.mesh, (int)run.numThreads, &locality);
    clomp_openmp_running = 0;
    RankOutliers outliers;
    if (record.rank_table != NULL)
        rank_outliers(&table, run.mpi.info, &outliers), record.outliers = &outliers;
    record.cost = process_cost_now();
    print_run_end(out.report, &record);
    print_summary(out.text, &record);
    print_constructs(out.text, &record);
    print_limits(out.text, &record);
    if (run.verdict)   /* the answer last: make run's last lines hold it whole */
        print_verdict(out.text, &record);
    int files_status = close_outputs(&out, &record);
    free_rank_table(&table);
    free_groups(&groups);
    if (shown != results)
        free(shown);
    free_measurements(results, clomp_schedule_count);
    free(results);
    free(run.chunk_end);
    free_problem(&pb);
    free_locality(&locality);
    free_team_placement(&placement);
    if (out.report != out.text)
        fclose(out.report);
    cluster_finish();
    return finish(files_status);
}
