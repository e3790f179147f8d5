/* The statistics that decide between two set-ups (timing/decision.h)
 * against closed forms, a published worked example, plain
 * re-implementations, brute-force enumeration and simulation. Nothing here
 * is read back from the implementation's own output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "timing/decision.h"
#include "timing/planning.h"
#include "timing/signed_rank.h"
#include "timing/simulation_memo.h"

static int close_to(double got, double want, double tol)
{
    return fabs(got - want) <= tol;
}

static void test_student_t(void)
{
    /* df = 1 is Cauchy: F(t) = 1/2 + atan(t)/pi; df = 2: F(t) = 1/2 + t / (2 sqrt(2 + t^2)). */
    int cauchy = 1, two = 1;
    for (double t = -6.0; t <= 6.0; t += 0.37) {
        cauchy &= close_to(student_t_cdf(t, 1.0), 0.5 + atan(t) / 3.14159265358979323846, 1e-12);
        two &= close_to(student_t_cdf(t, 2.0), 0.5 + t / (2.0 * sqrt(2.0 + t * t)), 1e-12);
    }
    ok(cauchy, "Student's t with 1 degree of freedom is the Cauchy distribution, 1/2 + atan(t)/pi");
    ok(two, "with 2 degrees of freedom it is 1/2 + t / (2 sqrt(2 + t^2))");
    ok(close_to(student_t_cdf(2.228138851986, 10.0), 0.975, 1e-9), "t(10)'s 97.5%% quantile is 2.228139 (tables)");
    ok(close_to(student_t_cdf(1.959963984540, 1e4), 0.975, 1e-4), "with many degrees of freedom t is the normal");
    ok(student_t_cdf(0.0, 7.3) == 0.5 && close_to(student_t_cdf(-1.3, 4.5) + student_t_cdf(1.3, 4.5), 1.0, 1e-14),
       "t is symmetric about 0, also at fractional degrees of freedom");
}

/* P(B > A) + P(B = A)/2 by counting every A x B pair. */
static double pair_share(const double *a, long m, const double *b, long n)
{
    double s = 0.0;
    for (long i = 0; i < m; i++)
        for (long j = 0; j < n; j++)
            s += b[j] > a[i] ? 1.0 : b[j] == a[i] ? 0.5 : 0.0;
    return s / (double)(m * n);
}

/* Brunner and Munzel's statistic and degrees of freedom from their definition, plainly: the
 * placements P_i = #{other side below} + #{equal}/2, their variances, W and Satterthwaite's df. */
static void plain_bm(const double *a, long m, const double *b, long n, double *w, double *df)
{
    double pa[64], pb[64], ma = 0.0, mb = 0.0, va = 0.0, vb = 0.0;
    for (long i = 0; i < m; i++) {
        pa[i] = 0.0;
        for (long j = 0; j < n; j++)
            pa[i] += b[j] < a[i] ? 1.0 : b[j] == a[i] ? 0.5 : 0.0;
        ma += pa[i] / (double)m;
    }
    for (long j = 0; j < n; j++) {
        pb[j] = 0.0;
        for (long i = 0; i < m; i++)
            pb[j] += a[i] < b[j] ? 1.0 : a[i] == b[j] ? 0.5 : 0.0;
        mb += pb[j] / (double)n;
    }
    for (long i = 0; i < m; i++)
        va += (pa[i] - ma) * (pa[i] - ma) / (double)(m - 1);
    for (long j = 0; j < n; j++)
        vb += (pb[j] - mb) * (pb[j] - mb) / (double)(n - 1);
    /* mean pooled rank of B minus A's = (mb + (n+1)/2) - (ma + (m+1)/2) */
    double diff = (mb + 0.5 * (double)(n + 1)) - (ma + 0.5 * (double)(m + 1));
    double s = (double)m * va + (double)n * vb;
    *w = (double)m * (double)n * diff / ((double)(m + n) * sqrt(s));
    *df = s * s / ((double)m * va * (double)m * va / (double)(m - 1) + (double)n * vb * (double)n * vb / (double)(n - 1));
}

