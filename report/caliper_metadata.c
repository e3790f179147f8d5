/* The Caliper profile's run metadata: every top-level key that is not
 * data, columns, column_metadata or nodes becomes a graph frame's metadata
 * in Hatchet, and a row of the metadata table in Thicket. Adiak's names
 * where Adiak has one (user, launchdate, executable, executablepath,
 * cmdline, hostname, cluster, jobsize, numhosts, walltime, cputime,
 * systime), then clomp's: the build, the OpenMP runtime and its
 * environment, the inputs, the binding, the noise census's verdict and the
 * facts a submission is graded on (docs/harnesses.md lists every key). Flat
 * keys and plain values (numbers, text, true/false, null), so that each is
 * one column of a metadata table. */
#define _XOPEN_SOURCE 700   /* strptime */
#include "caliper_sections.h"

#include <math.h>
#include <pwd.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"
#include "caliper_report.h"
#include "construct_columns.h"
#include "figures.h"

extern char **environ;

static void text_or_null(JsonWriter *w, const char *key, const char *text)
{
    json_string(w, key, text != NULL && text[0] != '\0' ? text : NULL);
}

/* Adiak's user: the name of the real user id. */
static void write_user(JsonWriter *w)
{
    struct passwd entry, *found = NULL;
    char buf[1024];
    if (getpwuid_r(getuid(), &entry, buf, sizeof buf, &found) == 0 && found != NULL)
        json_string(w, "user", found->pw_name);
    else
        json_null(w, "user");
}

/* Adiak's launchdate: seconds since the epoch, from the record's start time
 * (local time as the run printed it, read back in the same process). */
static void write_launchdate(JsonWriter *w, const char *started)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *end = started != NULL ? strptime(started, "%a %b %e %H:%M:%S %Y", &tm) : NULL;
    tm.tm_isdst = -1;
    time_t t = end != NULL && *end == '\0' ? mktime(&tm) : (time_t)-1;
    if (t == (time_t)-1)
        json_null(w, "launchdate");
    else
        json_integer(w, "launchdate", (long long)t);
}

/* Adiak's cluster: the host name up to its first '.', without its digits. */
static void write_cluster(JsonWriter *w, const char *host)
{
    char cluster[256];
    size_t n = 0;
    for (const char *c = host; c != NULL && *c != '\0' && *c != '.' && n + 1 < sizeof cluster; c++)
        if (*c < '0' || *c > '9')
            cluster[n++] = *c;
    cluster[n] = '\0';
    text_or_null(w, "cluster", cluster);
}

/* Adiak's jobsize and numhosts: the MPI ranks and their distinct hosts (1 and 1 without MPI). */
static void write_job(JsonWriter *w, const MpiSetup *mpi)
{
    int ranks = mpi->ranks > 0 ? mpi->ranks : 1, hosts = 0;
    for (int i = 0; i < ranks; i++) {
        int seen = 0;
        for (int j = 0; mpi->info != NULL && j < i; j++)
            seen |= strcmp(mpi->info[i].host, mpi->info[j].host) == 0;
        hosts += mpi->info == NULL ? i == 0 : !seen;
    }
    json_integer(w, "jobsize", ranks);
    json_integer(w, "numhosts", hosts);
}

static void write_adiak(JsonWriter *w, const RunRecord *r)
{
    const RunSetup *run = r->run;
    write_user(w);
    write_launchdate(w, r->started);
    const char *slash = run->exe != NULL ? strrchr(run->exe, '/') : NULL;
    text_or_null(w, "executable", slash != NULL ? slash + 1 : run->exe);
    text_or_null(w, "executablepath", run->exe);
    text_or_null(w, "cmdline", run->invocation);
    text_or_null(w, "hostname", r->host);
    write_cluster(w, r->host);
    write_job(w, &run->mpi);
    json_number(w, "walltime", r->cost.measured ? r->cost.wall_seconds : NAN);
    json_number(w, "cputime", r->cost.measured ? r->cost.user_seconds : NAN);
    json_number(w, "systime", r->cost.measured ? r->cost.system_seconds : NAN);
}

/* The build and the OpenMP runtime that ran, with the variables that steer it. */
static void write_build(JsonWriter *w, const RunSetup *run)
{
    const BuildInfo *b = build_info();
    json_string(w, "compiler", b->compiler);
    json_string(w, "compiler_cc", b->cc);
    json_string(w, "compiler_flags", b->cflags);
    json_string(w, "linker_flags", b->ldflags);
    json_string(w, "build_host", b->host);
    json_string(w, "build_date", b->date);
    json_integer(w, "openmp_version", b->openmp);
    json_string(w, "openmp_spec", b->openmp_spec);
    text_or_null(w, "openmp_runtime", run->ompt.runtime);
    text_or_null(w, "openmp_runtime_file", run->ompt.runtime_file);
    text_or_null(w, "openmp_runtime_version", run->ompt.started ? run->ompt.runtime_version : NULL);
    for (char **env = environ; env != NULL && *env != NULL; env++) {
        char name[256];
        const char *value = openmp_variable(*env, name, sizeof name);
        if (value != NULL)
            json_string(w, name, value);   /* each under its own name, as the JSON's openmp_environment */
    }
}

