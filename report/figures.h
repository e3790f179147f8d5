/* The figures of one measurement of a RunRecord, derived once for every
 * writer, and the table of per-measurement columns the CSV is written from
 * (the JSON writes the same rows that have a member name). A new
 * per-measurement figure: its Measurement field where it is measured, and
 * one row in figure_columns (figures.c); the text report adds a line if it
 * prints it. */
#ifndef CLOMP_FIGURES_H
#define CLOMP_FIGURES_H

#include <stddef.h>

#include "../measure/llnl_targets.h"
#include "../measure/record.h"

typedef struct MeasurementFigures {
    int complete;              /* every round done, not the failed one: figures below are meaningful */
    const char *role;          /* "probe", "reference", "bestcase", "checked" */
    const char *verification;  /* "reference", "passed", "skipped", "not applicable", "not run", "failed" */
    long threads;              /* team the runtime provided (nested: all inner threads); -1 when none */
    int has_checksum;
    MeshChecksum checksum;
    /* NAN where a figure does not apply or the measurement is incomplete.
     * CLOMP 1.2's figures, all from Runtime (1.2's lines, the summary, the
     * CORAL RFP line): */
    double runtime_seconds;
    double runtime_us;         /* Runtime over the subcycles */
    double runtime_speedup;    /* Serial Ref's Runtime / this Runtime */
    double runtime_efficacy;   /* percent: Bestcase's Runtime / this Runtime */
    double runtime_overhead;   /* us/Loop: this runtime_us - Bestcase's; 0 for Bestcase OMP itself */
    /* clomp's own, from the chunks: robust to an outlying chunk, with intervals */
    double us;                 /* median chunk us/Loop */
    double us_low, us_high;    /* its 95% interval */
    double cv;
    double speedup;            /* Serial Ref us / this us */
    double speedup_low, speedup_high;     /* its 95% interval: the two medians' 97.5% intervals (Bonferroni) */
    double efficacy;           /* percent */
    double overhead;           /* us/Loop against the bestcase; 0 for Bestcase OMP itself, by definition */
    double overhead_low, overhead_high;   /* 95% interval of the overhead (none for Bestcase OMP) */
    double paired, paired_low, paired_high;   /* the paired overhead (Hodges-Lehmann) and its interval */
    /* The LLNL target this measurement's figure is judged against, if any. */
    const LlnlTarget *target;  /* NULL: none (or not judged: below_cycles 0) */
    TargetJudgement judgement;
} MeasurementFigures;

/* A measurement of the record that completed every round (and did not fail),
 * or NULL: figures of a partial one would mislead. */
const Measurement *record_find(const RunRecord *r, ScheduleRole role, const char *key);

/* record_find() by schedule key, whatever its role. */
const Measurement *record_find_key(const RunRecord *r, const char *key);

/* "ok", "verification failed" or "failed". */
const char *record_status(const RunRecord *r);

/* "interleaved", "sequential" or "not measured": how a paired overhead was paired. */
const char *paired_order_text(PairedOrder order);

void measurement_figures(const RunRecord *r, const Measurement *m, MeasurementFigures *f);

/* One cell of a per-measurement column: a number (NAN: empty / null), an
 * integer, or a text (NULL: empty / null). */
typedef enum { CELL_NUMBER, CELL_INTEGER, CELL_TEXT, CELL_BOOL } CellKind;   /* CELL_BOOL: integer 0/1, JSON false/true */
typedef struct FigureCell {
    CellKind kind;
    double number;
    long integer;
    const char *text;
} FigureCell;

typedef struct FigureRow {
    const RunRecord *record;
    const Measurement *m;
    const MeasurementFigures *f;
} FigureRow;

typedef struct FigureColumn {
    const char *csv;           /* the CSV column (appended, never inserted) */
    const char *json;          /* the measurement's JSON member, or NULL: the JSON says it in its own structure */
    FigureCell (*cell)(const FigureRow *row, char *buf, size_t size);
} FigureColumn;

/* Offload builds (docs/offload.md): the launch overhead per subcycle,
 * Offload OMP's us/Loop minus Dev Bestcase's (one launch per chunk), from
 * the Runtimes (runtime 1) or the median chunks (0); NAN unless `offload`
 * is Offload OMP and both ran. */
double offload_launch_us(const Measurement *offload, const Measurement *device_bestcase, int runtime);

extern const FigureColumn figure_columns[];
extern const size_t figure_column_count;
/* The CSV writes --limits' columns after the first figure_columns_before_limits
 * (every column is appended where it was added: csv_report.c). */
extern const size_t figure_columns_before_limits;

#endif
