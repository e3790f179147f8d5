#include "figures.h"

#include <math.h>
#include <string.h>

#include "../offload/device_info.h"

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
    f->runtime_us = complete ? m->runtime_us : NAN;
    f->runtime_speedup = complete && s->role != ROLE_PROBE && serial != NULL ? serial->runtime_us / m->runtime_us : NAN;
    f->us = complete ? m->us : NAN;
    f->us_low = complete && m->stats.has_ci ? m->stats.ci_low : NAN;
    f->us_high = complete && m->stats.has_ci ? m->stats.ci_high : NAN;
    f->cv = complete ? m->stats.cv : NAN;
    f->speedup = complete && s->role != ROLE_PROBE && serial != NULL ? serial->us / m->us : NAN;
    /* Serial Ref's own speedup is 1 by definition: no interval. The two medians' 97.5% intervals
     * give their ratio at least 95% (Bonferroni), as the overhead's difference. */
    int speedup_ci = serial != NULL && !isnan(f->speedup) && s->role != ROLE_REFERENCE && m->paired_stats.has_ci &&
                     serial->paired_stats.has_ci && m->paired_stats.ci_low > 0.0;
    f->speedup_low = speedup_ci ? serial->paired_stats.ci_low / m->paired_stats.ci_high : NAN;
    f->speedup_high = speedup_ci ? serial->paired_stats.ci_high / m->paired_stats.ci_low : NAN;
    int against_bestcase = complete && (s->role == ROLE_CHECKED || s->role == ROLE_BESTCASE) && bestcase != NULL;
    f->efficacy = against_bestcase ? m->efficacy : NAN;
    f->runtime_efficacy = against_bestcase ? m->runtime_efficacy : NAN;
    /* Bestcase OMP is what overheads are measured against: its own is 0 by
     * definition, in every report (CLOMP 1.2's summary prints 0.00). */
    f->overhead = s->role == ROLE_BESTCASE ? (against_bestcase ? 0.0 : NAN) : complete && m->has_overhead ? m->overhead_us : NAN;
    f->runtime_overhead = s->role == ROLE_BESTCASE ? (against_bestcase ? 0.0 : NAN)
                          : complete && m->has_overhead ? m->runtime_overhead_us : NAN;
    int has_ci = complete && m->has_overhead && m->has_overhead_ci;
    f->overhead_low = has_ci ? m->overhead_low : NAN;
    f->overhead_high = has_ci ? m->overhead_high : NAN;
    int paired = complete && m->paired.order != PAIRED_NOT_MEASURED;
    f->paired = paired ? m->paired.shift.estimate : NAN;
    f->paired_low = paired && m->paired.shift.has_ci ? m->paired.shift.low : NAN;
    f->paired_high = paired && m->paired.shift.has_ci ? m->paired.shift.high : NAN;
    /* Not a result (judge_validity): no speedup, efficacy or overhead of it, nor
     * a speedup over an invalid Serial Ref, nor an overhead against an invalid
     * Bestcase; its times stay, flagged `valid` false. */
    if (m->invalid || (serial != NULL && serial->invalid))
        f->speedup = f->runtime_speedup = f->speedup_low = f->speedup_high = NAN;
    if (m->invalid || (bestcase != NULL && bestcase->invalid))
        f->efficacy = f->runtime_efficacy = f->overhead = f->runtime_overhead = f->overhead_low = f->overhead_high =
            f->paired = f->paired_low = f->paired_high = NAN;
    f->target = llnl_target_of(s);
    f->judgement.cycles = NAN;
    if (f->target != NULL)
        judge_llnl_target(f->target, complete ? m : NULL, &r->run->cycles, &f->judgement);
}

