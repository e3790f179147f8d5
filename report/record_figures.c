#include "record_figures.h"

#include <math.h>
#include <string.h>

const Measurement *record_find(const RunRecord *r, ScheduleRole role, const char *key)
{
    const Measurement *m = r->results != NULL ? find_measurement(r->results, r->count, role, key) : NULL;
    return m != NULL && m->rounds_done == r->run->rounds && m != r->failed ? m : NULL;
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

/* The LLNL target a measurement is judged against, as the text report's
 * "LLNL targets" section judges it. */
static void judge_target(const RunRecord *r, const Measurement *m, MeasurementFigures *f)
{
    const Schedule *s = m->schedule;
    double us, low, high;
    int has;
    if (s->role == ROLE_PROBE && strcmp(s->key, "barrier") == 0) {
        f->target_below = LLNL_BARRIER_TARGET_CYCLES;
        us = f->us, has = m->stats.has_ci, low = m->stats.ci_low, high = m->stats.ci_high;
    } else if (s->role == ROLE_PROBE && strcmp(s->key, "parallel_for") == 0) {
        f->target_below = LLNL_PARALLEL_FOR_TARGET_CYCLES;
        us = f->us, has = m->stats.has_ci, low = m->stats.ci_low, high = m->stats.ci_high;
    } else {
        return;
    }
    if (isnan(us)) {
        f->target_below = 0.0;
        return;
    }
    const CycleRate *rate = &r->run->cycles;
    f->target_cycles = cycles_from_us(rate, us);
    f->target_verdict = target_verdict(f->target_cycles, has, cycles_from_us(rate, low), cycles_from_us(rate, high),
                                       f->target_below);
}

void measurement_figures(const RunRecord *r, const Measurement *m, MeasurementFigures *f)
{
    const Schedule *s = m->schedule;
    const Measurement *serial = record_find(r, ROLE_REFERENCE, NULL), *bestcase = record_find(r, ROLE_BESTCASE, NULL);
    int complete = m->selected && m->rounds_done == r->run->rounds && m != r->failed;

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
    f->efficacy = complete && (s->role == ROLE_CHECKED || s->role == ROLE_BESTCASE) && bestcase != NULL ? m->efficacy
                                                                                                       : NAN;
    f->overhead = complete && m->has_overhead ? m->overhead_us : NAN;
    int has_ci = complete && m->has_overhead && m->has_overhead_ci;
    f->overhead_low = has_ci ? m->overhead_low : NAN;
    f->overhead_high = has_ci ? m->overhead_high : NAN;
    f->target_cycles = NAN;
    if (complete)
        judge_target(r, m, f);
}
