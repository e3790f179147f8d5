#include "signed_rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CLOMP_PI 3.14159265358979323846

int signed_rank_counts(int n, double *counts)
{
    if (n < 0 || n > SIGNED_RANK_EXACT_MAX)
        return -1;
    /* Adding rank k to the ranks 1..k-1: each pattern either leaves k out
     * (W unchanged) or takes it (W + k). */
    long top = (long)n * (n + 1) / 2;
    memset(counts, 0, (size_t)(top + 1) * sizeof *counts);
    counts[0] = 1.0;
    long reach = 0;
    for (int k = 1; k <= n; k++) {
        reach += k;
        for (long w = reach; w >= k; w--)
            counts[w] += counts[w - k];
    }
    return 0;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct Magnitude {
    double abs;
    int positive;
} Magnitude;

static int compare_magnitudes(const void *a, const void *b)
{
    return compare_doubles(&((const Magnitude *)a)->abs, &((const Magnitude *)b)->abs);
}

static double normal_upper_tail(double z)
{
    return 0.5 * erfc(z / sqrt(2.0));
}

/* Quantile of the standard normal (Acklam's rational approximation, one
 * Newton step on erfc: about 1e-15 relative). */
static double normal_quantile(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01, -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    double q, r, x;
    if (p <= 0.0)
        return -INFINITY;
    if (p >= 1.0)
        return INFINITY;
    if (p < 0.02425) {
        q = sqrt(-2.0 * log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    } else if (p > 1.0 - 0.02425) {
        q = sqrt(-2.0 * log(1.0 - p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    } else {
        q = p - 0.5;
        r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
    }
    double e = 0.5 * erfc(-x / sqrt(2.0)) - p;
    double u = e * sqrt(2.0 * CLOMP_PI) * exp(x * x / 2.0);
    return x - u / (1.0 + x * u / 2.0);
}

/* ---- The conditional signed-rank test ---------------------------------------------------
 * Zeros are dropped (Wilcoxon's rule) and tied magnitudes share their
 * midrank; given those magnitudes, under "centre delta" each of the 2^u sign
 * patterns is equally likely, and the test's p-value is the share of them
 * at least as extreme: exact (a subset-sum count over the doubled midranks,
 * which are whole numbers) up to SIGNED_RANK_EXACT_MAX non-zero values, the
 * normal approximation with the tie correction beyond. The interval is the
 * set of centres this very test does not reject, so that the two never
 * disagree (issue 44). Magnitudes within `tol` of each other are tied and
 * within `tol` of 0 are zero: the last bits of a difference of two timings
 * are rounding, not data. */

typedef struct RankWork {
    Magnitude *mag;      /* n */
    double *counts;      /* n (n + 1) + 1: counts of the doubled statistic */
    long *score;         /* n: doubled midranks */
    double *plain[2];    /* the untied counts of W+ for n and n - 1 values (ranks 1..u), made once */
    long plain_n[2];
} RankWork;

typedef struct RankTest {
    long used;
    double w_plus;       /* sum of midranks over the positive values */
    double tie_term;     /* sum of t^3 - t over tie groups */
    double p;            /* two-sided */
    double p_floor;      /* the smallest two-sided p these magnitudes can give */
    int exact, ties;
} RankTest;

static int rank_work(RankWork *w, long n)
{
    long cap = n > 0 ? n : 1;
    w->mag = malloc((size_t)cap * sizeof *w->mag);
    w->score = malloc((size_t)cap * sizeof *w->score);
    w->counts = malloc((size_t)(cap * (cap + 1) + 1) * sizeof *w->counts);
    w->plain[0] = w->plain[1] = NULL;
    w->plain_n[0] = w->plain_n[1] = -1;
    for (int k = 0; k < 2 && k <= n && n - k <= SIGNED_RANK_EXACT_MAX; k++) {
        w->plain_n[k] = n - k;
        w->plain[k] = malloc((size_t)((n - k) * (n - k + 1) / 2 + 1) * sizeof *w->plain[k]);
        if (w->plain[k] == NULL)
            return -1;
        signed_rank_counts((int)(n - k), w->plain[k]);
    }
    return w->mag != NULL && w->score != NULL && w->counts != NULL ? 0 : -1;
}

static void free_rank_work(RankWork *w)
{
    free(w->mag);
    free(w->score);
    free(w->counts);
    free(w->plain[0]);
    free(w->plain[1]);
}

static RankTest rank_test(const double *d, long n, double delta, double tol, RankWork *w)
{
    RankTest t = {0, 0.0, 0.0, 1.0, 1.0, 1, 0};
    long u = 0;
    for (long i = 0; i < n; i++) {
        double x = d[i] - delta;
        if (fabs(x) > tol)
            w->mag[u++] = (Magnitude){fabs(x), x > 0.0};
    }
    t.used = u;
    t.ties = u < n;
    qsort(w->mag, (size_t)u, sizeof *w->mag, compare_magnitudes);
    long w2 = 0;   /* the doubled statistic */
    for (long i = 0; i < u;) {
        long j = i;
        while (j + 1 < u && w->mag[j + 1].abs - w->mag[i].abs <= tol)
            j++;
        if (j > i) {
            double size = (double)(j - i + 1);
            t.ties = 1;
            t.tie_term += size * size * size - size;
        }
        for (long k = i; k <= j; k++) {
            w->score[k] = i + 1 + j + 1;
            if (w->mag[k].positive)
                w2 += w->score[k];
        }
        i = j + 1;
    }
    t.w_plus = 0.5 * (double)w2;
    if (u == 0)
        return t;
    if (u > SIGNED_RANK_EXACT_MAX) {
        double uu = (double)u, mean = uu * (uu + 1.0) / 4.0;
        double var = uu * (uu + 1.0) * (2.0 * uu + 1.0) / 24.0 - t.tie_term / 48.0;
        double z = var > 0.0 ? fmax(fabs(t.w_plus - mean) - 0.5, 0.0) / sqrt(var) : 0.0;
        t.p = fmin(1.0, 2.0 * normal_upper_tail(z));
        t.p_floor = var > 0.0 ? 2.0 * normal_upper_tail((mean - 0.5) / sqrt(var)) : 1.0;
        t.exact = 0;
        return t;
    }
    int untied = 1;
    for (long k = 0; k < u && untied; k++)
        untied = w->score[k] == 2 * (k + 1);
    for (int k = 0; k < 2 && untied; k++)
        if (w->plain_n[k] == u) {
            /* ranks 1..u: the untied counts (W+ = w2 / 2 exactly) */
            long top = u * (u + 1) / 2, half = w2 / 2;
            double low = 0.0, high = 0.0, total = ldexp(1.0, (int)u);
            for (long s = 0; s <= top; s++) {
                if (s <= half)
                    low += w->plain[k][s];
                if (s >= half)
                    high += w->plain[k][s];
            }
            t.p = fmin(1.0, 2.0 * fmin(low, high) / total);
            t.p_floor = fmin(1.0, 2.0 / total);
            return t;
        }
    long top = u * (u + 1);
    memset(w->counts, 0, (size_t)(top + 1) * sizeof *w->counts);
    w->counts[0] = 1.0;
    long reach = 0;
    for (long k = 0; k < u; k++) {
        reach += w->score[k];
        for (long s = reach; s >= w->score[k]; s--)
            w->counts[s] += w->counts[s - w->score[k]];
    }
    double low = 0.0, high = 0.0, total = ldexp(1.0, (int)u);
    for (long s = 0; s <= top; s++) {
        if (s <= w2)
            low += w->counts[s];
        if (s >= w2)
            high += w->counts[s];
    }
    t.p = fmin(1.0, 2.0 * fmin(low, high) / total);
    t.p_floor = fmin(1.0, 2.0 * w->counts[0] / total);   /* all positive (or all negative): one pattern each */
    return t;
}

double signed_rank_tolerance(const double *d, long n)
{
    double largest = 0.0;
    for (long i = 0; i < n; i++)
        largest = fmax(largest, fabs(d[i]));
    return SIGNED_RANK_TIE_RELATIVE * largest;
}

/* The interval by inversion (n <= SIGNED_RANK_EXACT_MAX): walking in from
 * the outside over the distinct Walsh averages and the open stretches
 * between them (where the test's outcome is constant), the first centre the
 * test keeps on each side. 0, or -1 when the kept set reaches past the data
 * (no interval: the test cannot reject anything at this level). */
static int inverted_interval(const double *d, long n, const double *walsh, long count, double alpha, double tol,
                             RankWork *w, ShiftEstimate *s)
{
    double *point = malloc((size_t)count * sizeof *point);
    if (point == NULL)
        return -1;
    long k = 0;
    for (long i = 0; i < count; i++)
        if (k == 0 || walsh[i] - point[k - 1] > tol)
            point[k++] = walsh[i];
    double margin = 1.0 + fabs(point[0]) + fabs(point[k - 1]);
    int found = 0;
    if (rank_test(d, n, point[0] - margin, tol, w).p <= alpha) {
        for (long i = 0; i < k && !found; i++) {
            if (rank_test(d, n, point[i], tol, w).p > alpha) {
                s->low = point[i];
                found = 1;
            } else if (i + 1 < k && rank_test(d, n, 0.5 * (point[i] + point[i + 1]), tol, w).p > alpha) {
                s->low = point[i];
                s->low_open = 1;
                found = 1;
            }
        }
    }
    if (found && rank_test(d, n, point[k - 1] + margin, tol, w).p <= alpha) {
        found = 0;
        for (long i = k - 1; i >= 0 && !found; i--) {
            if (rank_test(d, n, point[i], tol, w).p > alpha) {
                s->high = point[i];
                found = 1;
            } else if (i > 0 && rank_test(d, n, 0.5 * (point[i] + point[i - 1]), tol, w).p > alpha) {
                s->high = point[i];
                s->high_open = 1;
                found = 1;
            }
        }
    } else {
        found = 0;
    }
    free(point);
    return found ? 0 : -1;
}

ShiftEstimate signed_rank_shift(const double *d, long n, double level)
{
    ShiftEstimate s;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.estimate = s.low = s.high = NAN;
    s.p_value = s.p_floor = 1.0;
    if (n < 1)
        return s;
    long walsh_count = n * (n + 1) / 2;
    double *walsh = malloc((size_t)walsh_count * sizeof *walsh);
    RankWork work;
    int ready = rank_work(&work, n) == 0;
    if (walsh == NULL || !ready) {
        free(walsh);
        free_rank_work(&work);
        s.n = 0;
        return s;
    }
    long k = 0;
    for (long i = 0; i < n; i++)
        for (long j = i; j < n; j++)
            walsh[k++] = 0.5 * (d[i] + d[j]);
    qsort(walsh, (size_t)walsh_count, sizeof *walsh, compare_doubles);
    s.estimate = walsh_count % 2 ? walsh[walsh_count / 2] : 0.5 * (walsh[walsh_count / 2 - 1] + walsh[walsh_count / 2]);
    double tol = signed_rank_tolerance(d, n);

    RankTest t = rank_test(d, n, 0.0, tol, &work);
    s.used = t.used;
    s.w_plus = t.w_plus;
    s.p_value = t.p;
    s.p_floor = t.p_floor;
    s.exact = t.exact;
    s.ties = t.ties;

    /* Without ties, the classic interval's ranks: Walsh averages k and M+1-k,
     * coverage 1 - 2 P(W+ <= k-1) (exact), or by the normal approximation. */
    double alpha_half = (1.0 - level) / 2.0, total = ldexp(1.0, (int)(n <= 1023 ? n : 1023));
    if (n <= SIGNED_RANK_EXACT_MAX) {
        long best = 0;
        double best_coverage = 0.0, *counts = work.counts;
        signed_rank_counts((int)n, counts);
        double tail = 0.0;   /* P(W+ <= k-1) */
        for (long kk = 1; 2 * kk <= walsh_count; kk++) {
            tail += counts[kk - 1] / total;
            if (tail > alpha_half)
                break;
            best = kk;
            best_coverage = 1.0 - 2.0 * tail;
        }
        /* The interval itself: the centres the conditional test keeps. It
         * is the classic one when nothing ties; else its coverage is at
         * least the level (the test's size is at most 1 - level at every
         * pattern of magnitudes). */
        s.ci_exact = 1;
        if (inverted_interval(d, n, walsh, walsh_count, 1.0 - level, tol, &work, &s) == 0) {
            s.has_ci = 1;
            /* (an end that is itself rejected differs from the classic closed end by one point) */
            int classic = best > 0 && s.low == walsh[best - 1] && s.high == walsh[walsh_count - best];
            s.coverage = classic ? best_coverage : level;
        }
    } else {
        double mean = (double)walsh_count / 2.0, sd = sqrt((double)n * (double)(n + 1) * (double)(2 * n + 1) / 24.0);
        long kk = (long)floor(mean - normal_quantile(1.0 - alpha_half) * sd + 0.5);
        if (kk >= 1 && 2 * kk <= walsh_count) {
            s.has_ci = 1;
            s.low = walsh[kk - 1];
            s.high = walsh[walsh_count - kk];
            s.coverage = 1.0 - 2.0 * (1.0 - normal_upper_tail(((double)kk - 0.5 - mean) / sd));
        }
    }
    free(walsh);
    free_rank_work(&work);
    return s;
}

int shift_excludes(const ShiftEstimate *s, double value)
{
    if (!s->has_ci)
        return 0;
    return s->low > value || (s->low == value && s->low_open) || s->high < value || (s->high == value && s->high_open);
}

ShiftEstimate paired_shift(const double *a, const double *b, long n, double level)
{
    double *d = malloc((size_t)(n > 0 ? n : 1) * sizeof *d);
    if (d == NULL) {
        ShiftEstimate none;
        memset(&none, 0, sizeof none);
        none.estimate = none.low = none.high = NAN;
        none.p_value = 1.0;
        return none;
    }
    for (long i = 0; i < n; i++)
        d[i] = a[i] - b[i];
    ShiftEstimate s = signed_rank_shift(d, n, level);
    free(d);
    return s;
}

double signed_rank_normal_quantile(double p)
{
    return normal_quantile(p);
}
