/* The statistics of repeated timings: medians, spread, EPCC's outlier rule,
 * the distribution-free interval of the median and the number of decimals a
 * figure deserves. Every expected value below is worked out by hand (the
 * arithmetic is in the comments), never read back from the implementation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "timing/statistics.h"

#define TOL 1e-12
#define COVERAGE_TOL 1e-4

static int close_to(double got, double want, double tol)
{
    return fabs(got - want) <= tol;
}

static void test_median_of(void)
{
    /* sorted 1 2 3: the middle one */
    const double odd[] = {3.0, 1.0, 2.0};
    ok(median_of(odd, 3) == 2.0, "the median of an odd count is the middle value");

    /* sorted 1 2 3 4: (2 + 3) / 2 = 2.5 */
    const double even[] = {4.0, 1.0, 3.0, 2.0};
    ok(median_of(even, 4) == 2.5, "the median of an even count is the mean of the two middle values");

    /* sorted 1 2 5 8 9 13 21: the fourth, 8 */
    const double unsorted[] = {21.0, 5.0, 1.0, 13.0, 8.0, 2.0, 9.0};
    ok(median_of(unsorted, 7) == 8.0, "the median of unsorted values is taken after sorting them");

    /* sorted 1 3 5 5 5: the third, 5 */
    const double dup_odd[] = {5.0, 1.0, 5.0, 3.0, 5.0};
    ok(median_of(dup_odd, 5) == 5.0, "repeated values count once for each time they occur");

    /* sorted 1 1 2 2: (1 + 2) / 2 = 1.5 */
    const double dup_even[] = {2.0, 2.0, 1.0, 1.0};
    ok(median_of(dup_even, 4) == 1.5, "an even count of duplicated values averages the two middle ones");

    const double single[] = {42.25};
    ok(median_of(single, 1) == 42.25, "the median of one value is that value");

    /* sorted -7 -5 -3 -1: (-5 + -3) / 2 = -4 */
    const double neg_even[] = {-3.0, -1.0, -7.0, -5.0};
    ok(median_of(neg_even, 4) == -4.0, "negative values sort below zero and their middle pair is averaged");

    /* sorted -10 -2.5 0: the middle one, -2.5 */
    const double neg_odd[] = {-2.5, 0.0, -10.0};
    ok(median_of(neg_odd, 3) == -2.5, "a negative middle value is the median of mixed-sign values");

    /* only the first n values count: 9 1 5 -> sorted 1 5 9 -> 5 (the trailing -100s are ignored) */
    const double prefix[] = {9.0, 1.0, 5.0, -100.0, -100.0};
    ok(median_of(prefix, 3) == 5.0, "the median looks only at the first n values");

    double values[] = {4.0, -1.5, 8.0, 0.0, 3.0, 3.0};
    double copy[sizeof values / sizeof values[0]];
    memcpy(copy, values, sizeof values);
    /* sorted -1.5 0 3 3 4 8: (3 + 3) / 2 = 3 */
    double m = median_of(values, 6);
    ok(m == 3.0 && memcmp(values, copy, sizeof values) == 0,
       "taking the median leaves the input array in its original order");
}

/* Hand-worked: 21 5 1 13 8 2 9 has median 8, deviations 13 3 7 5 0 6 1,
 * sorted 0 1 3 5 6 7 13: MAD 5; and the input is left as it was. */
static void test_mad_of(void)
{
    double v[] = {21.0, 5.0, 1.0, 13.0, 8.0, 2.0, 9.0};
    ok(mad_of(v, 7) == 5.0 && v[0] == 21.0 && v[6] == 9.0, "the median absolute deviation of 7 values is 5, input untouched");
    const double even[] = {1.0, 2.0, 3.0, 10.0};   /* median 2.5; deviations 1.5 0.5 0.5 7.5: MAD 1 */
    ok(mad_of(even, 4) == 1.0, "of 4 values, the mean of the two middle deviations (1)");
    ok(isnan(mad_of(even, 0)), "no values: NaN");
}

