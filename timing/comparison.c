#include "comparison.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Number of arrangements of m A's and n B's giving each U = 0 .. m*n: the
 * coefficients of the Gaussian binomial [m+n choose m]_q, built as
 * prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i) one factor at a time (after
 * step i the polynomial is [n+i choose i]_q, so every count stays an exact
 * integer in a double for m + n <= 50). Returns a malloc'ed array whose
 * first m*n + 1 entries are the counts. */
static double *u_counts(long m, long n)
{
    /* Room for the degree m*n + m reached just before the last division. */
    long size = m * n + m + 1;
    double *c = calloc((size_t)size, sizeof *c);
    if (c == NULL)
        return NULL;
    c[0] = 1.0;
    long degree = 0;
    for (long i = 1; i <= m; i++) {
        long top = degree + n + i;   /* degree after multiplying by (1 - q^(n+i)) */
        for (long u = top; u >= n + i; u--)
            c[u] -= c[u - (n + i)];
        for (long u = i; u <= top; u++)   /* divide by (1 - q^i): c[u] += c[u - i], ascending */
            c[u] += c[u - i];
        degree += n;
    }
    return c;
}

double mann_whitney_exact_cdf(long m, long n, double u)
{
    if (m < 1 || n < 1 || m > CLOMP_EXACT_U_MAX || n > CLOMP_EXACT_U_MAX)
        return NAN;
    if (u < 0.0)
        return 0.0;
    if (u >= (double)(m * n))
        return 1.0;
    double *c = u_counts(m, n);
    if (c == NULL)
        return NAN;
    double below = 0.0, total = 0.0;
    long limit = (long)floor(u);
    for (long k = 0; k <= m * n; k++) {
        total += c[k];
        if (k <= limit)
            below += c[k];
    }
    free(c);
    return below / total;
}

/* The pooled sample, sorted: its tie groups give the tie correction and
 * the mid-ranks of the exact test. Returns a malloc'ed array or NULL. */
static double *pooled_sorted(const double *a, long m, const double *b, long n)
{
    double *pooled = malloc((size_t)(m + n) * sizeof *pooled);
    if (pooled == NULL)
        return NULL;
    memcpy(pooled, a, (size_t)m * sizeof *pooled);
    memcpy(pooled + m, b, (size_t)n * sizeof *pooled);
    qsort(pooled, (size_t)(m + n), sizeof *pooled, compare_doubles);
    return pooled;
}

/* Sum of t^3 - t over the tie groups of the sorted pooled sample; counts
 * the values that belong to a group of two or more. */
static double tie_term(const double *pooled, long total, long *tied_values)
{
    double term = 0.0;
    *tied_values = 0;
    for (long i = 0; i < total;) {
        long j = i + 1;
        while (j < total && pooled[j] == pooled[i])
            j++;
        double t = (double)(j - i);
        if (j - i > 1) {
            term += t * t * t - t;
            *tied_values += j - i;
        }
        i = j;
    }
    return term;
}

/* Exact two-sided p of U for this tie pattern: over all C(m+n, m) equally
 * likely ways to give m of the pooled values to A, the share whose U is at
 * least as far from mn/2 as the observed U. A tie group of t values at
 * positions s+1 .. s+t has the mid-rank s + (t+1)/2; giving c of them to A
 * can happen in C(t, c) ways and adds c mid-ranks to A's rank sum R. The
 * counts per (values given to A, 2R) are built group by group (every count
 * is an integer at most C(50, 25) < 2^53, exact in a double); then
 * 2U_A = 2R - m(m+1) and |2U - mn| = |2R - m(m+n+1)|, all integers. NAN
 * when out of memory. */
static double exact_tied_p(const double *pooled, long m, long n, double u)
{
    long total = m + n, width = m * (2 * total - m + 1) + 1;   /* 2R <= twice the m top ranks */
    double *count = calloc((size_t)((m + 1) * width), sizeof *count);
    double *next = calloc((size_t)((m + 1) * width), sizeof *next);
    if (count == NULL || next == NULL) {
        free(count);
        free(next);
        return NAN;
    }
    count[0] = 1.0;
    for (long s = 0; s < total;) {
        long e = s + 1;
        while (e < total && pooled[e] == pooled[s])
            e++;
        long t = e - s, mid2 = 2 * s + t + 1;   /* twice the group's mid-rank */
        memset(next, 0, (size_t)((m + 1) * width) * sizeof *next);
        for (long j = 0; j <= m; j++)
            for (long r = 0; r < width; r++) {
                if (count[j * width + r] == 0.0)
                    continue;
                double ways = 1.0;   /* C(t, c) */
                for (long c = 0; c <= t && j + c <= m && r + c * mid2 < width; c++) {
                    next[(j + c) * width + r + c * mid2] += count[j * width + r] * ways;
                    ways = ways * (double)(t - c) / (double)(c + 1);
                }
            }
        double *swap = count;
        count = next;
        next = swap;
        s = e;
    }
    long observed = labs(lround(2.0 * u) - m * n), centre = m * (total + 1);
    double far = 0.0, all = 0.0;
    for (long r = 0; r < width; r++) {
        all += count[m * width + r];
        if (labs(r - centre) >= observed)
            far += count[m * width + r];
    }
    free(count);
    free(next);
    return far / all;
}

