/* Deciding between two set-ups (issue 31, items 2 and 3), a sibling of
 * signed_rank.h (the same statistics module, split for length): the
 * Brunner-Munzel test of P(B > A) = 1/2 (valid when the sides' spreads
 * differ), Student's t distribution it needs, the group-sequential
 * (Pocock) level of a signed-rank test looked at after several planned
 * numbers of pairs (the pairs a shift needs: planning.h).
 * docs/statistics.md says where each is used. */
#ifndef CLOMP_DECISION_H
#define CLOMP_DECISION_H

#include <stdint.h>

/* P(T <= t) for Student's t with df > 0 degrees of freedom (the
 * regularized incomplete beta function by its continued fraction). */
double student_t_cdf(double t, double df);

/* The t with P(T <= t) = p for Student's t with df > 0 degrees of freedom
 * (bisection on student_t_cdf, to 1e-12 relative); NAN outside 0 < p < 1. */
double student_t_quantile(double p, double df);

typedef struct BrunnerMunzel {
    double p_b_greater;   /* P(B > A) + P(B = A)/2, from the pooled mid-ranks: the share of the
                             A x B pairs in which B is larger (ties half) */
    double statistic;     /* Brunner and Munzel's W (positive: B tends to be larger) */
    double df;            /* its Satterthwaite degrees of freedom (NAN when degenerate) */
    double p_value;       /* two-sided, t with df; degenerate (no variance within the placements):
                             0 when the sides are completely separated, else 1 */
    int degenerate;
} BrunnerMunzel;

/* The Brunner-Munzel test of a[0..m-1] against b[0..n-1] (m, n >= 2);
 * 0, or -1 when a side has fewer than 2 values or out of memory. */
int brunner_munzel(const double *a, long m, const double *b, long n, BrunnerMunzel *out);

/* The two-sided p-value of the signed-rank statistic W+ = w of n
 * non-zero, untied differences: exact up to SIGNED_RANK_EXACT_MAX (counts:
 * signed_rank_counts(n), or NULL to have them made), else normal. */
double signed_rank_p(long n, double w, const double *counts);

/* The running sums of signed_rank_counts(n): cumulative[x] = the sign
 * patterns with W+ <= x, x = 0..n(n+1)/2 (room for as many doubles as
 * counts); 0, or -1 when n is out of 0..SIGNED_RANK_EXACT_MAX. */
int signed_rank_cumulative(int n, double *cumulative);

/* signed_rank_p from those running sums, in constant time rather than a
 * pass over the counts: the same value, since every sum is a whole number
 * below 2^53 and so exact in any order (NULL: signed_rank_p's own way).
 * For simulations, which ask it for millions of statistics of one n. */
double signed_rank_p_cumulative(long n, double w, const double *cumulative);

/* One simulated difference for a signed-rank statistic: its magnitude and sign. */
typedef struct SignedDraw {
    double magnitude;
    int positive;
} SignedDraw;

/* Adds d to ranked[0..m-1] (ascending magnitude; after its equals, where a
 * stable sort of the draws in order puts it) and returns W+ of the m + 1
 * draws, given w, W+ of the m: each draw it passes moves up one rank. A
 * simulation's looks then rank each draw once, not once per look. */
double signed_draw_insert(SignedDraw *ranked, long m, SignedDraw d, double w);

/* W+ of ranked[0..upto-1] once the draws ranked[m..upto-1], appended in draw order, join the m
 * ranked before them (W+ w): inserted one by one when they are few (SIGNED_DRAWS_INSERTED or
 * fewer: a sequential plan's looks), else one sort of all of them. */
#define SIGNED_DRAWS_INSERTED 16
double signed_draws_rank(SignedDraw *ranked, long m, long upto, double w);

/* Pocock's group-sequential rule for the exact signed-rank test looked at
 * after looks[0] < looks[1] < ... < looks[k-1] pairs: the one nominal
 * level alpha' (the same at every look) such that stopping at the first
 * look whose p-value is <= alpha' rejects a true "no difference" with
 * probability at most alpha. Under that null the signs of continuous
 * differences are fair coins independent of their magnitudes' order, so
 * the joint law of the looks' statistics is distribution-free: it is
 * simulated (sims draws, seeded: reproducible) and alpha' is the largest
 * attainable level whose simulated overall rate is at most alpha less two
 * standard errors of the simulation (0.0014 at 100000 draws). 0 when no
 * level is attainable (every look too small); NAN on bad input. */
double sequential_nominal_level(const long *looks, int k, double alpha, long sims, uint64_t seed);

/* The overall rejection rate of that rule at nominal level `nominal`,
 * simulated the same way (for the report and the tests). */
double sequential_overall_rate(const long *looks, int k, double nominal, long sims, uint64_t seed);

/* A distribution-free prediction interval for one more value of the
 * population v[0..n-1] came from (the next process): the order statistics
 * x_(j) and x_(n+1-j) hold a new value with probability (n+1-2j)/(n+1); the
 * largest j whose coverage is still >= level. Below that many values
 * ((n-1)/(n+1) < level: n < 39 at 95%) it is [min, max] with its lower
 * coverage. values_needed: the least n for which [min, max] reaches level. */
typedef struct PredictionInterval {
    double low, high, coverage;
    long values_needed;
} PredictionInterval;
PredictionInterval prediction_interval(const double *v, long n, double level);

#endif
