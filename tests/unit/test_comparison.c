/* Comparing two sets of processes: the exact null distribution of the
 * Mann-Whitney U, its p-value (exact, and the tie-corrected normal
 * approximation) and the Moses interval for the ratio or difference of B to
 * A. Every expected value is worked out by hand in the comments (counts of
 * arrangements, pairwise ratios and differences), never read back from the
 * implementation. */
#include <math.h>
#include <stdio.h>

#include "tap.h"
#include "timing/comparison.h"

static int close_to(double got, double want, double tol)
{
    return fabs(got - want) <= tol;
}

static void test_exact_distribution(void)
{
    /* m = n = 2: C(4,2) = 6 arrangements; U = 0..4 with counts 1 1 2 1 1. */
    ok(close_to(mann_whitney_exact_cdf(2, 2, 0), 1.0 / 6.0, 1e-15), "2 against 2: P(U <= 0) is 1 arrangement of 6");
    ok(close_to(mann_whitney_exact_cdf(2, 2, 2), 4.0 / 6.0, 1e-15), "2 against 2: P(U <= 2) is 4 arrangements of 6");
    /* m = n = 3: C(6,3) = 20; counts 1 1 2 3 3 3 3 2 1 1 (partitions of u in a 3x3 box). */
    ok(close_to(mann_whitney_exact_cdf(3, 3, 0), 0.05, 1e-15), "3 against 3: P(U <= 0) = 1/20");
    ok(close_to(mann_whitney_exact_cdf(3, 3, 3), 7.0 / 20.0, 1e-15), "3 against 3: P(U <= 3) = (1+1+2+3)/20");
    ok(close_to(mann_whitney_exact_cdf(3, 3, 2.5), 4.0 / 20.0, 1e-15), "a fractional U is rounded down (2.5 -> 2)");
    /* m = n = 5: C(10,5) = 252; counts 1 1 2 3 5 7 ... (partitions in a 5x5 box). */
    ok(close_to(mann_whitney_exact_cdf(5, 5, 2), 4.0 / 252.0, 1e-15), "5 against 5: P(U <= 2) = 4/252");
    ok(close_to(mann_whitney_exact_cdf(5, 5, 5), 19.0 / 252.0, 1e-15), "5 against 5: P(U <= 5) = (1+1+2+3+5+7)/252");
    /* unequal sizes, m = 2, n = 3: C(5,2) = 10; partitions in a 2x3 box: 1 1 2 2 2 1 1. */
    ok(close_to(mann_whitney_exact_cdf(2, 3, 1), 2.0 / 10.0, 1e-15), "2 against 3: P(U <= 1) = 2/10");
    ok(close_to(mann_whitney_exact_cdf(3, 2, 3), 6.0 / 10.0, 1e-15), "3 against 2 has the same distribution: P(U <= 3) = 6/10");
    ok(mann_whitney_exact_cdf(5, 5, -1) == 0.0 && mann_whitney_exact_cdf(5, 5, 25) == 1.0,
       "U below 0 has probability 0 and U up to m*n probability 1");
    /* 25 against 25: the middle of a symmetric distribution of 626 values, P(U <= 312) = 1/2
     * exactly (U <= 312 and U >= 313 mirror each other). */
    ok(close_to(mann_whitney_exact_cdf(25, 25, 312), 0.5, 1e-12), "25 against 25 is still exact: P(U <= 312) = 1/2 by symmetry");
    ok(isnan(mann_whitney_exact_cdf(26, 2, 1)), "sizes above the exact limit have no exact distribution");
}

