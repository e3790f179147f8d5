#include "text_report.h"

#include <math.h>
#include <string.h>

#include "../measure/llnl_targets.h"
#include "figure_catalogue.h"
#include "text_format.h"

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
    if (m->unavailable == NULL)
        return;
    fprintf(out, "%13s  us/Loop: N/A (%s; numThreads is %ld)\n", m->schedule->name, m->unavailable, run->numThreads);
    fprintf(out, "---------------------\n");
}

/* Whether CLOMP 1.2's negative overhead (efficacy above 100%) is only
 * noise: only an interval of that very figure can say so (none with
 * several rounds, or too few chunks: then nothing is said). */
static const char *noise_note(const Measurement *m)
{
    if (!m->has_overhead || !(m->runtime_overhead_us < 0.0) || !m->has_runtime_overhead_ci)
        return "";
    return m->runtime_overhead_high >= 0.0 ? " (within noise)"
                                            : " (below bestcase beyond noise: see docs/statistics.md)";
}

static void print_comparisons(FILE *out, const Measurement *m, const Measurement *serial,
                              const Measurement *bestcase)
{
    const char *name = m->schedule->name;
    /* CLOMP 1.2's figures: all from Runtime; N/A, in 1.2's place, where it or
     * what it is taken against is not a result (the INVALID line says why). */
    if (serial != NULL && (m->invalid || serial->invalid)) {
        fprintf(out, "%13s  Speedup: N/A (not a result: %s is invalid)\n", name, m->invalid ? name : serial->schedule->name);
    } else if (serial != NULL) {
        double speedup = serial->runtime_us / m->runtime_us;
        if (speedup > 1.0)
            fprintf(out, "%13s  Speedup: %.1f\n", name, speedup);
        else
            fprintf(out, "%13s  Speedup: %.1f (%.1fX slowdown)\n", name, speedup, 1.0 / speedup);
    }
    if (bestcase != NULL && m->schedule->role == ROLE_CHECKED && m->has_overhead && (m->invalid || bestcase->invalid)) {
        const char *which = m->invalid ? name : bestcase->schedule->name;
        fprintf(out, "%13s Efficacy: N/A (not a result: %s is invalid)\n", name, which);
        fprintf(out, "%13s Overhead: N/A (not a result: %s is invalid)\n", name, which);
    } else if (bestcase != NULL && m->schedule->role == ROLE_CHECKED && m->has_overhead) {
        const char *note = noise_note(m);
        fprintf(out, "%13s Efficacy: %.1f%% (of bestcase %.2f us/Loop)%s\n", name, m->runtime_efficacy,
                bestcase->runtime_us, note);
        fprintf(out, "%13s Overhead: %.2f (versus bestcase, in us/Loop)%s\n", name, m->runtime_overhead_us, note);
    }
}

#define PROJECT_NOTE ": the project's overhead"

/* Which estimator a block's overhead line is: the project's (always
 * printed), or one --detail adds (the JSON and CSV always hold them). */
static int is_project(const char *suffix)
{
    return strcmp(project_overhead_kind->suffix, suffix) == 0;
}

/* The paired overhead (measure/paired_overhead.h): the Hodges-Lehmann shift
 * of the block differences and its interval. */
static void print_paired_overhead(FILE *out, const Measurement *m)
{
    const PairedOverhead *p = &m->paired;
    const ShiftEstimate *s = &p->shift;
    char a[32], how[160];
    if (p->order == PAIRED_NOT_MEASURED)
        return;
    const char *project = is_project("paired_overhead_us") ? PROJECT_NOTE : "";
    double u = s->has_ci ? 0.5 * (s->high - s->low) : 0.0;
    if (p->order == PAIRED_INTERLEAVED)
        snprintf(how, sizeof how, "%ld interleaved blocks, random order", p->blocks);
    else
        snprintf(how, sizeof how, "%ld sequential pairs of chunks", p->blocks);
    int n = (int)strlen(how);
    if (p->effective_blocks < (double)p->blocks)
        snprintf(how + n, sizeof how - (size_t)n, "; lag-1 %.2f: worth %.1f independent blocks, interval widened",
                 p->lag1, p->effective_blocks);
    else
        snprintf(how + n, sizeof how - (size_t)n, "; lag-1 %.2f", p->lag1);
    if (s->has_ci) {
        char b[32], c[32];
        fprintf(out, "%13s Pair Ovh: %s us/Loop, 95%% CI %s .. %s (Hodges-Lehmann, %s), " INTERVAL_SCOPE "%s\n",
                m->schedule->name, measured_text(a, sizeof a, s->estimate, u, 3), bound_text(b, sizeof b, s->low, u, 3, -1),
                bound_text(c, sizeof c, s->high, u, 3, +1), how, project);
    } else {
        fprintf(out, "%13s Pair Ovh: %s us/Loop, no 95%% CI from %ld blocks worth %.1f (needs 6 or more) (Hodges-Lehmann, %s)%s\n",
                m->schedule->name, measured_text(a, sizeof a, s->estimate, 0.0, 2), p->blocks, p->effective_blocks, how, project);
    }
}