static void test_summary_of_small_vectors(void)
{
    /* sum 40, mean 5; deviations -3 -1 -1 -1 0 0 2 4, squares 9+1+1+1+0+0+4+16 = 32;
     * sd = sqrt(32 / 7) = 2.13809, cv = sd / 5; sorted 2 4 4 4 5 5 7 9: median (4 + 5) / 2 */
    const double v[] = {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0};
    SampleStats s = summarize_samples(v, 8, CLOMP_CI_LEVEL);
    double sd = sqrt(32.0 / 7.0);
    ok(s.n == 8, "the summary records how many samples it saw");
    ok(s.min == 2.0 && s.max == 9.0, "the summary holds the smallest and the largest sample");
    ok(s.median == 4.5, "the summary's median averages the two middle samples of an even count");
    ok(close_to(s.mean, 5.0, TOL), "the summary's mean is the arithmetic mean");
    ok(close_to(s.sd, sd, 1e-12), "the standard deviation divides the sum of squares by n - 1 (sqrt(32/7))");
    ok(close_to(s.cv, sd / 5.0, 1e-12), "the coefficient of variation is sd divided by the mean");
    /* 3 sd = 6.41; the farthest sample, 9, is only 4 away */
    ok(s.outliers == 0, "samples within three standard deviations are not outliers");

    /* mean -4; deviations 2 0 -2, squares 8, sd = sqrt(8 / 2) = 2; cv = 2 / |-4| = 0.5 */
    const double neg[] = {-2.0, -4.0, -6.0};
    s = summarize_samples(neg, 3, CLOMP_CI_LEVEL);
    ok(close_to(s.mean, -4.0, TOL) && close_to(s.sd, 2.0, TOL), "negative samples have a negative mean and a positive sd");
    ok(close_to(s.cv, 0.5, TOL), "the coefficient of variation divides by the absolute value of a negative mean");

    /* mean 0; deviations -1 1, squares 2, sd = sqrt(2 / 1); cv is defined as 0 when the mean is 0 */
    const double zero_mean[] = {-1.0, 1.0};
    s = summarize_samples(zero_mean, 2, CLOMP_CI_LEVEL);
    ok(close_to(s.sd, sqrt(2.0), TOL) && s.cv == 0.0, "a zero mean gives a coefficient of variation of 0, not a division by zero");

    const double one[] = {3.5};
    s = summarize_samples(one, 1, CLOMP_CI_LEVEL);
    ok(s.n == 1 && s.min == 3.5 && s.max == 3.5 && s.median == 3.5 && s.mean == 3.5,
       "a single sample is its own minimum, maximum, median and mean");
    ok(s.sd == 0.0 && s.cv == 0.0 && s.outliers == 0, "a single sample has sd 0, cv 0 and no outliers");
    ok(s.has_ci == 0 && s.ci_coverage == 0.0, "a single sample has no interval and coverage 0");

    double keep[] = {9.0, 2.0, 7.0, 4.0};
    double copy[4];
    memcpy(copy, keep, sizeof keep);
    s = summarize_samples(keep, 4, CLOMP_CI_LEVEL);
    ok(memcmp(keep, copy, sizeof keep) == 0 && s.median == 5.5, "summarizing leaves the samples in their original order");
}

static void test_outlier_rule(void)
{
    double v[20];

    /* 19 x 10.0 and one 20.0: mean 210 / 20 = 10.5; squares 19 * 0.25 + 9.5^2 = 4.75 + 90.25 = 95;
     * sd = sqrt(95 / 19) = sqrt(5) = 2.236, 3 sd = 6.708 < |20 - 10.5| = 9.5, while 0.5 is not */
    for (int i = 0; i < 19; i++)
        v[i] = 10.0;
    v[19] = 20.0;
    SampleStats s = summarize_samples(v, 20, CLOMP_CI_LEVEL);
    ok(close_to(s.sd, sqrt(5.0), 1e-12), "one sample far from nineteen equal ones gives sd sqrt(5)");
    ok(s.outliers == 1, "a sample more than three standard deviations from the mean is an outlier");

    /* 10 x 10.0 and one 21.0: mean 121 / 11 = 11; squares 10 * 1 + 10^2 = 110; sd = sqrt(110 / 10) = sqrt(11);
     * 3 sd = 9.950 < |21 - 11| = 10: just outside (one equal sample of k+1 is an outlier iff k / sqrt(k+1) > 3) */
    for (int i = 0; i < 10; i++)
        v[i] = 10.0;
    v[10] = 21.0;
    s = summarize_samples(v, 11, CLOMP_CI_LEVEL);
    ok(close_to(s.sd, sqrt(11.0), 1e-12) && s.outliers == 1,
       "a sample 3.015 standard deviations from the mean is counted as an outlier");

    /* 9 x 10.0 and one 20.0: mean 110 / 10 = 11; squares 9 * 1 + 9^2 = 90; sd = sqrt(90 / 9) = sqrt(10);
     * 3 sd = 9.487 > |20 - 11| = 9: just inside (9 / sqrt(10) = 2.846 sd) */
    for (int i = 0; i < 9; i++)
        v[i] = 10.0;
    v[9] = 20.0;
    s = summarize_samples(v, 10, CLOMP_CI_LEVEL);
    ok(close_to(s.sd, sqrt(10.0), 1e-12) && s.outliers == 0,
       "a sample 2.85 standard deviations from the mean is not an outlier");

    /* both tails: 18 x 10.0, one 20.0 and one 0.0: mean 200 / 20 = 10; squares 100 + 100 = 200;
     * sd = sqrt(200 / 19) = 3.244, 3 sd = 9.733 < 10: both extremes are outliers */
    for (int i = 0; i < 18; i++)
        v[i] = 10.0;
    v[18] = 20.0;
    v[19] = 0.0;
    s = summarize_samples(v, 20, CLOMP_CI_LEVEL);
    ok(s.outliers == 2, "outliers below the mean count as well as those above it");

    for (int i = 0; i < 5; i++)
        v[i] = 7.0;
    s = summarize_samples(v, 5, CLOMP_CI_LEVEL);
    ok(s.mean == 7.0 && s.sd == 0.0 && s.cv == 0.0 && s.outliers == 0,
       "equal samples have sd 0, cv 0 and no outliers");

    /* 0.1 is not representable, so a summed mean may miss it by an ulp: the spread must still be negligible */
    for (int i = 0; i < 10; i++)
        v[i] = 0.1;
    s = summarize_samples(v, 10, CLOMP_CI_LEVEL);
    ok(s.cv < 1e-12 && s.outliers == 0, "equal inexact samples have a negligible cv and no outliers");
}

