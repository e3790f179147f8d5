#include "report.h"

#include "../measure/warnings.h"
#include "../mpi/rank_view.h"
#include "../numa/locality.h"
#include "record_figures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/* Text from outside (host names, environment, arguments) with every byte
 * that could break a line or a parser escaped as \xNN. */
void print_escaped(FILE *out, const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c != '\0'; c++) {
        if (*c >= 0x20 && *c < 0x7f)
            fputc(*c, out);
        else
            fprintf(out, "\\x%02x", *c);
    }
}

/* The WARNING lines of a block (or of the set-up, label ""). */
static void print_warnings(FILE *out, const char *label, const WarningList *warnings)
{
    for (size_t i = 0; warnings != NULL && i < warnings->count; i++)
        if (warnings->item[i].printed)
            fprintf(out, "%13s  WARNING: %s\n", label, warnings->item[i].text);
}

const char *measured_text(char *buf, size_t size, double value, double uncertainty, int max_decimals)
{
    if (!isfinite(value)) {
        snprintf(buf, size, "N/A");
        return buf;
    }
    if (uncertainty >= 10.0 && isfinite(uncertainty)) {
        /* Tens or hundreds are the last digit the data supports. */
        double unit = pow(10.0, floor(log10(uncertainty) + 1e-6));
        snprintf(buf, size, "%.0f", nearbyint(value / unit) * unit);
        return buf;
    }
    snprintf(buf, size, "%.*f", decimals_for_uncertainty(uncertainty, max_decimals), value);
    return buf;
}

/* Half-width of a sample's median interval, or its standard deviation
 * when there are too few samples for an interval. */
static double median_uncertainty(const SampleStats *st)
{
    return st->has_ci ? 0.5 * (st->ci_high - st->ci_low) : st->sd;
}

void print_header(FILE *out, const RunSetup *run, const char *host, const char *start_time)
{
    fprintf(out, "CORAL Benchmark Version 1.2 (clomp %s)\n", build_info()->version);
    if (run->requestedZoneSize < (long)sizeof(Zone))
        fprintf(out, "***Forcing zoneSize (%ld specified) to minimum zone size %ld\n\n", run->requestedZoneSize,
                run->zoneSize);
    fprintf(out, "       Invocation: ");
    print_escaped(out, run->invocation);
    if (run->mpi.ranks > 0) {   /* CLOMP 1.2's MPI build (-DWITH_MPI) */
        fprintf(out, "\n       Invoke MPI: YES (%s)", run->mpi.thread_level);
        fprintf(out, "\n        MPI Tasks: %d", run->mpi.ranks);
    }
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
    /* CLOMP 1.2 counts the part structures too. The spread layout can
     * allocate more than 1.2 would (its stride is rounded up): said here. */
    double parts_bytes = (double)sizeof(Part) * (double)run->numParts;
    double clomp12_bytes = (double)run->numParts * (double)run->zonesPerPart * (double)run->zoneSize + parts_bytes;
    fprintf(out, "Memory (in bytes): %.0f", (double)run->memory_bytes + parts_bytes);
    if ((double)run->memory_bytes + parts_bytes != clomp12_bytes) {
        MeshShape shape = run_mesh_shape(run);
        fprintf(out, " (spread layout: zones %ld bytes apart; CLOMP 1.2 allocates %.0f)", mesh_zone_stride(&shape),
                clomp12_bytes);
    }
    fputc('\n', out);
    if (run->uncapped_iterations > (double)run->iterations)
        fprintf(out, "*** Forcing iterations from (%g) to 2 billion\n", run->uncapped_iterations);
    fprintf(out, "Scaled Iterations: %ld\n", run->iterations);
    fprintf(out, "  Total Subcycles: %ld\n", run->subcycles);
}

