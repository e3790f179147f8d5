/* The noise census in the text report: a block of `Noise` lines in the
 * set-up (the probe, one line per thread of the team), one `Noise` line in
 * every measurement's block after CLOMP 1.2's lines, and the per-thread
 * totals of the timed runs at the end. Reads the record only. */
#include "text_format.h"
#include "text_report.h"

#include <math.h>
#include <stdlib.h>

/* The time beyond the median quantum, as a percentage that shows small losses. */
static double percent(double fraction)
{
    return fraction * 100.0;
}

static void name_noise_thread(FILE *out, int i, const void *ctx)
{
    fprintf(out, "thread %d on cpu %d", i, ((const NoiseCensus *)ctx)->thread[i].cpu);
}

/* Beyond TEXT_FULL_TABLE_ROWS threads, one summary line per figure of the
 * per-thread table (the JSON's noise_census.threads keeps every row). */
typedef double (*NoiseFigure)(const NoiseThread *n);
static double lost_percent(const NoiseThread *n) { return percent(n->lost_fraction); }
static double largest_detour(const NoiseThread *n) { return n->largest_detour_us; }
static double p99_over_fastest(const NoiseThread *n) { return n->fastest_us > 0.0 ? n->p99_us / n->fastest_us : NAN; }
static double disturbed_chunks(const NoiseThread *n) { return (double)n->disturbed_chunks; }
static double switches(const NoiseThread *n) { return (double)n->switches; }
static double migrations(const NoiseThread *n) { return (double)n->migrations; }

typedef struct NoiseSummary {
    const char *heading;   /* a format taking the threads and TEXT_FULL_TABLE_ROWS */
    const char *label[3];
    NoiseFigure figure[3];
} NoiseSummary;
static const NoiseSummary probe_summary = {
    "    Noise threads: %d, summarised (more than %d; every thread's probe is in the JSON's noise_census.threads)\n",
    {"Noise lost %", "Noise detour us", "Noise p99/fastest"},
    {lost_percent, largest_detour, p99_over_fastest}};
static const NoiseSummary timed_summary = {
    "      Noise timed: %d threads, summarised (more than %d; every thread is in the JSON's noise_census.threads)\n",
    {"Noise disturbed", "Noise switches", "Noise migrations"},
    {disturbed_chunks, switches, migrations}};

/* 1 when the team is too large for a line per thread and the summary was printed. */
static int print_noise_summary(FILE *out, const NoiseCensus *c, const NoiseSummary *s)
{
    if (c->threads <= TEXT_FULL_TABLE_ROWS)
        return 0;
    fprintf(out, s->heading, c->threads, TEXT_FULL_TABLE_ROWS);
    double *v = malloc((size_t)c->threads * sizeof *v);
    for (int f = 0; v != NULL && f < 3; f++) {
        for (int t = 0; t < c->threads; t++)
            v[t] = s->figure[f](&c->thread[t]);
        print_table_summary(out, s->label[f], v, c->threads, name_noise_thread, c);
    }
    free(v);
    return 1;
}

/* clomp_mpi: every rank's own busy verdict (rank 0's is the Noise busy line),
 * the busy ones named: they are left out of the rank outliers. */
#define NAMED_BUSY_RANKS 8
static void print_rank_busy(FILE *out, const MpiSetup *mpi)
{
    if (mpi->info == NULL)
        return;
    int busy = 0, judged = 0;
    for (int r = 0; r < mpi->ranks; r++) {
        judged += mpi->info[r].busy_judged;
        busy += mpi->info[r].busy_judged && mpi->info[r].busy;
    }
    fprintf(out, "   MPI ranks busy: %d of %d (each rank's own noise census", busy, mpi->ranks);
    if (judged < mpi->ranks)
        fprintf(out, "; %d not probed", mpi->ranks - judged);
    fputc(')', out);
    for (int r = 0, named = 0; r < mpi->ranks && named < NAMED_BUSY_RANKS; r++) {
        const RankInfo *info = &mpi->info[r];
        if (!(info->busy_judged && info->busy))
            continue;
        fprintf(out, "%s rank %d on ", named++ == 0 ? ":" : ",", r);
        print_escaped(out, info->host);
        fprintf(out, " (lost %.0f%%)", 100.0 * info->lost_fraction);
    }
    if (busy > NAMED_BUSY_RANKS)
        fprintf(out, " and %d more", busy - NAMED_BUSY_RANKS);
    fputc('\n', out);
}

