/* --verdict: the answer block at the very end of the report (issue 43,
 * item 3): a few lines a newcomer can read, from the figures the report
 * already printed: the speedup of the target loop with its interval, the
 * project's overhead (one figure, its statistic named), barrier and
 * fork/join against LLNL's targets, and whether the machine was quiet
 * enough to say so. On a busy machine: that, in one sentence, what to do,
 * and no conclusion. */
#include "text_report.h"

#include <math.h>
#include <string.h>

#include "../measure/llnl_targets.h"
#include "figure_catalogue.h"
#include "figures.h"
#include "text_format.h"

#define RERUN "run it again on an idle node with the threads bound (make run binds them: OMP_PROC_BIND=close OMP_PLACES=cores)"

/* "1.71x (95% CI 1.62 .. 1.80)" to the precision its interval supports (UNIT after the value); without an
 * interval the value alone. */
static const char *with_interval(char *buf, size_t size, double value, double low, double high, int decimals,
                                 const char *unit)
{
    char a[32], b[32], c[32];
    if (isnan(low) || isnan(high)) {
        snprintf(buf, size, "%s%s", measured_text(a, sizeof a, value, 0.0, decimals), unit);
        return buf;
    }
    double u = 0.5 * (high - low);
    snprintf(buf, size, "%s%s (95%% CI %s .. %s)", measured_text(a, sizeof a, value, u, 3), unit,
             bound_text(b, sizeof b, low, u, 3, -1), bound_text(c, sizeof c, high, u, 3, +1));
    return buf;
}

static void print_speedup(FILE *out, const RunRecord *r, const MeasurementFigures *stat, const MeasurementFigures *best,
                          int conclude)
{
    char v[96];
    long zones = r->run->numParts * r->run->zonesPerPart;
    fprintf(out, "Speedup:      %s, Static OMP over Serial Ref on %ld threads (median chunks): ",
            with_interval(v, sizeof v, stat->speedup, stat->speedup_low, stat->speedup_high, 2, "x"), r->run->numThreads);
    if (!conclude)
        fprintf(out, "no conclusion about this %ld-zone loop (too noisy: below).\n", zones);
    else if (!isnan(stat->speedup_low) && stat->speedup_low > 1.0)
        fprintf(out, "threading this %ld-zone loop pays.\n", zones);
    else if (!isnan(stat->speedup_high) && stat->speedup_high < 1.0)
        fprintf(out, "threading this %ld-zone loop does NOT pay: it costs more than it saves.\n", zones);
    else if (isnan(stat->speedup_low))
        fprintf(out, "%s.\n", stat->speedup > 1.0 ? "it speeds up (no interval to say how surely)"
                                                  : "it does NOT speed up (no interval to say how surely)");
    else
        fprintf(out, "no conclusion: its interval holds 1 (as fast threaded as serial).\n");
    if (best != NULL && !isnan(best->speedup))
        fprintf(out, "              (Bestcase OMP, the most these threads can give here: %.2fx)\n", best->speedup);
}

static void print_overhead(FILE *out, const RunRecord *r, const Measurement *stat)
{
    double us, low, high;
    char v[96];
    CatalogueFigure f;
    if (!project_overhead(r, stat, &us, &low, &high) || !figure_of(stat->schedule, project_overhead_kind, &f))
        return;
    fprintf(out, "Overhead:     %s", with_interval(v, sizeof v, us, low, high, 2, " us per loop"));
    if (r->run->cycles.source != CYCLES_UNAVAILABLE) {
        char a[32];
        double u = isnan(low) ? 0.0 : 0.5 * (cycles_from_us(&r->run->cycles, high) - cycles_from_us(&r->run->cycles, low));
        fprintf(out, " = %s %s", measured_text(a, sizeof a, cycles_from_us(&r->run->cycles, us), u, 0),
                cycle_clock_text(&r->run->cycles));
    }
    fprintf(out, "\n              (%s: the project's overhead, clomp --list-figures)\n", f.label);
}

/* A probe's cycles against its LLNL target ("no LLNL target" where none is judged). */
static void print_target(FILE *out, const RunRecord *r, const char *what, const LlnlTarget *t)
{
    TargetJudgement j;
    char v[96];
    judge_llnl_target(t, record_find_key(r, t->schedule_key), &r->run->cycles, &j);
    const Measurement *m = record_find_key(r, t->schedule_key);
    fprintf(out, "%-13s ", what);
    if (m != NULL && m->invalid) {
        fprintf(out, "not a result (%s is invalid: its INVALID line says why)\n", m->schedule->name);
        return;
    }
    if (!j.available || isnan(j.cycles)) {
        fprintf(out, "%s\n", j.available ? "no cycle count (no cycle rate)" : "not measured");
        return;
    }
    fprintf(out, "%s; ", with_interval(v, sizeof v, j.cycles, j.has_ci ? j.cycles_low : NAN,
                                       j.has_ci ? j.cycles_high : NAN, 0, " cycles"));
    if (t->below_cycles > 0.0)
        fprintf(out, "LLNL target < %.0f core cycles: %s\n", t->below_cycles, j.verdict != NULL ? j.verdict : "unavailable");
    else
        fprintf(out, "no LLNL target\n");
}

