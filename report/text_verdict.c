/* --verdict: the answer to the question clomp asks, in a few lines a
 * newcomer can read, from the figures the report already printed. */
#include "text_report.h"

#include <math.h>
#include <string.h>

#include "../measure/llnl_targets.h"
#include "figures.h"
#include "text_format.h"

static void print_speedup(FILE *out, const RunRecord *r, const MeasurementFigures *stat, const MeasurementFigures *best)
{
    fprintf(out, "Speedup: Static OMP runs %.2fx as fast as Serial Ref on %ld threads (median chunks", stat->speedup,
            r->run->numThreads);
    if (best != NULL)
        fprintf(out, "; Bestcase OMP, the most these threads can give here: %.2fx", best->speedup);
    fprintf(out, "): ");
    if (stat->speedup > 1.0)
        fprintf(out, "a loop of %ld zones still speeds up.\n", r->run->numParts * r->run->zonesPerPart);
    else
        fprintf(out, "a loop of %ld zones does NOT speed up: threading costs more than it saves.\n",
                r->run->numParts * r->run->zonesPerPart);
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
    MeasurementFigures fs, fb;
    measurement_figures(r, stat, &fs);
    if (best != NULL)
        measurement_figures(r, best, &fb);
    print_speedup(out, r, &fs, best != NULL ? &fb : NULL);
    if (best != NULL)
        print_overhead(out, r, &fs);
    print_targets_line(out, r);
    /* What the verdict rests on: the schedules above and the probes LLNL's targets judge. */
    const Measurement *rests_on[] = {serial, best, stat, record_find_key(r, "barrier"), record_find_key(r, "parallel_for")};
    int noisy_any = 0, unmeasured = stat->stats.n < 2;
    for (size_t i = 0; i < sizeof rests_on / sizeof rests_on[0]; i++)
        noisy_any |= rests_on[i] != NULL && rests_on[i]->noisy;   /* its WARNING line says so */
    /* An overhead whose interval (or, with 2-5 rounds, whose rounds' range) reaches across 0. */
    int straddles = (!isnan(fs.overhead_low) && fs.overhead_low <= 0.0 && fs.overhead_high >= 0.0) ||
                    (stat->has_round_range && stat->round_range_low <= 0.0 && stat->round_range_high >= 0.0);
    if (unmeasured) {
        fprintf(out, "Noise: not measured (one timed chunk per run: nothing tells noise from a real cost). "
                     "Run it with the default chunks, or --trials=20 and --rounds=10, and compare separate "
                     "processes with run_clomp.sh --replicates.\n");
    } else if (noisy_any || straddles) {
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
