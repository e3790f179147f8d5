/* clomp --limits in the text report: the "Node limits" block, after
 * everything else (appended): the team and the clock, each pair's round
 * trip (in full up to TEXT_FULL_TABLE_ROWS pairs), the pairs by class (a line each), then
 * every figure of --limits' slice of process_figures.c, one line each. */
#include "text_report.h"

#include <math.h>

#include "process_figures.h"
#include "text_format.h"

/* "151 ns, 95% CI 140 .. 160" to the digits the interval supports. */
static void print_value(FILE *out, const ProcessFigure *f, const LimitValue *v)
{
    int decimals = f->unit[0] == 'x' ? 2 : f->unit[0] == 'c' ? 0 : 1;
    double u = v->has_ci ? 0.5 * (v->high - v->low) : 0.0;
    char a[32];
    fprintf(out, "%s %s", measured_text(a, sizeof a, v->value, u, decimals), f->unit);
    if (v->has_ci) {
        char lo[32], hi[32];
        fprintf(out, ", 95%% CI %s .. %s", bound_text(lo, sizeof lo, v->low, u, decimals, -1),
                bound_text(hi, sizeof hi, v->high, u, decimals, +1));
    }
}

static void print_figure(FILE *out, const LimitsRecord *l, const ProcessFigure *f)
{
    LimitValue v = f->value(l);
    if (!v.available || v.withheld) {
        /* No value to carry the unit: the label does ("Latency bound, cycles"), and the line says what is missing. */
        char label[64];
        snprintf(label, sizeof label, "%s, %s", f->label, f->unit[0] == 'x' ? "ratio" : f->unit);
        if (!v.available)
            fprintf(out, "%-38s N/A (%s)\n", label, v.missing != NULL ? v.missing : "not measured");
        else   /* a figure from others that are not results */
            fprintf(out, "%-38s N/A (not a result: %s)\n", label, v.not_a_result);
        return;
    }
    fprintf(out, "%-38s ", f->label);
    print_value(out, f, &v);
    if (f->timing < 0 && v.note != NULL)
        fprintf(out, " (%s)", v.note);
    if (f->timing >= 0) {
        const LimitTiming *t = &l->timing[f->timing];
        fprintf(out, "; %ld per repetition", t->innerreps);
        if (t->disturbed_reps >= 0)
            fprintf(out, ", %ld of %ld repetitions preempted", t->disturbed_reps, t->reps);
        if (t->reference)
            fprintf(out, ", %ld checked", t->checked_reps);
    }
    if (v.not_a_result != NULL)
        fprintf(out, "; INVALID: not a result: %s", v.not_a_result);
    fputc('\n', out);
}

static void print_pairs(FILE *out, const LimitsRecord *l)
{
    fprintf(out, "Pairs: %ld (%ld measured, %ld on one CPU: not measured, %ld not a result, %ld moved), "
                 "%ld round trips each, the median of batches of 32\n",
            l->pair_count, l->pairs_measured, l->pairs_same_cpu, l->pairs_invalid, l->pairs_moved, l->trips_per_pair);
    if (l->pair_count <= TEXT_FULL_TABLE_ROWS)
        for (long p = 0; p < l->pair_count; p++) {
            const LimitPair *q = &l->pairs[p];
            fprintf(out, "  threads %d-%d  CPUs %d-%d  %-14s ", q->thread_a, q->thread_b, q->cpu_a, q->cpu_b,
                    pair_class_name(q->pair_class));
            if (q->batches == 0)
                fprintf(out, "not measured");
            else
                fprintf(out, "%.1f ns%s", q->round_trip_ns,
                        q->invalid ? " (not a result: mean and median disagree)" : "");
            fprintf(out, "%s\n", q->moved ? " (moved: threads not bound)" : "");
        }
    int any = 0;
    for (int c = 0; c < PAIR_CLASSES; c++)
        any |= l->classes[c].pairs > 0;
    fprintf(out, "Pairs by class%s (topology: ", any ? "" : ": no pair's round trip is a result");
    print_escaped(out, l->topology_root);
    fprintf(out, ")%s\n", any ? ":" : "");
    /* One line a class (five at most): a line of them all outgrew a terminal on a node with every class. */
    for (int c = 0; c < PAIR_CLASSES; c++) {
        const LimitSpread *s = &l->classes[c];
        if (s->pairs > 0)
            fprintf(out, "  %s: %ld pair%s, median %.1f ns (%.1f .. %.1f)\n", pair_class_name((PairClass)c), s->pairs,
                    s->pairs == 1 ? "" : "s", s->median_ns, s->min_ns, s->max_ns);
    }
}

void print_limits(FILE *out, const RunRecord *r)
{
    const LimitsRecord *l = r->limits;
    if (l == NULL)
        return;
    fprintf(out, "------ Node limits (--limits: what the node allows on this team, beside OpenMP) ------\n");
    if (l->not_measured[0] != '\0') {
        fprintf(out, "Node limits: N/A (%s)\n", l->not_measured);
        fprintf(out, "------ (docs/limits.md) ------\n");
        return;
    }
    fprintf(out, "Team: %d threads, as the run's (its binding); ceil(log2 %d) = %d round%s\n", l->threads, l->threads,
            l->rounds, l->rounds == 1 ? "" : "s");
    if (l->cycles_source == NULL)
        fprintf(out, "Core clock: unknown: no figure in cycles\n");
    else if (l->clock.measured)
        fprintf(out, "Core clock: %.2f GHz, the team's median (%.2f .. %.2f), measured just before: the cycles "
                     "below count it\n", l->clock.median_ghz, l->clock.min_ghz, l->clock.max_ghz);
    else
        fprintf(out, "Core clock: %.2f GHz (--ghz): the cycles below count it\n", l->cycles_ghz);
    fprintf(out, "Repetitions: %ld of each barrier and fork/join, in turn, each aimed at %.0f us; medians and 95%% "
                 "intervals %s; each reference checked after every repetition (%ld episodes)\n",
            r->run->limits.reps, r->run->limits.target_us, INTERVAL_SCOPE, l->checked_episodes);
    if (l->busy)
        fprintf(out, "Busy: YES, no multiple or bound is a result: %s\n", l->busy_reason);
    print_pairs(out, l);
    for (size_t i = 0; i < limit_figure_count; i++)
        print_figure(out, l, &limit_figures[i]);
    fprintf(out, "LLNL's barrier target: < %.0f cycles; the latency bound is what a barrier built from line transfers "
                 "between pairs needs at this team's placement\n", l->llnl_barrier_cycles);
    fprintf(out, "------ (docs/limits.md) ------\n");
}
