/* One figure's paired comparison of B with A over pairs of processes, as
 * every clomp-stats answer that reports it computes it (paired_answer.c for
 * the .txt, comparison_json.c for the .json): one rule for the shift, its
 * interval, the serial correlation of the pairs and the decision. */
#ifndef CLOMP_PAIRED_FIGURE_H
#define CLOMP_PAIRED_FIGURE_H

#include "../timing/signed_rank.h"

/* Permutations of the serial-correlation check, and its level. */
#define SERIAL_PERMUTATIONS 1999L
#define SERIAL_ALPHA 0.05

typedef struct PairedFigure {
    long n;
    ShiftEstimate shift;       /* of B - A, interval at the level asked (widened when `serial`) */
    double lag1;               /* lag-1 autocorrelation of the differences in the pairs' run order */
    double lag1_corrected;     /* ... corrected for its small-sample bias */
    double effective_pairs;    /* effective_sample_size of the differences */
    double serial_p;           /* the permutation test of that correlation (one-sided) */
    int serial;                /* 1: correlated beyond SERIAL_ALPHA: the interval is widened to effective_pairs */
} PairedFigure;

/* d[i] = b[i] - a[i], a difference within 1e-12 of the larger |value| of
 * its pair set to 0 (the rounding of equal timings); then the figure at
 * interval level ci_level. 0, or -1 out of memory. */
int paired_figure(const double *a, const double *b, long n, double ci_level, double *d, PairedFigure *out);

/* "Differs" at level alpha: p <= alpha AND the interval (drawn at 1 - alpha)
 * excludes 0 AND the pairs can give a p that small at all (2 / 2^n) - so
 * that "differs" never stands beside an interval holding 0, or at a look
 * the design gives no size. */
int paired_differs(const PairedFigure *f, double alpha);

#endif
