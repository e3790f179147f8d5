/* The catalogue of figures (clomp --list-figures, docs/output.md "Figures"):
 * every figure a tool prints by key, with its label, unit, what it measures,
 * its estimator, which way is better and the LLNL target it is judged
 * against. One key is one estimator everywhere: where two estimators of one
 * quantity are kept (CLOMP 1.2's Runtime-based and clomp's median chunks),
 * each has its own key and label. The suite's tools (results/clomp_results/,
 * suite/, compare/) take their keys, labels, units and figure sets from here
 * (--list-figures --json) and write none by hand.
 *
 * A measurement's figures are its schedule's prefix (its report name in
 * lower case, every run of other characters one '_': "Static OMP" ->
 * static_omp, as the .summary's columns have always been named) and a kind's
 * suffix, for every kind its role has; then the rows of process_figures.c:
 * the process's own figures, the construct table's family and clomp
 * --limits' figures. A new kind is one row of figure_kinds; a figure joins a
 * set by one row of the choices (figure_catalogue.c). */
#ifndef CLOMP_FIGURE_CATALOGUE_H
#define CLOMP_FIGURE_CATALOGUE_H

#include <stddef.h>

#include "../measure/llnl_targets.h"
#include "../measure/record.h"
#include "process_figures.h"

/* Each set's name (bit i), as --list-figures prints it, and what uses it. */
extern const char *const figure_set_names[FIGURE_SET_COUNT];
extern const char *const figure_set_uses[FIGURE_SET_COUNT];

/* A kind of per-measurement figure. */
typedef struct FigureKind {
    const char *suffix;     /* the key is the measurement's prefix, '_', suffix */
    const char *label;      /* after the measurement's report name */
    const char *unit;
    const char *measures;   /* what it measures */
    const char *estimator;  /* how it is estimated from the run */
    FigureBetter better;
    const char *json;       /* the measurement's JSON member it is read from ('.' between levels) */
    const char *csv;        /* the measurement's CSV column */
    const char *interval;   /* the JSON member of its 95% interval within the process, or NULL */
    const char *text_line;  /* the text block's CLOMP 1.2 line that prints it ("Overhead"), or NULL */
    unsigned roles;         /* 1u << ScheduleRole of the measurements that have it */
    int compared;           /* --compare tests it for every measurement that has it (the project's overhead too) */
    const char *former;     /* its suffix under the measurement's key before issue 43 (--compare's), or NULL */
} FigureKind;

extern const FigureKind figure_kinds[];
extern const size_t figure_kind_count;

/* THE overhead the project quotes: the verdict, the Static OMP block's
 * overhead line beside CLOMP 1.2's, the HTML headline, --compare's default
 * primary figure and the buyer's primary (docs/statistics.md, "The
 * overhead"). */
extern const FigureKind *const project_overhead_kind;

/* One figure of the catalogue, expanded. */
typedef struct CatalogueFigure {
    char key[80];
    char label[128];
    const Schedule *schedule;   /* its measurement; NULL for a process_figures.c row */
    const FigureKind *kind;     /* NULL for a process_figures.c row */
    const ProcessFigure *row;   /* its process_figures.c row; NULL for a measurement's figure */
    const char *unit, *measures, *estimator, *csv, *text_line;
    char json[96];              /* the JSON member it is read from ('.' between levels; "" : none) */
    char interval[96];          /* the JSON member of its 95% interval within the process; "" : none */
    FigureBetter better;
    unsigned sets;
    const LlnlTarget *target;   /* the LLNL target it is judged against; NULL: none */
    char former[80];            /* its key before issue 43 where that differs and names no other figure; "" */
} CatalogueFigure;

/* The figures in catalogue order: *index 0 first; returns 0 past the last. */
int figure_catalogue_next(size_t *index, CatalogueFigure *f);

/* The figure of KEY (a former key too); 0 when none. */
int figure_catalogue_find(const char *key, CatalogueFigure *f);

/* The figure of kind K of measurement S; 0 when S has no such figure. */
int figure_of(const Schedule *s, const FigureKind *k, CatalogueFigure *f);

/* The project's overhead of a measurement, with its 95% interval within the
 * process (NAN without one); 0 when the measurement has none (or it is not
 * a result). */
int project_overhead(const RunRecord *r, const Measurement *m, double *us, double *low, double *high);
/* The same from the measurement alone; NOT_A_RESULT: it or its Bestcase is not a result. */
int project_overhead_of(const Measurement *m, int not_a_result, double *us, double *low, double *high);

/* Whether --compare tests kind K for every measurement that has it: its
 * flag, or it is the project's overhead. */
int figure_kind_compared(const FigureKind *k);

/* "lower" or "higher". */
const char *figure_better_text(FigureBetter b);

#endif