static void test_brunner_munzel(void)
{
    /* The worked example of SciPy's brunnermunzel documentation (Brunner and Munzel 2000's pain
     * scores): statistic 3.1374674823029505, p-value 0.0057862086661515377. */
    const double x1[] = {1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 1, 1};
    const double x2[] = {3, 3, 4, 3, 1, 2, 3, 1, 1, 5, 4};
    BrunnerMunzel bm;
    int status = brunner_munzel(x1, 14, x2, 11, &bm);
    ok(status == 0 && close_to(bm.statistic, 3.1374674823029505, 1e-12) &&
           close_to(bm.p_value, 0.0057862086661515377, 1e-9),
       "the published pain-score example: W = 3.13747, p = 0.0057862 (got %.10g, %.10g)", bm.statistic, bm.p_value);
    ok(close_to(bm.p_b_greater, pair_share(x1, 14, x2, 11), 1e-14),
       "P(B > A) + P(B = A)/2 is the share of the 154 pairs in which B is larger, ties half (%.6f)", bm.p_b_greater);

    ClompRng rng = {99};
    int agrees = 1, share = 1;
    for (int trial = 0; trial < 200; trial++) {
        long m = 3 + trial % 9, n = 2 + trial % 13;
        double a[16], b[16], w, df;
        for (long i = 0; i < m; i++)
            a[i] = floor(rng_normal(&rng) * 3.0);   /* ties on purpose */
        for (long j = 0; j < n; j++)
            b[j] = floor(rng_normal(&rng) * 5.0 + 1.0);
        if (brunner_munzel(a, m, b, n, &bm) != 0) {
            agrees = 0;
            continue;
        }
        share &= close_to(bm.p_b_greater, pair_share(a, m, b, n), 1e-12);
        if (bm.degenerate)
            continue;
        plain_bm(a, m, b, n, &w, &df);
        double lower = student_t_cdf(w, df);
        agrees &= close_to(bm.statistic, w, 1e-9 * fmax(1.0, fabs(w))) && close_to(bm.df, df, 1e-9 * df) &&
                  close_to(bm.p_value, fmin(1.0, 2.0 * fmin(lower, 1.0 - lower)), 1e-12);
    }
    ok(agrees, "W, its degrees of freedom and p equal the placements' definition, re-implemented plainly (200 tied samples)");
    ok(share, "and P(B > A) equals the pair count in every one");

    const double low[] = {1, 2, 3, 4}, high[] = {10, 11, 12};
    ok(brunner_munzel(low, 4, high, 3, &bm) == 0 && bm.degenerate && bm.p_value == 0.0 && bm.p_b_greater == 1.0,
       "completely separated sides: no variance in the placements, P(B > A) = 1, p = 0, said to be degenerate");
    ok(brunner_munzel(low, 1, high, 3, &bm) == -1, "a side of one value is refused");
    /* Issue 44: float residue of a spread of 0 is not a spread. */
    const double six_a[] = {1, 1, 1, 1, 1, 1}, six_b[] = {2, 2, 2, 2, 2, 2}, seven[] = {7, 7, 7, 7, 7, 7, 7};
    ok(brunner_munzel(six_a, 6, six_b, 6, &bm) == 0 && bm.degenerate && bm.p_value == 0.0 && isinf(bm.statistic),
       "two separated constant sides are degenerate (no statistic of 1.5e16 from rounding): p = 0");
    ok(brunner_munzel(seven, 7, seven, 7, &bm) == 0 && bm.degenerate && bm.p_value == 1.0 && bm.statistic == 0.0 &&
           bm.p_b_greater == 0.5,
       "all values equal: degenerate, P(B > A) = 1/2, p = 1 (not 'df 12, p 1' from rounding)");

    /* A spread that differs with a centre that does not: B = A's values stretched 4x about the same
     * median. The share of pairs with B larger stays 1/2 and the test does not reject. */
    const double a[] = {-3, -2, -1, -0.5, 0, 0.5, 1, 2, 3}, b[] = {-12, -8, -4, -2, 0, 2, 4, 8, 12};
    status = brunner_munzel(a, 9, b, 9, &bm);
    ok(status == 0 && close_to(bm.p_b_greater, 0.5, 1e-15) && bm.p_value > 0.9,
       "B spread 4x wider about A's centre: P(B > A) = 1/2 and Brunner-Munzel does not reject (p = %.3f)", bm.p_value);
}

