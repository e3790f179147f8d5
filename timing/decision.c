#include "decision.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "signed_rank.h"
#include "simulation_memo.h"

/* ---- Student's t ----------------------------------------------------------------------- */

/* The continued fraction of the regularized incomplete beta I_x(a, b)
 * (modified Lentz), valid for x < (a + 1) / (a + b + 2). */
static double beta_fraction(double a, double b, double x)
{
    const double tiny = 1e-300;
    double d = 1.0 - (a + b) * x / (a + 1.0);
    d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
    /* c carries from one step to the next (Lentz's recurrence) */
    // cppcheck-suppress variableScope
    double c = 1.0, h = d;
    for (int m = 1; m <= 10000; m++) {
        double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 + aa * d;
        d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
        c = 1.0 + aa / c;
        c = fabs(c) < tiny ? tiny : c;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 + aa * d;
        d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
        c = 1.0 + aa / c;
        c = fabs(c) < tiny ? tiny : c;
        double step = d * c;
        h *= step;
        if (fabs(step - 1.0) < 1e-15)
            break;
    }
    return h;
}

static double regularized_beta(double x, double a, double b)
{
    if (x <= 0.0)
        return 0.0;
    if (x >= 1.0)
        return 1.0;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * beta_fraction(a, b, x) / a;
    return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

double student_t_cdf(double t, double df)
{
    if (isnan(t) || !(df > 0.0))
        return NAN;
    if (isinf(t))
        return t > 0.0 ? 1.0 : 0.0;
    double tail = 0.5 * regularized_beta(df / (df + t * t), 0.5 * df, 0.5);   /* P(T > |t|) */
    return t > 0.0 ? 1.0 - tail : tail;
}

double student_t_quantile(double p, double df)
{
    if (!(p > 0.0 && p < 1.0) || !(df > 0.0))
        return NAN;
    /* The distribution is symmetric: search the upper half, then mirror. */
    double sign = 1.0;
    if (p < 0.5) {
        p = 1.0 - p;
        sign = -1.0;
    }
    double low = 0.0, high = 1.0;
    while (student_t_cdf(high, df) < p && high < 1e300)
        high *= 2.0;
    for (int i = 0; i < 200 && high - low > 1e-12 * high; i++) {
        double mid = 0.5 * (low + high);
        if (student_t_cdf(mid, df) < p)
            low = mid;
        else
            high = mid;
    }
    return sign * 0.5 * (low + high);
}

/* ---- Brunner-Munzel -------------------------------------------------------------------- */

typedef struct Tagged {
    double v;
    long i;
} Tagged;

static int compare_tagged(const void *x, const void *y)
{
    double a = ((const Tagged *)x)->v, b = ((const Tagged *)y)->v;
    return (a > b) - (a < b);
}

/* Mid-ranks (1-based) of v[0..n-1] into rank; t: room for n. */
static void midranks(const double *v, long n, double *rank, Tagged *t)
{
    for (long i = 0; i < n; i++)
        t[i] = (Tagged){v[i], i};
    qsort(t, (size_t)n, sizeof *t, compare_tagged);
    for (long i = 0; i < n;) {
        long j = i;
        while (j + 1 < n && t[j + 1].v == t[i].v)
            j++;
        for (long k = i; k <= j; k++)
            rank[t[k].i] = 0.5 * (double)(i + j + 2);
        i = j + 1;
    }
}

int brunner_munzel(const double *a, long m, const double *b, long n, BrunnerMunzel *out)
{
    memset(out, 0, sizeof *out);
    out->p_b_greater = out->statistic = out->df = out->p_value = NAN;
    if (m < 2 || n < 2)
        return -1;
    long total = m + n;
    /* Zeroed: midranks() fills them, which clang's analyzer cannot follow. */
    double *all = malloc((size_t)total * sizeof *all), *pooled = calloc((size_t)total, sizeof *pooled);
    double *own = calloc((size_t)total, sizeof *own);
    Tagged *t = malloc((size_t)total * sizeof *t);
    if (all == NULL || pooled == NULL || own == NULL || t == NULL) {
        free(all), free(pooled), free(own), free(t);
        return -1;
    }
    memcpy(all, a, (size_t)m * sizeof *all);
    memcpy(all + m, b, (size_t)n * sizeof *all);
    midranks(all, total, pooled, t);
    midranks(a, m, own, t);
    midranks(b, n, own + m, t);
    double mean_a = 0.0, mean_b = 0.0;
    for (long i = 0; i < m; i++)
        mean_a += pooled[i] / (double)m;
    for (long i = m; i < total; i++)
        mean_b += pooled[i] / (double)n;
    /* The placements pooled - own rank: how many of the other side lie below (ties half). */
    double own_mean_a = 0.5 * (double)(m + 1), own_mean_b = 0.5 * (double)(n + 1), s2a = 0.0, s2b = 0.0;
    for (long i = 0; i < m; i++) {
        double dev = pooled[i] - own[i] - mean_a + own_mean_a;
        s2a += dev * dev / (double)(m - 1);
    }
    for (long i = m; i < total; i++) {
        double dev = pooled[i] - own[i] - mean_b + own_mean_b;
        s2b += dev * dev / (double)(n - 1);
    }
    out->p_b_greater = (mean_b - own_mean_b) / (double)m;
    double spread = (double)m * s2a + (double)n * s2b;
    /* The placements are multiples of 1/2 and their means are not: what is
     * left of a spread of 0 (all values equal, or the sides separated and
     * each constant) is rounding, far below one placement's step. */
    double scale = (double)total * (double)total;
    int apart = fabs(mean_b - mean_a) > 1e-9 * (double)total;
    if (spread > 1e-12 * scale) {
        out->statistic = (double)m * (double)n * (mean_b - mean_a) / ((double)total * sqrt(spread));
        out->df = spread * spread / ((double)m * s2a * (double)m * s2a / (double)(m - 1) +
                                     (double)n * s2b * (double)n * s2b / (double)(n - 1));
        double lower = student_t_cdf(out->statistic, out->df);
        out->p_value = fmin(1.0, 2.0 * fmin(lower, 1.0 - lower));
    } else {
        out->degenerate = 1;
        out->statistic = !apart ? 0.0 : mean_b > mean_a ? INFINITY : -INFINITY;
        out->p_value = apart ? 0.0 : 1.0;
        if (!apart)
            out->p_b_greater = 0.5;
    }
    free(all), free(pooled), free(own), free(t);
    return 0;
}

/* ---- the signed-rank test at several looks --------------------------------------------- */

double signed_rank_p(long n, double w, const double *counts)
{
    if (n < 1)
        return 1.0;
    if (n <= SIGNED_RANK_EXACT_MAX) {
        long top = n * (n + 1) / 2;
        double *own = NULL;
        if (counts == NULL) {
            own = malloc((size_t)(top + 1) * sizeof *own);
            if (own == NULL)
                return NAN;
            signed_rank_counts((int)n, own);
            counts = own;
        }
        double low = 0.0, high = 0.0;
        for (long x = 0; x <= top; x++) {
            if ((double)x <= w)
                low += counts[x];
            if ((double)x >= w)
                high += counts[x];
        }
        free(own);
        return fmin(1.0, 2.0 * fmin(low, high) / ldexp(1.0, (int)n));
    }
    double u = (double)n, mean = u * (u + 1.0) / 4.0, sd = sqrt(u * (u + 1.0) * (2.0 * u + 1.0) / 24.0);
    double z = fmax(fabs(w - mean) - 0.5, 0.0) / sd;
    return fmin(1.0, erfc(z / sqrt(2.0)));
}

int signed_rank_cumulative(int n, double *cumulative)
{
    if (signed_rank_counts(n, cumulative) != 0)
        return -1;
    long top = (long)n * (n + 1) / 2;
    for (long x = 1; x <= top; x++)
        cumulative[x] += cumulative[x - 1];
    return 0;
}

double signed_rank_p_cumulative(long n, double w, const double *cumulative)
{
    if (cumulative == NULL || n < 1 || n > SIGNED_RANK_EXACT_MAX || !isfinite(w))
        return signed_rank_p(n, w, NULL);
    long top = n * (n + 1) / 2;
    double below = floor(w), above = ceil(w);   /* the whole W+ values <= w and >= w */
    double low = below < 0.0 ? 0.0 : cumulative[below > (double)top ? top : (long)below];
    double high = above > (double)top ? 0.0 : cumulative[top] - (above < 1.0 ? 0.0 : cumulative[(long)above - 1]);
    return fmin(1.0, 2.0 * fmin(low, high) / ldexp(1.0, (int)n));
}

double signed_draw_insert(SignedDraw *ranked, long m, SignedDraw d, double w)
{
    long r = m;
    for (; r > 0 && ranked[r - 1].magnitude > d.magnitude; r--) {
        ranked[r] = ranked[r - 1];
        w += ranked[r].positive;
    }
    ranked[r] = d;
    return d.positive ? w + (double)(r + 1) : w;
}

static int compare_draws(const void *x, const void *y)
{
    double a = ((const SignedDraw *)x)->magnitude, b = ((const SignedDraw *)y)->magnitude;
    return (a > b) - (a < b);
}

double signed_draws_rank(SignedDraw *ranked, long m, long upto, double w)
{
    if (upto - m <= SIGNED_DRAWS_INSERTED) {
        for (long i = m; i < upto; i++)
            w = signed_draw_insert(ranked, i, ranked[i], w);
        return w;
    }
    /* Many at once: one sort, O(n log n), not an insertion each, O(n^2) (a plan's one look of
     * thousands of pairs). Equal magnitudes may then rank in another order than the insertion's:
     * the draws are continuous, so ties have probability 0. */
    qsort(ranked, (size_t)upto, sizeof *ranked, compare_draws);
    w = 0.0;
    for (long r = 0; r < upto; r++)
        if (ranked[r].positive)
            w += (double)(r + 1);
    return w;
}

static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The smallest p-value over the looks of each of `sims` simulated null
 * sequences, into minp (room for sims); 0, or -1 on bad input or memory. */
static int simulate_min_p(const long *looks, int k, long sims, uint64_t seed, double *minp)
{
    if (k < 1 || sims < 1 || looks[0] < 1)
        return -1;
    for (int j = 1; j < k; j++)
        if (looks[j] <= looks[j - 1])
            return -1;
    long n = looks[k - 1];
    double **cumulative = calloc((size_t)k, sizeof *cumulative);
    SignedDraw *ranked = malloc((size_t)n * sizeof *ranked);
    int failed = cumulative == NULL || ranked == NULL;
    for (int j = 0; !failed && j < k; j++) {
        if (looks[j] > SIGNED_RANK_EXACT_MAX)
            continue;
        cumulative[j] = malloc((size_t)(looks[j] * (looks[j] + 1) / 2 + 1) * sizeof **cumulative);
        failed = cumulative[j] == NULL || signed_rank_cumulative((int)looks[j], cumulative[j]) != 0;
    }
    ClompRng rng = {seed};
    for (long s = 0; !failed && s < sims; s++) {
        /* Each pair's magnitude, then its sign, drawn in the pairs' order;
         * W+ of the first looks[j] pairs grows as the pairs join the ranking. */
        double best = 1.0, w = 0.0;
        long m = 0;
        for (int j = 0; j < k; j++) {
            for (long i = m; i < looks[j]; i++) {
                double magnitude = rng_uniform(&rng);
                ranked[i] = (SignedDraw){magnitude, rng_uniform(&rng) < 0.5};
            }
            w = signed_draws_rank(ranked, m, looks[j], w);
            m = looks[j];
            best = fmin(best, signed_rank_p_cumulative(m, w, cumulative[j]));
        }
        minp[s] = best;
    }
    for (int j = 0; cumulative != NULL && j < k; j++)
        free(cumulative[j]);
    free(cumulative);
    free(ranked);
    return failed ? -1 : 0;
}

double sequential_nominal_level(const long *looks, int k, double alpha, long sims, uint64_t seed)
{
    SimulationKey key = plan_key(1.0, looks, k, alpha, sims, seed);
    double known;
    if (recall(&key, &known))
        return known;
    double *minp = malloc((size_t)(sims > 0 ? sims : 1) * sizeof *minp);
    if (minp == NULL || !(alpha > 0.0 && alpha < 1.0) || simulate_min_p(looks, k, sims, seed, minp) != 0) {
        free(minp);
        return NAN;
    }
    qsort(minp, (size_t)sims, sizeof *minp, compare_doubles);
    /* The attainable levels are the distinct simulated minima: the largest v
     * with #{min p <= v} <= (alpha - 2 standard errors) x sims (ties counted
     * whole), so that simulation error does not push the rate over alpha. */
    double margin = 2.0 * sqrt(alpha * (1.0 - alpha) / (double)sims);
    long allowed = (long)floor((alpha - margin) * (double)sims + 1e-9);
    double level = 0.0;
    for (long i = 0; i < sims;) {
        long j = i;
        while (j + 1 < sims && minp[j + 1] == minp[i])
            j++;
        if (j + 1 > allowed)
            break;
        level = minp[i];
        i = j + 1;
    }
    free(minp);
    remember(&key, level);
    return level;
}

double sequential_overall_rate(const long *looks, int k, double nominal, long sims, uint64_t seed)
{
    SimulationKey key = plan_key(2.0, looks, k, nominal, sims, seed);
    double known;
    if (recall(&key, &known))
        return known;
    double *minp = malloc((size_t)(sims > 0 ? sims : 1) * sizeof *minp);
    if (minp == NULL || simulate_min_p(looks, k, sims, seed, minp) != 0) {
        free(minp);
        return NAN;
    }
    long rejected = 0;
    for (long i = 0; i < sims; i++)
        rejected += minp[i] <= nominal;
    free(minp);
    double rate = (double)rejected / (double)sims;
    remember(&key, rate);
    return rate;
}

PredictionInterval prediction_interval(const double *v, long n, double level)
{
    PredictionInterval p = {NAN, NAN, NAN, 0};
    /* (m - 1) / (m + 1) >= level  <=>  m >= (1 + level) / (1 - level) */
    p.values_needed = (long)ceil((1.0 + level) / (1.0 - level) - 1e-9);
    if (n < 2)
        return p;
    double *sorted = malloc((size_t)n * sizeof *sorted);
    if (sorted == NULL)
        return p;
    memcpy(sorted, v, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, compare_doubles);
    long j = 1;
    while (2 * (j + 1) <= n && (double)(n + 1 - 2 * (j + 1)) / (double)(n + 1) >= level)
        j++;
    p.low = sorted[j - 1];
    p.high = sorted[n - j];
    p.coverage = (double)(n + 1 - 2 * j) / (double)(n + 1);
    free(sorted);
    return p;
}
