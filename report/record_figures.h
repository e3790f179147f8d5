/* The figures of one measurement of a RunRecord, derived once for every
 * machine-readable report (--json, --csv), so that they can never disagree. */
#ifndef CLOMP_RECORD_FIGURES_H
#define CLOMP_RECORD_FIGURES_H

#include "json_report.h"

/* LLNL's targets, in CPU cycles (the text report's "LLNL targets" section),
 * from the CLOMP technical summary: barrier latency, judged on OMP Barrier;
 * parallel-for overhead, judged on the Parallel For probe (EPCC's method). */
#define LLNL_BARRIER_TARGET_CYCLES 200.0
#define LLNL_PARALLEL_FOR_TARGET_CYCLES 500.0

typedef struct MeasurementFigures {
    int complete;              /* every round done, not the failed one: figures below are meaningful */
    const char *role;          /* "probe", "reference", "bestcase", "checked" */
    const char *verification;  /* "reference", "passed", "skipped", "not applicable", "not run", "failed" */
    long threads;              /* team the runtime provided (nested: all inner threads); -1 when none */
    int has_checksum;
    MeshChecksum checksum;
    /* NAN where a figure does not apply or the measurement is incomplete. */
    double runtime_seconds;
    double us;                 /* median chunk us/Loop */
    double us_low, us_high;    /* its 95% interval */
    double cv;
    double speedup;            /* Serial Ref us / this us */
    double efficacy;           /* percent */
    double overhead;           /* us/Loop against the bestcase */
    double overhead_low, overhead_high;   /* 95% interval of the overhead */
    /* LLNL's target for this measurement (barrier latency: OMP Barrier's
     * us/Loop; parallel-for overhead: Parallel For's us/Loop), or target 0. */
    double target_cycles;      /* the figure judged, in cycles */
    double target_below;       /* 0: no target for this measurement */
    const char *target_verdict;/* target_verdict(), NULL without a target */
} MeasurementFigures;

/* A measurement of the record that completed every round (and did not fail),
 * or NULL: figures of a partial one would mislead. */
const Measurement *record_find(const RunRecord *r, ScheduleRole role, const char *key);

/* "ok", "verification failed" or "failed". */
const char *record_status(const RunRecord *r);

void measurement_figures(const RunRecord *r, const Measurement *m, MeasurementFigures *f);

#endif