/* The smallest p over looks (4, 7) of one configuration: perm the magnitude order, signs the signs. */
static double two_look_min_p(const int *perm, unsigned signs, const double *counts4, const double *counts7)
{
    const long looks[2] = {4, 7};
    double best = 1.0;
    for (int k = 0; k < 2; k++) {
        long n = looks[k];
        double w = 0.0;
        for (long x = 0; x < n; x++) {
            long rank = 1;
            for (long y = 0; y < n; y++)
                rank += perm[y] < perm[x];
            if (signs & (1u << x))
                w += (double)rank;
        }
        best = fmin(best, signed_rank_p(n, w, k == 0 ? counts4 : counts7));
    }
    return best;
}

/* The overall rejection rate of stopping at the first of looks (4, 7) with p <= nominal, over every
 * equally likely null configuration: each of the 7! orders of the magnitudes (Heap's algorithm) and
 * 2^7 sign patterns. */
static double brute_two_looks(double nominal)
{
    int perm[7] = {0, 1, 2, 3, 4, 5, 6}, c[7] = {0};
    long rejected = 0, total = 0;
    double counts4[11], counts7[29];
    signed_rank_counts(4, counts4);
    signed_rank_counts(7, counts7);
    for (unsigned signs = 0; signs < 128; signs++, total++)
        rejected += two_look_min_p(perm, signs, counts4, counts7) <= nominal;
    for (int i = 1; i < 7;) {
        if (c[i] < i) {
            int j = i % 2 == 0 ? 0 : c[i], t = perm[j];
            perm[j] = perm[i];
            perm[i] = t;
            for (unsigned signs = 0; signs < 128; signs++, total++)
                rejected += two_look_min_p(perm, signs, counts4, counts7) <= nominal;
            c[i]++;
            i = 1;
        } else {
            c[i] = 0;
            i++;
        }
    }
    return total == 5040L * 128L ? (double)rejected / (double)total : NAN;
}

static void test_sequential(void)
{
    const long two[2] = {4, 7};
    double level = sequential_nominal_level(two, 2, 0.05, 100000, 5);
    double exact = brute_two_looks(level);
    ok(exact <= 0.05, "looks after 4 and 7 pairs at the nominal level chosen (%.5f): the overall rate, over all "
                      "5040 x 128 null configurations, is %.5f <= 0.05", level, exact);
    /* At 7 pairs P(W <= 0, 1, 2, 3) = 1, 2, 3, 5 of 128: the two-sided p-values 2, 4, 6, 10 of 128. */
    ok(close_to(level, 6.0 / 128.0, 1e-12) && brute_two_looks(10.0 / 128.0) > 0.05,
       "that level is 6/128 (4 pairs cannot reach p <= 0.05): the next attainable, 10/128, would exceed alpha");
    ok(close_to(sequential_overall_rate(two, 2, level, 100000, 6), exact, 0.003),
       "the simulated overall rate agrees with the enumeration");

    /* Pocock's constant for 2 equally spaced looks at two-sided 0.05 is 2.178 (normal theory):
     * nominal 2 (1 - Phi(2.178)) = 0.0294. At 20 and 40 pairs the signed-rank test is near normal. */
    const long pocock[2] = {20, 40};
    level = sequential_nominal_level(pocock, 2, 0.05, 100000, 7);
    ok(close_to(level, 0.0294, 0.004), "looks at 20 and 40 pairs: the nominal level is Pocock's 0.0294 (got %.4f)", level);
    ok(sequential_overall_rate(pocock, 2, level, 100000, 8) <= 0.05,
       "and a fresh simulation of the rule stays within alpha");
    const long five[5] = {6, 10, 13, 17, 20};
    double l5 = sequential_nominal_level(five, 5, 0.05, 100000, 9);
    ok(l5 > 0.0 && l5 < level && sequential_overall_rate(five, 5, l5, 100000, 10) <= 0.05,
       "five looks (6..20 pairs) need a lower level still (%.4f) and keep alpha", l5);
    const long bad[2] = {7, 7};
    ok(isnan(sequential_nominal_level(bad, 2, 0.05, 1000, 1)), "looks that do not increase are refused");
}

