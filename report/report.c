#include "report.h"

#include "../numa/locality.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

/* Text from outside (host names, environment, arguments) with every byte
 * that could break a line or a parser escaped as \xNN. */
static void print_escaped(FILE *out, const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c != '\0'; c++) {
        if (*c >= 0x20 && *c < 0x7f)
            fputc(*c, out);
        else
            fprintf(out, "\\x%02x", *c);
    }
}

double us_per_loop(const RunSetup *run, double seconds)
{
    return seconds * 1e6 / (double)run->subcycles;
}

void print_header(FILE *out, const RunSetup *run, const char *host, const char *start_time)
{
    fprintf(out, "CORAL Benchmark Version 1.2 (clomp %s)\n", build_info()->version);
    if (run->requestedZoneSize < (long)sizeof(Zone))
        fprintf(out, "***Forcing zoneSize (%ld specified) to minimum zone size %ld\n\n", run->requestedZoneSize,
                run->zoneSize);
    else if (run->zoneSize != run->requestedZoneSize)
        fprintf(out, "***Rounding zoneSize (%ld specified) up to %ld to keep every zone aligned\n\n",
                run->requestedZoneSize, run->zoneSize);
    fprintf(out, "       Invocation: ");
    print_escaped(out, run->invocation);
    fprintf(out, "\n         Hostname: ");
    print_escaped(out, host);
    fputc('\n', out);
    fprintf(out, "       Start time: %s\n", start_time);
    fprintf(out, "       Executable: ");
    print_escaped(out, run->exe);
    fputc('\n', out);
    if (run->inputNumThreads == -1)
        fprintf(out, "      numThreads: %ld (using system default)\n", run->numThreads);
    else
        fprintf(out, "      numThreads: %ld\n", run->numThreads);
    if (run->inputAllocThreads == -1)
        fprintf(out, "    allocThreads: %ld (using numThreads)\n", run->allocThreads);
    else
        fprintf(out, "    allocThreads: %ld\n", run->allocThreads);
    fprintf(out, "        numParts: %ld\n", run->numParts);
    fprintf(out, "    zonesPerPart: %ld\n", run->zonesPerPart);
    fprintf(out, "       flopScale: %ld\n", run->flopScale);
    fprintf(out, "       timeScale: %ld\n", run->timeScale);
    fprintf(out, "        zoneSize: %ld\n", run->zoneSize);
    fprintf(out, "   Zones per Part: %ld\n", run->zonesPerPart);
    fprintf(out, "      Total Zones: %ld\n", run->numParts * run->zonesPerPart);
    /* CLOMP 1.2 counts the part structures too. */
    fprintf(out, "Memory (in bytes): %.0f\n",
            (double)run->memory_bytes + (double)sizeof(Part) * (double)run->numParts);
    if (run->uncapped_iterations > (double)run->iterations)
        fprintf(out, "*** Forcing iterations from (%g) to 2 billion\n", run->uncapped_iterations);
    fprintf(out, "Scaled Iterations: %ld\n", run->iterations);
    fprintf(out, "  Total Subcycles: %ld\n", run->subcycles);
}

/* Environment variables that steer OpenMP runtimes, shown with the results
 * because they change them. */
static void print_openmp_environment(FILE *out)
{
    static const char *const prefixes[] = {"OMP_", "GOMP_", "KMP_", "XLSMPOPTS", "LIBOMP_"};
    int shown = 0;
    for (char **env = environ; env != NULL && *env != NULL; env++) {
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
            if (strncmp(*env, prefixes[i], strlen(prefixes[i])) != 0)
                continue;
            fprintf(out, "       OpenMP env: ");
            print_escaped(out, *env);
            fputc('\n', out);
            shown++;
            break;
        }
    }
    if (shown == 0)
        fprintf(out, "       OpenMP env: none set (runtime defaults; see README for recommended settings)\n");
}