int mann_whitney(const double *a, long m, const double *b, long n, RankTest *out)
{
    if (m < 1 || n < 1)
        return -1;
    memset(out, 0, sizeof *out);
    double u = 0.0;
    for (long i = 0; i < m; i++)
        for (long j = 0; j < n; j++)
            u += b[j] > a[i] ? 1.0 : b[j] == a[i] ? 0.5 : 0.0;
    out->u = u;
    double *pooled = pooled_sorted(a, m, b, n);
    if (pooled == NULL)
        return -1;
    double ties = tie_term(pooled, m + n, &out->tied_values);
    double mn = (double)(m * n), mean = 0.5 * mn;
    if (m <= CLOMP_EXACT_U_MAX && n <= CLOMP_EXACT_U_MAX) {
        double p;
        if (out->tied_values == 0) {
            /* The null distribution is symmetric about mn/2: the far tail
             * on the side u lies on, doubled. */
            p = 2.0 * mann_whitney_exact_cdf(m, n, u <= mean ? u : mn - u);
        } else {
            p = exact_tied_p(pooled, m, n, u);
        }
        free(pooled);
        if (isnan(p))
            return -1;
        out->p_two_sided = p > 1.0 ? 1.0 : p;
        out->exact = 1;
        return 0;
    }
    free(pooled);
    double total = (double)(m + n);
    double variance = mn / 12.0 * ((total + 1.0) - ties / (total * (total - 1.0)));
    if (!(variance > 0.0)) {   /* every value equal: nothing tells A from B */
        out->p_two_sided = 1.0;
        return 0;
    }
    double distance = fabs(u - mean) - 0.5;   /* continuity correction */
    double z = distance > 0.0 ? distance / sqrt(variance) : 0.0;
    out->p_two_sided = erfc(z / sqrt(2.0));
    return 0;
}

/* Inverse of the standard normal CDF for the upper tail (p in (0, 0.5]), by
 * bisection on erfc: precise to 1e-12 with no tables. */
static double normal_quantile_upper(double p)
{
    double lo = 0.0, hi = 40.0;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (0.5 * erfc(mid / sqrt(2.0)) > p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

int shift_interval(const double *a, long m, const double *b, long n, double level, ShiftInterval *out)
{
    if (m < 1 || n < 1)
        return -1;
    memset(out, 0, sizeof *out);
    out->ratio = 1;
    for (long i = 0; i < m; i++)
        out->ratio &= a[i] > 0.0;
    for (long j = 0; j < n; j++)
        out->ratio &= b[j] > 0.0;

    long count = m * n;
    double *pairs = malloc((size_t)count * sizeof *pairs);
    if (pairs == NULL)
        return -1;
    /* Ratios are ordered as their logarithms: the middle pair's geometric mean
     * keeps the estimate symmetric (1/x of the reversed comparison). */
    for (long i = 0; i < m; i++)
        for (long j = 0; j < n; j++)
            pairs[i * n + j] = out->ratio ? log(b[j] / a[i]) : b[j] - a[i];
    qsort(pairs, (size_t)count, sizeof *pairs, compare_doubles);
    double mid = count % 2 == 1 ? pairs[count / 2] : 0.5 * (pairs[count / 2 - 1] + pairs[count / 2]);

    double tail = 0.5 * (1.0 - level);
    long k = 0;
    double coverage = 0.0;
    if (m <= CLOMP_EXACT_U_MAX && n <= CLOMP_EXACT_U_MAX) {
        double *c = u_counts(m, n);
        if (c == NULL) {
            free(pairs);
            return -1;
        }
        double total = 0.0, below = 0.0;
        for (long u = 0; u <= count; u++)
            total += c[u];
        /* Largest k with P(U <= k-1) <= tail; k <= mn/2 keeps the ranks ordered. */
        for (long u = 0; 2 * (u + 1) <= count + 1; u++) {
            below += c[u];
            if (below / total > tail)
                break;
            k = u + 1;
            coverage = 1.0 - 2.0 * below / total;
        }
        free(c);
    } else {
        double z = normal_quantile_upper(tail);
        double mn = (double)count;
        double kk = floor(0.5 * mn - z * sqrt(mn * (double)(m + n + 1) / 12.0));
        if (kk >= 1.0) {
            k = (long)kk;
            double zk = (0.5 * mn - ((double)k - 1.0) - 0.5) / sqrt(mn * (double)(m + n + 1) / 12.0);
            coverage = 1.0 - erfc(zk / sqrt(2.0));
        }
    }
    out->estimate = out->ratio ? exp(mid) : mid;
    if (k >= 1) {
        out->has_ci = 1;
        out->k = k;
        out->coverage = coverage;
        out->low = out->ratio ? exp(pairs[k - 1]) : pairs[k - 1];
        out->high = out->ratio ? exp(pairs[count - k]) : pairs[count - k];
    }
    free(pairs);
    return 0;
}