double offload_launch_us(const Measurement *offload, const Measurement *device_bestcase, int runtime)
{
    if (offload == NULL || device_bestcase == NULL || strcmp(offload->schedule->key, "offload") != 0 ||
        offload->rounds_done == 0 || device_bestcase->rounds_done == 0)
        return NAN;
    return runtime ? offload->runtime_us - device_bestcase->runtime_us : offload->us - device_bestcase->us;
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
static FigureCell boolean(int value)
{
    return (FigureCell){CELL_BOOL, NAN, value != 0, NULL};
}
static FigureCell text(const char *value)
{
    return (FigureCell){CELL_TEXT, NAN, 0, value};
}

/* A judged LLNL target's row, and its figure there (empty elsewhere). */
#define IS_JUDGED (f->target != NULL && f->target->below_cycles > 0.0 && f->complete)
#define JUDGED(value) (IS_JUDGED ? (value) : NAN)
/* An OMPT census or sampling count; empty without one. */
#define CENSUS(value) (m->census.taken ? integer(value) : text(NULL))
#define SAMPLES(value) (run->ompt.attached && run->ompt.mode == OMPT_MODE_SAMPLING && m->rounds_done > 0 ? integer(value) : text(NULL))

/* Whether the overhead can be told from 0 (docs/noise.md): its 95% interval
 * excludes 0, contains it, or there is none (one round of one chunk, 2-5
 * rounds); NULL without an overhead (and for Bestcase, 0 by definition). */
static const char *overhead_resolution(const Measurement *m, const MeasurementFigures *f)
{
    if (isnan(f->overhead) || m->schedule->role == ROLE_BESTCASE)
        return NULL;
    if (isnan(f->overhead_low))
        return "no interval";
    return f->overhead_low <= 0.0 && f->overhead_high >= 0.0 ? "contains 0" : "resolved";
}

/* The cores' clock range the verdicts count with (measured, or cpufreq's); empty when unknown. */
#define CORE_RANGE(value) \
    (run->cycles.source == CYCLES_TSC && run->cycles.core_range_known != CORE_RANGE_UNKNOWN ? (value) : NAN)

/* The paired overhead (measure/paired_overhead.h): complete checked measurements that have one. */
#define HAS_PAIRED (f->complete && m->paired.order != PAIRED_NOT_MEASURED)
#define PAIRED(value) (HAS_PAIRED ? (value) : NAN)

const char *paired_order_text(PairedOrder order)
{
    return order == PAIRED_INTERLEAVED ? "interleaved" : order == PAIRED_SEQUENTIAL ? "sequential" : "not measured";
}

/* A noise census count of the measurement: empty / null when not sampled. */
#define NOISE_COUNT(value) (m->noise.sampled ? integer(value) : text(NULL))

/* Offload builds only, appended (every other build keeps its columns): the
 * device on every row, the launch overhead on Offload OMP's. */
#ifdef CLOMP_OFFLOAD
#define OFFLOAD_DEVICE_TEXT (offload_device_info() != NULL ? offload_device_info()->text : NULL)
#define OFFLOAD_FIGURE_COLUMNS(X) \
    X(offload_device, NULL, text(OFFLOAD_DEVICE_TEXT)) \
    X(offload_launch_us_per_subcycle, "offload_launch_us_per_subcycle", \
      number(offload_launch_us(m, record_find_key(r, "offload_bestcase"), 1))) \
    X(offload_launch_median_us_per_subcycle, "offload_launch_median_us_per_subcycle", \
      number(offload_launch_us(m, record_find_key(r, "offload_bestcase"), 0)))
#else
#define OFFLOAD_FIGURE_COLUMNS(X)
#endif

/* The columns, in CSV order: the CSV column, the measurement's JSON member
 * (NULL: the JSON says it in its own structure), and the cell: an
 * expression of r (the record), run, m (the measurement) and f (its
 * figures). A new figure is one line. Appended, never inserted: tools
 * address the columns by name, but a spreadsheet made from an older file
 * should still line up. Meaning of each: docs/output.md, "CSV". `selected`
 * is 1 when the measurement ran (asked for and able to run here); the
 * inputs are as the CORAL RFP line gives them; the CPU seconds are the
 * whole process's, the same on every row (the JSON's process_cost). */
/* clang-format off */
#define FIGURE_COLUMNS(X) \
    X(key, NULL, text(m->schedule->key)) \
    X(name, NULL, text(m->schedule->name)) \
    X(role, NULL, text(f->role)) \
    X(selected, NULL, integer(measurement_runs(m))) \
    X(threads, NULL, f->threads >= 0 ? integer(f->threads) : text(NULL)) \
    X(verification, NULL, text(f->verification)) \
    X(verified_chunks, NULL, integer(m->verified_chunks)) \
    X(runtime_seconds, "runtime_seconds", number(f->runtime_seconds)) \
    X(us_per_loop, "us_per_loop", number(f->us)) \
    X(us_per_loop_ci_low, NULL, number(f->us_low)) \
    X(us_per_loop_ci_high, NULL, number(f->us_high)) \
    X(cv, NULL, number(f->cv)) \
    X(speedup, "speedup", number(f->speedup)) \
    X(efficacy_percent, "efficacy_percent", number(f->efficacy)) \
    X(overhead_us, "overhead_us_per_loop", number(f->overhead)) \
    X(overhead_ci_low, NULL, number(f->overhead_low)) \
    X(overhead_ci_high, NULL, number(f->overhead_high)) \
    X(ghz, NULL, number(run->cycles.source == CYCLES_UNAVAILABLE ? NAN : run->cycles.ghz)) \
    X(us_per_loop_cycles, NULL, number(cycles_from_us(&run->cycles, f->us))) \
    X(overhead_cycles, NULL, number(cycles_from_us(&run->cycles, f->overhead))) \
    X(overhead_cycles_ci_low, NULL, number(cycles_from_us(&run->cycles, f->overhead_low))) \
    X(overhead_cycles_ci_high, NULL, number(cycles_from_us(&run->cycles, f->overhead_high))) \
    X(llnl_target_below_cycles, NULL, number(JUDGED(f->target->below_cycles))) \
    X(llnl_target_cycles, NULL, number(JUDGED(f->judgement.cycles))) \
    X(llnl_verdict, NULL, text(IS_JUDGED ? f->judgement.verdict : NULL)) \
    X(checksum_sum, NULL, number(f->has_checksum ? f->checksum.sum : NAN)) \
    X(checksum_residue, NULL, number(f->has_checksum ? f->checksum.residue : NAN)) \
    X(checksum_total, NULL, number(f->has_checksum ? f->checksum.total : NAN)) \
    X(status, NULL, text(record_status(r))) \
    X(exit_status, NULL, integer(r->exit_status)) \
    X(numThreads, NULL, integer(run->numThreads)) \
    X(allocThreads, NULL, integer(run->inputAllocThreads)) \
    X(numParts, NULL, integer(run->numParts)) \
    X(zonesPerPart, NULL, integer(run->zonesPerPart)) \
    X(zoneSize, NULL, integer(run->zoneSize)) \
    X(flopScale, NULL, integer(run->flopScale)) \
    X(timeScale, NULL, integer(run->timeScale)) \
    X(numa, NULL, text(placement_text(&run->placement, buf, size))) \
    X(trials, NULL, integer(run->trials)) \
    X(rounds, NULL, integer(run->rounds)) \
    X(iterations, NULL, integer(run->iterations)) \
    X(host, NULL, text(r->host)) \
    X(zone_stride, NULL, text(run->zoneLayout == ZONE_LAYOUT_SPREAD ? "zonesize" : "record")) \
    X(user_cpu_seconds, NULL, number(r->cost.measured ? r->cost.user_seconds : NAN)) \
    X(system_cpu_seconds, NULL, number(r->cost.measured ? r->cost.system_seconds : NAN)) \
    X(runtime_us_per_loop, "runtime_us_per_loop", number(f->runtime_us)) \
    X(runtime_speedup, "runtime_speedup", number(f->runtime_speedup)) \
    X(runtime_efficacy_percent, "runtime_efficacy_percent", number(f->runtime_efficacy)) \
    X(runtime_overhead_us, "runtime_overhead_us_per_loop", number(f->runtime_overhead)) \
    X(cycle_clock, NULL, text(cycle_clock_text(&run->cycles))) \
    X(llnl_target_core_cycles_low, NULL, number(JUDGED(f->judgement.core_low))) \
    X(llnl_target_core_cycles_high, NULL, number(JUDGED(f->judgement.core_high))) \
    X(llnl_target, NULL, text(IS_JUDGED ? f->target->label : NULL)) \
    X(core_clock_min_ghz, NULL, number(CORE_RANGE(run->cycles.core_min_ghz))) \
    X(core_clock_max_ghz, NULL, number(CORE_RANGE(run->cycles.core_max_ghz))) \
    X(ompt_tool, NULL, text(ompt_mode_name(run->ompt.attached ? run->ompt.mode : OMPT_MODE_NONE))) \
    X(ompt_regions_level1, NULL, CENSUS(m->census.level[0].regions)) \
    X(ompt_team_level1_min, NULL, CENSUS(m->census.level[0].team_min)) \
    X(ompt_team_level1_max, NULL, CENSUS(m->census.level[0].team_max)) \
    X(ompt_regions_level2, NULL, CENSUS(m->census.level[1].regions)) \
    X(ompt_team_level2_min, NULL, CENSUS(m->census.level[1].team_min)) \
    X(ompt_team_level2_max, NULL, CENSUS(m->census.level[1].team_max)) \
    X(ompt_serialized_regions, NULL, CENSUS(m->census.level[0].serialized + m->census.level[1].serialized)) \
    X(ompt_implicit_tasks, NULL, CENSUS(m->census.level[0].implicit_tasks + m->census.level[1].implicit_tasks)) \
    X(ompt_explicit_tasks, NULL, CENSUS(m->census.explicit_tasks)) \
    X(ompt_taskloops, NULL, CENSUS(m->census.taskloops)) \
    X(ompt_loops, NULL, CENSUS(m->census.loops)) \
    X(ompt_barriers, NULL, CENSUS(m->census.barriers)) \
    X(ompt_census_as_planned, NULL, m->census.taken && m->census.plan_known ? integer(m->census.matches_plan) : text(NULL)) \
    X(ompt_samples_consistent, NULL, SAMPLES(m->samples.consistent)) \
    X(ompt_samples_unavailable, NULL, SAMPLES(m->samples.unavailable)) \
    X(ompt_samples_inconsistent, NULL, SAMPLES(m->samples.inconsistent)) \
    X(ompt_samples_idle, NULL, SAMPLES(m->samples.idle)) \
    X(noise_span, "noise_span", text(!m->noise.sampled ? NULL : m->noise.whole_runs ? "timed run" : "chunk")) \
    X(noise_spans, "noise_spans", NOISE_COUNT(m->noise.chunks)) \
    X(noise_spans_disturbed, "noise_spans_disturbed", NOISE_COUNT(m->noise.disturbed)) \
    X(noise_threads, "noise_threads", NOISE_COUNT(m->noise.threads)) \
    X(noise_involuntary_switches, "noise_involuntary_switches", NOISE_COUNT(m->noise.switches)) \
    X(noise_migrations, "noise_migrations", NOISE_COUNT(m->noise.migrations)) \
    X(noise_steal_seconds, "noise_steal_seconds", number(m->noise.sampled ? m->noise.steal_seconds : NAN)) \
    X(noise_interrupts, "noise_interrupts", m->noise.interrupts >= 0 ? NOISE_COUNT(m->noise.interrupts) : text(NULL)) \
    X(noise_comparable, "noise_comparable", NOISE_COUNT(m->noise.comparable)) \
    X(overhead_resolution, "overhead_resolution", text(overhead_resolution(m, f))) \
    X(overhead_percent_of_loop, "overhead_percent_of_loop", number(f->overhead / f->us * 100.0)) \
    X(overhead_percent_ci_low, NULL, number(f->overhead_low / f->us * 100.0)) \
    X(overhead_percent_ci_high, NULL, number(f->overhead_high / f->us * 100.0)) \
    X(valid, "valid", f->complete ? boolean(!m->invalid) : text(NULL)) \
    X(invalid_reason, "invalid_reason", text(f->complete && m->invalid ? m->invalid_reason : NULL)) \
    X(paired_overhead_us, NULL, number(f->paired)) \
    X(paired_overhead_ci_low, NULL, number(f->paired_low)) \
    X(paired_overhead_ci_high, NULL, number(f->paired_high)) \
    X(paired_order, NULL, text(HAS_PAIRED ? paired_order_text(m->paired.order) : NULL)) \
    X(paired_blocks, NULL, HAS_PAIRED ? integer(m->paired.blocks) : text(NULL)) \
    X(paired_batch_length, NULL, HAS_PAIRED ? integer(1) : text(NULL)) \
    X(paired_lag1, NULL, number(PAIRED(m->paired.lag1))) \
    X(core_clock_source, NULL, text(run->cycles.source == CYCLES_TSC ? core_range_source_text(&run->cycles) : NULL)) \
    X(core_clock_after_min_ghz, NULL, number(run->cycles.clock_after.measured ? run->cycles.clock_after.min_ghz : NAN)) \
    X(core_clock_after_max_ghz, NULL, number(run->cycles.clock_after.measured ? run->cycles.clock_after.max_ghz : NAN)) \
    OFFLOAD_FIGURE_COLUMNS(X) \
    X(paired_effective_blocks, NULL, number(PAIRED(m->paired.effective_blocks)))
/* Columns added after --limits' (csv_report.c writes those between the two
 * lists): appended after them, so that no column moves. */
#define LATER_FIGURE_COLUMNS(X) \
    X(speedup_ci_low, NULL, number(f->speedup_low)) \
    X(speedup_ci_high, NULL, number(f->speedup_high))
/* clang-format on */

#define CELL_FUNCTION(column, json, expr)                                      \
    static FigureCell cell_##column(const FigureRow *row, char *buf, size_t size) \
    {                                                                          \
        const RunRecord *r = row->record;                                      \
        const RunSetup *run = r->run;                                          \
        const Measurement *m = row->m;                                         \
        const MeasurementFigures *f = row->f;                                  \
        (void)r, (void)run, (void)m, (void)f, (void)buf, (void)size;           \
        return expr;                                                           \
    }
FIGURE_COLUMNS(CELL_FUNCTION)
LATER_FIGURE_COLUMNS(CELL_FUNCTION)

#define COLUMN_ROW(column, json, expr) {#column, json, cell_##column},
#define COUNT_COLUMN(column, json, expr) +1
const FigureColumn figure_columns[] = {FIGURE_COLUMNS(COLUMN_ROW) LATER_FIGURE_COLUMNS(COLUMN_ROW)};
const size_t figure_column_count = sizeof figure_columns / sizeof figure_columns[0];
const size_t figure_columns_before_limits = 0 FIGURE_COLUMNS(COUNT_COLUMN);