void print_setup(FILE *out, const RunSetup *run, const Problem *pb, double build_seconds)
{
    const DepositState *d = &pb->deposit;
    const BuildInfo *b = build_info();

    fprintf(out, "Iteration Residue: %.6f%%\n", d->percent_residue * 100.0);
    fprintf(out, "  Max Error bound: %-8.8g\n", d->error_bound);
    fprintf(out, "Tight Error bound: %-8.8g\n", d->tight_error_bound);
    fprintf(out, "      Max Residue: %-8.8g\n", d->max_residue);
    /* clomp additions, after every CLOMP 1.2 header line */
    fprintf(out, "    Deposit model: %s\n", mesh_deposit_model_text(pb->mesh.deposit_model));
    fprintf(out, "  Mesh build time: %.3f s (%ld allocating thread%s, first touch by the owner "
                 "under schedule(static))\n",
            build_seconds, run->allocThreads, run->allocThreads == 1 ? "" : "s");
    fprintf(out, " Nested OMP shape: %dx%d (OUTERxINNER requested)", run->nestedOuter, run->nestedInner);
    if ((long)run->nestedOuter * run->nestedInner != run->numThreads)
        fprintf(out, ": %ld threads, not numThreads (%ld)", (long)run->nestedOuter * run->nestedInner, run->numThreads);
    fputc('\n', out);
    fprintf(out, "         Compiler: %s (CC=%s)\n", b->compiler, b->cc);
    fprintf(out, "           CFLAGS: %s\n", b->cflags);
    fprintf(out, "          LDFLAGS: %s\n", b->ldflags);
    fprintf(out, "           OpenMP: %ld (OpenMP %s)\n", b->openmp, b->openmp_spec);
    fprintf(out, "         Built on: %s at %s (clomp %s)\n", b->host, b->date, b->version);
    print_openmp_environment(out);
    char policy[32];
    fprintf(out, "   NUMA placement: %s%s\n", placement_text(&run->placement, policy, sizeof policy),
            run->placement.kind == PLACEMENT_FIRST_TOUCH ? " (pages land where the building thread first writes them)" : "");
    print_locality_report(out, &pb->mesh, (int)run->numThreads);
    long vanished = 0;
    for (long p = 0; p < pb->mesh.shape.numParts; p++)
        vanished += pb->mesh.partArray[p]->residue == 0.0 || fpclassify(pb->mesh.partArray[p]->residue) == FP_SUBNORMAL;
    if (vanished > 0)
        fprintf(out, "          WARNING: %ld part residues underflow in set-up: every update runs through "
                     "subnormal values (slow on many CPUs) and the carried residue is lost\n", vanished);
    fprintf(out, "---------------------\n");
}

void print_plan(FILE *out, const RunSetup *run)
{
    MeshShape shape = {run->numParts, run->zonesPerPart, run->zoneSize, run->flopScale};
    char policy[32];
    fprintf(out, "    Deposit model: %s\n", mesh_deposit_model_text(mesh_deposit_model(&shape)));
    fprintf(out, " Nested OMP shape: %dx%d (OUTERxINNER requested)\n", run->nestedOuter, run->nestedInner);
    fprintf(out, "   NUMA placement: %s\n", placement_text(&run->placement, policy, sizeof policy));
    fprintf(out, "     Measurements:");
    for (size_t i = 0; i < clomp_schedule_count; i++)
        fprintf(out, "%s %s", i ? "," : "", clomp_schedules[i]->name);
    fprintf(out, "\n          Dry run: arguments valid; the mesh was not built and nothing was timed\n");
}

void print_block_start(FILE *out, const Measurement *m, const char *start_time)
{
    const Schedule *s = m->schedule;
    for (const char *const *line = s->pseudocode; *line != NULL; line++)
        fprintf(out, "%13s:| %s\n", s->name, *line);
    fprintf(out, "%13s  Started: %s\n", s->name, start_time);
    if (s->role == ROLE_REFERENCE)
        fprintf(out, "%13s #Threads: N/A\n", s->name);
    else if (s->uses_threads)
        fprintf(out, "%13s #Threads: %d\n", s->name,
                m->team.nested ? m->team.inner_total : m->team.threads);
}