static void test_median_ci_ranks(void)
{
    long lo = 0, hi = 0;
    double cov = 0.0;

    /* n = 20, cumulative binomial counts sum C(20, i) for i <= k: k=4: 1+20+190+1140+4845 = 6196,
     * k=5: +15504 = 21700, k=6: +38760 = 60460, k=7: +77520 = 137980; over 2^20 = 1048576:
     * P(B<=4) = 0.005909, P(B<=5) = 0.020695, P(B<=6) = 0.057659, P(B<=7) = 0.131588.
     * Coverage of [j, 21-j] = 1 - 2 P(B<=j-1): j=5 0.988182, j=6 0.958611, j=7 0.884682, j=8 0.736824. */
    int rc = median_ci_ranks(20, 0.95, &lo, &hi, &cov);
    ok(rc == 0 && lo == 6 && hi == 15, "20 samples at 95%% give the median interval between ranks 6 and 15");
    ok(close_to(cov, 1.0 - 2.0 * 21700.0 / 1048576.0, COVERAGE_TOL) && close_to(cov, 0.958611, COVERAGE_TOL),
       "ranks 6 and 15 of 20 cover the median with probability 0.9586");

    rc = median_ci_ranks(20, 0.975, &lo, &hi, &cov);
    ok(rc == 0 && lo == 5 && hi == 16 && close_to(cov, 0.988182, COVERAGE_TOL),
       "20 samples at 97.5%% widen the interval to ranks 5 and 16 (coverage 0.9882)");

    rc = median_ci_ranks(20, 0.88, &lo, &hi, &cov);
    ok(rc == 0 && lo == 7 && hi == 14 && close_to(cov, 0.884682, COVERAGE_TOL),
       "20 samples at 88%% narrow the interval to ranks 7 and 14 (coverage 0.8847)");

    /* n = 5: [1, 5] covers 1 - 2/32 = 0.9375 < 0.95 */
    rc = median_ci_ranks(5, 0.95, &lo, &hi, &cov);
    ok(rc == -1, "5 samples are too few for a 95%% interval, since even [min, max] covers only 0.9375");

    /* n = 6: [1, 6] covers 1 - 2/64 = 0.96875; [2, 5] covers 1 - 2*7/64 = 0.78125 */
    rc = median_ci_ranks(6, 0.95, &lo, &hi, &cov);
    ok(rc == 0 && lo == 1 && hi == 6 && close_to(cov, 0.96875, COVERAGE_TOL),
       "6 samples at 95%% need the whole range [min, max] (coverage 0.96875)");

    /* n = 7: [1, 7] covers 1 - 2/128 = 0.984375; [2, 6] covers 1 - 2*8/128 = 0.875 */
    rc = median_ci_ranks(7, 0.95, &lo, &hi, &cov);
    ok(rc == 0 && lo == 1 && hi == 7 && close_to(cov, 0.984375, COVERAGE_TOL),
       "7 samples at 95%% also need the whole range (coverage 0.984375)");

    /* n = 10: [2, 9] covers 1 - 2*(1+10)/1024 = 0.978516; [3, 8] covers 1 - 2*(1+10+45)/1024 = 0.890625 */
    rc = median_ci_ranks(10, 0.95, &lo, &hi, &cov);
    ok(rc == 0 && lo == 2 && hi == 9 && close_to(cov, 0.978516, COVERAGE_TOL),
       "10 samples at 95%% give ranks 2 and 9 (coverage 0.9785)");

    /* n = 1: [1, 1] covers 1 - 2 * P(B(1) <= 0) = 1 - 2 * 1/2 = 0 */
    rc = median_ci_ranks(1, 0.95, &lo, &hi, &cov);
    ok(rc == -1, "a single sample has no interval of the median");

    /* n = 2 at level 0.5: [1, 2] covers 1 - 2 * 1/4 = 0.5 exactly, which is enough */
    rc = median_ci_ranks(2, 0.5, &lo, &hi, &cov);
    ok(rc == 0 && lo == 1 && hi == 2 && close_to(cov, 0.5, COVERAGE_TOL),
       "a coverage exactly equal to the level asked for is accepted");

    /* n = 100 (exact sums): P(B<=39) = 0.017600, P(B<=40) = 0.028444;
     * [40, 61] covers 1 - 2*0.017600 = 0.964800, [41, 60] covers 1 - 2*0.028444 = 0.943112 */
    rc = median_ci_ranks(100, 0.95, &lo, &hi, &cov);
    ok(rc == 0 && lo == 40 && hi == 61 && close_to(cov, 0.964800, COVERAGE_TOL),
       "100 samples at 95%% give ranks 40 and 61 (coverage 0.9648)");

    /* n = 2000, where 2^n and C(n, k) overflow a double (exact sums): [956, 1045] covers 0.953447 */
    rc = median_ci_ranks(2000, 0.95, &lo, &hi, &cov);
    ok(rc == 0 && lo == 956 && hi == 1045 && close_to(cov, 0.953447, COVERAGE_TOL),
       "2000 samples at 95%% give ranks 956 and 1045 without overflowing (coverage 0.9534)");
}

