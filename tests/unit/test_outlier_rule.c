/* The outlier rule (timing/outlier_rule.c), the one implementation behind
 * the MPI rank table, the summarised tables and the cluster report, against
 * a plain re-implementation: the median and MAD by brute force (a value is
 * the median when as many lie on each side; here by sorting a copy with
 * insertion sort), the threshold as the largest of 3.5 x 1.4826 x MAD, the
 * member's half-width and the floor. 2,000 random groups (sizes 1 to 40,
 * normal, skewed and tied values, some members excluded, some NaN), plus
 * worked cases: the group of five from docs/mpi.md, MAD 0, fewer than 3. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timing/outlier_rule.h"
#include "tap.h"

#define MAX_N 40

static double oracle_median(const double *v, int n)
{
    double s[MAX_N];
    memcpy(s, v, (size_t)n * sizeof *s);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
            double t = s[j];
            s[j] = s[j - 1], s[j - 1] = t;
        }
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* The oracle's verdicts: flag[i] 1 when member i stands out; returns the number in the distribution. */
static int oracle(const double *v, const double *half, const unsigned char *busy, int n, double floor, int *flag,
                  double *median)
{
    double kept[MAX_N], dev[MAX_N];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!busy[i] && !isnan(v[i]))
            kept[k++] = v[i];
    *median = k > 0 ? oracle_median(kept, k) : NAN;
    for (int i = 0; i < k; i++)
        dev[i] = fabs(kept[i] - *median);
    double mad = k > 0 ? oracle_median(dev, k) : NAN;
    for (int i = 0; i < n; i++) {
        double t = 3.5 * 1.4826 * mad;
        if (!isnan(half[i]) && half[i] > t)
            t = half[i];
        if (!isnan(floor) && floor > t)
            t = floor;
        flag[i] = k >= 3 && !busy[i] && !isnan(v[i]) && fabs(v[i] - *median) > t;
    }
    return k;
}

static double uniform(void)
{
    return (rand() + 0.5) / ((double)RAND_MAX + 1.0);
}

static double normal(void)
{
    return sqrt(-2.0 * log(uniform())) * cos(6.283185307179586 * uniform());
}

static void random_cases(void)
{
    int disagree = 0, flagged = 0, groups = 2000;
    srand(50);
    for (int c = 0; c < groups; c++) {
        int n = 1 + rand() % MAX_N;
        double v[MAX_N], half[MAX_N], floor = rand() % 3 == 0 ? 0.05 * uniform() : NAN;
        unsigned char busy[MAX_N];
        for (int i = 0; i < n; i++) {
            int kind = c % 3;
            v[i] = kind == 0 ? 10.0 + normal() : kind == 1 ? exp(0.5 * normal()) : (double)(rand() % 3);
            if (rand() % 25 == 0)
                v[i] += 20.0;   /* a planted outlier */
            half[i] = rand() % 2 ? 0.3 * uniform() : NAN;
            busy[i] = rand() % 10 == 0;
            if (rand() % 30 == 0)
                v[i] = NAN;
        }
        int want[MAX_N];
        double median;
        int k = oracle(v, half, busy, n, floor, want, &median);
        OutlierGroup g;
        if (outlier_group(v, busy, n, &g) != 0) {
            disagree++;
            continue;
        }
        if (g.n != k || g.judged != (k >= 3) || (k > 0 && fabs(g.median - median) > 1e-12))
            disagree++;
        for (int i = 0; i < n; i++) {
            int got = !busy[i] && outlier_stands_out(&g, v[i], outlier_threshold(&g, half[i], floor));
            disagree += got != want[i];
            flagged += got;
        }
    }
    ok(disagree == 0 && flagged > 50, "%d random groups (sizes 1-%d, normal, skewed, tied; busy, NaN, floors): every "
       "verdict equals the plain re-implementation's (%d members stand out, %d disagreements)", groups, MAX_N, flagged,
       disagree);
}

static void worked_cases(void)
{
    /* docs/mpi.md's five ranks: median 10.05, MAD 0.05, cut 3.5 x 1.4826 x 0.05 = 0.259455. */
    double v[6] = {10.0, 10.1, 9.9, 10.05, 14.0, 30.0};
    unsigned char busy[6] = {0, 0, 0, 0, 0, 1};
    OutlierGroup g;
    outlier_group(v, busy, 6, &g);
    ok(g.n == 5 && g.excluded == 1 && g.judged && fabs(g.median - 10.05) < 1e-12 && fabs(g.mad - 0.05) < 1e-12 &&
           fabs(g.spread_cut - 0.259455) < 1e-9,
       "the busy member (30.0) is left out: median 10.05, MAD 0.05, cut 0.259455 over the other five");
    ok(outlier_stands_out(&g, 14.0, outlier_threshold(&g, NAN, NAN)) &&
           !outlier_stands_out(&g, 9.9, outlier_threshold(&g, NAN, NAN)),
       "14.0 stands out (3.95 > 0.259), 9.9 does not (0.15)");
    ok(!outlier_stands_out(&g, 14.0, outlier_threshold(&g, 4.0, NAN)) && outlier_threshold(&g, 4.0, 1.0) == 4.0 &&
           outlier_threshold(&g, NAN, 5.0) == 5.0,
       "a member's own half-width (4.0) or a floor above the cut raises its threshold: 14.0 then does not stand out");
    double flat[5] = {2, 2, 2, 2, 3};
    outlier_group(flat, NULL, 5, &g);
    ok(g.mad == 0.0 && outlier_stands_out(&g, 3, outlier_threshold(&g, NAN, NAN)) &&
           !outlier_stands_out(&g, 2, outlier_threshold(&g, NAN, NAN)),
       "MAD 0 (most members equal), no interval, no floor: the one that differs stands out, the equal ones do not");
    double two[2] = {1, 100};
    outlier_group(two, NULL, 2, &g);
    ok(!g.judged && !outlier_stands_out(&g, 100, outlier_threshold(&g, NAN, NAN)),
       "two members: not judged, neither stands out against the other");
    double none[3] = {NAN, NAN, 5};
    outlier_group(none, NULL, 3, &g);
    ok(g.n == 1 && g.missing == 2 && !g.judged, "NaN members are missing, not part of the distribution");
}

int main(void)
{
    worked_cases();
    random_cases();
    return done_testing();
}