static void print_comparisons(FILE *out, const RunSetup *run, const Measurement *m,
                              const Measurement *serial, const Measurement *bestcase)
{
    const char *name = m->schedule->name;
    if (serial != NULL) {
        double speedup = serial->seconds / m->seconds;
        if (speedup < 1.0)
            fprintf(out, "%13s  Speedup: %.1f (%.1fX slowdown)\n", name, speedup, 1.0 / speedup);
        else
            fprintf(out, "%13s  Speedup: %.1f\n", name, speedup);
    }
    if (bestcase != NULL && m->schedule->role == ROLE_CHECKED) {
        fprintf(out, "%13s Efficacy: %.1f%% (of bestcase %.2f us/Loop)\n", name,
                bestcase->seconds / m->seconds * 100.0, us_per_loop(run, bestcase->seconds));
        fprintf(out, "%13s Overhead: %.2f (versus bestcase, in us/Loop)\n", name,
                us_per_loop(run, m->seconds - bestcase->seconds));
    }
}

/* clomp's additions to a block, after all of the CLOMP 1.2 lines. */
static void print_block_notes(FILE *out, const RunSetup *run, const Measurement *m)
{
    const Schedule *s = m->schedule;
    const TeamObservation *t = &m->team;

    if (s->role == ROLE_REFERENCE)
        fprintf(out, "%13s   Verify: reference (conservation, residue bound, zone order, update counts hold)\n", s->name);
    else if (s->role == ROLE_CHECKED)
        fprintf(out, "%13s   Verify: passed (every zone of every part bit-identical to Serial Ref; invariants hold)\n", s->name);
    else if (s->role == ROLE_BESTCASE)
        fprintf(out, "%13s   Verify: skipped (fixed deposit, wrong answers by design)\n", s->name);

    if (t->nested) {
        fprintf(out, "%13s    Teams: outer %d x inner %d", s->name, t->threads, t->inner_max);
        if (t->inner_min != t->inner_max)
            fprintf(out, " (inner teams from %d to %d)", t->inner_min, t->inner_max);
        fprintf(out, ", requested %dx%d\n", run->nestedOuter, run->nestedInner);
        if (run->nestedInner > 1 && t->inner_max <= 1)
            fprintf(out, "%13s  WARNING: the OpenMP runtime serialised the inner teams: "
                         "each group ran on one thread\n", s->name);
        else if (t->inner_min < run->nestedInner && t->inner_max > 0)
            fprintf(out, "%13s  WARNING: some inner teams got fewer threads than requested\n", s->name);
    }
    if (t->idle_threads > 0)
        fprintf(out, "%13s  WARNING: %d of %d threads got no parts (numParts %ld < numThreads)\n", s->name,
                t->idle_threads, t->threads, run->numParts);
    if (m->subnormals > 0)
        fprintf(out, "%13s  WARNING: %ld subnormal zone values/residues: subnormal arithmetic "
                     "is slow on many CPUs and distorts this timing\n", s->name, m->subnormals);
}

void print_block_results(FILE *out, const RunSetup *run, const Measurement *m,
                         const Measurement *serial, const Measurement *bestcase)
{
    const Schedule *s = m->schedule;
    /* CLOMP 1.2 prints checksums only for results it verifies. */
    if (s->role == ROLE_REFERENCE || s->role == ROLE_CHECKED)
        fprintf(out, "%13s Checksum: Sum=%-8.8g Residue=%-8.8g Total=%-.9g\n", s->name,
                m->checksum.sum, m->checksum.residue, m->checksum.total);
    fprintf(out, "%13s  Runtime: %.3f (wallclock, in seconds)\n", s->name, m->seconds);
    fprintf(out, "%13s  us/Loop: %.2f (wallclock, in microseconds)\n", s->name, us_per_loop(run, m->seconds));
    if (s->role == ROLE_BESTCASE || s->role == ROLE_CHECKED)
        print_comparisons(out, run, m, serial, bestcase);
    print_block_notes(out, run, m);
    fprintf(out, "---------------------\n");
}

static const Measurement *find_result(const Measurement *results, size_t count, ScheduleRole role,
                                      const char *name)
{
    for (size_t i = 0; i < count; i++)
        if (results[i].schedule->role == role && (name == NULL || strcmp(results[i].schedule->name, name) == 0))
            return &results[i];
    return NULL;
}

typedef enum { ROW_RUNTIME, ROW_US_PER_LOOP, ROW_SPEEDUP, ROW_EFFICACY, ROW_OVERHEAD } SummaryRow;

