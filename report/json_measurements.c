#include "json_sections.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"

static void write_statistics(JsonWriter *w, const SampleStats *st)
{
    json_object_begin(w, "statistics");
    json_integer(w, "n", st->n);
    json_number(w, "min", st->min);
    json_number(w, "max", st->max);
    json_number(w, "median", st->median);
    json_number(w, "mean", st->mean);
    json_number(w, "sd", st->sd);
    json_number(w, "cv", st->cv);
    json_integer(w, "outliers", st->outliers);
    json_interval(w, "median_ci_95", st->has_ci, st->ci_low, st->ci_high);
    json_number(w, "median_ci_coverage", st->has_ci ? st->ci_coverage : NAN);
    json_string(w, "median_ci_scope", st->has_ci ? INTERVAL_SCOPE : NULL);
    json_object_end(w);
}

/* CLOMP 1.2's "MPI Dist" line: the runtime over the ranks, and the rank whose figures are shown. */

/* The paired overhead (schema 1.x, docs/json-schema.md): null when not
 * measured (not a checked schedule, no Bestcase, incomplete). */
static void write_paired_overhead(JsonWriter *w, const PairedOverhead *p, const MeasurementFigures *f)
{
    if (p == NULL || p->order == PAIRED_NOT_MEASURED) {
        json_null(w, "paired_overhead");
        return;
    }
    const ShiftEstimate *s = &p->shift;
    json_object_begin(w, "paired_overhead");
    /* null where the measurement (or its Bestcase) is not a result, as every other overhead */
    json_number(w, "us_per_loop", f->paired);
    json_interval(w, "ci_95", !isnan(f->paired_low), f->paired_low, f->paired_high);
    json_number(w, "ci_coverage", s->has_ci ? s->coverage : NAN);
    json_string(w, "ci_method", p->effective_blocks < (double)p->blocks
                                    ? "Hodges-Lehmann, signed-rank interval widened for serial correlation"
                                : s->ci_exact ? "Hodges-Lehmann, exact signed-rank interval (Walsh averages)"
                                              : "Hodges-Lehmann, signed-rank interval by the normal approximation");
    json_string(w, "ci_scope", INTERVAL_SCOPE);
    json_number(w, "p_value", s->p_value);
    json_bool(w, "p_value_exact", s->exact);
    json_string(w, "order", paired_order_text(p->order));
    json_string(w, "why_sequential", p->order == PAIRED_SEQUENTIAL ? p->why_sequential : NULL);
    json_integer(w, "blocks", p->blocks);
    if (p->order == PAIRED_INTERLEAVED) {
        char seed[24];
        snprintf(seed, sizeof seed, "%016llx", (unsigned long long)p->seed);
        json_integer(w, "subcycles_per_chunk", p->subcycles);
        json_string(w, "order_seed", seed);
        json_integer(w, "schedule_first", p->schedule_first);
        json_number(w, "seconds", p->seconds);
    } else {
        json_null(w, "subcycles_per_chunk");
        json_null(w, "order_seed");
        json_null(w, "schedule_first");
        json_null(w, "seconds");
    }
    json_number(w, "lag1_autocorrelation", p->lag1);
    json_number(w, "lag1_schedule", p->lag1_schedule);
    json_number(w, "lag1_bestcase", p->lag1_bestcase);
    json_integer(w, "batch_length", 1);   /* no batching since issue 44: kept for its readers */
    json_integer(w, "batches", p->blocks);
    json_number(w, "lag1_corrected", p->lag1_corrected);
    json_number(w, "effective_blocks", p->effective_blocks);
    json_number(w, "schedule_us_per_loop", p->schedule_us);
    json_number(w, "bestcase_us_per_loop", p->bestcase_us);
    json_object_end(w);
}

static void write_distribution(JsonWriter *w, const RankSpread *sp)
{
    json_object_begin(w, "mpi_distribution");
    json_number(w, "runtime_min_seconds", sp->min_seconds);
    json_integer(w, "min_rank", sp->min_rank);
    json_number(w, "runtime_max_seconds", sp->max_seconds);
    json_integer(w, "max_rank", sp->max_rank);
    json_number(w, "runtime_avg_seconds", sp->avg_seconds);
    json_integer(w, "used_rank", sp->used_rank);
    json_string(w, "used", sp->used_fastest ? "fastest" : "slowest");
    json_object_end(w);
}

