/* --verdict: the answer to the question clomp asks, in a few lines a
 * newcomer can read, from the figures the report already printed. */
#include "text_report.h"

#include <math.h>
#include <string.h>

#include "../measure/llnl_targets.h"
#include "figures.h"
#include "text_format.h"

/* The speedup; its conclusion only when the figures can carry one
 * (`conclude` 0: too noisy, said on the Noise line below). */
static void print_speedup(FILE *out, const RunRecord *r, const MeasurementFigures *stat, const MeasurementFigures *best,
                          int conclude)
{
    long zones = r->run->numParts * r->run->zonesPerPart;
    fprintf(out, "Speedup: Static OMP runs %.2fx as fast as Serial Ref on %ld threads (median chunks", stat->speedup,
            r->run->numThreads);
    if (best != NULL && !isnan(best->speedup))
        fprintf(out, "; Bestcase OMP, the most these threads can give here: %.2fx", best->speedup);
    fprintf(out, "): ");
    if (!conclude)
        fprintf(out, "no conclusion about a loop of %ld zones: too noisy (below).\n", zones);
    else if (stat->speedup > 1.0)
        fprintf(out, "a loop of %ld zones still speeds up.\n", zones);
    else
        fprintf(out, "a loop of %ld zones does NOT speed up: threading costs more than it saves.\n", zones);
}

/* Instead of any conclusion: the census says the team did not have its
 * CPUs to itself (NOISE_BUSY_LOST_SHARE, docs/noise.md). */
static void print_busy(FILE *out, const NoiseCensus *c)
{
    fprintf(out, "This machine was busy: these figures measure the contention, not the node's OpenMP overhead (%s).\n",
            c->busy_reason);
    fprintf(out, "No conclusion: neither the speedup nor the overhead nor LLNL's targets are judged from a busy machine. "
                 "Run it again on an idle node with the threads bound (OMP_PROC_BIND=close OMP_PLACES=cores); the "
                 "set-up's Noise lines show whether the team had its CPUs.\n");
}

/* Instead of any conclusion: a figure the verdict rests on is not a result. */
static void print_invalid(FILE *out, const Measurement *m)
{
    fprintf(out, "Not a result: %s is invalid (%s), so no conclusion is drawn about the speedup or the overhead. "
                 "Run it again on an idle node with the threads bound, and compare separate processes with "
                 "run_clomp.sh --replicates.\n",
            m->schedule->name, m->invalid_reason);
}

static void print_overhead(FILE *out, const RunRecord *r, const MeasurementFigures *stat)
{
    char a[32];
    double u = isnan(stat->overhead_low) ? 0.0 : 0.5 * (stat->overhead_high - stat->overhead_low);
    fprintf(out, "Overhead: %s us per parallel for against Bestcase OMP", measured_text(a, sizeof a, stat->overhead, u, 3));
    if (!isnan(stat->overhead_low)) {
        char b[32], c[32];
        fprintf(out, " (95%% CI %s .. %s, within this process)", measured_text(b, sizeof b, stat->overhead_low, u, 3),
                measured_text(c, sizeof c, stat->overhead_high, u, 3));
    }
    if (r->run->cycles.source != CYCLES_UNAVAILABLE)
        fprintf(out, " = %s %s",
                measured_text(a, sizeof a, cycles_from_us(&r->run->cycles, stat->overhead),
                              cycles_from_us(&r->run->cycles, u), 0),
                cycle_clock_text(&r->run->cycles));
    fprintf(out, ".\n");
}

static void print_targets_line(FILE *out, const RunRecord *r)
{
    const char *separator = "";
    fprintf(out, "LLNL targets:");
    for (size_t t = 0; t < llnl_target_count; t++) {
        if (!(llnl_targets[t].below_cycles > 0.0))
            continue;
        TargetJudgement j;
        judge_llnl_target(&llnl_targets[t], record_find_key(r, llnl_targets[t].schedule_key), &r->run->cycles, &j);
        fprintf(out, "%s %s < %.0f core cycles: %s", separator, llnl_targets[t].label, llnl_targets[t].below_cycles,
                j.available && j.verdict != NULL ? j.verdict : "not measured");
        separator = ";";
    }
    fprintf(out, " (the section above gives the counts and the clock).\n");
}

void print_verdict(FILE *out, const RunRecord *r)
{
    const Measurement *stat = record_find_key(r, "static"), *best = record_find_key(r, "bestcase");
    const Measurement *serial = record_find_key(r, "serial");
    fprintf(out, "----------- Verdict ----------\n");
    if (stat == NULL || serial == NULL) {
        fprintf(out, "No verdict: it needs Serial Ref and Static OMP (and Bestcase OMP for the overhead); "
                     "--schedules left one out.\n");
        return;
    }
    if (r->noise != NULL && r->noise->busy_judged && r->noise->busy) {
        print_busy(out, r->noise);
        return;
    }
    /* What the verdict rests on: the schedules above and the probes LLNL's targets judge. */
    const Measurement *rests_on[] = {serial, best, stat, record_find_key(r, "barrier"), record_find_key(r, "parallel_for")};
    for (size_t i = 0; i < 3; i++)
        if (rests_on[i] != NULL && rests_on[i]->invalid) {
            print_invalid(out, rests_on[i]);
            return;
        }
    MeasurementFigures fs, fb;
    measurement_figures(r, stat, &fs);
    if (best != NULL)
        measurement_figures(r, best, &fb);
    int noisy_any = 0, unmeasured = stat->stats.n < 2;
    for (size_t i = 0; i < sizeof rests_on / sizeof rests_on[0]; i++)
        noisy_any |= rests_on[i] != NULL && rests_on[i]->noisy;   /* its WARNING line says so */
    /* An overhead whose interval (or, with 2-5 rounds, whose rounds' range) reaches across 0. */
    int straddles = (!isnan(fs.overhead_low) && fs.overhead_low <= 0.0 && fs.overhead_high >= 0.0) ||
                    (stat->has_round_range && stat->round_range_low <= 0.0 && stat->round_range_high >= 0.0);
    int too_noisy = !unmeasured && (noisy_any || straddles);
    /* A speedup conclusion and "too noisy to say" never stand together. */
    print_speedup(out, r, &fs, best != NULL ? &fb : NULL, !too_noisy);
    if (best != NULL)
        print_overhead(out, r, &fs);
    print_targets_line(out, r);
    if (unmeasured) {
        fprintf(out, "Noise: not measured (one timed chunk per run: nothing tells noise from a real cost). "
                     "Run it with the default chunks, or --trials=20 and --rounds=10, and compare separate "
                     "processes with run_clomp.sh --replicates.\n");
    } else if (too_noisy) {
        fprintf(out, "Too noisy to say: %s. Run it on an idle node with the threads bound (OMP_PROC_BIND=close "
                     "OMP_PLACES=cores), add --rounds=10, and compare separate processes with "
                     "run_clomp.sh --replicates.\n",
                straddles ? "the overhead's interval (or its rounds' range) includes 0, so it cannot tell a cost from none"
                          : "chunk times vary by more than 10% (see the WARNING lines)");
    } else {
        fprintf(out, "Noise: chunk times vary by less than 10%%: these figures are stable within this process "
                     "(run_clomp.sh --replicates tells how far the next process lands).\n");
    }
}
