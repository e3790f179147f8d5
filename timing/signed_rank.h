/* Paired and one-sample statistics, a sibling of statistics.c (the same
 * module, split for length): the Hodges-Lehmann shift with its Wilcoxon
 * signed-rank interval and p-value, Holm's step-down procedure, the lag-1
 * autocorrelation, batch medians and the power of the signed-rank test.
 * docs/statistics.md says where each is used. */
#ifndef CLOMP_SIGNED_RANK_H
#define CLOMP_SIGNED_RANK_H

#include <stddef.h>
#include <stdint.h>

/* Up to this many non-zero differences the signed-rank null distribution is
 * exact (the standard counting recursion); beyond it, and whenever ties or
 * zeros occur, the normal approximation with the tie correction and a
 * continuity correction is used, and the result says so. */
#define SIGNED_RANK_EXACT_MAX 50

/* Counts of the rank sum W+ under the null: counts[w] for w = 0..n(n+1)/2,
 * of the 2^n equally likely sign patterns. counts must hold n(n+1)/2 + 1
 * doubles (exact up to n = 50: every count is below 2^53). 0, or -1 when
 * n is out of 0..SIGNED_RANK_EXACT_MAX. */
int signed_rank_counts(int n, double *counts);

typedef struct ShiftEstimate {
    long n;              /* differences given */
    long used;           /* non-zero ones (the test ranks only these) */
    double estimate;     /* Hodges-Lehmann: the median of the n(n+1)/2 Walsh averages; NAN when n == 0 */
    int has_ci;          /* 0: n too small for an interval at the level asked */
    double low, high;    /* the interval: Walsh averages of ranks k and M+1-k */
    double coverage;     /* its coverage (exact when `exact`, else the normal approximation's) */
    double w_plus;       /* the signed-rank statistic: sum of the (mid)ranks of |d| over positive d */
    double p_value;      /* two-sided, for a shift of 0; 1 when used == 0 */
    int ci_exact;        /* 1: the interval's ranks come from the exact distribution (n <= SIGNED_RANK_EXACT_MAX) */
    int exact;           /* 1: the p-value comes from the exact distribution (no ties or zeros, used <= the max) */
    int ties;            /* 1: ties among |d| or zeros occurred */
} ShiftEstimate;

/* One sample d[0..n-1] (differences): the Hodges-Lehmann estimate of its
 * centre of symmetry, the signed-rank interval at `level` (e.g. 0.95) and
 * the p-value of "centre 0". */
ShiftEstimate signed_rank_shift(const double *d, long n, double level);

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
 * information); 0 when rho >= 1. */
double effective_sample_size(const double *x, long n);

/* Batch medians: x cut into consecutive batches of `length` (the last
 * batch takes the remainder when it is at least half a batch, else it joins
 * the one before), each replaced by its median. Writes them to out
 * (room for n / length + 1) and returns how many; 0 when length < 1. */
long batch_medians(const double *x, long n, long length, double *out);

/* The batch length that decorrelates a series with lag-1 correlation r > 0
 * (an AR(1) model: adjacent batches of length L are correlated about
 * r^L / L; the least L with that below 0.1), reduced so that at least
 * `min_batches` batches remain; 1 when r <= 0. */
long decorrelating_batch_length(double r, long n, long min_batches);

/* The standard normal's quantile at p (Acklam's approximation refined: about 1e-15). */
double signed_rank_normal_quantile(double p);

/* A small, seeded, reproducible generator (splitmix64). */
typedef struct ClompRng {
    uint64_t state;
} ClompRng;
uint64_t rng_next(ClompRng *rng);
double rng_uniform(ClompRng *rng);   /* in [0, 1) */
double rng_normal(ClompRng *rng);    /* standard normal (Box-Muller) */

/* Power of the two-sided signed-rank test at level alpha with n pairs when
 * the differences are normal with mean `shift` and standard deviation 1:
 * the share of `trials` simulated samples (seeded, so reproducible) whose
 * p-value is at most alpha. */
double signed_rank_power(long n, double shift, double alpha, long trials, uint64_t seed);

/* The smallest two-sided p-value the exact signed-rank test can give with
 * n pairs (every difference on one side, no ties): 2 / 2^n, at most 1. */
double signed_rank_smallest_p(long n);

/* The fewest pairs whose smallest p-value reaches alpha (6 at 0.05): a plan
 * with fewer can never show a difference; -1 beyond 1000 pairs. */
long signed_rank_least_pairs(double alpha);

/* The smallest shift, in standard deviations of one difference, that the
 * test detects with probability `power` at n pairs (bisection on the
 * simulated power with common random numbers, to 0.01 sd); NAN when even
 * a shift of 20 sd is not detected that often (n too small for alpha). */
double signed_rank_detectable_shift(long n, double alpha, double power, long trials, uint64_t seed);

#endif