static void test_u_test(void)
{
    RankTest t;
    const double low[] = {1, 2, 3, 4, 5}, high[] = {6, 7, 8, 9, 10};
    ok(mann_whitney(low, 5, high, 5, &t) == 0 && t.u == 25.0 && t.exact,
       "B entirely above A: U = 5*5 = 25, from the exact distribution");
    ok(close_to(t.p_two_sided, 2.0 / 252.0, 1e-15), "that separation has p = 2 * 1/252 (both tails)");
    ok(mann_whitney(high, 5, low, 5, &t) == 0 && t.u == 0.0 && close_to(t.p_two_sided, 2.0 / 252.0, 1e-15),
       "reversed, U = 0 and the two-sided p is the same");

    /* A = 1 3 5, B = 2 4 6: b=2 beats 1; 4 beats 1, 3; 6 beats all: U = 6; far tail P(U >= 6) =
     * P(U <= 3) = 7/20; p = 14/20. */
    const double odd[] = {1, 3, 5}, even[] = {2, 4, 6};
    ok(mann_whitney(odd, 3, even, 3, &t) == 0 && t.u == 6.0 && close_to(t.p_two_sided, 0.7, 1e-15),
       "interleaved samples: U = 6 and p = 0.7");
    ok(mann_whitney(low, 3, low, 3, &t) == 0 && t.u == 4.5 && t.tied_values == 6 && t.exact && close_to(t.p_two_sided, 1.0, 1e-15),
       "a sample against itself: every pair tied, U = mn/2, p = 1 (exact, ties)");

    /* Ties, exact: the permutation distribution of U over the C(m+n, m) ways to split the pooled
     * sample, tied values at their mid-rank. Each case below was also counted by brute force
     * (python3, every split enumerated, U from the pairs) before it was written here.
     *
     * A = 1 2 2, B = 2 3 4: U = (1 + 1/2 + 1/2) + 3 + 3 = 8, |8 - 4.5| = 3.5. Pooled 1 2 2 2 3 4,
     * mid-ranks 1 3 3 3 5 6; U_A = R_A - 6 and U = 9 - U_A, so |U - 4.5| >= 3.5 needs R_A <= 7
     * (1 and two of the three 2s: 3 ways) or R_A >= 14 (4, 3 and one 2: 3 ways): p = 6/20. The
     * normal approximation (tie term 24, variance 9/12 * (7 - 24/30) = 4.65, z = 3/sqrt(4.65))
     * gives 0.164 instead. */
    const double ta[] = {1, 2, 2}, tb[] = {2, 3, 4};
    ok(mann_whitney(ta, 3, tb, 3, &t) == 0 && t.u == 8.0 && t.exact && t.tied_values == 3,
       "ties, 3 against 3: U counts a tied pair as 1/2 (U = 8), and p is exact");
    ok(close_to(t.p_two_sided, 6.0 / 20.0, 1e-15), "A = 1 2 2, B = 2 3 4: exact p = 6/20 (normal: 0.164)");

    /* A = 1 2 3 4, B = 4 5 6 7: U = 4 * 4 - 1/2 = 15.5 (the 4s tie). Every split gives A exactly one
     * of the two 4s when A holds 1 2 3 (U = 15.5, 2 ways) or 5 6 7 (U = 0.5, 2 ways), and no split
     * gets further from 8 (U = 16 would need both 4s below every B): p = 4/70 = 0.057. The normal
     * approximation (tie term 6, variance 16/12 * (9 - 6/56) = 11.857, z = 7/sqrt(11.857) = 2.033)
     * gives 0.042: "detected at 5%" where the exact test says no. */
    const double ea[] = {1, 2, 3, 4}, eb[] = {4, 5, 6, 7};
    ok(mann_whitney(ea, 4, eb, 4, &t) == 0 && t.u == 15.5 && t.exact && t.tied_values == 2 &&
       close_to(t.p_two_sided, 4.0 / 70.0, 1e-15),
       "ties, 4 against 4: A = 1 2 3 4, B = 4 5 6 7 has exact p = 4/70 = 0.057, not the normal 0.042");
    ok(t.p_two_sided > 0.05 && erfc(7.0 / sqrt(16.0 / 12.0 * (9.0 - 6.0 / 56.0)) / sqrt(2.0)) < 0.05,
       "there the exact test and the normal approximation fall on either side of 0.05");

    /* Unequal sizes, two tie groups: A = 1 1 2, B = 1 2 2 2 3. U pair by pair: b = 1 ties two 1s
     * (1), each b = 2 beats two 1s and ties one 2 (2.5, x3), b = 3 beats all (3): U = 11.5 of 15,
     * |U - 7.5| = 4. Mid-ranks: 1s 2, 2s 5.5, the 3 8; A taking c1, c2, c3 of them has
     * R_A = 2 c1 + 5.5 c2 + 8 c3 and U_A = R_A - 6, so "as far" is R_A <= 9.5 or >= 17.5:
     * (3,0,0) R 6, 1 way; (2,1,0) R 9.5, 3*4 = 12; (0,2,1) R 19, 6; the rest ((2,0,1) 3, (1,2,0) 18,
     * (1,1,1) 12, (0,3,0) 4) lie between: p = 19/56 of C(8,3) = 56 (normal: 0.253). */
    const double ua[] = {1, 1, 2}, ub[] = {1, 2, 2, 2, 3};
    ok(mann_whitney(ua, 3, ub, 5, &t) == 0 && t.u == 11.5 && t.exact && close_to(t.p_two_sided, 19.0 / 56.0, 1e-15),
       "ties, 3 against 5 with two tie groups: U = 11.5, exact p = 19/56");

    /* 25 against 25 with ties (each of 1..25 once in A, B = A): still exact; U = mn/2, p = 1. */
    double t25[25];
    for (int i = 0; i < 25; i++)
        t25[i] = 1.0 + i;
    ok(mann_whitney(t25, 25, t25, 25, &t) == 0 && t.exact && t.u == 312.5 && close_to(t.p_two_sided, 1.0, 1e-12),
       "25 against 25 with 25 tie groups is still exact (U = mn/2, p = 1)");

    const double same[] = {2, 2};
    ok(mann_whitney(same, 2, same, 2, &t) == 0 && t.p_two_sided == 1.0, "all values equal: p = 1");

    /* 26 against 26 with ties: above the exact limit, the normal approximation. */
    double t26[26];
    for (int i = 0; i < 26; i++)
        t26[i] = (double)(i / 2);
    ok(mann_whitney(t26, 26, t26, 26, &t) == 0 && !t.exact && close_to(t.p_two_sided, 1.0, 1e-15),
       "26 against 26 (ties) uses the normal approximation");

    /* 30 against 30, separated: U = 900, mean 450, variance 900 * 61 / 12 = 4575; z = 449.5/sqrt(4575) */
    double a30[30], b30[30];
    for (int i = 0; i < 30; i++) {
        a30[i] = 1.0 + i;
        b30[i] = 100.0 + i;
    }
    ok(mann_whitney(a30, 30, b30, 30, &t) == 0 && t.u == 900.0 && !t.exact &&
       close_to(t.p_two_sided, erfc(449.5 / sqrt(4575.0) / sqrt(2.0)), 1e-20),
       "30 against 30 uses the normal approximation: z = 449.5/sqrt(4575)");
}

