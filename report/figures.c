#include "figures.h"

#include <math.h>
#include <string.h>

const Measurement *record_find(const RunRecord *r, ScheduleRole role, const char *key)
{
    const Measurement *m = r->results != NULL ? find_measurement(r->results, r->count, role, key) : NULL;
    return m != NULL && m->rounds_done == r->run->rounds && m != r->failed ? m : NULL;
}

const Measurement *record_find_key(const RunRecord *r, const char *key)
{
    const Schedule *s = find_schedule(key);
    return s != NULL ? record_find(r, s->role, s->key) : NULL;
}

const char *record_status(const RunRecord *r)
{
    return r->exit_status == 0 ? "ok" : r->failed != NULL ? "verification failed" : "failed";
}

static const char *verification_text(const RunRecord *r, const Measurement *m)
{
    if (m == r->failed)
        return "failed";
    if (m->rounds_done == 0)
        return "not run";
    switch (m->schedule->role) {
    case ROLE_REFERENCE:
        return "reference";
    case ROLE_CHECKED:
        return "passed";
    case ROLE_BESTCASE:
        return "skipped";
    default:
        return "not applicable";
    }
}

void measurement_figures(const RunRecord *r, const Measurement *m, MeasurementFigures *f)
{
    const Schedule *s = m->schedule;
    const Measurement *serial = record_find(r, ROLE_REFERENCE, NULL), *bestcase = record_find(r, ROLE_BESTCASE, NULL);
    int complete = measurement_runs(m) && m->rounds_done == r->run->rounds && m != r->failed;

    memset(f, 0, sizeof *f);
    f->complete = complete;
    f->role = schedule_role_text(s->role);
    f->verification = verification_text(r, m);
    f->threads = s->uses_threads && m->rounds_done > 0 ? (m->team.nested ? m->team.inner_total : m->team.threads) : -1;
    f->has_checksum = (s->role == ROLE_REFERENCE || s->role == ROLE_CHECKED) && complete;
    if (f->has_checksum)
        f->checksum = m->checksum;

    f->runtime_seconds = complete ? m->seconds : NAN;
    f->us = complete ? m->us : NAN;
    f->us_low = complete && m->stats.has_ci ? m->stats.ci_low : NAN;
    f->us_high = complete && m->stats.has_ci ? m->stats.ci_high : NAN;
    f->cv = complete ? m->stats.cv : NAN;
    f->speedup = complete && s->role != ROLE_PROBE && serial != NULL ? serial->us / m->us : NAN;
    int against_bestcase = complete && (s->role == ROLE_CHECKED || s->role == ROLE_BESTCASE) && bestcase != NULL;
    f->efficacy = against_bestcase ? m->efficacy : NAN;
    /* Bestcase OMP is what overheads are measured against: its own is 0 by
     * definition, in every report (CLOMP 1.2's summary prints 0.00). */
    f->overhead = s->role == ROLE_BESTCASE ? (against_bestcase ? 0.0 : NAN) : complete && m->has_overhead ? m->overhead_us : NAN;
    int has_ci = complete && m->has_overhead && m->has_overhead_ci;
    f->overhead_low = has_ci ? m->overhead_low : NAN;
    f->overhead_high = has_ci ? m->overhead_high : NAN;
    f->target = llnl_target_of(s);
    f->judgement.cycles = NAN;
    if (f->target != NULL)
        judge_llnl_target(f->target, complete ? m : NULL, &r->run->cycles, &f->judgement);
}

/* ---- the columns -------------------------------------------------------------------- */

static FigureCell number(double value)
{
    return (FigureCell){CELL_NUMBER, value, 0, NULL};
}
static FigureCell integer(long value)
{
    return (FigureCell){CELL_INTEGER, NAN, value, NULL};
}
static FigureCell text(const char *value)
{
    return (FigureCell){CELL_TEXT, NAN, 0, value};
}

/* One column's cell function: `expr` may use r (the record), run, m, f. */
#define CELL(name, expr)                                                              \
    static FigureCell name(const FigureRow *row, char *buf, size_t size)              \
    {                                                                                 \
        const RunRecord *r = row->record;                                             \
        const RunSetup *run = r->run;                                                 \
        const Measurement *m = row->m;                                                \
        const MeasurementFigures *f = row->f;                                         \
        (void)r, (void)run, (void)m, (void)f, (void)buf, (void)size;                  \
        return expr;                                                                  \
    }

/* A judged LLNL target's figure, or empty. */
#define JUDGED(value) (f->target != NULL && f->target->below_cycles > 0.0 && f->complete ? (value) : NAN)

