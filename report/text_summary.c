#include "text_report.h"

#include <math.h>
#include <string.h>

#include "../measure/llnl_targets.h"
#include "figures.h"
#include "text_format.h"
#include "../timing/outlier_rule.h"

typedef enum { ROW_RUNTIME, ROW_US_PER_LOOP, ROW_SPEEDUP, ROW_EFFICACY, ROW_OVERHEAD } SummaryRow;

/* One figure of the summary, CLOMP 1.2's (from Runtime); NAN where it
 * means nothing for that measurement or its inputs were not measured
 * (--schedules). */
static double summary_figure(SummaryRow row, const MeasurementFigures *f)
{
    switch (row) {
    case ROW_RUNTIME:
        return f->runtime_seconds;
    case ROW_US_PER_LOOP:
        return f->runtime_us;
    case ROW_SPEEDUP:
        return f->runtime_speedup;
    case ROW_EFFICACY:
        return f->runtime_efficacy;
    default:
        return f->runtime_overhead;
    }
}

/* One row of the comma-delimited summary, in CLOMP 1.2's formats. */
static void print_summary_row(FILE *out, const char *label, SummaryRow row, const RunRecord *r)
{
    fprintf(out, "%s", label);
    for (size_t i = 0; i < r->count; i++) {
        if (!measurement_reported(&r->results[i]))
            continue;
        MeasurementFigures f;
        measurement_figures(r, &r->results[i], &f);
        double value = summary_figure(row, &f);
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
            fprintf(out, r->results[i].schedule->role == ROLE_BESTCASE ? " %6.1f%%" : "%6.1f%%", value);
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

/* CLOMP 1.2's CORAL RFP line after the inputs: these figures, in this order. */
static const struct {
    const char *key;
    SummaryRow figure;
    int decimals;
} coral_rfp_columns[] = {
    {"serial", ROW_US_PER_LOOP, 2}, {"barrier", ROW_US_PER_LOOP, 2}, {"bestcase", ROW_SPEEDUP, 1},
    {"static", ROW_OVERHEAD, 2},    {"static", ROW_SPEEDUP, 1},      {"dynamic", ROW_OVERHEAD, 2},
    {"dynamic", ROW_SPEEDUP, 1},    {"manual", ROW_OVERHEAD, 2},     {"manual", ROW_SPEEDUP, 1},
};

void print_summary(FILE *out, const RunRecord *r)
{
    const RunSetup *run = r->run;
    fprintf(out, "----------- Comma-delimited summary ----------\n");
    print_escaped(out, run->exe);
    fputc(' ', out);
    print_args(out, run);
    for (size_t i = 0; i < r->count; i++)
        if (measurement_reported(&r->results[i]))
            fprintf(out, ", %s", r->results[i].schedule->name);
    fputc('\n', out);

    print_summary_row(out, "Runtime", ROW_RUNTIME, r);
    print_summary_row(out, "us/Loop", ROW_US_PER_LOOP, r);
    print_summary_row(out, "Speedup", ROW_SPEEDUP, r);
    print_summary_row(out, "Efficacy", ROW_EFFICACY, r);
    print_summary_row(out, "Overhead", ROW_OVERHEAD, r);

    /* Exactly CLOMP 1.2's last line: scripts collect results by it. */
    fprintf(out, "CORAL RFP, ");
    if (run->mpi.ranks > 1)
        fprintf(out, "%d MPI X ", run->mpi.ranks);
    print_args(out, run);
    for (size_t c = 0; c < sizeof coral_rfp_columns / sizeof coral_rfp_columns[0]; c++) {
        const Measurement *m = record_find_key(r, coral_rfp_columns[c].key);
        double value = NAN;
        if (m != NULL) {
            MeasurementFigures f;
            measurement_figures(r, m, &f);
            value = summary_figure(coral_rfp_columns[c].figure, &f);
        }
        if (isnan(value))
            fprintf(out, ", N/A");
        else
            fprintf(out, ", %.*f", coral_rfp_columns[c].decimals, value);
    }
    fputc('\n', out);
}

/* Which clock a verdict counts: LLNL's targets are in core cycles. */
static void print_clock_note(FILE *out, const CycleRate *rate, const TargetJudgement *j)
{
    char a[32], b[32];
    if (rate->source != CYCLES_TSC) {
        fprintf(out, " (core cycles at --ghz=%.3f)", rate->ghz);
        return;
    }
    if (rate->core_range_known == CORE_RANGE_UNKNOWN) {
        fprintf(out, " (counted in nominal TSC cycles at %.3f GHz; the core clock is unknown here, so no core "
                     "count; --ghz gives it)", rate->ghz);
        return;
    }
    double u = 0.5 * (j->core_high - j->core_low);
    fprintf(out, " (counted in nominal TSC cycles at %.3f GHz; the cores at %.2f-%.2f GHz%s run %s .. %s core cycles)",
            rate->ghz, rate->core_min_ghz, rate->core_max_ghz,
            rate->core_range_known == CORE_RANGE_MEASURED ? " (measured on the team's threads before and after the timed runs)" : " (cpufreq)",
            bound_text(a, sizeof a, j->core_low, u, 0, -1), bound_text(b, sizeof b, j->core_high, u, 0, +1));
}

/* The clock the team's cores had (timing/core_clock.h), before and after the timed runs. */
static void print_core_clock(FILE *out, const char *when, const CoreClockSample *s, double tsc_ghz)
{
    if (!s->measured) {
        fprintf(out, "Core clock %s: not measured\n", when);
        return;
    }
    fprintf(out, "Core clock %s: %.2f GHz median over %d thread%s (%.2f .. %.2f", when, s->median_ghz, s->threads,
            s->threads == 1 ? "" : "s", s->min_ghz, s->max_ghz);
    if (tsc_ghz > 0.0)
        fprintf(out, "; %.2f .. %.2fx the TSC rate", s->min_ghz / tsc_ghz, s->max_ghz / tsc_ghz);
    fprintf(out, "), dependent additions timed on each thread, %.1f ms", s->seconds * 1e3);
    if (s->perf)
        fprintf(out, "; perf cycles/ref-cycles %.3f .. %.3f\n", s->perf_ratio_min, s->perf_ratio_max);
    else
        fprintf(out, "; perf cycles/ref-cycles unavailable (%s)\n", s->perf_why);
}

/* LLNL's targets, judged on the interval where there is one, stretched over
 * the cores' clock range when the count is the TSC's: a target is only
 * "met" or "not met" when all of it says so. */
static void print_target(FILE *out, const CycleRate *rate, const LlnlTarget *t, const TargetJudgement *j)
{
    char a[32];
    if (isnan(j->cycles)) {   /* its measurement is not a result */
        fprintf(out, "%s: N/A (not a result: see the INVALID line)%s\n", t->label, t->below_cycles > 0.0 ? ", target not judged" : "");
        return;
    }
    double u = j->has_ci ? 0.5 * (j->cycles_high - j->cycles_low) : 0.0;
    fprintf(out, "%s: %s cycles", t->label, measured_text(a, sizeof a, j->cycles, u, 0));
    if (j->has_ci) {
        char b[32], c[32];
        fprintf(out, " (95%% CI %s .. %s, " INTERVAL_SCOPE ")", bound_text(b, sizeof b, j->cycles_low, u, 0, -1),
                bound_text(c, sizeof c, j->cycles_high, u, 0, +1));
    }
    if (t->below_cycles <= 0.0) {
        fprintf(out, ", %s\n", t->not_judged);
        return;
    }
    /* Undecided because of the interval itself, or only once it is
     * stretched over the cores' clock range. */
    int interval_straddles = j->has_ci && j->cycles_low < t->below_cycles && j->cycles_high >= t->below_cycles;
    fprintf(out, ", target < %.0f core cycles: %s%s", t->below_cycles, j->verdict,
            strcmp(j->verdict, "undecided") != 0 ? ""
            : interval_straddles                 ? " (the interval straddles it)"
                                                 : " (the cores' clock range straddles it)");
    print_clock_note(out, rate, j);
    fputc('\n', out);
}

static void print_targets(FILE *out, const RunRecord *r)
{
    const RunSetup *run = r->run;
    fprintf(out, "----------- LLNL targets (in CPU cycles) ----------\n");
    if (run->cycles.source == CYCLES_UNAVAILABLE) {
        fprintf(out, "Cycles: unavailable (%s); targets not judged\n", run->cycles.why);
        return;
    }
    fprintf(out, "Cycle rate: %.3f GHz (%s)\n", run->cycles.ghz, cycle_source_text(&run->cycles));
    print_core_clock(out, "before the timed runs", &run->cycles.clock_before,
                     run->cycles.source == CYCLES_TSC ? run->cycles.ghz : 0.0);
    print_core_clock(out, "after the timed runs", &run->cycles.clock_after,
                     run->cycles.source == CYCLES_TSC ? run->cycles.ghz : 0.0);
    fprintf(out, "Verdicts: one process's (its chunks' intervals, " INTERVAL_SCOPE "); separate processes spread "
                 "wider (docs/statistics.md)\n");
    for (size_t t = 0; t < llnl_target_count; t++) {
        TargetJudgement j;
        judge_llnl_target(&llnl_targets[t], record_find_key(r, llnl_targets[t].schedule_key), &run->cycles, &j);
        if (j.available)
            print_target(out, &run->cycles, &llnl_targets[t], &j);
    }
}

static void print_process_cost(FILE *out, const ProcessCost *c)
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

/* Where the wall time went: what clomp itself costs around the timed runs. */
static void print_wall_time(FILE *out, const RunRecord *r)
{
    WallTime w = record_wall_time(r);
    if (!w.measured)
        return;
    fprintf(out, "Wall time: %.3f s: set-up %.3f, mesh build %.3f, warm-ups %.3f, mesh resets %.3f, timed %.3f, "
                 "verification %.3f, constructs %.3f, after the runs %.3f, the rest %.3f (seconds; untimed %.1f%%)"
                 "; paired blocks %.3f",
            w.total, w.setup, w.build, w.warmup, w.reset, w.timed, w.check, w.constructs, w.after_runs, w.rest,
            w.total > 0.0 ? 100.0 * (w.total - w.timed) / w.total : 0.0, w.paired);
    if (r->limits != NULL)   /* --limits only: every other run's line stays as it was */
        fprintf(out, "; limits %.3f", w.limits);
    fputc('\n', out);
}

/* The ranks whose own noise census said busy: named, with why, never judged. */
#define NAMED_BUSY_RANKS 8
static void print_busy_ranks(FILE *out, const RunSetup *run, const RankOutliers *o)
{
    int named = 0;
    for (int r = 0; run->mpi.info != NULL && r < o->ranks; r++) {
        const RankInfo *info = &run->mpi.info[r];
        if (!(info->busy_judged && info->busy) || named++ >= NAMED_BUSY_RANKS)
            continue;
        fprintf(out, "Busy: rank %d on ", r);
        print_escaped(out, info->host);
        fprintf(out, ": %s; left out of the comparison (its figures measure the contention)\n", info->busy_reason);
    }
    if (named > NAMED_BUSY_RANKS)
        fprintf(out, "Busy: %d more ranks (every rank's verdict is in the JSON's mpi.per_rank)\n",
                named - NAMED_BUSY_RANKS);
}

static void print_rank_outliers(FILE *out, const RunSetup *run, const RankOutliers *o)
{
    fprintf(out, "----------- MPI ranks: outliers ----------\n");
    if (o->ranks < OUTLIER_FEWEST) {
        fprintf(out, "Outliers: not judged with %d rank%s (needs %d or more to tell one from the others)\n", o->ranks,
                o->ranks == 1 ? "" : "s", OUTLIER_FEWEST);
        return;
    }
    print_busy_ranks(out, run, o);
    if (!o->judged) {
        fprintf(out, "Outliers: not judged: %d of %d ranks busy (needs %d or more not busy to tell one from the "
                     "others)\n", o->busy, o->ranks, OUTLIER_FEWEST);
        return;
    }
    char a[32];
    fprintf(out, "Rank medians: Serial Ref %s us/Loop", measured_text(a, sizeof a, o->serial_median, 0.0, 2));
    if (!isnan(o->overhead_median))
        fprintf(out, ", Static OMP overhead %s us/Loop", measured_text(a, sizeof a, o->overhead_median, 0.0, 2));
    fprintf(out, " (%d ranks", o->ranks - o->busy);
    if (o->busy > 0)
        fprintf(out, " not busy of %d", o->ranks);
    fprintf(out, "; outlier: farther from the median than %.1f scaled MADs, its own 95%% CI and 1%% of Serial Ref)\n",
            OUTLIER_MADS);
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

/* Right before 1.2's summary (which reads N/A for their speedup, efficacy
 * and overhead): what is not a result, and why (--quiet: the JSON and CSV say). */
static void print_invalid(FILE *out, const RunRecord *r)
{
    for (size_t i = 0; i < r->count; i++)
        if (measurement_reported(&r->results[i]) && record_find_key(r, r->results[i].schedule->key) != NULL &&
            r->results[i].invalid)
            fprintf(out, "INVALID: %s is not a result: %s\n", r->results[i].schedule->name, r->results[i].invalid_reason);
}

void print_run_end(FILE *out, const RunRecord *r)
{
    if (r->locality != NULL)
        print_locality_after(out, r->locality);
    print_targets(out, r);
    print_noise_timed(out, r);
    print_process_cost(out, &r->cost);   /* this rank's process (rank 0's in the report) */
    print_wall_time(out, r);
    if (r->outliers != NULL)
        print_rank_outliers(out, r->run, r->outliers);
    print_invalid(out, r);
}
