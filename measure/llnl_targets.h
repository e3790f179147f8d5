/* LLNL's targets for the OpenMP constructs CLOMP measures, and the figures
 * shown beside them: one table that the text, JSON, CSV and HTML reports
 * all read. A new probe with a target is its kernel file plus a row here. */
#ifndef CLOMP_LLNL_TARGETS_H
#define CLOMP_LLNL_TARGETS_H

#include <stddef.h>

#include "record.h"

typedef enum {
    JUDGED_ON_US_PER_LOOP,   /* the measurement's median us/Loop (a probe: one construct per loop) */
    JUDGED_ON_OVERHEAD       /* its overhead against Bestcase OMP */
} JudgedFigure;

typedef struct LlnlTarget {
    const char *key;            /* JSON member of llnl_targets */
    const char *label;          /* the text report's line: "Barrier latency (OMP Barrier)" */
    const char *schedule_key;   /* the measurement whose figure it is */
    JudgedFigure figure;
    double below_cycles;        /* the target: fewer CPU cycles than this; 0: shown, not judged */
    const char *block_text;     /* after the cycle count in the measurement's block */
    const char *not_judged;     /* below_cycles 0: why it is shown without a verdict */
    const char *citation;       /* where the target comes from */
} LlnlTarget;

extern const LlnlTarget llnl_targets[];
extern const size_t llnl_target_count;

/* The row whose figure measurement `s` gives, or NULL. */
const LlnlTarget *llnl_target_of(const Schedule *s);

/* A target's figure in cycles and its verdict. */
typedef struct TargetJudgement {
    int available;              /* the measurement ran and has the figure */
    double us;                  /* the figure, us/Loop */
    int has_ci;                 /* a 95% interval (within this process) */
    double us_low, us_high;
    double cycles, cycles_low, cycles_high;   /* in the rate's cycles (nominal TSC or --ghz); NAN without a rate */
    /* Core cycles, which LLNL's targets count: with --ghz the figures above;
     * from the TSC, the interval stretched over the cores' clock range. */
    double core_low, core_high;
    const char *verdict;        /* judged on core_low .. core_high; NULL when not judged (below_cycles 0);
                                 * "invalid" when the measurement is not a result (Measurement.invalid) */
} TargetJudgement;

/* `m` may be NULL (not measured): available 0. */
void judge_llnl_target(const LlnlTarget *t, const Measurement *m, const CycleRate *rate, TargetJudgement *j);

/* "met", "not met", "undecided" (the interval straddles the target) or
 * "unavailable" (no cycle rate: cycles is NAN). A TSC count is judged in
 * core cycles: a verdict within the cores' clock range of the bound is
 * "undecided" unless --ghz gives the core clock. */
const char *target_verdict(double cycles, int has_ci, double low, double high, double target);

/* The one judge of a cycle count against `bound` (every report uses it:
 * the text, JSON and CSV here, the HTML report and the buyer's table
 * through clomp-stats judge): cycles with, when has_ci, its interval low ..
 * high; nominal_ghz > 0 when they are nominal TSC cycles at that rate, which
 * are judged as core cycles over the cores' clock range core_min_ghz ..
 * core_max_ghz ("unavailable" when that range is unknown: NAN); 0 when they
 * are core cycles already (--ghz). The core-cycle range judged goes to
 * core_low, core_high. */
const char *judge_cycles(double cycles, int has_ci, double low, double high, double bound, double nominal_ghz,
                         double core_min_ghz, double core_max_ghz, double *core_low, double *core_high);

#endif