static void test_prediction(void)
{
    double v[80];
    for (int i = 0; i < 80; i++)
        v[i] = (double)((i * 37) % 80);   /* 0..79 in a scrambled order */
    PredictionInterval p = prediction_interval(v, 6, 0.95);
    ok(close_to(p.coverage, 5.0 / 7.0, 1e-15) && p.values_needed == 39,
       "6 values: [min, max] holds the next one with probability 5/7; 95%% needs 39 values");
    p = prediction_interval(v, 39, 0.95);
    ok(close_to(p.coverage, 0.95, 1e-15) && p.low == 0.0, "39 values: [min, max] at exactly 38/40 = 95%%");
    p = prediction_interval(v, 79, 0.95);
    /* the first 79 of the scrambled 0..79 lack 79 x 37 mod 80 = 43: the 2nd smallest is 1, the 2nd largest 78 */
    ok(close_to(p.coverage, 76.0 / 80.0, 1e-15) && p.low == 1.0 && p.high == 78.0,
       "79 values: the 2nd smallest and 2nd largest, (80 - 4)/80 = 95%%");
    /* Simulated: a 7th uniform value lands within [min, max] of 6 in 5/7 of the trials. */
    ClompRng rng = {4};
    long inside = 0, trials = 40000;
    for (long t = 0; t < trials; t++) {
        double x[6];
        for (int i = 0; i < 6; i++)
            x[i] = rng_uniform(&rng);
        p = prediction_interval(x, 6, 0.95);
        double next = rng_uniform(&rng);
        inside += next >= p.low && next <= p.high;
    }
    ok(close_to((double)inside / (double)trials, 5.0 / 7.0, 0.01), "simulated: a new value lands inside in %.3f of "
       "40000 trials (5/7 = 0.714)", (double)inside / (double)trials);
}

static void test_pairs_needed(void)
{
    /* The least n whose power reaches 80%: checked on fresh simulations of the exact test (another
     * seed, 20000 samples): n reaches it, n - 1 does not (each within simulation error), and n is
     * near the asymptotic (pi/3) (2.8016 / 0.641)^2 = 20.0, which small samples exceed (the exact
     * test's discreteness: 20 pairs reach 80% only at about 0.68 sd). */
    long n = signed_rank_pairs_needed(0.641, 0.05, 0.8, 4000, 3);
    double at = signed_rank_power(n, 0.641, 0.05, 20000, 77), below = signed_rank_power(n - 1, 0.641, 0.05, 20000, 77);
    ok(n >= 20 && n <= 25 && at >= 0.79 && below < 0.81,
       "a shift of 0.641 sd needs %ld pairs for 80%% power (%.3f there, %.3f at one fewer)", n, at, below);
    /* Beyond 50: (pi/3) (2.8016 / 0.3)^2 = 91.3 -> 92. */
    ok(signed_rank_pairs_needed(0.3, 0.05, 0.8, 500, 3) == 92, "0.3 sd needs 92 pairs (the asymptotic formula)");
    ok(signed_rank_pairs_needed(0.0, 0.05, 0.8, 500, 3) == -1, "no shift: no number of pairs");
    ok(signed_rank_pairs_needed(5.0, 0.05, 0.8, 2000, 3) == 6, "a huge shift still needs 6 pairs (2/64 <= 0.05)");
}

/* The smallest two-sided p of the exact test with n untied pairs, by brute force: over all 2^n sign
 * patterns of the ranks 1..n, P(|W+ - n(n+1)/4| >= the largest deviation), W+ the positive ranks' sum. */
static double smallest_p_by_enumeration(int n)
{
    double mean = n * (n + 1) / 4.0, most = n * (n + 1) / 2.0 - mean;
    long extreme = 0, patterns = 1L << n;
    for (long p = 0; p < patterns; p++) {
        int w = 0;
        for (int r = 1; r <= n; r++)
            if (p & (1L << (r - 1)))
                w += r;
        extreme += fabs(w - mean) >= most - 1e-9;
    }
    return (double)extreme / (double)patterns;
}

