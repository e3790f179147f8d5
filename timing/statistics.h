/* Statistics of repeated timings, in one place (as EPCC does): every figure
 * clomp prints beyond CLOMP 1.2's single shot comes from here. */
#ifndef CLOMP_STATISTICS_H
#define CLOMP_STATISTICS_H

/* Coverage of every interval clomp prints. */
#define CLOMP_CI_LEVEL 0.95
/* Every interval the report prints and the JSON writes comes from the chunks
 * of one process, and says so: separate processes of the same input spread
 * wider (run_clomp.sh --replicates and --compare measure that; docs/statistics.md). */
#define INTERVAL_SCOPE "within this process"
/* EPCC's outlier rule: farther than this many standard deviations from the mean. */
#define CLOMP_OUTLIER_SIGMAS 3.0
/* A coefficient of variation above this makes a measurement "noisy". */
#define CLOMP_NOISY_CV 0.10

typedef struct SampleStats {
    long n;
    double min, max, median, mean;
    double sd;         /* sample standard deviation (n-1 denominator); 0 when n < 2 */
    double cv;         /* sd / |mean|; 0 when n < 2 or mean == 0 */
    long outliers;     /* samples more than CLOMP_OUTLIER_SIGMAS sd from the mean; 0 when sd == 0 */
    int has_ci;        /* 0: too few samples for an interval of the requested coverage */
    double ci_low;     /* distribution-free interval of the median from order statistics */
    double ci_high;
    double ci_coverage;   /* exact coverage of [ci_low, ci_high] (>= the level asked for); 0 without one */
} SampleStats;

/* Median of n > 0 values (the mean of the two middle ones when n is even).
 * Does not modify `values`. */
double median_of(const double *values, long n);

/* Median absolute deviation from the median of n > 0 values (unscaled);
 * NaN for n < 1 or when memory runs out. Does not modify `values`. */
double mad_of(const double *values, long n);

/* 1-based ranks lo <= hi of the sorted sample such that [x(lo), x(hi)]
 * contains the population median with probability >= level (binomial with
 * p = 1/2, symmetric ranks, the narrowest such pair). Returns 0 and sets
 * *coverage when it exists; -1 when even [min, max] covers less than level. */
int median_ci_ranks(long n, double level, long *lo, long *hi, double *coverage);

/* All of the above for n >= 1 values, CI at `level` (e.g. CLOMP_CI_LEVEL). */
SampleStats summarize_samples(const double *values, long n, double level);

/* Interval for a difference of two medians a - b from each one's interval:
 * [a.low - b.high, a.high - b.low]. Each median interval must be computed at
 * level 1 - (1 - L)/2 for the difference to cover at least L (Bonferroni).
 * Returns 0, or -1 when either has no interval. */
int difference_interval(const SampleStats *a, const SampleStats *b, double *low, double *high);

/* CLOMP 1.2's kind of figure from chunks: the total of y over the total of
 * x (seconds over subcycles), with the standard error of that ratio by its
 * linearisation: the residuals e = y - rate x, their variance over their
 * effective sample size (signed_rank.h effective_sample_size: the chunks of
 * a run are serially correlated), divided by the mean x. ok 0 below 3 chunks or when the effective size is
 * under 2. */
typedef struct RateEstimate {
    int ok;
    double rate, se;
    double df;         /* effective sample size - 1 */
} RateEstimate;
RateEstimate rate_of_sums(const double *y, const double *x, long n);

/* The Welch interval of a.rate - b.rate at `level` (Satterthwaite degrees
 * of freedom); 0, or -1 when either has no estimate. */
int rate_difference_interval(const RateEstimate *a, const RateEstimate *b, double level, double *low, double *high);

/* Decimals that keep exactly one significant digit of `uncertainty` (a
 * spread or interval half-width): 0.37 -> 1, 2.6 -> 0, 0.004 -> 3. Never
 * more than max_decimals; max_decimals when uncertainty <= 0 or not finite. */
int decimals_for_uncertainty(double uncertainty, int max_decimals);

#endif