/* The inputs as given (the CORAL RFP line's), and what the run made of them. */
static void write_inputs(JsonWriter *w, const RunSetup *run)
{
    char policy[32];
    long given[CLOMP_PARAMETER_COUNT];
    run_inputs_given(run, given);
    json_integer(w, "threads", run->numThreads);
    for (int i = 0; i < CLOMP_PARAMETER_COUNT; i++)
        json_integer(w, clomp_parameter_names[i], given[i]);
    json_string(w, "numa", placement_text(&run->placement, policy, sizeof policy));
    json_string(w, "zone_stride", run->zoneLayout == ZONE_LAYOUT_SPREAD ? "zonesize" : "record");
    json_integer(w, "rounds", run->rounds);
    if (run->trials > 0)
        json_integer(w, "trials", run->trials);
    else
        json_null(w, "trials");
    text_or_null(w, "schedules", run->schedule_list);
    if (run->cycles.source == CYCLES_UNAVAILABLE)
        json_null(w, "cycles_ghz");
    else
        json_number(w, "cycles_ghz", run->cycles.ghz);
    json_string(w, "cycles_clock", cycle_clock_text(&run->cycles));
}

/* Where the team ran, and what a submission is graded on that one run can
 * know (grade.py applies the suite's rule to these): the threads bound, not
 * more threads than cores, a quiet node, every figure a result. */
static void write_grading_facts(JsonWriter *w, const RunRecord *r)
{
    const TeamPlacement *tp = r->placement;
    int placed = tp != NULL && tp->observed;
    if (placed) {
        json_bool(w, "threads_bound", tp->unbound_threads == 0);
        json_integer(w, "unbound_threads", tp->unbound_threads);
        json_integer(w, "shared_core_threads", tp->shared_core_threads);
        json_integer(w, "cores_online", tp->cores_online);
        json_integer(w, "cpus_online", tp->cpus_online);
        json_bool(w, "oversubscribed", r->run->numThreads > tp->cores_online);
    } else {
        const char *keys[] = {"threads_bound", "unbound_threads", "shared_core_threads", "cores_online", "cpus_online",
                              "oversubscribed"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            json_null(w, keys[k]);
    }
    const NoiseCensus *c = r->noise;
    double worst = NAN;
    if (c != NULL && c->busy_judged) {
        json_bool(w, "noise_busy", c->busy);
        json_string(w, "noise_busy_reason", c->busy ? c->busy_reason : NULL);
    } else {
        json_null(w, "noise_busy");
        json_null(w, "noise_busy_reason");
    }
    for (int t = 0; c != NULL && c->probed && t < c->threads; t++)
        if (isnan(worst) || c->thread[t].lost_fraction > worst)
            worst = c->thread[t].lost_fraction;
    json_number(w, "noise_lost_fraction_max", worst);
    long invalid = 0, unresolved = 0;
    for (size_t i = 0; r->results != NULL && i < r->count; i++) {
        MeasurementFigures f;
        if (!measurement_reported(&r->results[i]))
            continue;
        measurement_figures(r, &r->results[i], &f);
        invalid += f.complete && r->results[i].invalid;
    }
    for (size_t i = 0; r->constructs != NULL && i < r->constructs->count; i++)
        for (int l = 0; l < CONSTRUCT_LEVELS; l++)
            unresolved += construct_level_shown(&r->constructs->rows[i], l) &&
                          r->constructs->rows[i].level[l].status == CONSTRUCT_UNRESOLVED;
    json_integer(w, "invalid_measurements", invalid);
    json_integer(w, "unresolved_construct_rows", unresolved);
}

void write_caliper_metadata(JsonWriter *w, const RunRecord *r)
{
    write_adiak(w, r);
    json_integer(w, "clomp_profile", CLOMP_PROFILE_VERSION);
    json_string(w, "clomp_version", build_info()->version);
    json_string(w, "clomp_commit", build_info()->commit);
    json_string(w, "status", record_status(r));
    json_integer(w, "exit_status", r->exit_status);
    json_string(w, "failure", r->failure);
    text_or_null(w, "start_time", r->started);
    write_build(w, r->run);
    write_inputs(w, r->run);
    write_grading_facts(w, r);
}
