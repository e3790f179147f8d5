/* The paired statistics (timing/signed_rank.h) against hand-worked cases,
 * brute force over every sign pattern, plain re-implementations and, for
 * the power, the asymptotic formula. Nothing here is read back from the
 * implementation's own output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
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

/* The interval is the set of centres theta that the test does not reject:
 * W+(d - theta) in k..M-k. Checked at points between consecutive Walsh
 * averages, with W+ counted plainly. */
static void test_interval_inversion(void)
{
    ClompRng rng = {12345};
    int agrees = 1, contains = 1, coverage_right = 1;
    for (int trial = 0; trial < 40; trial++) {
        long n = 6 + trial % 10;
        double d[16], shifted[16];
        for (long i = 0; i < n; i++)
            d[i] = rng_normal(&rng) + 0.3;
        ShiftEstimate s = signed_rank_shift(d, n, 0.95);
        contains &= s.has_ci && s.low <= s.estimate && s.estimate <= s.high;
        long top = n * (n + 1) / 2;
        double counts[200];
        brute_counts((int)n, counts);
        /* the k whose exact coverage is s.coverage */
        long k = 0;
        double tail = 0.0;
        for (long kk = 1; 2 * kk <= top; kk++) {
            tail += counts[kk - 1] / ldexp(1.0, (int)n);
            if (tail > 0.025)
                break;
            k = kk;
        }
        double want_coverage = 1.0 - 2.0 * (tail - counts[k] / ldexp(1.0, (int)n));
        coverage_right &= close_to(s.coverage, want_coverage, 1e-12);
        for (double theta = s.low - 1.0; theta <= s.high + 1.0; theta += 0.0137) {
            for (long i = 0; i < n; i++)
                shifted[i] = d[i] - theta;
            double w = plain_w_plus(shifted, n);
            int accepted = w >= (double)k && w <= (double)(top - k);
            int inside = theta > s.low && theta < s.high;
            int outside = theta < s.low || theta > s.high;
            if ((inside && !accepted) || (outside && accepted))
                agrees = 0;
        }
    }
    ok(contains, "the Hodges-Lehmann estimate lies within its interval (40 random samples)");
    ok(coverage_right, "the interval's stated coverage is 1 - 2 P(W+ <= k-1) by brute force");
    ok(agrees, "the interval is exactly the centres the signed-rank test does not reject (brute-force W+)");
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
    /* Ties: 1, 1, 2, -2, 3 (zeros none): midranks 1.5 1.5 3.5 3.5 5; W+ = 1.5+1.5+3.5+5 = 11.5;
     * mean 7.5, var 5*6*11/24 - ((8-2)+(8-2))/48 = 13.75 - 0.25 = 13.5; z = (4 - 0.5)/sqrt(13.5). */
    const double tied[] = {1.0, 1.0, 2.0, -2.0, 3.0};
    s = signed_rank_shift(tied, 5, 0.95);
    ok(s.ties && !s.exact && s.w_plus == 11.5 && close_to(s.p_value, erfc(3.5 / sqrt(13.5) / sqrt(2.0)), 1e-12),
       "tied magnitudes take midranks and the tie-corrected normal p-value with continuity correction");
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
    const double seven[] = {1, 2, 3, 4, 5, 6, 7};
    double out[8];
    ok(batch_medians(seven, 7, 3, out) == 2 && out[0] == 2.0 && out[1] == 5.5,
       "batches of 3 over 7 values: [1 2 3] [4 5 6 7] (a short remainder joins the last), medians 2 and 5.5");
    ok(batch_medians(seven, 7, 2, out) == 4 && out[0] == 1.5 && out[2] == 5.5 && out[3] == 7.0,
       "batches of 2: a remainder of half a batch is a batch of its own");
    ok(decorrelating_batch_length(-0.2, 40, 6) == 1 && decorrelating_batch_length(0.5, 40, 6) == 3,
       "no batching without positive correlation; r = 0.5 needs batches of 3 (0.5^2/2 = 0.125, 0.5^3/3 = 0.042)");
    ok(decorrelating_batch_length(0.95, 40, 6) == 6, "strong correlation is capped to keep 6 batches of 40");
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
    test_exact_p_brute_force();
    test_normal_approximation();
    test_narrowing();
    test_holm();
    test_series();
    test_power();
    return done_testing();
}