static void test_summary_interval(void)
{
    /* 1..20 shuffled: sorted x(k) = k, so ranks [6, 15] give [6, 15]; median (10 + 11) / 2 = 10.5;
     * mean 210 / 20 = 10.5; sample variance of 1..n is n(n+1)/12 = 35 */
    const double v[] = {7, 19, 3, 12, 20, 1, 15, 9, 6, 14, 2, 18, 11, 5, 16, 8, 13, 4, 17, 10};
    SampleStats s = summarize_samples(v, 20, CLOMP_CI_LEVEL);
    ok(s.has_ci == 1 && s.ci_low == 6.0 && s.ci_high == 15.0,
       "the interval of 1..20 shuffled is [6, 15], the sorted samples at ranks 6 and 15");
    ok(close_to(s.ci_coverage, 0.958611, COVERAGE_TOL), "the summary reports the interval's exact coverage");
    ok(s.median == 10.5 && close_to(s.mean, 10.5, TOL) && close_to(s.sd, sqrt(35.0), 1e-12),
       "1..20 shuffled has median 10.5, mean 10.5 and sd sqrt(35)");
    ok(s.min == 1.0 && s.max == 20.0 && s.outliers == 0, "1..20 shuffled spans [1, 20] with no outliers");

    /* same values scaled by 0.5 and shifted by -3: interval [6*0.5-3, 15*0.5-3] = [0, 4.5] */
    double w[20];
    for (int i = 0; i < 20; i++)
        w[i] = v[i] * 0.5 - 3.0;
    s = summarize_samples(w, 20, 0.975);
    /* at 97.5%: ranks [5, 16] -> [5*0.5-3, 16*0.5-3] = [-0.5, 5] */
    ok(s.has_ci == 1 && s.ci_low == -0.5 && s.ci_high == 5.0 && close_to(s.ci_coverage, 0.988182, COVERAGE_TOL),
       "the summary's interval follows the level it is asked for (ranks 5 and 16 at 97.5%%)");

    /* n = 8 at 95%: [1, 8] covers 1 - 2/256 = 0.9921875, [2, 7] covers 1 - 2*9/256 = 0.9296875 */
    const double eight[] = {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0};
    s = summarize_samples(eight, 8, CLOMP_CI_LEVEL);
    ok(s.has_ci == 1 && s.ci_low == 2.0 && s.ci_high == 9.0 && close_to(s.ci_coverage, 0.9921875, COVERAGE_TOL),
       "8 samples at 95%% take [min, max] as the interval");

    const double five[] = {5.0, 3.0, 1.0, 4.0, 2.0};
    s = summarize_samples(five, 5, CLOMP_CI_LEVEL);
    ok(s.has_ci == 0 && s.ci_coverage == 0.0, "5 samples at 95%% have no interval and report coverage 0");
    ok(s.median == 3.0 && s.min == 1.0 && s.max == 5.0, "a summary without an interval still has its median and range");
}

