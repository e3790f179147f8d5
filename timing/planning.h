/* Planning a comparison (issue 44, item 4), a sibling of decision.h (the
 * same statistics module, split for length): what a spread seen in a few
 * differences lets one promise. The power figures assume normal
 * differences with a given spread and say so; a plan takes an upper
 * confidence bound of the spread, not the spread seen (which is low about
 * half the time), and a group-sequential plan is judged as the plan it is,
 * every look together. docs/statistics.md says where each is used. */
#ifndef CLOMP_PLANNING_H
#define CLOMP_PLANNING_H

#include <stdint.h>

/* The x with P(X <= x) = p for the chi-square distribution with df > 0
 * degrees of freedom (the regularized incomplete gamma function, bisection
 * to 1e-12 relative); NAN outside 0 < p < 1. */
double chi_square_quantile(double p, double df);

/* The one-sided upper confidence bound at `confidence` of the standard
 * deviation of a normal population whose n >= 2 values have sample
 * standard deviation sd: sd x sqrt((n - 1) / chi2_{1 - confidence, n - 1});
 * NAN for n < 2. (The 80% bound is the usual one for planning: Browne 1995.) */
double sd_upper_bound(double sd, long n, double confidence);

/* The smallest two-sided p-value the exact signed-rank test can give with
 * n pairs (every difference on one side, no ties): 2 / 2^n, at most 1. */
double signed_rank_smallest_p(long n);

/* The fewest pairs whose smallest p-value reaches alpha (6 at 0.05): a plan
 * with fewer can never show a difference; -1 beyond 1000 pairs. */
long signed_rank_least_pairs(double alpha);

/* Power of the two-sided signed-rank test at level alpha with n pairs when
 * the differences are normal with mean `shift` and standard deviation 1:
 * the share of `trials` simulated samples (seeded, so reproducible) whose
 * p-value is at most alpha. */
double signed_rank_power(long n, double shift, double alpha, long trials, uint64_t seed);

/* The smallest shift, in standard deviations of one difference, that the
 * test detects with probability `power` at n pairs (bisection on the
 * simulated power with common random numbers, to 0.01 sd); NAN when even
 * a shift of 20 sd is not detected that often (n too small for alpha). */
double signed_rank_detectable_shift(long n, double alpha, double power, long trials, uint64_t seed);

/* The pairs the signed-rank test needs to detect a shift of `shift_sd`
 * standard deviations of one difference with probability `power` at
 * level alpha: the least n in 6..50 by simulated power (trials, seed),
 * beyond 50 the asymptotic n = (pi/3) ((z_{1-alpha/2} + z_power) / shift)^2
 * (the test's efficiency 3/pi against the t test on normal differences);
 * -1 when shift_sd is not positive. */
long signed_rank_pairs_needed(double shift_sd, double alpha, double power, long trials, uint64_t seed);

/* The probability that the group-sequential plan - the signed-rank test
 * after looks[0] < ... < looks[k-1] pairs, stopping at the first look whose
 * p-value is <= nominal - says "differs" when the differences are normal
 * with mean `shift` and standard deviation 1 (trials simulated, seeded). */
double sequential_power(const long *looks, int k, double nominal, double shift, long trials, uint64_t seed);

/* The smallest shift (in standard deviations, to 0.005) the plan detects
 * with probability `power` (bisection on sequential_power with common
 * random numbers); NAN when no shift up to 20 sd is (a plan that cannot
 * reach its level). */
double sequential_detectable_shift(const long *looks, int k, double nominal, double power, long trials, uint64_t seed);

#endif
