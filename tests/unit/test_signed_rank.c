/* The paired statistics (timing/signed_rank.h) against hand-worked cases,
 * brute force over every sign pattern, plain re-implementations and, for
 * the power, the asymptotic formula. Nothing here is read back from the
 * implementation's own output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "timing/planning.h"
#include "timing/signed_rank.h"

static int close_to(double got, double want, double tol)
{
    return fabs(got - want) <= tol;
}

/* W+ of d with plain ranks (no ties in these samples): for each positive
 * value, 1 + the number of |d| below it. */
static double plain_w_plus(const double *d, long n)
{
    double w = 0.0;
    for (long i = 0; i < n; i++) {
        if (d[i] <= 0.0)
            continue;
        long below = 0;
        for (long j = 0; j < n; j++)
            below += fabs(d[j]) < fabs(d[i]);
        w += (double)(below + 1);
    }
    return w;
}

/* Null counts by enumerating all 2^n sign patterns of ranks 1..n. */
static void brute_counts(int n, double *counts)
{
    long top = (long)n * (n + 1) / 2;
    memset(counts, 0, (size_t)(top + 1) * sizeof *counts);
    for (unsigned long mask = 0; mask < (1ul << n); mask++) {
        long w = 0;
        for (int k = 1; k <= n; k++)
            if (mask & (1ul << (k - 1)))
                w += k;
        counts[w] += 1.0;
    }
}

static void test_counts(void)
{
    int all_equal = 1;
    for (int n = 0; n <= 16; n++) {
        long top = (long)n * (n + 1) / 2;
        double *dp = malloc((size_t)(top + 1) * sizeof *dp), *bf = malloc((size_t)(top + 1) * sizeof *bf);
        signed_rank_counts(n, dp);
        brute_counts(n, bf);
        for (long w = 0; w <= top; w++)
            all_equal &= dp[w] == bf[w];
        free(dp);
        free(bf);
    }
    ok(all_equal, "the signed-rank null counts equal a brute-force enumeration of every sign pattern, n = 0..16");
    double c50[1276], sum = 0.0;
    ok(signed_rank_counts(50, c50) == 0, "the exact counts go up to n = 50");
    for (int w = 0; w <= 1275; w++)
        sum += c50[w];
    ok(sum == ldexp(1.0, 50) && c50[0] == 1.0 && c50[1275] == 1.0 && c50[10] == c50[1265],
       "at n = 50 they sum to 2^50 exactly and are symmetric");
    ok(signed_rank_counts(51, c50) == -1, "n = 51 is refused (beyond exact doubles' reach as promised)");
}

static void test_hand_case(void)
{
    /* d = -1, 2, 4. Walsh averages: -1, 0.5, 1.5, 2, 3, 4 -> median (1.5 + 2)/2 = 1.75.
     * Ranks of |d|: 1 (negative), 2, 3 -> W+ = 5. Null for n = 3: W = 0..6 with
     * counts 1 1 1 2 1 1 1; P(W >= 5) = 2/8 -> two-sided p = 0.5. */
    const double d[] = {-1.0, 2.0, 4.0};
    ShiftEstimate s = signed_rank_shift(d, 3, 0.95);
    ok(s.estimate == 1.75, "the Hodges-Lehmann estimate of -1, 2, 4 is the median Walsh average 1.75");
    ok(s.w_plus == 5.0 && s.used == 3, "W+ of -1, 2, 4 is 5 over 3 non-zero differences");
    ok(close_to(s.p_value, 0.5, 1e-15) && s.exact, "its exact two-sided p-value is 2 x 2/8 = 0.5");
    ok(!s.has_ci, "three differences give no 95%% interval (even the widest covers 1 - 2/8 = 75%%)");

    /* Six differences 1..6, all positive: W+ = 21, P(W >= 21) = 1/64 -> p = 2/64.
     * The widest interval [W(1), W(21)] = [1, 6] covers 1 - 2/64 = 0.96875. */
    const double six[] = {3.0, 1.0, 6.0, 2.0, 5.0, 4.0};
    s = signed_rank_shift(six, 6, 0.95);
    ok(close_to(s.p_value, 2.0 / 64.0, 1e-15), "six positive differences have p = 2/64");
    ok(s.has_ci && s.low == 1.0 && s.high == 6.0 && close_to(s.coverage, 0.96875, 1e-15),
       "and the 95%% interval [min, max] = [1, 6] with exact coverage 62/64");
    ok(s.estimate == 3.5, "the Walsh median of 1..6 is 3.5");

    const double same[] = {0.25, 0.5, 0.125, 1.0, 0.75, 0.375, 0.625};
    s = paired_shift(same, same, 7, 0.95);
    ok(s.estimate == 0.0 && s.has_ci && s.low <= 0.0 && s.high >= 0.0 && s.p_value == 1.0 && s.used == 0,
       "a series paired with itself: shift 0, an interval containing 0, p = 1, no non-zero difference");
}