static void test_plan_reach(void)
{
    int same = 1;
    for (int n = 1; n <= 16; n++)
        same &= close_to(signed_rank_smallest_p(n), fmin(1.0, smallest_p_by_enumeration(n)), 1e-15);
    ok(same, "the smallest p of 1..16 pairs is the brute-force enumeration's (2 / 2^n)");
    /* The least n with 2/2^n <= alpha, from the enumeration too. */
    int least = 1;
    const double alphas[] = {0.5, 0.1, 0.05, 0.01, 0.001};
    for (size_t i = 0; i < sizeof alphas / sizeof alphas[0]; i++) {
        int n = 1;
        while (smallest_p_by_enumeration(n) > alphas[i])
            n++;
        least &= signed_rank_least_pairs(alphas[i]) == n;
    }
    ok(least && signed_rank_least_pairs(0.05) == 6, "the fewest pairs that can reach alpha 0.5, 0.1, 0.05, 0.01, 0.001 "
       "are the enumeration's (6 at 0.05: 3 or 5 pairs never can)");
}

static void test_planning(void)
{
    /* Tables: chi2(0.95, 1) = 3.841459, chi2(0.2, 5) = 2.342534, chi2(0.5, 10) = 9.341818. */
    ok(close_to(chi_square_quantile(0.95, 1.0), 3.841459, 1e-6) && close_to(chi_square_quantile(0.2, 5.0), 2.342534, 1e-6) &&
           close_to(chi_square_quantile(0.5, 10.0), 9.341818, 1e-6),
       "chi-square quantiles match the tables (3.841459, 2.342534, 9.341818)");
    ok(close_to(chi_square_quantile(0.3, 2.0), -2.0 * log(0.7), 1e-9), "with 2 degrees of freedom it is -2 log(1 - p)");
    ok(close_to(sd_upper_bound(2.0, 6, 0.8), 2.0 * sqrt(5.0 / 2.342534), 1e-6) && isnan(sd_upper_bound(2.0, 1, 0.8)),
       "the 80%% upper bound of an sd of 2 from 6 values is 2 sqrt(5 / chi2(0.2, 5)); none from one value");
    /* One look is the plain test: the same power within simulation error (2000 draws: sd 0.011). */
    const long one[] = {10};
    double seq = sequential_power(one, 1, 0.05, 1.0, 2000, 5), plain = signed_rank_power(10, 1.0, 0.05, 2000, 6);
    ok(fabs(seq - plain) < 0.05, "a plan of one look has the plain test's power (%.3f against %.3f)", seq, plain);
    const long looks[] = {6, 10, 13, 17, 20};
    double nominal = 0.0202, size = sequential_power(looks, 5, nominal, 0.0, 4000, 7);
    ok(size <= 0.05 + 3.0 * sqrt(0.05 * 0.95 / 4000.0), "the plan at Pocock's 0.0202 says 'differs' of no shift in %.3f "
       "of 4000 sequences (at most 0.05)", size);
    double shift = sequential_detectable_shift(looks, 5, nominal, 0.8, 1000, 8);
    /* Its last look alone at the same level has no more power than the whole plan; a single test of 20
     * pairs at 0.05 (no looks to pay for) has more. */
    double last = signed_rank_detectable_shift(20, nominal, 0.8, 1000, 8), free = signed_rank_detectable_shift(20, 0.05, 0.8, 1000, 8);
    ok(shift <= last + 0.01 && shift > free, "the plan's 80%%-power shift, %.3f sd, lies between a single test's of 20 "
       "pairs at 0.05 (%.3f) and its last look's alone at 0.0202 (%.3f)", shift, free, last);
}

/* W+ by brute force: each positive draw's rank is 1 + the number of draws smaller than it. */
static double plain_w(const SignedDraw *d, long n)
{
    double w = 0.0;
    for (long i = 0; i < n; i++) {
        long below = 0;
        for (long j = 0; j < n; j++)
            below += d[j].magnitude < d[i].magnitude;
        if (d[i].positive)
            w += (double)(below + 1);
    }
    return w;
}