void print_noise_census(FILE *out, const RunRecord *r)
{
    const NoiseCensus *c = r->noise;
    if (c == NULL)
        return;
    if (!c->enabled) {
        fprintf(out, "     Noise census: off (--noise-census=off): no probe, no per-chunk sampling\n");
        return;
    }
    if (!c->probed) {
        fprintf(out, "     Noise census: not measured (%s)\n", c->note);
        return;
    }
    fprintf(out, "     Noise census: %ld fixed-work quanta of %.2f us (%ld dependent multiply-adds) per thread, "
                 "%d threads at once, %.0f ms; lost = time beyond the median quantum%s%s\n",
            c->quanta, c->quantum_us, c->quantum_work, c->threads, c->probe_seconds * 1e3,
            c->note[0] != '\0' ? "; " : "", c->note);
    if (!print_noise_summary(out, c, &probe_summary))
        for (int t = 0; t < c->threads; t++) {
            const NoiseThread *n = &c->thread[t];
            fprintf(out, "   Noise thread %d: CPU %d, quantum fastest %.3f median %.3f p99 %.3f us (p99 %.2fx fastest), "
                         "lost %.3f%%, largest detour %.1f us\n",
                    t, n->cpu, n->fastest_us, n->median_us, n->p99_us, n->fastest_us > 0.0 ? n->p99_us / n->fastest_us : NAN,
                    percent(n->lost_fraction), n->largest_detour_us);
        }
    if (c->busy_judged && c->busy)
        fprintf(out, "       Noise busy: YES: %s\n", c->busy_reason);
    else if (c->busy_judged)
        fprintf(out, "       Noise busy: no (busy: a thread lost %.0f%% of its time or more)\n", 100.0 * c->busy_threshold);
    print_rank_busy(out, &r->run->mpi);
    if (c->state == NULL && c->note[0] != '\0')
        fprintf(out, "   Noise sampling: off (%s)\n", c->note);
}

void print_noise_line(FILE *out, const Measurement *m)
{
    const MeasurementNoise *n = &m->noise;
    if (!n->sampled)
        return;
    fprintf(out, "%13s    Noise: %ld of %ld %s disturbed (%ld involuntary context switch%s, %ld migration%s "
                 "over %d thread%s)", m->schedule->name, n->disturbed, n->chunks,
            n->whole_runs ? "timed runs (chunks end inside its region)" : "chunks", n->switches,
            n->switches == 1 ? "" : "es", n->migrations, n->migrations == 1 ? "" : "s", n->threads,
            n->threads == 1 ? "" : "s");
    if (!isnan(n->steal_seconds))
        fprintf(out, "; steal %.2f s", n->steal_seconds);
    if (n->interrupts >= 0)
        fprintf(out, "; %ld interrupts on the team's CPUs", n->interrupts);
    fprintf(out, "\n");
}

void print_noise_timed(FILE *out, const RunRecord *r)
{
    const NoiseCensus *c = r->noise;
    if (c == NULL || !c->probed || c->state == NULL)
        return;
    if (!print_noise_summary(out, c, &timed_summary))
        for (int t = 0; t < c->threads; t++) {
            const NoiseThread *n = &c->thread[t];
            fprintf(out, "    Noise timed %d: %ld of %ld chunks disturbed, %ld involuntary context switches, %ld migrations\n",
                    t, n->disturbed_chunks, n->chunks, n->switches, n->migrations);
        }
    fprintf(out, "  Noise timed all:");
    if (c->steal_reported)
        fprintf(out, " steal %.2f s,", c->steal_seconds);
    else
        fprintf(out, " steal not reported,");
    if (c->interrupts_readable)
        fprintf(out, " %ld interrupts on the team's CPUs,", c->interrupts);
    fprintf(out, " sampling took %.1f ms outside the clock\n", c->sampling_seconds * 1e3);
}