/* The brute-force conditional test: zeros dropped, midranks over tied
 * magnitudes (the samples here are exact binary fractions: ties are exact),
 * and every one of the 2^u sign patterns of those magnitudes counted. */
static double brute_p(const double *d, long n, double theta)
{
    double mag[20], rank[20], w = 0.0;
    int positive[20];
    long u = 0;
    for (long i = 0; i < n; i++)
        if (d[i] != theta) {
            mag[u] = fabs(d[i] - theta);
            positive[u++] = d[i] > theta;
        }
    for (long i = 0; i < u; i++) {
        long below = 0, equal = 0;
        for (long j = 0; j < u; j++) {
            below += mag[j] < mag[i];
            equal += mag[j] == mag[i];
        }
        rank[i] = (double)below + 0.5 * (double)(equal + 1);   /* the midrank of its tie group */
        if (positive[i])
            w += rank[i];
    }
    double low = 0.0, high = 0.0;
    for (unsigned long mask = 0; mask < (1ul << u); mask++) {
        double x = 0.0;
        for (long i = 0; i < u; i++)
            if (mask & (1ul << i))
                x += rank[i];
        low += x <= w + 1e-9;
        high += x >= w - 1e-9;
    }
    return u == 0 ? 1.0 : fmin(1.0, 2.0 * fmin(low, high) / ldexp(1.0, (int)u));
}