void write_json_measurement(JsonWriter *w, const RunRecord *r, const Measurement *m)
{
    const Schedule *s = m->schedule;
    const RunSetup *run = r->run;
    MeasurementFigures f;
    measurement_figures(r, m, &f);
    int complete = f.complete;

    json_object_begin(w, NULL);
    json_string(w, "name", s->name);
    json_string(w, "key", s->key);
    json_string(w, "role", f.role);
    json_bool(w, "selected", measurement_runs(m));
    json_string(w, "unavailable", m->unavailable);
    json_string(w, "started", m->rounds_done > 0 ? m->started : NULL);
    if (f.threads >= 0)
        json_integer(w, "threads", f.threads);
    else
        json_null(w, "threads");
    if (m->team.nested) {
        json_object_begin(w, "nested_teams");
        json_integer(w, "outer", m->team.threads);
        json_integer(w, "inner_min", m->team.inner_min);
        json_integer(w, "inner_max", m->team.inner_max);
        int threads;
        json_integer(w, "distinct_cpus", team_distinct_cpus(&m->team, &threads));
        json_array_begin(w, "cpus");
        for (int g = 0; g < run->nestedOuter && g * run->nestedInner < m->team.cpu_slots; g++) {
            json_array_begin(w, NULL);
            for (int i = 0; i < run->nestedInner && g * run->nestedInner + i < m->team.cpu_slots; i++)
                if (m->team.cpu[g * run->nestedInner + i] >= 0)
                    json_integer(w, NULL, m->team.cpu[g * run->nestedInner + i]);
            json_array_end(w);
        }
        json_array_end(w);
        json_object_end(w);
    }
    if (s->delays && measurement_runs(m) && run->delay.length > 0) {
        json_object_begin(w, "delay");
        json_number(w, "target_us", run->delay.target_us);
        json_integer(w, "additions", run->delay.length);
        json_number(w, "us", run->delay.us);
        json_string(w, "method", "calibrated at start: best of 3 x 1000 calls, length grown x1.1 + 1 (EPCC)");
        json_object_end(w);
    }
    json_object_begin(w, "verification");
    json_string(w, "result", f.verification);
    json_integer(w, "verified_chunks", m->verified_chunks);
    json_object_end(w);
    if (f.has_checksum) {
        json_object_begin(w, "checksum");
        json_number(w, "sum", f.checksum.sum);
        json_number(w, "residue", f.checksum.residue);
        json_number(w, "total", f.checksum.total);
        json_object_end(w);
    } else {
        json_null(w, "checksum");
    }

    /* Figures only for complete measurements (a partial one would mislead):
     * the table's that have a member name, in its order. */
    FigureRow row = {r, m, &f};
    for (size_t c = 0; c < figure_column_count; c++) {
        char buf[64];
        if (figure_columns[c].json == NULL)
            continue;
        FigureCell cell = figure_columns[c].cell(&row, buf, sizeof buf);
        if (cell.kind == CELL_NUMBER)
            json_number(w, figure_columns[c].json, cell.number);
        else if (cell.kind == CELL_BOOL)
            json_bool(w, figure_columns[c].json, (int)cell.integer);
        else if (cell.kind == CELL_INTEGER)
            json_integer(w, figure_columns[c].json, cell.integer);
        else
            json_string(w, figure_columns[c].json, cell.text);
    }
    /* An invalid measurement's overhead (or one against an invalid Bestcase) is no result: null, as f's. */
    int has_ci = complete && m->has_overhead && m->has_overhead_ci && !isnan(f.overhead_low);
    json_interval(w, "overhead_ci_95", has_ci, m->overhead_low, m->overhead_high);
    json_string(w, "overhead_ci_method",
                !has_ci ? NULL
                : m->overhead_ci_paired ? "paired per-round differences, order statistics"
                                        : "pooled chunk medians, Bonferroni");
    json_string(w, "overhead_ci_scope", has_ci ? INTERVAL_SCOPE : NULL);
    json_interval(w, "speedup_ci_95", !isnan(f.speedup_low), f.speedup_low, f.speedup_high);
    json_interval(w, "overhead_round_range", complete && m->has_overhead && m->has_round_range && !isnan(f.overhead), m->round_range_low,
             m->round_range_high);
    write_paired_overhead(w, complete ? &m->paired : NULL, &f);
    json_integer(w, "subnormals", m->subnormals);
    write_json_ompt_measurement(w, run, m);
    if (m->spread.ranks > 0)
        write_distribution(w, &m->spread);
    if (complete)
        write_statistics(w, &m->stats);
    else
        json_null(w, "statistics");

    json_array_begin(w, "rounds");
    for (long round = 0; round < m->rounds_done; round++) {
        json_object_begin(w, NULL);
        json_integer(w, "round", round + 1);
        json_number(w, "runtime_seconds", m->round_seconds[round]);
        json_number(w, "median_us_per_loop", complete ? m->round_median_us[round] : NAN);
        json_array_begin(w, "chunks");
        for (long c = 0; c < m->chunks; c++) {
            long subcycles = chunk_subcycles(m, c);
            double seconds = m->chunk_seconds[round * m->chunks + c];
            json_object_begin(w, NULL);
            json_integer(w, "iterations", subcycles / SUBCYCLES_PER_ITERATION);
            json_number(w, "seconds", seconds);
            json_number(w, "us_per_loop", seconds * 1e6 / (double)subcycles);
            json_object_end(w);
        }
        json_array_end(w);
        json_object_end(w);
    }
    json_array_end(w);
    json_object_end(w);
}

/* One rank's figures for one measurement, as that rank summarized them
 * (overhead against its own bestcase); null figures until it is complete. */
