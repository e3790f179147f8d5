#include "text_report.h"

#include <string.h>

#include "../cli/options.h"
#include "build_info.h"
#include "../offload/device_info.h"
#include "text_format.h"

extern char **environ;

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
            /* Asked for but not possible here: said where it was asked for. */
            if (run->unavailable[i] != NULL)
                fprintf(out, " (N/A: %s)", run->unavailable[i]);
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

/* The placement table: one line per thread of the timed team (a summary
 * beyond 16), then what is wrong with it (shared cores, unbound threads,
 * more threads than cores). */
static void print_thread_placement(FILE *out, const TeamPlacement *tp, const WarningList *setup_warnings)
{
    if (tp->threads > TEXT_FULL_TABLE_ROWS) {
        print_thread_placement_summary(out, tp);
        print_warnings(out, "", setup_warnings, WARNING_WITH_PLACEMENT);
        return;
    }
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
    print_warnings(out, "", setup_warnings, WARNING_WITH_PLACEMENT);
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

/* MPI: where each rank ran (its host and the CPUs it may use); summarised beyond 16 ranks. */
static void print_rank_layout(FILE *out, const RunSetup *run)
{
    if (run->mpi.info != NULL && run->mpi.ranks > TEXT_FULL_TABLE_ROWS) {
        print_rank_layout_summary(out, run->mpi.info, run->mpi.ranks);
        return;
    }
    for (int r = 0; run->mpi.info != NULL && r < run->mpi.ranks; r++) {
        const RankInfo *info = &run->mpi.info[r];
        char label[32];
        snprintf(label, sizeof label, "MPI rank %d", info->rank);
        fprintf(out, "%17s: host ", label);
        print_escaped(out, info->host);
        fprintf(out, ", CPUs %s (%d)\n", info->cpus, info->cpu_count);
    }
}

/* How the mesh was built, and who first touched its pages. */
static void print_mesh_build(FILE *out, const RunSetup *run, double build_seconds)
{
    fprintf(out, "  Mesh build time: %.3f s (", build_seconds);
    if (run->allocThreads == 1)
        fprintf(out, "1 allocating thread: the main thread first touches every part");
    else if (run->allocThreads == run->numThreads)
        fprintf(out, "%ld allocating threads, first touch by the owner under schedule(static)", run->allocThreads);
    else
        fprintf(out, "%ld allocating threads under schedule(static), not the %ld that compute", run->allocThreads,
                run->numThreads);
    fprintf(out, ")\n");
}

void print_setup(FILE *out, const RunRecord *r)
{
    const RunSetup *run = r->run;
    const DepositState *d = &r->pb->deposit;
    const BuildInfo *b = build_info();

    fprintf(out, "Iteration Residue: %.6f%%\n", d->percent_residue * 100.0);
    fprintf(out, "  Max Error bound: %-8.8g\n", d->error_bound);
    fprintf(out, "Tight Error bound: %-8.8g\n", d->tight_error_bound);
    fprintf(out, "      Max Residue: %-8.8g\n", d->max_residue);
    /* clomp additions, after every CLOMP 1.2 header line */
    fprintf(out, "    Deposit model: %s\n", mesh_deposit_model_text(r->pb->mesh.deposit_model));
    print_zone_layout(out, run);
    print_mesh_build(out, run, r->build_seconds);
    print_nested_shape(out, run);
    print_job_cores(out, run);
    fprintf(out, "         Compiler: %s (CC=%s)\n", b->compiler, b->cc);
    fprintf(out, "           CFLAGS: %s\n", b->cflags);
    fprintf(out, "          LDFLAGS: %s\n", b->ldflags);
    fprintf(out, "           OpenMP: %ld (OpenMP %s)\n", b->openmp, b->openmp_spec);
    fprintf(out, "         Built on: %s at %s (clomp %s)\n", b->host, b->date, b->version);
    print_offload_device(out);
    print_openmp_environment(out);
    print_ompt_setup(out, run);
    char policy[32];
    fprintf(out, "   NUMA placement: %s%s\n", placement_text(&run->placement, policy, sizeof policy),
            run->placement.kind == PLACEMENT_FIRST_TOUCH ? " (pages land where the building thread first writes them)" : "");
    print_locality(out, r->locality);
    if (r->placement != NULL && r->placement->observed)
        print_thread_placement(out, r->placement, r->setup_warnings);
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
    if (run->warmup_zones_per_part > 0) {
        MeshShape shape = run_mesh_shape(run);
        fprintf(out, "          Warm-up: on a mesh of the same %ld parts with %ld zones each, not on this one, whose "
                     "iteration touches %.0f MiB (it would only stream them through the caches again)\n",
                run->numParts, run->warmup_zones_per_part, mesh_touched_bytes(&shape) / 1048576.0);
    }
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
    print_noise_census(out, r);
    print_warnings(out, "", r->setup_warnings, WARNING_LINE);
    fprintf(out, "---------------------\n");
}

void print_plan(FILE *out, const RunSetup *run)
{
    MeshShape shape = run_mesh_shape(run);
    char policy[32];
    fprintf(out, "    Deposit model: %s\n", mesh_deposit_model_text(mesh_deposit_model(&shape)));
    print_zone_layout(out, run);
    print_nested_shape(out, run);
    print_job_cores(out, run);
    fprintf(out, "   NUMA placement: %s\n", placement_text(&run->placement, policy, sizeof policy));
    print_measurement_names(out, run);
    fprintf(out, "\n           Trials: ");
    if (run->requested_trials > 0)
        fprintf(out, "%ld chunks per timed run (--trials)", run->requested_trials < run->iterations ? run->requested_trials : run->iterations);
    else
        fprintf(out, "up to 20 chunks per timed run, chosen from a one-iteration calibration");
    fprintf(out, "; %ld round%s\n", run->rounds, run->rounds == 1 ? "" : "s");
    if (run->constructs.asked) {
        fprintf(out, "       Constructs:");
        for (size_t i = 0; i < clomp_construct_count; i++)
            if (run->construct_selected[i])
                fprintf(out, " %s", clomp_constructs[i]->key);
        fprintf(out, "; %ld repetitions, each aimed at %g us; level 2: ", run->constructs.reps, run->constructs.target_us);
        if (run->nested_unavailable[0] != '\0' || run->nestedOuter < 2 || run->nestedInner < 2)
            fprintf(out, "N/A (needs at least 2x2 threads)\n");
        else
            fprintf(out, "%dx%d\n", run->nestedOuter, run->nestedInner);
    }
    if (run->limits.asked)
        fprintf(out, "           Limits: %ld pairs of %ld threads, %ld round trips each; %ld repetitions of 6 timings, "
                     "each aimed at %g us (docs/limits.md)\n", run->numThreads * (run->numThreads - 1) / 2,
                run->numThreads, run->limits.trips, run->limits.reps, run->limits.target_us);
    fprintf(out, "          Dry run: arguments valid; the mesh was not built and nothing was timed\n");
}

void print_help(FILE *out, const char *exe)
{
    char keys[512];
    print_usage(out, exe);
    fprintf(out, "\nMeasurements (--schedules keys; details: --list-schedules, docs/output.md):\n");
    fprintf(out, "  run by default: %s\n", schedule_keys(keys, sizeof keys, 0));
    fprintf(out, "  only when named: %s\n", schedule_keys(keys, sizeof keys, 1));
    fprintf(out, "Constructs (--constructs keys; details: --list-constructs, docs/constructs.md):\n  ");
    for (size_t i = 0; i < clomp_construct_count; i++)
        fprintf(out, "%s%s", clomp_constructs[i]->key, i + 1 < clomp_construct_count ? " " : "\n");
}