static void test_difference_interval(void)
{
    SampleStats a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.has_ci = 1;
    a.ci_low = 10.0;
    a.ci_high = 14.0;
    b.has_ci = 1;
    b.ci_low = 3.0;
    b.ci_high = 5.0;
    double low = 0.0, high = 0.0;

    /* [10 - 5, 14 - 3] = [5, 11] */
    int rc = difference_interval(&a, &b, &low, &high);
    ok(rc == 0 && low == 5.0 && high == 11.0, "the difference a - b runs from a's low minus b's high to a's high minus b's low");

    /* [3 - 14, 5 - 10] = [-11, -5] */
    rc = difference_interval(&b, &a, &low, &high);
    ok(rc == 0 && low == -11.0 && high == -5.0, "swapping the operands negates and swaps the interval");

    /* [10 - 14, 14 - 10] = [-4, 4] */
    rc = difference_interval(&a, &a, &low, &high);
    ok(rc == 0 && low == -4.0 && high == 4.0, "the difference of a median with itself straddles zero");

    b.has_ci = 0;
    ok(difference_interval(&a, &b, &low, &high) == -1, "no difference interval when the subtrahend has none");
    ok(difference_interval(&b, &a, &low, &high) == -1, "no difference interval when the minuend has none");
    a.has_ci = 0;
    ok(difference_interval(&a, &b, &low, &high) == -1, "no difference interval when neither has one");
}

static void test_decimals_for_uncertainty(void)
{
    /* first significant digit: 0.37 tenths, 2.6 units, 0.004 thousandths, 0.05 hundredths */
    ok(decimals_for_uncertainty(0.37, 6) == 1, "an uncertainty of 0.37 keeps one decimal");
    ok(decimals_for_uncertainty(2.6, 6) == 0, "an uncertainty of 2.6 keeps no decimals");
    ok(decimals_for_uncertainty(0.004, 6) == 3, "an uncertainty of 0.004 keeps three decimals");
    ok(decimals_for_uncertainty(0.05, 6) == 2, "an uncertainty of 0.05 keeps two decimals");
    ok(decimals_for_uncertainty(15.0, 6) == 0, "an uncertainty of 15 keeps no decimals, never a negative count");
    ok(decimals_for_uncertainty(1234.0, 6) == 0, "a large uncertainty keeps no decimals");
    ok(decimals_for_uncertainty(1.0, 6) == 0, "an uncertainty of exactly 1 keeps no decimals");
    ok(decimals_for_uncertainty(0.1, 6) == 1, "an uncertainty of 0.1 keeps one decimal");
    ok(decimals_for_uncertainty(0.01, 6) == 2, "an uncertainty of 0.01 keeps two decimals");
    /* 0.0001234 would need 4 decimals */
    ok(decimals_for_uncertainty(0.0001234, 3) == 3, "a tiny uncertainty is capped at max_decimals");
    ok(decimals_for_uncertainty(0.37, 0) == 0, "max_decimals 0 caps even a fractional uncertainty");
    ok(decimals_for_uncertainty(0.0, 4) == 4, "a zero uncertainty gives max_decimals");
    ok(decimals_for_uncertainty(-0.5, 4) == 4, "a negative uncertainty gives max_decimals");
    ok(decimals_for_uncertainty(NAN, 5) == 5, "a NaN uncertainty gives max_decimals");
    ok(decimals_for_uncertainty(INFINITY, 5) == 5, "an infinite uncertainty gives max_decimals");
    ok(decimals_for_uncertainty(-INFINITY, 5) == 5, "a negative infinite uncertainty gives max_decimals");
}

int main(void)
{
    test_median_of();
    test_mad_of();
    test_summary_of_small_vectors();
    test_outlier_rule();
    test_median_ci_ranks();
    test_summary_interval();
    test_difference_interval();
    test_decimals_for_uncertainty();
    return done_testing();
}