static void test_draw_ranking(void)
{
    /* Looks that add draws a few at a time (inserted) and many at once (sorted), each W+ against
     * the brute force over the draws in their order. */
    const long looks[] = {1, 5, 21, 22, 40, 300, 301, 317, 1000};
    enum { LOOKS = sizeof looks / sizeof looks[0] };
    SignedDraw *draws = malloc(1000 * sizeof *draws), *ranked = malloc(1000 * sizeof *ranked);
    unsigned long x = 12345;
    int agree = 1, sorted = 1;
    for (int trial = 0; trial < 5 && draws != NULL && ranked != NULL; trial++) {
        for (long i = 0; i < 1000; i++) {
            x = x * 6364136223846793005UL + 1442695040888963407UL;
            draws[i] = (SignedDraw){(double)(x >> 11) / 9007199254740992.0, (x >> 7) & 1};
        }
        double w = 0.0;
        long m = 0;
        for (int j = 0; j < LOOKS; j++) {
            memcpy(ranked + m, draws + m, (size_t)(looks[j] - m) * sizeof *ranked);
            w = signed_draws_rank(ranked, m, looks[j], w);
            m = looks[j];
            agree &= w == plain_w(draws, m);
            for (long r = 1; r < m; r++)
                sorted &= ranked[r - 1].magnitude <= ranked[r].magnitude;
        }
    }
    ok(draws != NULL && ranked != NULL && agree, "W+ of draws joining a few at a time (inserted) and many at once "
       "(sorted) is the brute-force rank sum at every look");
    ok(sorted, "and the ranked draws stay in ascending magnitude");
    free(draws);
    free(ranked);

    /* The exact p-value from the cumulative counts is the one from the counts, for every W+ and n <= 50. */
    int same = 1;
    double counts[50 * 51 / 2 + 1], cumulative[50 * 51 / 2 + 1];
    for (long n = 1; n <= 50 && same; n++) {
        same &= signed_rank_counts((int)n, counts) == 0 && signed_rank_cumulative((int)n, cumulative) == 0;
        for (double w = -1.0; w <= (double)(n * (n + 1) / 2) + 1.0 && same; w += 0.5)
            same &= signed_rank_p_cumulative(n, w, cumulative) == signed_rank_p(n, w, counts);
    }
    ok(same, "the p-value from running sums is the one from the exact counts, for n 1..50 and every W+ (halves too)");
}

static void test_memo(void)
{
    SimulationKey a = {0, {0}}, b = {0, {0}}, long_key = {0, {0}};
    key_add(&a, 1.0);
    key_add(&a, 0.05);
    key_add_bits(&a, 99);
    b = a;
    b.v[1] = 0.0500000001;
    double got = -1.0;
    ok(!recall(&a, &got), "a simulation not yet made is not recalled");
    remember(&a, 0.0123);
    ok(recall(&a, &got) && got == 0.0123, "once remembered, its value is recalled by the same inputs");
    ok(!recall(&b, &got), "not by inputs that differ in one of them");
    for (int i = 0; i < SIMULATION_KEY_MAX + 1; i++)
        key_add(&long_key, (double)i);
    remember(&long_key, 1.0);
    ok(!recall(&long_key, &got), "a key longer than the memo keeps is never remembered");
    for (int i = 0; i < 64; i++) {
        SimulationKey k = {0, {0}};
        key_add(&k, 1000.0 + i);
        remember(&k, (double)i);
    }
    SimulationKey newest = {0, {0}};
    key_add(&newest, 1063.0);
    ok(!recall(&a, &got) && recall(&newest, &got) && got == 63.0, "64 newer results push the oldest out; the newest stays");
}

int main(void)
{
    test_student_t();
    test_brunner_munzel();
    test_sequential();
    test_prediction();
    test_pairs_needed();
    test_plan_reach();
    test_planning();
    test_draw_ranking();
    test_memo();
    return done_testing();
}