static void test_interval(void)
{
    ShiftInterval s;
    /* m = n = 4: P(U <= 0) = 1/70 <= 0.025 < P(U <= 1) = 2/70: k = 1, coverage 1 - 2/70.
     * A = 1 2 4 8, B = 2 4 8 16: the 16 ratios are 2^e for e = -2, -1 x2, 0 x3, 1 x4, 2 x3,
     * 3 x2, 4; the 8th and 9th are both 2^1. */
    const double a[] = {1, 2, 4, 8}, b[] = {2, 4, 8, 16};
    ok(shift_interval(a, 4, b, 4, 0.95, &s) == 0 && s.ratio && s.has_ci && s.k == 1,
       "4 against 4 positive values: a ratio interval of ranks 1 and 16");
    ok(close_to(s.estimate, 2.0, 1e-12), "the ratio estimate is the median pairwise ratio, 2");
    ok(close_to(s.low, 0.25, 1e-12) && close_to(s.high, 16.0, 1e-12), "the interval is [2/8, 16/1]");
    ok(close_to(s.coverage, 1.0 - 2.0 / 70.0, 1e-12), "its exact coverage is 1 - 2/70");
    ShiftInterval r;
    ok(shift_interval(b, 4, a, 4, 0.95, &r) == 0 && close_to(r.estimate, 0.5, 1e-12) && close_to(r.low, 1.0 / 16.0, 1e-12) &&
       close_to(r.high, 4.0, 1e-12), "swapping A and B gives the reciprocal ratio and interval");

    /* m = n = 5: P(U <= 2) = 4/252 <= 0.025 < P(U <= 3) = 7/252: k = 3. A = -2..2 (not all
     * positive: differences), B = 3..7: b - a = 1 + i + j for i, j in 0..4, so the counts of
     * 1..9 are 1 2 3 4 5 4 3 2 1; D(3) = 2, D(13) = 5, D(23) = 8. */
    const double da[] = {-2, -1, 0, 1, 2}, db[] = {3, 4, 5, 6, 7};
    ok(shift_interval(da, 5, db, 5, 0.95, &s) == 0 && !s.ratio && s.has_ci && s.k == 3,
       "a non-positive value switches to differences; 5 against 5 gives ranks 3 and 23");
    ok(s.estimate == 5.0 && s.low == 2.0 && s.high == 8.0, "difference estimate 5, interval [2, 8]");
    ok(close_to(s.coverage, 1.0 - 8.0 / 252.0, 1e-12), "coverage 1 - 2 * 4/252");

    /* m = n = 3: even P(U <= 0) = 1/20 exceeds 0.025. */
    const double t3[] = {1, 2, 3};
    ok(shift_interval(t3, 3, t3, 3, 0.95, &s) == 0 && !s.has_ci && close_to(s.estimate, 1.0, 1e-12),
       "3 against 3 has no 95%% interval (P(U <= 0) = 1/20), but still an estimate");

    /* 30 against 30: k = floor(450 - 1.959964 * sqrt(4575)) = floor(317.43) = 317. */
    double a30[30], b30[30];
    for (int i = 0; i < 30; i++) {
        a30[i] = 1.0 + i;
        b30[i] = 1.0 + i;
    }
    ok(shift_interval(a30, 30, b30, 30, 0.95, &s) == 0 && s.has_ci && s.k == 317,
       "30 against 30 takes k from the normal approximation: 317");
    ok(s.low < 1.0 && s.high > 1.0 && close_to(s.estimate, 1.0, 1e-12), "identical samples: ratio 1 inside the interval");
}

int main(void)
{
    test_exact_distribution();
    test_u_test();
    test_interval();
    return done_testing();
}
