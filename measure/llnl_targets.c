#include "llnl_targets.h"

#include <math.h>
#include <string.h>

#define CLOMP_SUMMARY "the CLOMP technical summary (LLNL, CORAL RFP)"

/* In the order every report lists them. */
const LlnlTarget llnl_targets[] = {
    {"barrier_latency", "Barrier latency (OMP Barrier)", "barrier", JUDGED_ON_US_PER_LOOP, 200.0,
     "per barrier (LLNL target < 200)", NULL, CLOMP_SUMMARY},
    {"parallel_for_overhead", "Parallel-for overhead (Parallel For, EPCC's method)", "parallel_for",
     JUDGED_ON_US_PER_LOOP, 500.0, "of overhead per parallel for, EPCC's method (LLNL target < 500)", NULL,
     CLOMP_SUMMARY},
    {"fork_join", "Fork/join (OMP Parallel)", "parallel", JUDGED_ON_US_PER_LOOP, 0.0,
     "per fork/join (empty parallel region)", "no LLNL target", NULL},
    /* CLOMP's own overhead includes the kernel's data movement and imbalance:
     * shown for comparison, not judged against the construct's target. */
    {"static_overhead", "CLOMP overhead (Static OMP - Bestcase OMP)", "static", JUDGED_ON_OVERHEAD, 0.0,
     "of CLOMP overhead per parallel for (versus bestcase)",
     "not the target quantity (it includes the kernel's data movement; see docs/statistics.md)", NULL},
};
const size_t llnl_target_count = sizeof llnl_targets / sizeof llnl_targets[0];

const LlnlTarget *llnl_target_of(const Schedule *s)
{
    for (size_t i = 0; i < llnl_target_count; i++)
        if (strcmp(llnl_targets[i].schedule_key, s->key) == 0)
            return &llnl_targets[i];
    return NULL;
}

const char *target_verdict(double cycles, int has_ci, double low, double high, double target)
{
    if (isnan(cycles))
        return "unavailable";
    if (has_ci && low < target && high >= target)
        return "undecided";
    return (has_ci ? high : cycles) < target ? "met" : "not met";
}

void judge_llnl_target(const LlnlTarget *t, const Measurement *m, const CycleRate *rate, TargetJudgement *j)
{
    memset(j, 0, sizeof *j);
    j->cycles = j->cycles_low = j->cycles_high = NAN;
    if (m == NULL || (t->figure == JUDGED_ON_OVERHEAD && !m->has_overhead))
        return;
    j->available = 1;
    if (m->invalid || (t->figure == JUDGED_ON_OVERHEAD && m->bestcase_invalid)) {   /* not a result (docs/statistics.md) */
        j->core_low = j->core_high = NAN;
        j->verdict = t->below_cycles > 0.0 ? "invalid" : NULL;
        return;
    }
    if (t->figure == JUDGED_ON_OVERHEAD) {
        j->us = m->overhead_us;
        j->has_ci = m->has_overhead_ci;
        j->us_low = m->overhead_low;
        j->us_high = m->overhead_high;
    } else {
        j->us = m->us;
        j->has_ci = m->stats.has_ci;
        j->us_low = m->stats.ci_low;
        j->us_high = m->stats.ci_high;
    }
    j->cycles = cycles_from_us(rate, j->us);
    j->cycles_low = cycles_from_us(rate, j->us_low);
    j->cycles_high = cycles_from_us(rate, j->us_high);
    int stretched = rate->source == CYCLES_TSC && rate->ghz > 0.0;
    const char *verdict = judge_cycles(j->cycles, j->has_ci, j->cycles_low, j->cycles_high, t->below_cycles,
                                       stretched ? rate->ghz : 0.0,
                                       rate->core_range_known != CORE_RANGE_UNKNOWN ? rate->core_min_ghz : NAN,
                                       rate->core_range_known != CORE_RANGE_UNKNOWN ? rate->core_max_ghz : NAN,
                                       &j->core_low, &j->core_high);
    if (t->below_cycles > 0.0)
        j->verdict = verdict;
}

const char *judge_cycles(double cycles, int has_ci, double low, double high, double bound, double nominal_ghz,
                         double core_min_ghz, double core_max_ghz, double *core_low, double *core_high)
{
    *core_low = has_ci ? low : cycles;
    *core_high = has_ci ? high : cycles;
    int stretched = nominal_ghz > 0.0;
    if (stretched && !(core_min_ghz > 0.0 && core_max_ghz > 0.0)) {
        /* Nominal cycles only: without the core clock no core count, no verdict. */
        *core_low = *core_high = NAN;
        return "unavailable";
    }
    if (stretched) {   /* the widest core-cycle range either end can stand for (a difference may be negative) */
        double lo = *core_low, hi = *core_high;
        double slow = core_min_ghz / nominal_ghz, fast = core_max_ghz / nominal_ghz;
        *core_low = fmin(lo * slow, lo * fast);
        *core_high = fmax(hi * slow, hi * fast);
    }
    return target_verdict(cycles, has_ci || stretched, *core_low, *core_high, bound);
}