int is_openmp_variable(const char *entry)
{
    static const char *const prefixes[] = {"OMP_", "GOMP_", "KMP_", "XLSMPOPTS", "LIBOMP_"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(entry, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

/* Environment variables that steer OpenMP runtimes, shown with the results
 * because they change them. */
static void print_openmp_environment(FILE *out)
{
    int shown = 0;
    for (char **env = environ; env != NULL && *env != NULL; env++) {
        if (!is_openmp_variable(*env))
            continue;
        fprintf(out, "       OpenMP env: ");
        print_escaped(out, *env);
        fputc('\n', out);
        shown++;
    }
    if (shown == 0)
        fprintf(out, "       OpenMP env: none set (runtime defaults; see README for recommended settings)\n");
}

/* "     Measurements: a, b, c" (the selected ones), without the newline. */
static void print_measurement_names(FILE *out, const RunSetup *run)
{
    const char *separator = " ";
    fprintf(out, "     Measurements:");
    for (size_t i = 0; i < clomp_schedule_count; i++)
        if (run->selected[i]) {
            fprintf(out, "%s%s", separator, clomp_schedules[i]->name);
            separator = ", ";
        }
}

static int bestcase_selected(const RunSetup *run)
{
    for (size_t i = 0; i < clomp_schedule_count; i++)
        if (clomp_schedules[i]->role == ROLE_BESTCASE)
            return run->selected[i];
    return 0;
}

/* The placement table: one line per thread of the timed team, then what
 * is wrong with it (shared cores, unbound threads, more threads than cores). */
static void print_thread_placement(FILE *out, const TeamPlacement *tp)
{
    fprintf(out, " Thread placement: thread -> cpu -> core -> node, for the %d threads of the timed team "
                 "(sched_getcpu() inside a region of that team; topology from sysfs)\n", tp->threads);
    for (int t = 0; t < tp->threads; t++) {
        const ThreadPlace *p = &tp->place[t];
        fprintf(out, " Thread placement: %d -> cpu %d -> ", p->thread, p->cpu);
        if (p->core >= 0)
            fprintf(out, "core %d of socket %d", p->core, p->socket);
        else
            fprintf(out, "core unknown");
        if (p->node >= 0)
            fprintf(out, " -> node %d", p->node);
        else
            fprintf(out, " -> node unknown");
        if (p->allowed_cores > 1)
            fprintf(out, " (unbound: may run on %d cpus of %d cores)\n", p->allowed_cpus, p->allowed_cores);
        else if (p->place >= 0)
            fprintf(out, " (bound to place %d: %d cpu%s)\n", p->place, p->allowed_cpus, p->allowed_cpus == 1 ? "" : "s");
        else
            fprintf(out, " (bound: %d cpu%s)\n", p->allowed_cpus, p->allowed_cpus == 1 ? "" : "s");
    }
    WarningList warnings = {0};
    team_placement_warnings(tp, 1, &warnings);
    print_warnings(out, "", &warnings);
}

/* Which layout: the default is 1.2's, the spread one must never pass for it. */
static void print_zone_layout(FILE *out, const RunSetup *run)
{
    MeshShape shape = run_mesh_shape(run);
    if (shape.layout == ZONE_LAYOUT_CLOMP12)
        fprintf(out, "      Zone layout: CLOMP 1.2 (zones %ld bytes apart at the start of each part's "
                     "zonesPerPart x zoneSize block)\n", mesh_zone_stride(&shape));
    else
        fprintf(out, "      Zone layout: spread, --zone-stride=zonesize (zone k at k x %ld bytes); CLOMP 1.2 "
                     "places zones %ld bytes apart: not comparable with its published results\n",
                mesh_zone_stride(&shape), (long)sizeof(Zone));
}

/* " Nested OMP shape: 2x2 (OUTERxINNER requested; how it was chosen)", or N/A. */
static void print_nested_shape(FILE *out, const RunSetup *run)
{
    if (run->nested_unavailable[0] != '\0') {
        fprintf(out, " Nested OMP shape: N/A (%s; numThreads is %ld)\n", run->nested_unavailable, run->numThreads);
        return;
    }
    fprintf(out, " Nested OMP shape: %dx%d (OUTERxINNER requested", run->nestedOuter, run->nestedInner);
    if (run->nested_shape_source[0] != '\0')
        fprintf(out, "; %s", run->nested_shape_source);
    fputc(')', out);
    if ((long)run->nestedOuter * run->nestedInner != run->numThreads)
        fprintf(out, ": %ld threads, not numThreads (%ld)", (long)run->nestedOuter * run->nestedInner, run->numThreads);
    fputc('\n', out);
}

/* MPI: where each rank ran (its host and the CPUs it may use). */
static void print_rank_layout(FILE *out, const RunSetup *run)
{
    for (int r = 0; run->mpi.info != NULL && r < run->mpi.ranks; r++) {
        const RankInfo *info = &run->mpi.info[r];
        char label[32];
        snprintf(label, sizeof label, "MPI rank %d", info->rank);
        fprintf(out, "%17s: host ", label);
        print_escaped(out, info->host);
        fprintf(out, ", CPUs %s (%d)\n", info->cpus, info->cpu_count);
    }
}

void print_setup(FILE *out, const RunSetup *run, const Problem *pb, double build_seconds, LocalitySummary *locality,
                 const WarningList *warnings)
{
    const DepositState *d = &pb->deposit;
    const BuildInfo *b = build_info();

    fprintf(out, "Iteration Residue: %.6f%%\n", d->percent_residue * 100.0);
    fprintf(out, "  Max Error bound: %-8.8g\n", d->error_bound);
    fprintf(out, "Tight Error bound: %-8.8g\n", d->tight_error_bound);
    fprintf(out, "      Max Residue: %-8.8g\n", d->max_residue);
    /* clomp additions, after every CLOMP 1.2 header line */
    fprintf(out, "    Deposit model: %s\n", mesh_deposit_model_text(pb->mesh.deposit_model));
    print_zone_layout(out, run);
    fprintf(out, "  Mesh build time: %.3f s (%ld allocating thread%s, first touch by the owner "
                 "under schedule(static))\n",
            build_seconds, run->allocThreads, run->allocThreads == 1 ? "" : "s");
    print_nested_shape(out, run);
    fprintf(out, "         Compiler: %s (CC=%s)\n", b->compiler, b->cc);
    fprintf(out, "           CFLAGS: %s\n", b->cflags);
    fprintf(out, "          LDFLAGS: %s\n", b->ldflags);
    fprintf(out, "           OpenMP: %ld (OpenMP %s)\n", b->openmp, b->openmp_spec);
    fprintf(out, "         Built on: %s at %s (clomp %s)\n", b->host, b->date, b->version);
    print_openmp_environment(out);
    char policy[32];
    fprintf(out, "   NUMA placement: %s%s\n", placement_text(&run->placement, policy, sizeof policy),
            run->placement.kind == PLACEMENT_FIRST_TOUCH ? " (pages land where the building thread first writes them)" : "");
    print_locality_report(out, &pb->mesh, (int)run->numThreads, locality);
    if (observe_team_placement((int)run->numThreads, &locality->team) == 0)
        print_thread_placement(out, &locality->team);
    else
        fprintf(out, " Thread placement: not measured (out of memory)\n");
    long shortest = run->iterations / run->trials;
    fprintf(out, "           Trials: %ld chunk%s per timed run (%s), ", run->trials, run->trials == 1 ? "" : "s",
            run->requested_trials == 0 ? "default: up to 20, each well above timer resolution"
            : run->requested_trials == run->trials ? "--trials" : "--trials, reduced to one per iteration");
    if (run->trials == 1)
        fprintf(out, "timed whole as in CLOMP 1.2");
    else if (run->iterations % run->trials == 0)
        fprintf(out, "%ld iteration%s each, each chunk verified", shortest, shortest == 1 ? "" : "s");
    else
        fprintf(out, "%ld-%ld iterations each, each chunk verified", shortest, shortest + 1);
    fprintf(out, "; %ld round%s\n", run->rounds, run->rounds == 1 ? "" : "s");
    if (run->schedule_list != NULL) {
        print_measurement_names(out, run);
        fprintf(out, " (--schedules; Serial Ref always runs%s)\n",
                bestcase_selected(run) ? "" : "; without Bestcase OMP, Efficacy and Overhead are N/A");
    }
    if (run->cycles.source == CYCLES_UNAVAILABLE)
        fprintf(out, "       Cycle rate: unavailable (%s)\n", run->cycles.why);
    else
        fprintf(out, "       Cycle rate: %.3f GHz (%s)\n", run->cycles.ghz, cycle_source_text(&run->cycles));
    print_rank_layout(out, run);
    print_warnings(out, "", warnings);
    fprintf(out, "---------------------\n");
}

void print_plan(FILE *out, const RunSetup *run)
{
    MeshShape shape = run_mesh_shape(run);
    char policy[32];
    fprintf(out, "    Deposit model: %s\n", mesh_deposit_model_text(mesh_deposit_model(&shape)));
    print_zone_layout(out, run);
    print_nested_shape(out, run);
    fprintf(out, "   NUMA placement: %s\n", placement_text(&run->placement, policy, sizeof policy));
    print_measurement_names(out, run);
    fprintf(out, "\n           Trials: ");
    if (run->requested_trials > 0)
        fprintf(out, "%ld chunks per timed run (--trials)", run->requested_trials < run->iterations ? run->requested_trials : run->iterations);
    else
        fprintf(out, "up to 20 chunks per timed run, chosen from a one-iteration calibration");
    fprintf(out, "; %ld round%s\n", run->rounds, run->rounds == 1 ? "" : "s");
    fprintf(out, "          Dry run: arguments valid; the mesh was not built and nothing was timed\n");
}

void print_block_start(FILE *out, const Measurement *m)
{
    const Schedule *s = m->schedule;
    for (const char *const *line = s->pseudocode; *line != NULL; line++)
        fprintf(out, "%13s:| %s\n", s->name, *line);
    fprintf(out, "%13s  Started: %s\n", s->name, m->started);
    if (s->role == ROLE_REFERENCE)
        fprintf(out, "%13s #Threads: N/A\n", s->name);
    else if (s->uses_threads)
        fprintf(out, "%13s #Threads: %d\n", s->name,
                m->team.nested ? m->team.inner_total : m->team.threads);
}

void print_block_unavailable(FILE *out, const RunSetup *run, const Measurement *m)
{
    if (strcmp(m->schedule->key, "nested") != 0 || run->nested_unavailable[0] == '\0')
        return;
    fprintf(out, "%13s  us/Loop: N/A (%s; numThreads is %ld)\n", m->schedule->name, run->nested_unavailable,
            run->numThreads);
    fprintf(out, "---------------------\n");
}

/* Whether a negative overhead (efficacy above 100%) is only noise: its
 * interval reaches 0. */
static const char *noise_note(const Measurement *m)
{
    if (!m->has_overhead || !(m->overhead_us < 0.0))
        return "";
    if (m->has_overhead_ci)
        return m->overhead_high >= 0.0 ? " (within noise)" : " (below bestcase beyond noise: see docs/statistics.md)";
    /* 2-5 rounds: a round on the other side of 0 is noise enough. */
    if (m->has_round_range && m->round_range_high >= 0.0)
        return " (within noise)";
    return "";
}

static void print_comparisons(FILE *out, const Measurement *m, const Measurement *serial,
                              const Measurement *bestcase)
{
    const char *name = m->schedule->name;
    if (serial != NULL) {
        double speedup = serial->us / m->us;
        if (speedup < 1.0)
            fprintf(out, "%13s  Speedup: %.1f (%.1fX slowdown)\n", name, speedup, 1.0 / speedup);
        else
            fprintf(out, "%13s  Speedup: %.1f\n", name, speedup);
    }
    if (bestcase != NULL && m->schedule->role == ROLE_CHECKED) {
        fprintf(out, "%13s Efficacy: %.1f%% (of bestcase %.2f us/Loop)%s\n", name, m->efficacy, bestcase->us,
                noise_note(m));
        fprintf(out, "%13s Overhead: %.2f (versus bestcase, in us/Loop)%s\n", name, m->overhead_us, noise_note(m));
    }
}

/* Chunk statistics: spread, median with its interval, the overhead's
 * interval; every number to the precision its spread supports. */
static void print_statistics(FILE *out, const Measurement *m)
{
    const SampleStats *st = &m->stats;
    const char *name = m->schedule->name;
    char a[32], b[32], c[32];
    /* A run timed whole (calc_deposit: nanoseconds) has no spread worth printing. */
    if (st->n < 2 || !m->schedule->chunked)
        return;
    double u = median_uncertainty(st);
    fprintf(out, "%13s   Spread: %s .. %s us/Loop, CV %s%%, outliers %ld (%ld chunk%s x %ld round%s)\n", name,
            measured_text(a, sizeof a, st->min, u, 3), measured_text(b, sizeof b, st->max, u, 3),
            measured_text(c, sizeof c, st->cv * 100.0, 1.0, 1), st->outliers, m->chunks, m->chunks == 1 ? "" : "s",
            m->rounds_done, m->rounds_done == 1 ? "" : "s");
    if (st->has_ci)
        fprintf(out, "%13s   Median: %s us/Loop, 95%% CI %s .. %s, " INTERVAL_SCOPE "\n", name, measured_text(a, sizeof a, st->median, u, 3),
                measured_text(b, sizeof b, st->ci_low, u, 3), measured_text(c, sizeof c, st->ci_high, u, 3));
    else
        fprintf(out, "%13s   Median: %s us/Loop, no 95%% CI from %ld samples (needs 6 or more)\n", name,
                measured_text(a, sizeof a, st->median, u, 3), st->n);
    if (m->has_overhead && m->has_overhead_ci) {
        double ou = 0.5 * (m->overhead_high - m->overhead_low);
        fprintf(out, "%13s  Ovh. CI: %s .. %s us/Loop (95%%, against bestcase%s)%s, " INTERVAL_SCOPE "\n", name,
                measured_text(a, sizeof a, m->overhead_low, ou, 3), measured_text(b, sizeof b, m->overhead_high, ou, 3),
                m->overhead_ci_paired ? ", paired by round" : "",
                m->overhead_low <= 0.0 && m->overhead_high >= 0.0 ? ": within noise of 0" : "");
    } else if (m->has_overhead && m->has_round_range) {
        double ou = 0.5 * (m->round_range_high - m->round_range_low);
        fprintf(out, "%13s  Ovh. CI: none at 95%% from %ld rounds (needs 6); the rounds range %s .. %s us/Loop, " INTERVAL_SCOPE "\n",
                name, m->rounds_done, measured_text(a, sizeof a, m->round_range_low, ou, 3),
                measured_text(b, sizeof b, m->round_range_high, ou, 3));
    }
}

/* Cycle counts of what LLNL sets targets for, in the block they come from. */
static void print_cycles(FILE *out, const RunSetup *run, const Measurement *m)
{
    const Schedule *s = m->schedule;
    const char *what;
    double us, uncertainty;
    if (strcmp(s->key, "barrier") == 0) {
        what = "per barrier (LLNL target < 200)";
        us = m->us;
        uncertainty = median_uncertainty(&m->stats);
    } else if (strcmp(s->key, "parallel") == 0) {
        what = "per fork/join (empty parallel region)";
        us = m->us;
        uncertainty = median_uncertainty(&m->stats);
    } else if (strcmp(s->key, "parallel_for") == 0) {
        what = "of overhead per parallel for, EPCC's method (LLNL target < 500)";
        us = m->us;
        uncertainty = median_uncertainty(&m->stats);
    } else if (m->has_overhead) {
        /* Against Bestcase: CLOMP's overhead, not the quantity of LLNL's target. */
        what = strcmp(s->key, "static") == 0 ? "of CLOMP overhead per parallel for (versus bestcase)"
                                             : "of CLOMP overhead per subcycle (versus bestcase)";
        us = m->overhead_us;
        uncertainty = m->has_overhead_ci ? 0.5 * (m->overhead_high - m->overhead_low) : 0.0;
    } else {
        return;
    }
    if (run->cycles.source == CYCLES_UNAVAILABLE) {
        fprintf(out, "%13s   Cycles: unavailable (%s)\n", s->name, run->cycles.why);
    } else {
        char a[32];
        fprintf(out, "%13s   Cycles: %s %s\n", s->name,
                measured_text(a, sizeof a, cycles_from_us(&run->cycles, us), cycles_from_us(&run->cycles, uncertainty), 0),
                what);
    }
}

/* The CPUs each inner team ran on in the warm-up ("team 0: 0,1; team 1:
 * 2,3"); measurement_warnings() warns when the teams overlap. */
static void print_inner_cpus(FILE *out, const RunSetup *run, const Measurement *m)
{
    const TeamObservation *t = &m->team;
    int shown_groups = 8, threads;
    int distinct = team_distinct_cpus(t, &threads);
    if (t->cpu_slots == 0)
        return;
    fprintf(out, "%13s     CPUs:", m->schedule->name);
    for (int g = 0; g < run->nestedOuter && g < shown_groups && g * run->nestedInner < t->cpu_slots; g++) {
        fprintf(out, "%s team %d:", g > 0 ? ";" : "", g);
        const char *sep = " ";
        for (int i = 0; i < run->nestedInner && g * run->nestedInner + i < t->cpu_slots; i++) {
            int cpu = t->cpu[g * run->nestedInner + i];
            if (cpu >= 0)
                fprintf(out, "%s%d", sep, cpu);
            sep = ",";
        }
    }
    if (run->nestedOuter > shown_groups)
        fprintf(out, "; ...");
    fprintf(out, " (inner teams' threads in the warm-up: %d distinct CPUs for %d threads)\n", distinct, threads);
}

/* clomp's additions to a block, after all of the CLOMP 1.2 lines. */
static void print_block_notes(FILE *out, const RunSetup *run, const Measurement *m)
{
    const Schedule *s = m->schedule;
    const TeamObservation *t = &m->team;

    if (s->role == ROLE_REFERENCE)
        fprintf(out, "%13s   Verify: reference (conservation, residue bound, zone order, update counts hold%s)\n",
                s->name, m->verified_chunks > 1 ? "; checkpoint after every chunk" : "");
    else if (s->role == ROLE_CHECKED && m->verified_chunks > 1 && m->rounds_done > 1)
        fprintf(out, "%13s   Verify: passed (every zone of every part bit-identical to Serial Ref after each of "
                     "%ld chunks in each of %ld rounds; invariants hold)\n", s->name, m->chunks, m->rounds_done);
    else if (s->role == ROLE_CHECKED && m->verified_chunks > 1)
        fprintf(out, "%13s   Verify: passed (every zone of every part bit-identical to Serial Ref after each of "
                     "%ld chunks; invariants hold)\n", s->name, m->verified_chunks);
    else if (s->role == ROLE_CHECKED)
        fprintf(out, "%13s   Verify: passed (every zone of every part bit-identical to Serial Ref; invariants hold)\n", s->name);
    else if (s->role == ROLE_BESTCASE)
        fprintf(out, "%13s   Verify: skipped (fixed deposit, wrong answers by design)\n", s->name);

    if (t->nested) {
        fprintf(out, "%13s    Teams: outer %d x inner %d", s->name, t->threads, t->inner_max);
        if (t->inner_min != t->inner_max)
            fprintf(out, " (inner teams from %d to %d)", t->inner_min, t->inner_max);
        fprintf(out, ", requested %dx%d\n", run->nestedOuter, run->nestedInner);
        print_inner_cpus(out, run, m);
    }
    print_warnings(out, s->name, &m->warnings);
}

void print_block_results(FILE *out, const RunSetup *run, const Measurement *m,
                         const Measurement *serial, const Measurement *bestcase)
{
    const Schedule *s = m->schedule;
    /* CLOMP 1.2 prints checksums only for results it verifies. */
    if (s->role == ROLE_REFERENCE || s->role == ROLE_CHECKED)
        fprintf(out, "%13s Checksum: Sum=%-8.8g Residue=%-8.8g Total=%-.9g\n", s->name,
                m->checksum.sum, m->checksum.residue, m->checksum.total);
    const RankSpread *sp = &m->spread;
    if (sp->ranks > 0) {   /* CLOMP 1.2's MPI lines: the runtime over the ranks, and the rank used */
        fprintf(out, "%13s MPI Dist: Min %.3f (Rank %d) Max %.3f (Rank %d) Avg %.3f\n", s->name, sp->min_seconds,
                sp->min_rank, sp->max_seconds, sp->max_rank, sp->avg_seconds);
        fprintf(out, "%13s  Runtime: %.3f (wallclock, in seconds, %s used, rank %d)\n", s->name, m->seconds,
                sp->used_fastest ? "min" : "max", sp->used_rank);
    } else {
        fprintf(out, "%13s  Runtime: %.3f (wallclock, in seconds)\n", s->name, m->seconds);
    }
    fprintf(out, "%13s  us/Loop: %.2f (wallclock, in microseconds)\n", s->name, m->us);
    if (s->role == ROLE_BESTCASE || s->role == ROLE_CHECKED)
        print_comparisons(out, m, serial, bestcase);
    print_block_notes(out, run, m);
    print_statistics(out, m);
    print_cycles(out, run, m);
    fprintf(out, "---------------------\n");
}

int measurement_reported(const Measurement *m)
{
    return !m->schedule->optional || m->selected;
}

typedef enum { ROW_RUNTIME, ROW_US_PER_LOOP, ROW_SPEEDUP, ROW_EFFICACY, ROW_OVERHEAD } SummaryRow;

/* One figure of the summary; NAN where it means nothing for that
 * measurement or its inputs were not measured (--schedules). */
static double summary_figure(SummaryRow row, const Measurement *m, const Measurement *serial,
                             const Measurement *bestcase)
{
    ScheduleRole role = m->schedule->role;
    if (!m->selected)
        return NAN;
    switch (row) {
    case ROW_RUNTIME:
        return m->seconds;
    case ROW_US_PER_LOOP:
        return m->us;
    case ROW_SPEEDUP:
        return role == ROLE_PROBE || serial == NULL ? NAN : serial->us / m->us;
    case ROW_EFFICACY:
        return role == ROLE_PROBE || role == ROLE_REFERENCE || bestcase == NULL ? NAN : m->efficacy;
    default:
        return role == ROLE_PROBE || role == ROLE_REFERENCE || bestcase == NULL ? NAN
               : role == ROLE_BESTCASE                                          ? 0.0
                                                                                : m->overhead_us;
    }
}

/* One row of the comma-delimited summary, in CLOMP 1.2's formats. */
static void print_summary_row(FILE *out, const char *label, SummaryRow row, const Measurement *results,
                              size_t count, const Measurement *serial, const Measurement *bestcase)
{
    fprintf(out, "%s", label);
    for (size_t i = 0; i < count; i++) {
        if (!measurement_reported(&results[i]))
            continue;
        double value = summary_figure(row, &results[i], serial, bestcase);
        /* 1.2 keeps its columns aligned under the longer labels: reproduce
         * its spacing byte for byte so diff-based comparisons still work. */
        fputs(i == 0 && strlen(label) > 7 ? "," : ", ", out);
        if (isnan(value))
            fprintf(out, "%7s", "N/A");
        else if (row == ROW_RUNTIME)
            fprintf(out, "%7.3f", value);
        else if (row == ROW_SPEEDUP)
            fprintf(out, "%7.1f", value);
        else if (row == ROW_EFFICACY)
            fprintf(out, results[i].schedule->role == ROLE_BESTCASE ? " %6.1f%%" : "%6.1f%%", value);
        else
            fprintf(out, "%7.2f", value);
    }
    fputc('\n', out);
}

static void print_args(FILE *out, const RunSetup *run)
{
    fprintf(out, "%ld %ld %ld %ld %ld %ld %ld", run->numThreads, run->inputAllocThreads, run->numParts,
            run->zonesPerPart, run->zoneSize, run->flopScale, run->timeScale);
}

/* ", %.Nf" or ", N/A" for a figure left out by --schedules. */
static void print_rfp_figure(FILE *out, double value, int decimals)
{
    if (isnan(value))
        fprintf(out, ", N/A");
    else
        fprintf(out, ", %.*f", decimals, value);
}

const char *target_verdict(double cycles, int has_ci, double low, double high, double target)
{
    if (isnan(cycles))
        return "unavailable";
    if (has_ci && low < target && high >= target)
        return "undecided";
    return (has_ci ? high : cycles) < target ? "met" : "not met";
}

/* LLNL's targets, judged on the interval where there is one: a target is
 * only "met" or "not met" when the whole interval says so. */
static void print_target(FILE *out, const RunSetup *run, const char *label, double us, int has_ci, double low_us,
                         double high_us, double target_cycles, const char *untargeted)
{
    char a[32];
    double cycles = cycles_from_us(&run->cycles, us);
    double low = cycles_from_us(&run->cycles, low_us), high = cycles_from_us(&run->cycles, high_us);
    double u = has_ci ? 0.5 * (high - low) : 0.0;
    fprintf(out, "%s: %s cycles", label, measured_text(a, sizeof a, cycles, u, 0));
    if (has_ci) {
        char b[32], c[32];
        fprintf(out, " (95%% CI %s .. %s, " INTERVAL_SCOPE ")", measured_text(b, sizeof b, low, u, 0),
                measured_text(c, sizeof c, high, u, 0));
    }
    const char *verdict = target_verdict(cycles, has_ci, low, high, target_cycles);
    if (target_cycles <= 0.0)
        fprintf(out, ", %s\n", untargeted);
    else
        fprintf(out, ", target < %.0f: %s%s\n", target_cycles, verdict,
                strcmp(verdict, "undecided") == 0 ? " (the interval straddles it)" : "");
}

void print_targets(FILE *out, const RunSetup *run, const Measurement *results, size_t count)
{
    const Measurement *barrier = find_measurement(results, count, ROLE_PROBE, "barrier");
    const Measurement *parallel = find_measurement(results, count, ROLE_PROBE, "parallel");
    const Measurement *stat = find_measurement(results, count, ROLE_CHECKED, "static");
    const Measurement *pfor = find_measurement(results, count, ROLE_PROBE, "parallel_for");

    fprintf(out, "----------- LLNL targets (in CPU cycles) ----------\n");
    if (run->cycles.source == CYCLES_UNAVAILABLE) {
        fprintf(out, "Cycles: unavailable (%s); targets not judged\n", run->cycles.why);
        return;
    }
    fprintf(out, "Cycle rate: %.3f GHz (%s)\n", run->cycles.ghz, cycle_source_text(&run->cycles));
    if (barrier != NULL)
        print_target(out, run, "Barrier latency (OMP Barrier)", barrier->us, barrier->stats.has_ci,
                     barrier->stats.ci_low, barrier->stats.ci_high, LLNL_BARRIER_TARGET_CYCLES, NULL);
    if (pfor != NULL)
        print_target(out, run, "Parallel-for overhead (Parallel For, EPCC's method)", pfor->us, pfor->stats.has_ci,
                     pfor->stats.ci_low, pfor->stats.ci_high, LLNL_PARALLEL_FOR_TARGET_CYCLES, NULL);
    if (parallel != NULL)
        print_target(out, run, "Fork/join (OMP Parallel)", parallel->us, parallel->stats.has_ci,
                     parallel->stats.ci_low, parallel->stats.ci_high, 0.0, "no LLNL target");
    /* CLOMP's own overhead includes the kernel's data movement and imbalance:
     * shown for comparison, not judged against the construct's target. */
    if (stat != NULL && stat->has_overhead)
        print_target(out, run, "CLOMP overhead (Static OMP - Bestcase OMP)", stat->overhead_us, stat->has_overhead_ci,
                     stat->overhead_low, stat->overhead_high, 0.0,
                     "not the target quantity (it includes the kernel's data movement; see docs/statistics.md)");
}

void print_process_cost(FILE *out, const ProcessCost *c)
{
    if (!c->measured) {
        fprintf(out, "Process CPU time: unavailable (getrusage failed)\n");
        return;
    }
    fprintf(out, "Process CPU time: %.3f s user, %.3f s system, %.3f s wall (getrusage, every thread)",
            c->user_seconds, c->system_seconds, c->wall_seconds);
    if (c->wall_seconds > 0.0)
        fprintf(out, ": %.1f CPUs busy on average", (c->user_seconds + c->system_seconds) / c->wall_seconds);
    fputc('\n', out);
}

void print_summary(FILE *out, const RunSetup *run, const Measurement *results, size_t count)
{
    const Measurement *serial = find_measurement(results, count, ROLE_REFERENCE, NULL);
    const Measurement *bestcase = find_measurement(results, count, ROLE_BESTCASE, NULL);
    const Measurement *barrier = find_measurement(results, count, ROLE_PROBE, "barrier");
    const Measurement *stat = find_measurement(results, count, ROLE_CHECKED, "static");
    const Measurement *dyn = find_measurement(results, count, ROLE_CHECKED, "dynamic");
    const Measurement *manual = find_measurement(results, count, ROLE_CHECKED, "manual");

    fprintf(out, "----------- Comma-delimited summary ----------\n");
    print_escaped(out, run->exe);
    fputc(' ', out);
    print_args(out, run);
    for (size_t i = 0; i < count; i++)
        if (measurement_reported(&results[i]))
            fprintf(out, ", %s", results[i].schedule->name);
    fputc('\n', out);

    print_summary_row(out, "Runtime", ROW_RUNTIME, results, count, serial, bestcase);
    print_summary_row(out, "us/Loop", ROW_US_PER_LOOP, results, count, serial, bestcase);
    print_summary_row(out, "Speedup", ROW_SPEEDUP, results, count, serial, bestcase);
    print_summary_row(out, "Efficacy", ROW_EFFICACY, results, count, serial, bestcase);
    print_summary_row(out, "Overhead", ROW_OVERHEAD, results, count, serial, bestcase);

    /* Exactly CLOMP 1.2's last line: scripts collect results by it. */
    fprintf(out, "CORAL RFP, ");
    if (run->mpi.ranks > 1)
        fprintf(out, "%d MPI X ", run->mpi.ranks);
    print_args(out, run);
    print_rfp_figure(out, serial->us, 2);
    print_rfp_figure(out, barrier != NULL ? barrier->us : NAN, 2);
    print_rfp_figure(out, bestcase != NULL ? serial->us / bestcase->us : NAN, 1);
    print_rfp_figure(out, stat != NULL ? summary_figure(ROW_OVERHEAD, stat, serial, bestcase) : NAN, 2);
    print_rfp_figure(out, stat != NULL ? serial->us / stat->us : NAN, 1);
    print_rfp_figure(out, dyn != NULL ? summary_figure(ROW_OVERHEAD, dyn, serial, bestcase) : NAN, 2);
    print_rfp_figure(out, dyn != NULL ? serial->us / dyn->us : NAN, 1);
    print_rfp_figure(out, manual != NULL ? summary_figure(ROW_OVERHEAD, manual, serial, bestcase) : NAN, 2);
    print_rfp_figure(out, manual != NULL ? serial->us / manual->us : NAN, 1);
    fputc('\n', out);
}

void print_rank_outliers(FILE *out, const RunSetup *run, const RankOutliers *o)
{
    fprintf(out, "----------- MPI ranks: outliers ----------\n");
    if (o->ranks < 3) {
        fprintf(out, "Outliers: not judged with %d rank%s (needs 3 or more to tell one from the others)\n", o->ranks,
                o->ranks == 1 ? "" : "s");
        return;
    }
    char a[32];
    fprintf(out, "Rank medians: Serial Ref %s us/Loop", measured_text(a, sizeof a, o->serial_median, 0.0, 2));
    if (!isnan(o->overhead_median))
        fprintf(out, ", Static OMP overhead %s us/Loop", measured_text(a, sizeof a, o->overhead_median, 0.0, 2));
    fprintf(out, " (%d ranks; outlier: farther from the median than %.1f scaled MADs, its own 95%% CI and 1%% of "
                 "Serial Ref)\n", o->ranks, RANK_OUTLIER_MADS);
    if (o->count == 0)
        fprintf(out, "Outliers: none\n");
    for (size_t k = 0; k < o->count; k++) {
        const RankOutlier *x = &o->item[k];
        fprintf(out, "Outlier: rank %d on ", x->rank);
        print_escaped(out, run->mpi.info != NULL ? run->mpi.info[x->rank].host : "?");
        fprintf(out, ": %s %.2f (median %.2f, %+.2f us/Loop, threshold %.2f)\n", x->figure, x->value, x->median,
                x->deviation, x->threshold);
    }
}