/* One row of the comma-delimited summary, in CLOMP 1.2's formats; N/A where
 * the figure means nothing for that measurement. */
static void print_summary_row(FILE *out, const RunSetup *run, const char *label, SummaryRow row,
                              const Measurement *results, size_t count, const Measurement *serial,
                              const Measurement *bestcase)
{
    fprintf(out, "%s", label);
    for (size_t i = 0; i < count; i++) {
        ScheduleRole role = results[i].schedule->role;
        double seconds = results[i].seconds;
        /* 1.2 keeps its columns aligned under the longer labels: reproduce
         * its spacing byte for byte so diff-based comparisons still work. */
        fputs(i == 0 && strlen(label) > 7 ? "," : ", ", out);
        if ((row == ROW_SPEEDUP && role == ROLE_PROBE) ||
            (row >= ROW_EFFICACY && (role == ROLE_PROBE || role == ROLE_REFERENCE)))
            fprintf(out, "%7s", "N/A");
        else if (row == ROW_RUNTIME)
            fprintf(out, "%7.3f", seconds);
        else if (row == ROW_US_PER_LOOP)
            fprintf(out, "%7.2f", us_per_loop(run, seconds));
        else if (row == ROW_SPEEDUP)
            fprintf(out, "%7.1f", serial->seconds / seconds);
        else if (row == ROW_EFFICACY)
            fprintf(out, role == ROLE_BESTCASE ? " %6.1f%%" : "%6.1f%%", bestcase->seconds / seconds * 100.0);
        else
            fprintf(out, "%7.2f", us_per_loop(run, seconds - bestcase->seconds));
    }
    fputc('\n', out);
}

static void print_args(FILE *out, const RunSetup *run)
{
    fprintf(out, "%ld %ld %ld %ld %ld %ld %ld", run->numThreads, run->inputAllocThreads, run->numParts,
            run->zonesPerPart, run->zoneSize, run->flopScale, run->timeScale);
}

void print_summary(FILE *out, const RunSetup *run, const Measurement *results, size_t count)
{
    const Measurement *serial = find_result(results, count, ROLE_REFERENCE, NULL);
    const Measurement *bestcase = find_result(results, count, ROLE_BESTCASE, NULL);
    const Measurement *barrier = find_result(results, count, ROLE_PROBE, "OMP Barrier");
    const Measurement *stat = find_result(results, count, ROLE_CHECKED, "Static OMP");
    const Measurement *dyn = find_result(results, count, ROLE_CHECKED, "Dynamic OMP");
    const Measurement *manual = find_result(results, count, ROLE_CHECKED, "Manual OMP");

    fprintf(out, "----------- Comma-delimited summary ----------\n");
    print_escaped(out, run->exe);
    fputc(' ', out);
    print_args(out, run);
    for (size_t i = 0; i < count; i++)
        fprintf(out, ", %s", results[i].schedule->name);
    fputc('\n', out);

    print_summary_row(out, run, "Runtime", ROW_RUNTIME, results, count, serial, bestcase);
    print_summary_row(out, run, "us/Loop", ROW_US_PER_LOOP, results, count, serial, bestcase);
    print_summary_row(out, run, "Speedup", ROW_SPEEDUP, results, count, serial, bestcase);
    print_summary_row(out, run, "Efficacy", ROW_EFFICACY, results, count, serial, bestcase);
    print_summary_row(out, run, "Overhead", ROW_OVERHEAD, results, count, serial, bestcase);

    /* Exactly CLOMP 1.2's last line: scripts collect results by it. */
    fprintf(out, "CORAL RFP, ");
    print_args(out, run);
    fprintf(out, ", %.2f, %.2f, %.1f, %.2f, %.1f, %.2f, %.1f, %.2f, %.1f\n",
            us_per_loop(run, serial->seconds), us_per_loop(run, barrier->seconds),
            serial->seconds / bestcase->seconds,
            us_per_loop(run, stat->seconds - bestcase->seconds),
            serial->seconds / stat->seconds,
            us_per_loop(run, dyn->seconds - bestcase->seconds),
            serial->seconds / dyn->seconds,
            us_per_loop(run, manual->seconds - bestcase->seconds),
            serial->seconds / manual->seconds);
}