static int compare_values(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The interval is the hull of the centres the brute-force test keeps at
 * 1 - level, checked at every Walsh average, between consecutive ones and
 * outside them (the test's outcome changes only at Walsh averages); an end
 * is open exactly when the brute-force test rejects that end itself. */
static int inversion_agrees(const double *d, long n, double level, const ShiftEstimate *s)
{
    double walsh[210], theta[430];
    long m = 0, t = 0;
    for (long i = 0; i < n; i++)
        for (long j = i; j < n; j++)
            walsh[m++] = 0.5 * (d[i] + d[j]);
    qsort(walsh, (size_t)m, sizeof *walsh, compare_values);
    theta[t++] = walsh[0] - 1.0;
    for (long i = 0; i < m; i++) {
        theta[t++] = walsh[i];
        theta[t++] = i + 1 < m ? 0.5 * (walsh[i] + walsh[i + 1]) : walsh[i] + 1.0;
    }
    double lo = INFINITY, hi = -INFINITY;
    int unbounded = 0;
    for (long i = 0; i < t; i++)
        if (brute_p(d, n, theta[i]) > 1.0 - level) {
            lo = fmin(lo, theta[i]);
            hi = fmax(hi, theta[i]);
            unbounded |= i == 0 || i == t - 1;
        }
    if (unbounded || lo > hi)
        return !s->has_ci;
    /* a kept stretch next to a rejected Walsh average: the hull's end is that average, open */
    long at_lo = 0, at_hi = 0;
    for (long i = 0; i < t; i++) {
        if (theta[i] == lo)
            at_lo = i;
        if (theta[i] == hi)
            at_hi = i;
    }
    int lo_open = at_lo % 2 == 0, hi_open = at_hi % 2 == 0;   /* odd indices are the Walsh averages */
    double want_lo = lo_open ? theta[at_lo - 1] : lo, want_hi = hi_open ? theta[at_hi + 1] : hi;
    return s->has_ci && s->low == want_lo && s->high == want_hi && s->low_open == lo_open && s->high_open == hi_open;
}

static void test_interval_inversion(void)
{
    ClompRng rng = {12345};
    int agrees = 1, contains = 1, coverage_right = 1;
    for (int trial = 0; trial < 40; trial++) {
        long n = 6 + trial % 6;
        double d[16];
        /* continuous, on a grid of 1/4096 so that a Walsh average and the ties at it are exact */
        for (long i = 0; i < n; i++)
            d[i] = nearbyint((rng_normal(&rng) + 0.3) * 4096.0) / 4096.0;
        ShiftEstimate s = signed_rank_shift(d, n, 0.95);
        contains &= s.has_ci && s.low <= s.estimate && s.estimate <= s.high;
        agrees &= inversion_agrees(d, n, 0.95, &s);
        /* the classic interval [W(k), W(M+1-k)], k the largest with P(W+ <= k-1) <= 0.025 */
        long top = n * (n + 1) / 2, k = 0;
        double counts[200], walsh[200], tail = 0.0, tail_k = 0.0;
        brute_counts((int)n, counts);
        for (long kk = 1; 2 * kk <= top; kk++) {
            tail += counts[kk - 1] / ldexp(1.0, (int)n);
            if (tail > 0.025)
                break;
            k = kk;
            tail_k = tail;
        }
        long m = 0;
        for (long i = 0; i < n; i++)
            for (long j = i; j < n; j++)
                walsh[m++] = 0.5 * (d[i] + d[j]);
        qsort(walsh, (size_t)m, sizeof *walsh, compare_values);
        int classic = s.low == walsh[k - 1] && s.high == walsh[m - k];
        coverage_right &= classic ? close_to(s.coverage, 1.0 - 2.0 * tail_k, 1e-12) : s.coverage == 0.95;
    }
    ok(contains, "the Hodges-Lehmann estimate lies within its interval (40 random samples)");
    ok(coverage_right, "the stated coverage is 1 - 2 P(W+ <= k-1) (brute force) where the interval is the classic "
                       "[W(k), W(M+1-k)], else the level, which the kept set's hull is known to reach");
    ok(agrees, "the interval is the hull of the centres the brute-force test keeps, open where its end is rejected "
               "(40 samples of 6..11 continuous differences)");

    /* Tick-quantised differences: quarters from -1 to 2, many ties and zeros. */
    int tied_agrees = 1, p_agrees = 1;
    for (int trial = 0; trial < 60; trial++) {
        long n = 6 + trial % 6;
        double d[16];
        for (long i = 0; i < n; i++)
            d[i] = 0.25 * (double)((long)(rng_next(&rng) % 13) - 4);
        ShiftEstimate s = signed_rank_shift(d, n, 0.95);
        p_agrees &= s.exact && close_to(s.p_value, brute_p(d, n, 0.0), 1e-12);
        tied_agrees &= inversion_agrees(d, n, 0.95, &s);
    }
    ok(p_agrees, "with ties and zeros the p-value is the brute-force conditional one: every sign pattern of the "
                 "non-zero magnitudes with midranks (60 samples of 6..11 quarters)");
    ok(tied_agrees, "and the interval is the hull of the centres that brute-force test keeps, at 95%%");
}

/* The review's cases (issue 44): ties and zeros must never give "differs"
 * beside an interval holding 0. */
static void test_review_cases(void)
{
    const double five_and_zeros[] = {0.004, 0.0, 0.004, 0.004, 0.0, 0.004, 0.0, 0.004};
    ShiftEstimate s = signed_rank_shift(five_and_zeros, 8, 0.95);
    ok(s.exact && close_to(s.p_value, 2.0 / 32.0, 1e-12),
       "five differences of +0.004 and three zeros: the exact conditional p is 2/32 = 0.0625 (got %.4f)", s.p_value);
    ok(s.has_ci && !shift_excludes(&s, 0.0) && s.low == 0.0 && s.high == 0.004,
       "and its interval, 0 .. 0.004, holds 0 as the test does");
    double ten_six[16];
    for (int i = 0; i < 16; i++)
        ten_six[i] = i % 8 < 5 ? 0.0 : 1.0;   /* ten zeros, six ones */
    s = signed_rank_shift(ten_six, 16, 0.95);
    ok(s.exact && close_to(s.p_value, 2.0 / 64.0, 1e-12), "ten zeros and six +1s: p = 2/64 = 0.031 (got %.4f)",
       s.p_value);
    ok(s.has_ci && s.low == 0.0 && s.low_open && shift_excludes(&s, 0.0),
       "and the interval excludes 0 as the test does: it starts just above 0 (0 itself rejected), up to %g", s.high);
    const double six_equal[] = {1, 1, 1, 1, 1, 1};
    s = signed_rank_shift(six_equal, 6, 1.0 - 0.0202);
    ok(s.exact && close_to(s.p_value, 2.0 / 64.0, 1e-12) && close_to(s.p_floor, 2.0 / 64.0, 1e-12),
       "six equal +1 differences: p = 2/64, the least these magnitudes can give");
    ok(!s.has_ci, "at Pocock's level 0.0202 no centre can be rejected: no interval (never 'None..None')");
}

static void test_exact_p_brute_force(void)
{
    ClompRng rng = {777};
    int agrees = 1;
    for (int trial = 0; trial < 30; trial++) {
        long n = 4 + trial % 9;
        double d[12];
        for (long i = 0; i < n; i++)
            d[i] = rng_normal(&rng) + 0.5;
        ShiftEstimate s = signed_rank_shift(d, n, 0.95);
        /* every sign pattern of the same magnitudes: the share at least as far from the mean */
        double w = plain_w_plus(d, n), mean = (double)n * (n + 1) / 4.0, extreme = 0.0;
        double flipped[12];
        for (unsigned long mask = 0; mask < (1ul << n); mask++) {
            for (long i = 0; i < n; i++)
                flipped[i] = mask & (1ul << i) ? fabs(d[i]) : -fabs(d[i]);
            extreme += fabs(plain_w_plus(flipped, n) - mean) >= fabs(w - mean) - 1e-9;
        }
        agrees &= s.exact && close_to(s.p_value, extreme / ldexp(1.0, (int)n), 1e-12);
    }
    ok(agrees, "the exact p-value equals the share of all 2^n sign patterns at least as extreme (n = 4..12)");
}

static void test_normal_approximation(void)
{
    /* 60 differences: beyond the exact table; the interval and p-value say so. */
    ClompRng rng = {99};
    double d[60];
    for (int i = 0; i < 60; i++)
        d[i] = rng_normal(&rng);
    ShiftEstimate s = signed_rank_shift(d, 60, 0.95);
    ok(!s.ci_exact && !s.exact && s.has_ci && close_to(s.coverage, 0.95, 0.01),
       "60 differences use the normal approximation, coverage near 95%%");
    /* Ties: 1, 1, 2, -2, 3: midranks 1.5 1.5 3.5 3.5 5; W+ = 1.5+1.5+3.5+5 = 11.5. Of the 32 sign
     * patterns of 1.5 1.5 3.5 3.5 5 (sum 15), W+ >= 11.5 means W- <= 3.5: {}, {1.5}x2, {1.5 1.5},
     * {3.5}x2: 6 patterns -> p = 2 x 6/32 = 0.375. */
    const double tied[] = {1.0, 1.0, 2.0, -2.0, 3.0};
    s = signed_rank_shift(tied, 5, 0.95);
    ok(s.ties && s.exact && s.w_plus == 11.5 && close_to(s.p_value, 0.375, 1e-12),
       "tied magnitudes take midranks and the exact conditional p-value, 2 x 6/32");
    /* Beyond 50: 60 values with ties (quarters) take the tie-corrected normal approximation. */
    for (int i = 0; i < 60; i++)
        d[i] = 0.25 * (double)(i % 7) - 0.5;
    s = signed_rank_shift(d, 60, 0.95);
    ok(s.ties && !s.exact, "60 tied differences use the tie-corrected normal approximation, and say so");
}

static void test_narrowing(void)
{
    ClompRng rng = {4242};
    double d[48];
    for (int i = 0; i < 48; i++)
        d[i] = 0.1 + 0.04 * rng_normal(&rng);
    ShiftEstimate few = signed_rank_shift(d, 12, 0.95), many = signed_rank_shift(d, 48, 0.95);
    ok(many.high - many.low < few.high - few.low, "the interval narrows from 12 to 48 differences (%.4f < %.4f)",
       many.high - many.low, few.high - few.low);
}

/* Holm, written plainly: step through sorted p-values. */
static void plain_holm(const double *p, size_t m, double alpha, int *reject)
{
    int used[64] = {0};
    for (size_t i = 0; i < m; i++)
        reject[i] = 0;
    for (size_t step = 0; step < m; step++) {
        size_t best = m;
        for (size_t i = 0; i < m; i++)
            if (!used[i] && (best == m || p[i] < p[best]))
                best = i;
        used[best] = 1;
        if (p[best] > alpha / (double)(m - step))
            return;
        reject[best] = 1;
    }
}

static void test_holm(void)
{
    /* sorted 0.005 (<= 0.05/4), 0.01 (<= 0.05/3), 0.03 (> 0.05/2): stop. Adjusted
     * 4x0.005 = 0.02, 3x0.01 = 0.03, max(0.03, 2x0.03) = 0.06, max(0.06, 0.04) = 0.06. */
    const double p[] = {0.01, 0.04, 0.03, 0.005};
    int reject[4];
    double adj[4];
    long r = holm_rejections(p, 4, 0.05, reject, adj);
    ok(r == 2 && reject[0] && !reject[1] && !reject[2] && reject[3], "Holm rejects 0.005 and 0.01, stops at 0.03");
    ok(close_to(adj[3], 0.02, 1e-15) && close_to(adj[0], 0.03, 1e-15) && close_to(adj[2], 0.06, 1e-15) &&
           close_to(adj[1], 0.06, 1e-15), "Holm's adjusted p-values are monotone in sorted order");
    ClompRng rng = {31};
    int agrees = 1;
    for (int trial = 0; trial < 500; trial++) {
        size_t m = 1 + (size_t)(rng_next(&rng) % 20);
        double q[64];
        int a[64], b[64];
        for (size_t i = 0; i < m; i++)
            q[i] = pow(rng_uniform(&rng), 3.0) * 0.2;
        holm_rejections(q, m, 0.05, a, NULL);
        plain_holm(q, m, 0.05, b);
        for (size_t i = 0; i < m; i++)
            agrees &= a[i] == b[i];
    }
    ok(agrees, "Holm agrees with a plain re-implementation on 500 random sets of p-values");
}

static void test_series(void)
{
    /* 1 2 3 4: mean 2.5, deviations -1.5 -0.5 0.5 1.5; num 0.75 - 0.25 + 0.75 = 1.25, den 5 -> 0.25 */
    const double rising[] = {1.0, 2.0, 3.0, 4.0};
    ok(close_to(lag1_autocorrelation(rising, 4), 0.25, 1e-15), "lag-1 autocorrelation of 1 2 3 4 is 0.25");
    /* 1 -1 1 -1: num -3, den 4 -> -0.75 */
    const double alternating[] = {1.0, -1.0, 1.0, -1.0};
    ok(close_to(lag1_autocorrelation(alternating, 4), -0.75, 1e-15), "of 1 -1 1 -1 it is -0.75");
    /* Widening: an interval 1 .. 3 about 2 from 20 differences worth 5 stretches each end by
     * t(0.975, 2) / t(0.975, 19) x sqrt(20/5) = 4.302653 / 2.093024 x 2 = 4.111423. */
    ShiftEstimate s = {.n = 20, .used = 20, .estimate = 2.0, .has_ci = 1, .low = 1.0, .high = 3.0, .low_open = 1, .coverage = 0.96};
    ok(widen_for_correlation(&s, 5.0, 0.95) == 0 && close_to(s.high - 2.0, 4.111423, 1e-5) &&
           close_to(2.0 - s.low, 4.111423, 1e-5) && !s.low_open && s.coverage == 0.95,
       "an interval from 20 differences worth 5 independent ones is widened 4.111x about its estimate");
    ShiftEstimate same = {.n = 20, .used = 20, .estimate = 2.0, .has_ci = 1, .low = 1.0, .high = 3.0, .coverage = 0.96};
    ok(widen_for_correlation(&same, 20.0, 0.95) == 0 && same.low == 1.0 && same.high == 3.0 && same.coverage == 0.96,
       "uncorrelated differences keep their interval as it is");
    ok(widen_for_correlation(&same, 1.5, 0.95) == -1 && !same.has_ci, "below 2 effective differences: no interval");
    /* A sawtooth in time order is as anti-correlated as can be; a ramp is as correlated. */
    double ramp[24], saw[24];
    for (int i = 0; i < 24; i++) {
        ramp[i] = i;
        saw[i] = i % 2;
    }
    ok(serial_correlation_p(ramp, 24, 999, 5) == 1.0 / 1000.0, "a ramp's lag-1 is beyond every one of 999 shuffles");
    ok(serial_correlation_p(saw, 24, 999, 5) > 0.99, "an alternating series shows no positive correlation");
}

static void test_power(void)
{
    double size = signed_rank_power(10, 0.0, 0.05, 20000, 1);
    /* n = 10: the largest c with P(W <= c) <= 0.025 is 8 (P = 25/1024): size 50/1024 = 0.0488 */
    ok(close_to(size, 50.0 / 1024.0, 0.006), "with no shift the test rejects at its exact size 50/1024 (got %.4f)",
       size);
    ok(signed_rank_power(10, 3.0, 0.05, 2000, 1) > 0.99, "a shift of 3 sd at 10 pairs is nearly always detected");
    double d = signed_rank_detectable_shift(20, 0.05, 0.8, 4000, 7);
    /* asymptotically (z_0.975 + z_0.8) / sqrt(n x 3/pi) = 2.8016 / sqrt(19.10) = 0.641 sd */
    ok(close_to(d, 0.641, 0.06), "80%% power at 20 pairs needs about 0.64 sd (got %.3f)", d);
    ok(isnan(signed_rank_detectable_shift(5, 0.05, 0.8, 500, 7)), "5 pairs can never reach p <= 0.05 (2/32 > 0.05)");
}

int main(void)
{
    test_counts();
    test_hand_case();
    test_interval_inversion();
    test_review_cases();
    test_exact_p_brute_force();
    test_normal_approximation();
    test_narrowing();
    test_holm();
    test_series();
    test_power();
    return done_testing();
}