CELL(cell_key, text(m->schedule->key))
CELL(cell_name, text(m->schedule->name))
CELL(cell_role, text(f->role))
/* 1: measured in this run (asked for and able to run here). */
CELL(cell_selected, integer(measurement_runs(m)))
CELL(cell_threads, f->threads >= 0 ? integer(f->threads) : text(NULL))
CELL(cell_verification, text(f->verification))
CELL(cell_verified_chunks, integer(m->verified_chunks))
CELL(cell_runtime, number(f->runtime_seconds))
CELL(cell_us, number(f->us))
CELL(cell_us_low, number(f->us_low))
CELL(cell_us_high, number(f->us_high))
CELL(cell_cv, number(f->cv))
CELL(cell_speedup, number(f->speedup))
CELL(cell_efficacy, number(f->efficacy))
CELL(cell_overhead, number(f->overhead))
CELL(cell_overhead_low, number(f->overhead_low))
CELL(cell_overhead_high, number(f->overhead_high))
CELL(cell_ghz, number(run->cycles.source == CYCLES_UNAVAILABLE ? NAN : run->cycles.ghz))
CELL(cell_us_cycles, number(cycles_from_us(&run->cycles, f->us)))
CELL(cell_overhead_cycles, number(cycles_from_us(&run->cycles, f->overhead)))
CELL(cell_overhead_cycles_low, number(cycles_from_us(&run->cycles, f->overhead_low)))
CELL(cell_overhead_cycles_high, number(cycles_from_us(&run->cycles, f->overhead_high)))
CELL(cell_target_below, number(JUDGED(f->target->below_cycles)))
CELL(cell_target_cycles, number(JUDGED(f->judgement.cycles)))
CELL(cell_target_verdict, text(isnan(JUDGED(0.0)) ? NULL : f->judgement.verdict))
CELL(cell_checksum_sum, number(f->has_checksum ? f->checksum.sum : NAN))
CELL(cell_checksum_residue, number(f->has_checksum ? f->checksum.residue : NAN))
CELL(cell_checksum_total, number(f->has_checksum ? f->checksum.total : NAN))
CELL(cell_status, text(record_status(r)))
CELL(cell_exit_status, integer(r->exit_status))
/* The inputs as the CORAL RFP line gives them. */
CELL(cell_num_threads, integer(run->numThreads))
CELL(cell_alloc_threads, integer(run->inputAllocThreads))
CELL(cell_num_parts, integer(run->numParts))
CELL(cell_zones_per_part, integer(run->zonesPerPart))
CELL(cell_zone_size, integer(run->zoneSize))
CELL(cell_flop_scale, integer(run->flopScale))
CELL(cell_time_scale, integer(run->timeScale))
CELL(cell_numa, text(placement_text(&run->placement, buf, size)))
CELL(cell_trials, integer(run->trials))
CELL(cell_rounds, integer(run->rounds))
CELL(cell_iterations, integer(run->iterations))
CELL(cell_host, text(r->host))
CELL(cell_zone_stride, text(run->zoneLayout == ZONE_LAYOUT_SPREAD ? "zonesize" : "record"))
/* The whole process's, the same on every row (the JSON's process_cost). */
CELL(cell_user_cpu, number(r->cost.measured ? r->cost.user_seconds : NAN))
CELL(cell_system_cpu, number(r->cost.measured ? r->cost.system_seconds : NAN))

/* Appended, never inserted: tools address the columns by name, but a
 * spreadsheet made from an older file should still line up. Columns and
 * their meaning: docs/output.md, "CSV". */
const FigureColumn figure_columns[] = {
    {"key", NULL, cell_key},
    {"name", NULL, cell_name},
    {"role", NULL, cell_role},
    {"selected", NULL, cell_selected},
    {"threads", NULL, cell_threads},
    {"verification", NULL, cell_verification},
    {"verified_chunks", NULL, cell_verified_chunks},
    {"runtime_seconds", "runtime_seconds", cell_runtime},
    {"us_per_loop", "us_per_loop", cell_us},
    {"us_per_loop_ci_low", NULL, cell_us_low},
    {"us_per_loop_ci_high", NULL, cell_us_high},
    {"cv", NULL, cell_cv},
    {"speedup", "speedup", cell_speedup},
    {"efficacy_percent", "efficacy_percent", cell_efficacy},
    {"overhead_us", "overhead_us_per_loop", cell_overhead},
    {"overhead_ci_low", NULL, cell_overhead_low},
    {"overhead_ci_high", NULL, cell_overhead_high},
    {"ghz", NULL, cell_ghz},
    {"us_per_loop_cycles", NULL, cell_us_cycles},
    {"overhead_cycles", NULL, cell_overhead_cycles},
    {"overhead_cycles_ci_low", NULL, cell_overhead_cycles_low},
    {"overhead_cycles_ci_high", NULL, cell_overhead_cycles_high},
    {"llnl_target_below_cycles", NULL, cell_target_below},
    {"llnl_target_cycles", NULL, cell_target_cycles},
    {"llnl_verdict", NULL, cell_target_verdict},
    {"checksum_sum", NULL, cell_checksum_sum},
    {"checksum_residue", NULL, cell_checksum_residue},
    {"checksum_total", NULL, cell_checksum_total},
    {"status", NULL, cell_status},
    {"exit_status", NULL, cell_exit_status},
    {"numThreads", NULL, cell_num_threads},
    {"allocThreads", NULL, cell_alloc_threads},
    {"numParts", NULL, cell_num_parts},
    {"zonesPerPart", NULL, cell_zones_per_part},
    {"zoneSize", NULL, cell_zone_size},
    {"flopScale", NULL, cell_flop_scale},
    {"timeScale", NULL, cell_time_scale},
    {"numa", NULL, cell_numa},
    {"trials", NULL, cell_trials},
    {"rounds", NULL, cell_rounds},
    {"iterations", NULL, cell_iterations},
    {"host", NULL, cell_host},
    {"zone_stride", NULL, cell_zone_stride},
    {"user_cpu_seconds", NULL, cell_user_cpu},
    {"system_cpu_seconds", NULL, cell_system_cpu},
};
const size_t figure_column_count = sizeof figure_columns / sizeof figure_columns[0];
