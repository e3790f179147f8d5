/* The catalogue's figures that are not one per measurement (figure_catalogue.h
 * expands those from its kinds): the process's own, the construct table's
 * family, and clomp --limits' figures, each described once (key, label,
 * unit, what it measures, its estimator, which way is better, where the
 * record holds it). --limits' figures also say how their value comes from
 * the record: its text block, the JSON's `limits.figures` and the CSV's
 * limits_* columns all loop over their slice of this one table
 * (limit_figures; docs/limits.md explains each). A new figure is one row. */
#ifndef CLOMP_PROCESS_FIGURES_H
#define CLOMP_PROCESS_FIGURES_H

#include <stddef.h>

#include "../measure/record.h"

typedef enum { BETTER_LOWER, BETTER_HIGHER } FigureBetter;

/* The sets a tool shows (figure_catalogue.c's names): a figure may be in several. */
enum {
    FIGURE_SET_KEY = 1u << 0,         /* the target input's key figures: between-process table, buyer's key table */
    FIGURE_SET_HEADLINE = 1u << 1,    /* the answer: the HTML headline and the suite's closing lines */
    FIGURE_SET_SWEEP = 1u << 2,       /* over threads or settings: --sweep, the buyer's thread sweep */
    FIGURE_SET_REPLICATES = 1u << 3,  /* --replicates auto plans its processes on these */
    FIGURE_SET_RUN = 1u << 4,         /* the suite's lines after each key run (CLOMP 1.2's run script's) */
    FIGURE_SET_PRIMARY = 1u << 5,     /* the project's overhead: the verdict's, the headline's, --compare's and the buyer's primary */
    FIGURE_SET_CLIFF = 1u << 6,       /* the suite's team-size cliff (cores - 1, cores, cores + 1) */
    FIGURE_SET_LIMITS = 1u << 7,      /* clomp --limits: its text block, JSON limits.figures, CSV limits_* columns */
    FIGURE_SET_CLUSTER = 1u << 8,     /* the cluster report: what each node is judged on against its peers */
    FIGURE_SET_GRAIN = 1u << 9,       /* run_clomp.sh --grain: the smallest loop worth threading (docs/grain.md) */
    FIGURE_SET_HARNESS = 1u << 10,    /* the harnesses' figures of merit: ReFrame's, JUBE's (integrations/) */
};
#define FIGURE_SET_COUNT 11

/* A --limits figure's value in a record. */
typedef struct LimitValue {
    int available;             /* measured (else every number NAN) */
    double value;
    int has_ci;                /* a 95% interval (within this process) */
    double low, high;
    const char *not_a_result;  /* NULL, or why it is not one */
    int withheld;              /* with not_a_result: a figure derived from others, withheld (N/A, null); else
                                * a timing's own, shown flagged (as a measurement's INVALID figures are) */
    const char *note;          /* NULL, or what it was taken from ("Dissemination") */
    const char *missing;       /* not available: what it lacks ("no core clock"); NULL otherwise */
} LimitValue;

typedef struct ProcessFigure {
    const char *key;           /* the catalogue's key (a --limits figure's: limits_<member>, its CSV column) */
    const char *label;         /* the text's label */
    const char *unit;          /* "us", "s", "ns", "cycles", "x" (a ratio), ... */
    const char *measures;      /* what it measures */
    const char *estimator;     /* how the value is estimated */
    FigureBetter better;
    const char *json;          /* the record member it is read from ('.' between levels), or NULL */
    const char *csv;           /* its CSV column, or NULL */
    const char *interval;      /* the JSON member of its 95% interval within the process, or NULL */
    unsigned sets;
    /* --limits' figures only (NULL, -1 and NULL for the others): */
    const char *member;        /* its member of the JSON's limits.figures */
    int timing;                /* its LimitTimingId, or -1: not one timing's own */
    LimitValue (*value)(const LimitsRecord *l);
} ProcessFigure;

extern const ProcessFigure process_figures[];
extern const size_t process_figure_count;

/* --limits' figures: the slice of process_figures its writers loop over. */
extern const ProcessFigure *const limit_figures;
extern const size_t limit_figure_count;

#endif