static void write_rank_measurement(JsonWriter *w, const RunRecord *r, const Measurement *m)
{
    int complete = m->rounds_done == r->run->rounds && m->stats.n > 0;
    int checked = m->schedule->role == ROLE_REFERENCE || m->schedule->role == ROLE_CHECKED;
    json_object_begin(w, NULL);
    json_string(w, "key", m->schedule->key);
    json_integer(w, "rounds_done", m->rounds_done);
    json_number(w, "runtime_seconds", complete ? m->seconds : NAN);
    json_number(w, "us_per_loop", complete ? m->us : NAN);
    json_interval(w, "us_per_loop_ci_95", complete && m->stats.has_ci, m->stats.ci_low, m->stats.ci_high);
    json_number(w, "cv", complete ? m->stats.cv : NAN);
    json_number(w, "overhead_us_per_loop", complete && m->has_overhead && !m->invalid ? m->overhead_us : NAN);
    json_interval(w, "overhead_ci_95", complete && m->has_overhead && m->has_overhead_ci && !m->invalid, m->overhead_low,
             m->overhead_high);
    if (complete)
        json_bool(w, "valid", !m->invalid);
    else
        json_null(w, "valid");
    json_string(w, "invalid_reason", complete && m->invalid ? m->invalid_reason : NULL);
    json_integer(w, "verified_chunks", m->verified_chunks);
    if (checked && m->rounds_done > 0) {
        json_object_begin(w, "checksum");
        json_number(w, "sum", m->checksum.sum);
        json_number(w, "residue", m->checksum.residue);
        json_number(w, "total", m->checksum.total);
        json_object_end(w);
    } else {
        json_null(w, "checksum");
    }
    json_object_end(w);
}

/* Rank 0's cost of gathering the ranks' records (schema 1.5). */
static void write_json_gather(JsonWriter *w, const RankTable *t)
{
    if (t == NULL || t->gathers == 0) {
        json_null(w, "gather");
        return;
    }
    json_object_begin(w, "gather");
    json_integer(w, "count", t->gathers);
    json_integer(w, "bytes_per_rank", (long)t->gather_bytes_per_rank);
    json_number(w, "min_seconds", t->gather_min_seconds);
    json_number(w, "mean_seconds", t->gather_total_seconds / t->gathers);
    json_number(w, "total_seconds", t->gather_total_seconds);
    json_object_end(w);
}

/* clomp_mpi: the ranks, where they ran, each one's figures, the outliers. */
void write_json_mpi(JsonWriter *w, const RunRecord *r)
{
    const MpiSetup *mpi = &r->run->mpi;
    json_object_begin(w, "mpi");
    json_integer(w, "ranks", mpi->ranks);
    json_string(w, "thread_level", mpi->thread_level);
    json_integer(w, "timeout_seconds", mpi->timeout);
    json_array_begin(w, "per_rank");
    for (int rank = 0; mpi->info != NULL && rank < mpi->ranks; rank++) {
        const RankInfo *info = &mpi->info[rank];
        json_object_begin(w, NULL);
        json_integer(w, "rank", info->rank);
        json_string(w, "host", info->host);
        json_string(w, "cpus", info->cpus);
        json_integer(w, "cpu_count", info->cpu_count);
        /* Its own noise census's busy verdict (schema 1.11): null when its probe did not run. */
        if (info->busy_judged)
            json_bool(w, "noise_busy", info->busy);
        else
            json_null(w, "noise_busy");
        json_number(w, "noise_lost_fraction", info->busy_judged ? info->lost_fraction : NAN);
        json_string(w, "noise_busy_reason", info->busy_judged && info->busy ? info->busy_reason : NULL);
        json_array_begin(w, "measurements");
        const RankTable *t = r->rank_table;
        for (size_t i = 0; t != NULL && t->results != NULL && i < t->count; i++) {
            const Measurement *m = &t->results[(size_t)rank * t->count + i];
            if (m->schedule != NULL && m->selected)
                write_rank_measurement(w, r, m);
        }
        json_array_end(w);
        json_object_end(w);
    }
    json_array_end(w);
    write_json_gather(w, r->rank_table);
    const RankOutliers *o = r->outliers;
    if (o == NULL) {
        json_null(w, "outliers");
    } else {
        json_object_begin(w, "outliers");
        json_bool(w, "judged", o->judged);
        json_integer(w, "busy_ranks", o->busy);
        json_number(w, "serial_median_us_per_loop", o->serial_median);
        json_number(w, "static_overhead_median_us_per_loop", o->overhead_median);
        json_array_begin(w, "ranks");
        for (size_t k = 0; k < o->count; k++) {
            const RankOutlier *x = &o->item[k];
            json_object_begin(w, NULL);
            json_integer(w, "rank", x->rank);
            json_string(w, "host", mpi->info != NULL ? mpi->info[x->rank].host : NULL);
            json_string(w, "figure", x->figure);
            json_number(w, "value_us_per_loop", x->value);
            json_number(w, "median_us_per_loop", x->median);
            json_number(w, "deviation_us_per_loop", x->deviation);
            json_number(w, "threshold_us_per_loop", x->threshold);
            json_object_end(w);
        }
        json_array_end(w);
        json_object_end(w);
    }
    json_object_end(w);
}