static void print_targets(FILE *out, const RunRecord *r)
{
    static const struct {
        const char *schedule, *what;
    } shown[] = {{"barrier", "Barrier:"}, {"parallel_for", "Parallel for:"}, {"parallel", "Fork/join:"}};
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
        for (size_t t = 0; t < llnl_target_count; t++)
            if (strcmp(llnl_targets[t].schedule_key, shown[i].schedule) == 0)
                print_target(out, r, shown[i].what, &llnl_targets[t]);
}

/* The whole answer on a busy machine: one sentence, what to do. */
static void print_busy(FILE *out, const NoiseCensus *c)
{
    fprintf(out, "Busy:         this machine was busy (%s), so these figures measure the contention, not OpenMP: no "
                 "conclusion.\n", c->busy_reason);
    fprintf(out, "What to do:   stop the other work (or pick idle cores), then " RERUN ".\n");
}

void print_verdict(FILE *out, const RunRecord *r)
{
    const Measurement *stat = record_find_key(r, "static"), *best = record_find_key(r, "bestcase");
    const Measurement *serial = record_find_key(r, "serial");
    fprintf(out, "----------- Answer ----------\n");
    if (stat == NULL || serial == NULL) {
        fprintf(out, "No answer:    it needs Serial Ref and Static OMP (and Bestcase OMP for the overhead); "
                     "--schedules left one out.\n");
        return;
    }
    if (r->noise != NULL && r->noise->busy_judged && r->noise->busy) {
        print_busy(out, r->noise);
        return;
    }
    /* What the answer rests on: the schedules above and the probes LLNL's targets judge. */
    const Measurement *rests_on[] = {serial, best, stat, record_find_key(r, "barrier"), record_find_key(r, "parallel_for")};
    for (size_t i = 0; i < 3; i++)
        if (rests_on[i] != NULL && rests_on[i]->invalid) {
            fprintf(out, "Not a result: %s is invalid (%s): no conclusion about the speedup or the overhead.\n",
                    rests_on[i]->schedule->name, rests_on[i]->invalid_reason);
            fprintf(out, "What to do:   " RERUN ", and compare separate processes with run_clomp.sh --replicates.\n");
            return;
        }
    MeasurementFigures fs, fb;
    measurement_figures(r, stat, &fs);
    if (best != NULL)
        measurement_figures(r, best, &fb);
    int noisy_any = 0, unmeasured = stat->stats.n < 2;
    for (size_t i = 0; i < sizeof rests_on / sizeof rests_on[0]; i++)
        noisy_any |= rests_on[i] != NULL && rests_on[i]->noisy;   /* its WARNING line says so */
    double ov, ov_low, ov_high;
    int has_overhead = best != NULL && project_overhead(r, stat, &ov, &ov_low, &ov_high);
    /* An overhead whose interval (or, with 2-5 rounds, whose rounds' range) reaches across 0. */
    int straddles = (has_overhead && !isnan(ov_low) && ov_low <= 0.0 && ov_high >= 0.0) ||
                    (stat->has_round_range && stat->round_range_low <= 0.0 && stat->round_range_high >= 0.0);
    int too_noisy = !unmeasured && (noisy_any || straddles);
    long zones = r->run->numParts * r->run->zonesPerPart;
    fprintf(out, "Loop:         %ld zones (%ld parts x %ld), one process: %s\n", zones, r->run->numParts,
            r->run->zonesPerPart, "run_clomp.sh --replicates tells how far the next process lands");
    /* A speedup conclusion and "too noisy to say" never stand together. */
    print_speedup(out, r, &fs, best != NULL ? &fb : NULL, !too_noisy);
    if (has_overhead)
        print_overhead(out, r, stat);
    print_targets(out, r);
    if (unmeasured)
        fprintf(out, "Quiet enough: not measured (one timed chunk per run: nothing tells noise from a real cost); run "
                     "it with the default chunks, or --trials=20 --rounds=10.\n");
    else if (too_noisy)
        fprintf(out, "Quiet enough: no: %s; " RERUN ", add --rounds=10.\n",
                straddles ? "the overhead's interval (or its rounds' range) holds 0: a cost cannot be told from none"
                          : "chunk times vary by more than 10% (the WARNING lines)");
    else if (r->noise != NULL && r->noise->busy_judged)
        fprintf(out, "Quiet enough: yes: the noise census found no team thread losing %.0f%% or more of its time to other "
                     "work, and chunk times vary by less than 10%%.\n", 100.0 * r->noise->busy_threshold);
    else
        fprintf(out, "Quiet enough: chunk times vary by less than 10%%, but no noise census ran to say no CPU was busy.\n");
}
