/* Paired and one-sample statistics, a sibling of statistics.c (the same
 * module, split for length): the Hodges-Lehmann shift with its Wilcoxon
 * signed-rank interval and p-value, Holm's step-down procedure, the lag-1
 * autocorrelation and what it does to an interval, and the power of the
 * signed-rank test.
 * docs/statistics.md says where each is used. */
#ifndef CLOMP_SIGNED_RANK_H
#define CLOMP_SIGNED_RANK_H

#include <stddef.h>
#include <stdint.h>

/* Up to this many non-zero differences the signed-rank test is exact: the
 * distribution of W+ over the 2^n equally likely sign patterns of the
 * observed magnitudes, conditional on their ties (midranks) and with zeros
 * dropped; beyond it, the normal approximation with the tie correction and a
 * continuity correction, and the result says so. The interval is the set of
 * centres that very test keeps (exact up to this many differences). */
#define SIGNED_RANK_EXACT_MAX 50
/* Magnitudes closer than this share of the largest |difference| are tied,
 * and closer to 0 are zeros (rounding of a difference of two timings). */
#define SIGNED_RANK_TIE_RELATIVE 1e-9

/* Counts of the rank sum W+ under the null with ranks 1..n (no ties):
 * counts[w] for w = 0..n(n+1)/2, of the 2^n equally likely sign patterns.
 * counts must hold n(n+1)/2 + 1 doubles (exact up to n = 50: every count
 * is below 2^53). 0, or -1 when n is out of 0..SIGNED_RANK_EXACT_MAX. */
int signed_rank_counts(int n, double *counts);

typedef struct ShiftEstimate {
    long n;              /* differences given */
    long used;           /* non-zero ones (the test ranks only these) */
    double estimate;     /* Hodges-Lehmann: the median of the n(n+1)/2 Walsh averages; NAN when n == 0 */
    int has_ci;          /* 0: no interval at the level asked (the test keeps every centre, or n too small) */
    double low, high;    /* the interval: the centres the test keeps; its ends are Walsh averages */
    int low_open, high_open;   /* 1: that end itself is rejected (the kept set is open there) */
    double coverage;     /* its coverage: exact without ties; with ties at least the level asked */
    double w_plus;       /* the signed-rank statistic: sum of the (mid)ranks of |d| over positive d */
    double p_value;      /* two-sided, for a shift of 0; 1 when used == 0 */
    double p_floor;      /* the smallest p these magnitudes can give (all signs alike) */
    int ci_exact;        /* 1: the interval inverts the exact conditional test (n <= SIGNED_RANK_EXACT_MAX) */
    int exact;           /* 1: the p-value is exact (conditional on ties and zeros; used <= the max) */
    int ties;            /* 1: ties among |d| or zeros occurred */
} ShiftEstimate;

/* One sample d[0..n-1] (differences): the Hodges-Lehmann estimate of its
 * centre of symmetry, the interval of the centres the signed-rank test
 * keeps at level 1 - `level` (e.g. 0.95), and the p-value of "centre 0". */
ShiftEstimate signed_rank_shift(const double *d, long n, double level);

/* Whether the interval excludes `value` (an open end at value excludes it);
 * 0 without an interval. A paired test that says "differs" has this of 0. */
int shift_excludes(const ShiftEstimate *s, double value);

/* SIGNED_RANK_TIE_RELATIVE x the largest |d[i]|. */
double signed_rank_tolerance(const double *d, long n);

/* Pairs: the shift of a over b from the differences a[i] - b[i]. */
ShiftEstimate paired_shift(const double *a, const double *b, long n, double level);

/* Holm's step-down procedure on m p-values at family-wise level alpha:
 * reject[i] 1 when rejected; adjusted[i] (may be NULL) the Holm-adjusted
 * p-value, max over j <= i of min(1, (m - j) p_(j)) in sorted order.
 * Returns the number rejected, or -1 when out of memory. */
long holm_rejections(const double *p, size_t m, double alpha, int *reject, double *adjusted);

/* Lag-1 autocorrelation of x[0..n-1] in its order: sum (x_i - mean)(x_{i+1} - mean) / sum (x_i - mean)^2;
 * 0 when n < 3 or every value is equal. */
double lag1_autocorrelation(const double *x, long n);

/* The lag-1 autocorrelation of an AR(1) series of n values corrected for
 * the bias of its estimate r (E r = rho - (1 + 4 rho)/n with the mean
 * estimated, Marriott and Pope 1954): (n r + 1) / (n - 4), kept in -1..1;
 * r itself when n <= 4. */
double lag1_bias_corrected(double r, long n);

/* The effective sample size of x[0..n-1] taken as an AR(1) series:
 * n (1 - rho) / (1 + rho) with rho its bias-corrected lag-1 correlation,
 * the n whose independent values' mean has the same variance (to first
 * order); n when rho <= 0 (negative correlation is not taken as extra
 * information) and when every value is equal; 0 when rho >= 1. */
double effective_sample_size(const double *x, long n);

/* The interval of s widened for serially correlated differences whose
 * effective sample size is `effective` (effective_sample_size) < s->n:
 * each end's distance from the estimate times
 * t(q, (effective - 1) / 2) / t(q, n - 1) x sqrt(n / effective), q = 1/2 +
 * level/2 - the variance of n correlated values is that of `effective`
 * independent ones, and a variance taken with its correlation estimated
 * has about half the degrees of freedom (the halving is calibrated by
 * simulation: AR(1) coverage 94.7-97.1% at lag-1 0..0.5 from 20
 * differences, tests/unit/test_autocorrelation.c). Nothing to do when
 * effective >= n; no interval (has_ci 0, -1) below 2. The ends are then
 * no longer Walsh averages, and the coverage is the level. */
int widen_for_correlation(ShiftEstimate *s, double effective, double level);

/* The one-sided permutation p-value of x's lag-1 autocorrelation being as
 * large as it is when the order carries no information: (1 + the orderings
 * of `permutations` seeded shuffles at least as correlated) / (1 +
 * permutations); 1 for n < 3. */
double serial_correlation_p(const double *x, long n, long permutations, uint64_t seed);

/* The standard normal's quantile at p (Acklam's approximation refined: about 1e-15). */
double signed_rank_normal_quantile(double p);

/* A small, seeded, reproducible generator (splitmix64). */
typedef struct ClompRng {
    uint64_t state;
} ClompRng;
uint64_t rng_next(ClompRng *rng);
double rng_uniform(ClompRng *rng);   /* in [0, 1) */
double rng_normal(ClompRng *rng);    /* standard normal (Box-Muller) */



#endif
