/* Two-stage replication (timing/replication.c, run_clomp.sh --replicates auto):
 * the robust scale against its definition worked by hand, the expected
 * half-width of the median's interval against simulation, the plan's "fewest
 * processes" against a brute-force simulation of every smaller count, and the
 * two-stage procedure's coverage against the one-at-a-time rule it replaces
 * (issue 31: that rule stops on the interval it reports and under-covers).
 * The oracles here are the test's own: its own generator, its own exact
 * binomial ranks (Pascal's triangle), its own order statistics.
 * CLOMP_COVERAGE_REPS=N (bench/auto_coverage.sh) runs the coverage
 * simulations with N repetitions and prints them. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "timing/replication.h"

/* ---- the test's own generator (xorshift64*, Box-Muller) and order statistics -------- */
static uint64_t seed_state = 0x9e3779b97f4a7c15ULL;
static double uniform01(void)
{
    seed_state ^= seed_state >> 12;
    seed_state ^= seed_state << 25;
    seed_state ^= seed_state >> 27;
    return (double)((seed_state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}
static double std_normal(void)
{
    double u = uniform01(), v = uniform01();
    return sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * v);
}
static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* 1-based rank j of the symmetric 95% interval [x(j), x(n+1-j)] of the median, by exact
 * binomial sums from Pascal's triangle (0 when even [min, max] covers less); its coverage. */
#define MAXN 200
static int ranks_95(long n, double *coverage)
{
    static double row[MAXN + 1];
    memset(row, 0, sizeof row);
    row[0] = 1.0;
    for (long r = 1; r <= n; r++) {   /* row[k] = C(r, k) / 2^r */
        for (long k = r; k >= 1; k--)
            row[k] = 0.5 * (row[k] + row[k - 1]);
        row[0] *= 0.5;
    }
    int best = 0;
    double tail = 0.0;
    for (long j = 1; 2 * j < n + 1; j++) {
        tail += row[j - 1];
        if (1.0 - 2.0 * tail < 0.95)
            break;
        best = (int)j;
        *coverage = 1.0 - 2.0 * tail;
    }
    return best;
}

static double sample_median(const double *sorted, long n)
{
    return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

static int close_to(double got, double want, double tol)
{
    return fabs(got - want) <= tol;
}

/* ---- the robust scale, worked by hand ---------------------------------------------- */
static void test_robust_scale(void)
{
    /* 1 2 3 4 100: median 3, deviations 2 1 0 1 97 -> sorted 0 1 1 2 97 -> MAD 1 */
    const double a[] = {1, 2, 3, 4, 100};
    ok(close_to(robust_scale(a, 5), 1.482602218505602, 1e-12), "the scale is 1.4826 x the MAD: 1 2 3 4 100 gives 1.4826 (the outlier does not count)");
    /* 5 5 5 5 1 9: MAD 0 -> the sample sd: mean 5, squares 16 + 16 = 32, / 5 -> sqrt(6.4) */
    const double b[] = {5, 5, 5, 5, 1, 9};
    ok(close_to(robust_scale(b, 6), sqrt(6.4), 1e-12), "more than half the values equal: the sample standard deviation instead (sqrt(6.4))");
    const double c[] = {7, 7, 7};
    ok(robust_scale(c, 3) == 0.0, "all values equal: scale 0");
    ok(robust_scale(c, 1) == 0.0, "one value: scale 0");
}

/* ---- the expected half-width, against simulation ---------------------------------- */
static void test_expected_half_width(void)
{
    ok(isnan(expected_median_half_width(5, 1.0, 0.95)), "5 values have no 95%% interval of the median: no expected width");
    /* n in 6, 10, 20, 40: 20000 normal samples each; the mean of (x(hi) - x(lo)) / 2.
     * The half-width's sd is below 0.6 sd at n = 6, so the simulated mean's standard error is
     * below 0.005: the 3% tolerance (Blom's approximation is within 1.2%) is > 6 standard errors:
     * a false failure has probability < 1e-8. */
    static double x[MAXN];
    const long ns[] = {6, 10, 20, 40};
    for (int t = 0; t < 4; t++) {
        long n = ns[t];
        double cov = 0.0;
        int j = ranks_95(n, &cov);
        double sum = 0.0;
        for (int r = 0; r < 20000; r++) {
            for (long i = 0; i < n; i++)
                x[i] = 2.0 * std_normal();
            qsort(x, (size_t)n, sizeof x[0], by_value);
            sum += 0.5 * (x[n - j] - x[j - 1]);
        }
        double sim = sum / 20000.0, got = expected_median_half_width(n, 2.0, 0.95);
        ok(fabs(got / sim - 1.0) < 0.03, "n = %ld, sd 2: expected half-width %.4f, simulated %.4f", n, got, sim);
    }
}

/* ---- the plan ------------------------------------------------------------------- */
/* The simulated mean half-width of n normal values with sd `scale` (10000 samples). */
static double simulated_half_width(long n, double scale)
{
    static double x[MAXN];
    double cov = 0.0, sum = 0.0;
    int j = ranks_95(n, &cov);
    for (int r = 0; r < 10000; r++) {
        for (long i = 0; i < n; i++)
            x[i] = scale * std_normal();
        qsort(x, (size_t)n, sizeof x[0], by_value);
        sum += 0.5 * (x[n - j] - x[j - 1]);
    }
    return sum / 10000.0;
}

static void test_plan(void)
{
    /* A pilot whose MAD is 0.1 around a median of 1: 0.9 0.95 1 1 1.1 1.2 ->
     * median 1, deviations 0.1 0.05 0 0 0.1 0.2 -> sorted 0 0 0.05 0.1 0.1 0.2 -> MAD 0.075. */
    const double pilot[] = {0.9, 0.95, 1.0, 1.0, 1.1, 1.2};
    PilotPlan p;
    ok(plan_from_pilot(pilot, 6, 5.0, 0.1, 30, 0.95, &p) == 0, "a plan from 6 pilot values");
    ok(close_to(p.median, 1.0, 1e-12) && close_to(p.scale, 1.482602218505602 * 0.075, 1e-12),
       "its median is 1 and its scale 1.4826 x 0.075");
    ok(close_to(p.wanted, 0.05, 1e-12), "the wanted half-width is the smaller one: 5%% of 1 (0.05), not the floor 0.1");
    ok(plan_from_pilot(pilot, 6, 20.0, 0.1, 30, 0.95, &p) == 0 && close_to(p.wanted, 0.1, 1e-12),
       "and the floor 0.1 where it is smaller than 20%% of 1 (0.2)");
    ok(plan_from_pilot(pilot, 6, 20.0, NAN, 30, 0.95, &p) == 0 && close_to(p.wanted, 0.2, 1e-12),
       "without a floor, 20%% of the median");
    ok(p.fewest == 6, "the fewest processes with a 95%% interval are 6");

    /* The plan's spread: the 80% upper bound of the scale made unbiased for 6 values, as a
     * standard deviation's: 1.4826 x 0.075 x 1.200 (Croux and Rousseeuw's factor at 6) x
     * sqrt(5 / chi2(0.2, 5) = 2.342534). */
    ok(close_to(p.planning_scale, 1.482602218505602 * 0.075 * 1.2 * sqrt(5.0 / 2.342534), 1e-5),
       "it plans on the spread's 80%% upper bound, %.6f (the scale %.6f x 1.200 x 1.461)", p.planning_scale, p.scale);
    /* Brute force: the plan is the fewest n >= 6 whose mean half-width, simulated at the
     * planning spread, reaches the wanted width (each side within 3%: Blom's error is
     * below 1.2%, the simulation's standard error below 0.5%: a false failure < 1e-6). */
    ok(plan_from_pilot(pilot, 6, 5.0, 0.1, 500, 0.95, &p) == 0, "a plan for +-5%% with a cap of 500");
    double at = simulated_half_width(p.processes, p.planning_scale);
    /* (the width shrinks with n: wider at the count below is wider at every smaller one) */
    int fewest = at <= p.wanted * 1.03 && simulated_half_width(p.processes - 1, p.planning_scale) >= p.wanted * 0.97;
    ok(p.reachable && p.needed == p.processes && fewest,
       "it runs %ld processes: simulated half-width %.4f against %.4f wanted there, wider at one fewer",
       p.processes, at, p.wanted);

    ok(plan_from_pilot(pilot, 6, 5.0, 0.1, 10, 0.95, &p) == 0 && p.processes == 10 && !p.reachable && p.needed > 10,
       "a cap of 10 below the %ld it needs: 10 processes, said to be out of reach", p.needed);
    ok(plan_from_pilot(pilot, 6, 5.0, 0.1, 4, 0.95, &p) == 0 && p.processes == 4 && !p.reachable && isnan(p.expected_half_width),
       "a cap of 4: 4 processes, which have no interval");
    const double same[] = {3, 3, 3, 3, 3, 3};
    ok(plan_from_pilot(same, 6, 1.0, 0.1, 30, 0.95, &p) == 0 && p.processes == 6 && p.reachable,
       "a pilot without spread: the fewest with an interval, 6");
    const double around_zero[] = {-0.02, 0.01, 0.0, 0.03, -0.01, 0.02};
    ok(plan_from_pilot(around_zero, 6, 10.0, 0.1, 30, 0.95, &p) == 0 && p.processes == 30 && !p.reachable,
       "a median near 0 wants a near-0 width: the cap, out of reach");
    /* Near the exact scan's limit (3000): the count said is the scan's own answer, found by
     * scanning every n with the product's width (the review found 3001 said for 3011). */
    /* 1..6 drawn in about the planning factor (1.200 x 1.461), so that its planning spread is 1..6's scale */
    double wide[6], f = 1.2 * sqrt(5.0 / 2.342534);
    for (int k = 0; k < 6; k++)
        wide[k] = 3.5 + (k - 2.5) / f;
    ok(plan_from_pilot(wide, 6, 10.0, 0.1, 30, 0.95, &p) == 0, "a pilot like 1..6 wanting +-0.1");
    long first = -1;
    for (long n = 6; n <= 10000 && first < 0; n++)
        if (expected_median_half_width(n, p.planning_scale, 0.95) <= p.wanted)
            first = n;
    ok(p.needed == first && p.needed > 3000, "it would need %ld processes, the first n whose width reaches 0.1 (%ld)",
       p.needed, first);
    ok(plan_from_pilot(pilot, 6, 0.0, 0.1, 30, 0.95, &p) != 0 && plan_from_pilot(pilot, 0, 5.0, 0.1, 30, 0.95, &p) != 0 &&
       plan_from_pilot(pilot, 6, 5.0, 0.1, 0, 0.95, &p) != 0, "a width of 0, no values or a cap of 0 give no plan");
}

/* ---- coverage: one at a time against two stages ----------------------------------- */
typedef struct Population {
    const char *name;
    double median, sd;
    int lognormal;   /* median x exp(sd_log x z): skewed, with the same median */
} Population;

static double draw(const Population *pop)
{
    double z = std_normal();
    return pop->lognormal ? pop->median * exp(pop->sd * z) : pop->median + pop->sd * z;
}

/* The interval of the median of x[0..n) (sorted in place): 0 without one. */
static int interval(double *x, long n, double *lo, double *hi, double *mid, double *cov)
{
    qsort(x, (size_t)n, sizeof x[0], by_value);
    *mid = sample_median(x, n);
    int j = ranks_95(n, cov);
    if (j == 0)
        return 0;
    *lo = x[j - 1];
    *hi = x[n - j];
    return 1;
}

typedef struct Coverage {
    long reps, covered, at_six, covered_at_six, reached;   /* reached: the interval within the width wanted */
    double nominal, processes;
} Coverage;

/* issue 31's defect: start with 6, add one while the larger side of the interval is wider
 * than the LARGER of pct% of |median| and the floor, up to the cap; the interval at the stop. */
static Coverage one_at_a_time(const Population *pop, double pct, double floor_width, long cap, long reps)
{
    static double x[MAXN], s[MAXN];
    Coverage c = {0};
    for (long r = 0; r < reps; r++) {
        long n = 6;
        for (long i = 0; i < n; i++)
            x[i] = draw(pop);
        double lo = 0.0, hi = 0.0, mid = 0.0, cov = 0.0;
        for (;;) {
            memcpy(s, x, (size_t)n * sizeof x[0]);
            interval(s, n, &lo, &hi, &mid, &cov);
            double half = fmax(mid - lo, hi - mid), want = fmax(fabs(mid) * pct / 100.0, floor_width);
            if (half <= want || n >= cap) {
                c.reached += half <= want;
                break;
            }
            x[n++] = draw(pop);
        }
        int in = lo <= pop->median && pop->median <= hi;
        c.reps++;
        c.covered += in;
        c.nominal += cov;
        c.processes += (double)n;
        if (n == 6) {
            c.at_six++;
            c.covered_at_six += in;
        }
    }
    return c;
}

/* The two-stage procedure: a pilot of 6 plans N (plan_from_pilot: the smaller width), N fresh values give the interval. */
static Coverage two_stage(const Population *pop, double pct, double floor_width, long cap, long reps)
{
    static double x[MAXN];
    Coverage c = {0};
    for (long r = 0; r < reps; r++) {
        for (long i = 0; i < 6; i++)
            x[i] = draw(pop);
        PilotPlan p;
        if (plan_from_pilot(x, 6, pct, floor_width, cap, 0.95, &p) != 0)
            continue;
        long n = p.processes;
        for (long i = 0; i < n; i++)
            x[i] = draw(pop);
        double lo = 0.0, hi = 0.0, mid, cov = 0.0;
        if (!interval(x, n, &lo, &hi, &mid, &cov))
            continue;
        c.reps++;
        c.covered += lo <= pop->median && pop->median <= hi;
        c.reached += fmax(mid - lo, hi - mid) <= fmin(fabs(mid) * pct / 100.0, floor_width);
        c.nominal += cov;
        c.processes += (double)n;
    }
    return c;
}

static void test_coverage(long reps, int print_only)
{
    /* Medians and spreads in us/Loop like the target input's figures: at 10% and the 0.1 us
     * floor the old rule stops at 6 in part of the runs and adds processes in the rest. */
    const Population pops[] = {
        {"normal, median 1, sd 0.1", 1.0, 0.1, 0},
        {"normal, median 1, sd 0.05", 1.0, 0.05, 0},
        {"lognormal, median 1, sd(log) 0.12", 1.0, 0.12, 1},
        {"normal, median 0.43, sd 0.05 (a barrier)", 0.43, 0.05, 0},
    };
    for (int k = 0; k < (int)(sizeof pops / sizeof pops[0]); k++) {
        Coverage before = one_at_a_time(&pops[k], 10.0, 0.1, 30, reps);
        Coverage after = two_stage(&pops[k], 10.0, 0.1, 30, reps);
        double b = (double)before.covered / (double)before.reps, a = (double)after.covered / (double)after.reps;
        double b6 = before.at_six ? (double)before.covered_at_six / (double)before.at_six : NAN;
        printf("# coverage %-42s one-at-a-time %.3f (nominal %.3f; %.0f%% stop at 6, covering %.3f; %.1f processes;"
               " %.0f%% within the larger width)  two-stage %.3f (nominal %.3f; %.1f fresh processes + 6 pilot;"
               " %.0f%% within the smaller width)\n",
               pops[k].name, b, before.nominal / (double)before.reps, 100.0 * (double)before.at_six / (double)before.reps,
               b6, before.processes / (double)before.reps, 100.0 * (double)before.reached / (double)before.reps, a,
               after.nominal / (double)after.reps, after.processes / (double)after.reps,
               100.0 * (double)after.reached / (double)after.reps);
        if (print_only)
            continue;
        /* N is fixed before the fresh values are drawn, so the coverage is the exact one at N,
         * >= 0.95 (0.961 at 6, ...). With `reps` = 20000 its standard error is <= 0.0016: 0.94
         * is more than 6 standard errors below 0.95 (a false failure: < 1e-9). */
        ok(after.reps == reps && a >= 0.94, "%s: two-stage coverage %.3f, at nominal (%.3f)", pops[k].name, a,
           after.nominal / (double)after.reps);
        /* Planned on the spread's 80% upper bound (issue 44): the width wanted is reached in 62-84%
         * of the runs here, where the pilot's own spread reached it in 29-76%. */
        ok((double)after.reached / (double)after.reps >= 0.6, "%s: the plan reaches the width wanted in %.0f%% of runs",
           pops[k].name, 100.0 * (double)after.reached / (double)after.reps);
        if (k == 0)
            /* The 87.6% at 6: over 20000 runs, >= 1000 stop at 6 here, so the standard
             * error is <= 0.011 and 0.93 is >= 4 standard errors above 0.876 (< 1e-4). */
            ok(before.at_six >= 1000 && b6 < 0.93, "%s: the one-at-a-time rule's runs that stop at 6 cover only %.3f",
               pops[k].name, b6);
    }
}

int main(void)
{
    const char *reps_env = getenv("CLOMP_COVERAGE_REPS");
    if (reps_env != NULL && atol(reps_env) > 0) {
        test_coverage(atol(reps_env), 1);
        return 0;
    }
    test_robust_scale();
    test_expected_half_width();
    test_plan();
    test_coverage(20000, 0);
    return done_testing();
}