/* The overhead from the median chunks (and, with rounds, the rounds'
 * medians): one line, its 95% interval (or the rounds' range) on it. */
static void print_median_overhead(FILE *out, const Measurement *m)
{
    const char *name = m->schedule->name, *project = is_project("median_overhead_us") ? PROJECT_NOTE : "";
    const char *how = m->rounds_done > 1 ? "median over rounds of the round's median chunk minus Bestcase's"
                                         : "median chunk minus Bestcase's median chunk";
    char a[32], b[32], c[32];
    if (m->has_overhead_ci) {
        double ou = 0.5 * (m->overhead_high - m->overhead_low);
        fprintf(out, "%13s Med. Ovh: %s us/Loop, 95%% CI %s .. %s, " INTERVAL_SCOPE "%s%s (%s%s)\n", name,
                measured_text(a, sizeof a, m->overhead_us, ou, 3), bound_text(b, sizeof b, m->overhead_low, ou, 3, -1),
                bound_text(c, sizeof c, m->overhead_high, ou, 3, +1),
                m->overhead_low <= 0.0 && m->overhead_high >= 0.0 ? ", within noise of 0" : "", project, how,
                m->overhead_ci_paired ? "; interval paired by round" : "");
    } else if (m->has_round_range) {
        double ou = 0.5 * (m->round_range_high - m->round_range_low);
        fprintf(out, "%13s Med. Ovh: %s us/Loop, no 95%% CI from %ld rounds (needs 6); the rounds range %s .. %s, "
                     INTERVAL_SCOPE "%s (%s)\n", name, measured_text(a, sizeof a, m->overhead_us, ou, 3), m->rounds_done,
                bound_text(b, sizeof b, m->round_range_low, ou, 3, -1), bound_text(c, sizeof c, m->round_range_high, ou, 3, +1),
                project, how);
    } else {
        fprintf(out, "%13s Med. Ovh: %s us/Loop, no 95%% CI%s (%s)\n", name,
                measured_text(a, sizeof a, m->overhead_us, 0.0, 2), project, how);
    }
}

/* The overhead lines after CLOMP 1.2's Overhead line: the project's
 * estimator (catalogue), and with --detail the others. */
static void print_overheads(FILE *out, const RunSetup *run, const Measurement *m, int overhead_void)
{
    if (!m->has_overhead)
        return;
    if (overhead_void) {
        fprintf(out, "%13s %s: N/A (not a result: see the INVALID line)\n", m->schedule->name,
                is_project("paired_overhead_us") ? "Pair Ovh" : "Med. Ovh");
        return;
    }
    if (is_project("median_overhead_us") || run->detail)
        print_median_overhead(out, m);
    if (is_project("paired_overhead_us") || run->detail)
        print_paired_overhead(out, m);
}

/* clomp's statistics of the chunks: spread and the median with its
 * interval (robust to an outlying chunk, where 1.2's lines above come from
 * the whole Runtime); every number to the precision its spread supports. */
static void print_statistics(FILE *out, const RunSetup *run, const Measurement *m, int overhead_void)
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
                bound_text(b, sizeof b, st->ci_low, u, 3, -1), bound_text(c, sizeof c, st->ci_high, u, 3, +1));
    else
        fprintf(out, "%13s   Median: %s us/Loop, no 95%% CI from %ld samples (needs 6 or more)\n", name,
                measured_text(a, sizeof a, st->median, u, 3), st->n);
    print_overheads(out, run, m, overhead_void);
}

/* Cycle counts of what LLNL sets targets for (the targets table names the
 * figure and says what it is), and of the project's overhead, in the block
 * they come from. */
static void print_cycles(FILE *out, const RunSetup *run, const Measurement *m, int overhead_void)
{
    const Schedule *s = m->schedule;
    const LlnlTarget *target = llnl_target_of(s);
    const char *what;
    double us, low, high;
    int has_ci;
    if (!m->invalid && target != NULL && target->figure == JUDGED_ON_US_PER_LOOP) {
        what = target->block_text;
        us = m->us;
        has_ci = m->stats.has_ci;
        low = m->stats.ci_low;
        high = m->stats.ci_high;
    } else if (!m->invalid && project_overhead_of(m, overhead_void, &us, &low, &high)) {
        /* Against Bestcase: CLOMP's overhead, not the quantity of LLNL's target. */
        what = target != NULL ? target->block_text : "of CLOMP overhead per subcycle (versus bestcase)";
        has_ci = !isnan(low);
    } else {
        return;   /* not a result (invalid), or no figure to count */
    }
    if (run->cycles.source == CYCLES_UNAVAILABLE) {
        fprintf(out, "%13s   Cycles: unavailable (%s)\n", s->name, run->cycles.why);
        return;
    }
    /* The robust figure, in the rate's cycles, with its interval beside it
     * whenever it is rounded to the interval's digits. */
    const CycleRate *rate = &run->cycles;
    char a[32];
    double u = has_ci ? 0.5 * (cycles_from_us(rate, high) - cycles_from_us(rate, low)) : 0.0;
    fprintf(out, "%13s   Cycles: %s", s->name, measured_text(a, sizeof a, cycles_from_us(rate, us), u, 0));
    if (has_ci) {
        char b[32], c[32];
        fprintf(out, " (95%% CI %s .. %s, " INTERVAL_SCOPE ")", bound_text(b, sizeof b, cycles_from_us(rate, low), u, 0, -1),
                bound_text(c, sizeof c, cycles_from_us(rate, high), u, 0, +1));
    }
    fprintf(out, " %s, %s\n", what, cycle_clock_text(rate));
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
    if (threads > TEXT_FULL_TABLE_ROWS) {   /* a big node: the JSON's team cpus list them all */
        fprintf(out, "%13s     CPUs: inner teams' threads in the warm-up: %d distinct CPUs for %d threads "
                     "(summarised: more than %d threads; every thread's CPU is in the JSON's team cpus)\n",
                m->schedule->name, distinct, threads, TEXT_FULL_TABLE_ROWS);
        return;
    }
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

    if (m->invalid)
        fprintf(out, "%13s  INVALID: not a result: %s\n", s->name, m->invalid_reason);

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
    long timed = m->chunks > 0 && m->chunk_end != NULL ? m->chunk_end[m->chunks - 1] : 0;
    if (s->role == ROLE_PROBE && timed > run->subcycles)
        fprintf(out, "%13s   Timed: %ld iterations (%ld subcycles), not this mesh's %ld: a probe's work does not grow "
                     "with the mesh, and it times at least %d\n", s->name, timed / SUBCYCLES_PER_ITERATION, timed,
                run->iterations, PROBE_MIN_ITERATIONS);
    if (s->delays && run->delay.length > 0)
        fprintf(out, "%13s    Delay: %.3f us per call (%d dependent additions, calibrated to EPCC's %.3f us)\n",
                s->name, run->delay.us, run->delay.length, run->delay.target_us);

    if (t->nested) {
        fprintf(out, "%13s    Teams: outer %d x inner %d", s->name, t->threads, t->inner_max);
        if (t->inner_min != t->inner_max)
            fprintf(out, " (inner teams from %d to %d)", t->inner_min, t->inner_max);
        fprintf(out, ", requested %dx%d\n", run->nestedOuter, run->nestedInner);
        print_inner_cpus(out, run, m);
    }
    print_ompt_block(out, run, m);
    print_noise_line(out, m);
    print_warnings(out, s->name, &m->warnings, WARNING_LINE);
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
    fprintf(out, "%13s  us/Loop: %.2f (wallclock, in microseconds)\n", s->name, m->runtime_us);
    if (s->role == ROLE_BESTCASE || s->role == ROLE_CHECKED)
        print_comparisons(out, m, serial, bestcase);
    /* No overhead where it or its Bestcase is not a result (judge_validity). */
    int overhead_void = m->invalid || (bestcase != NULL && bestcase->invalid);
    if (sp->ranks > 0 && run->mpi.info != NULL && sp->min_rank < run->mpi.ranks && sp->max_rank < run->mpi.ranks) {
        /* clomp's, after 1.2's lines: where 1.2's Min and Max ranks ran. */
        fprintf(out, "%13s MPI Hosts: Min ", s->name);
        print_escaped(out, run->mpi.info[sp->min_rank].host);
        fprintf(out, " (Rank %d) Max ", sp->min_rank);
        print_escaped(out, run->mpi.info[sp->max_rank].host);
        fprintf(out, " (Rank %d)\n", sp->max_rank);
    }
    print_block_notes(out, run, m);
    print_statistics(out, run, m, overhead_void);
    print_cycles(out, run, m, overhead_void);
    fprintf(out, "---------------------\n");
}

