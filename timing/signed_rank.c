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

/* W+ of d (zeros dropped, midranks for tied magnitudes); *used the non-zero
 * count, *tie_term sum of t^3 - t over tie groups, *ties whether any tie or
 * zero occurred. mag: room for n. */
static double rank_sum(const double *d, long n, Magnitude *mag, long *used, double *tie_term, int *ties)
{
    long u = 0;
    for (long i = 0; i < n; i++)
        if (d[i] != 0.0)
            mag[u++] = (Magnitude){fabs(d[i]), d[i] > 0.0};
    qsort(mag, (size_t)u, sizeof *mag, compare_magnitudes);
    double w = 0.0, term = 0.0;
    int tied = u < n;
    for (long i = 0; i < u;) {
        long j = i;
        while (j + 1 < u && mag[j + 1].abs == mag[i].abs)
            j++;
        double t = (double)(j - i + 1), midrank = 0.5 * (double)(i + 1 + j + 1);
        if (t > 1.0) {
            tied = 1;
            term += t * t * t - t;
        }
        for (long k = i; k <= j; k++)
            if (mag[k].positive)
                w += midrank;
        i = j + 1;
    }
    *used = u;
    *tie_term = term;
    *ties = tied;
    return w;
}

ShiftEstimate signed_rank_shift(const double *d, long n, double level)
{
    ShiftEstimate s;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.estimate = s.low = s.high = NAN;
    s.p_value = 1.0;
    if (n < 1)
        return s;
    long walsh_count = n * (n + 1) / 2;
    double *walsh = malloc((size_t)walsh_count * sizeof *walsh);
    Magnitude *mag = malloc((size_t)n * sizeof *mag);
    double *counts = n <= SIGNED_RANK_EXACT_MAX ? malloc((size_t)(walsh_count + 1) * sizeof *counts) : NULL;
    if (walsh == NULL || mag == NULL || (n <= SIGNED_RANK_EXACT_MAX && counts == NULL)) {
        free(walsh);
        free(mag);
        free(counts);
        s.n = 0;
        return s;
    }
    long k = 0;
    for (long i = 0; i < n; i++)
        for (long j = i; j < n; j++)
            walsh[k++] = 0.5 * (d[i] + d[j]);
    qsort(walsh, (size_t)walsh_count, sizeof *walsh, compare_doubles);
    s.estimate = walsh_count % 2 ? walsh[walsh_count / 2] : 0.5 * (walsh[walsh_count / 2 - 1] + walsh[walsh_count / 2]);

    /* The interval [W(k), W(M+1-k)] holds the centre exactly when the
     * signed-rank statistic at the centre lies in k..M-k: coverage
     * 1 - 2 P(W+ <= k-1), for continuous data. */
    double alpha_half = (1.0 - level) / 2.0, total = ldexp(1.0, (int)(n <= 1023 ? n : 1023));
    long best = 0;
    double best_coverage = 0.0;
    if (counts != NULL) {
        signed_rank_counts((int)n, counts);
        double tail = 0.0;   /* P(W+ <= k-1) */
        for (long kk = 1; 2 * kk <= walsh_count; kk++) {
            tail += counts[kk - 1] / total;
            if (tail > alpha_half)
                break;
            best = kk;
            best_coverage = 1.0 - 2.0 * tail;
        }
        s.ci_exact = 1;
    } else {
        double mean = (double)walsh_count / 2.0, sd = sqrt((double)n * (double)(n + 1) * (double)(2 * n + 1) / 24.0);
        long kk = (long)floor(mean - normal_quantile(1.0 - alpha_half) * sd + 0.5);
        if (kk >= 1 && 2 * kk <= walsh_count) {
            best = kk;
            best_coverage = 1.0 - 2.0 * (1.0 - normal_upper_tail(((double)kk - 0.5 - mean) / sd));
        }
    }
    if (best > 0) {
        s.has_ci = 1;
        s.low = walsh[best - 1];
        s.high = walsh[walsh_count - best];
        s.coverage = best_coverage;
    }

    double tie_term;
    s.w_plus = rank_sum(d, n, mag, &s.used, &tie_term, &s.ties);
    if (s.used > 0 && !s.ties && s.used <= SIGNED_RANK_EXACT_MAX) {
        /* n == used here: the counts above are the null distribution of W+. */
        long w = (long)s.w_plus;
        double low = 0.0, high = 0.0;
        for (long x = 0; x <= walsh_count; x++) {
            if (x <= w)
                low += counts[x];
            if (x >= w)
                high += counts[x];
        }
        s.p_value = fmin(1.0, 2.0 * fmin(low, high) / total);
        s.exact = 1;
    } else if (s.used > 0) {
        double u = (double)s.used;
        double mean = u * (u + 1.0) / 4.0, var = u * (u + 1.0) * (2.0 * u + 1.0) / 24.0 - tie_term / 48.0;
        double z = var > 0.0 ? fmax(fabs(s.w_plus - mean) - 0.5, 0.0) / sqrt(var) : 0.0;
        s.p_value = fmin(1.0, 2.0 * normal_upper_tail(z));
    }
    free(walsh);
    free(mag);
    free(counts);
    return s;
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

/* Simulated power at `shift` on the fixed standard-normal draws z[trials * n]:
 * W+ against the two-sided critical region (exact up to
 * SIGNED_RANK_EXACT_MAX, else the normal approximation). */
static double power_on(const double *z, long n, long trials, double shift, double alpha, double *sample,
                       Magnitude *mag, const double *counts)
{
    long top = n * (n + 1) / 2, critical = -1;   /* reject when W+ <= critical or W+ >= top - critical */
    if (counts != NULL) {
        double tail = 0.0, total = ldexp(1.0, (int)n);
        for (long w = 0; 2 * w < top; w++) {
            tail += counts[w] / total;
            if (tail > alpha / 2.0)
                break;
            critical = w;
        }
    }
    long rejected = 0;
    for (long t = 0; t < trials; t++) {
        for (long i = 0; i < n; i++)
            sample[i] = z[t * n + i] + shift;
        long used;
        double tie_term;
        int ties;
        double w = rank_sum(sample, n, mag, &used, &tie_term, &ties);
        if (counts != NULL && !ties) {
            rejected += w <= (double)critical || w >= (double)(top - critical);
        } else if (used > 0) {
            double u = (double)used, mean = u * (u + 1.0) / 4.0;
            double var = u * (u + 1.0) * (2.0 * u + 1.0) / 24.0 - tie_term / 48.0;
            double zz = var > 0.0 ? fmax(fabs(w - mean) - 0.5, 0.0) / sqrt(var) : 0.0;
            rejected += 2.0 * normal_upper_tail(zz) <= alpha;
        }
    }
    return (double)rejected / (double)trials;
}

/* Room for power_on(): the sample, its magnitudes and (n <= the exact max) the null counts. */
typedef struct PowerWork {
    double *z, *sample, *counts;
    Magnitude *mag;
} PowerWork;

static void free_power_work(PowerWork *w)
{
    free(w->z);
    free(w->sample);
    free(w->counts);
    free(w->mag);
}

static double *normal_draws(long n, long trials, uint64_t seed)
{
    double *z = calloc((size_t)(n * trials), sizeof *z);
    ClompRng rng = {seed};
    if (z != NULL)
        for (long i = 0; i < n * trials; i++)
            z[i] = rng_normal(&rng);
    return z;
}

static int power_work(PowerWork *w, long n, long trials, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    w->z = normal_draws(n, trials, seed);
    w->sample = malloc((size_t)n * sizeof *w->sample);
    w->mag = malloc((size_t)n * sizeof *w->mag);
    if (n <= SIGNED_RANK_EXACT_MAX) {
        w->counts = calloc((size_t)(n * (n + 1) / 2 + 1), sizeof *w->counts);
        if (w->counts != NULL)
            signed_rank_counts((int)n, w->counts);
    }
    if (w->z == NULL || w->sample == NULL || w->mag == NULL || (n <= SIGNED_RANK_EXACT_MAX && w->counts == NULL)) {
        free_power_work(w);
        return -1;
    }
    return 0;
}

double signed_rank_power(long n, double shift, double alpha, long trials, uint64_t seed)
{
    PowerWork w;
    if (n < 1 || trials < 1 || power_work(&w, n, trials, seed) != 0)
        return NAN;
    double power = power_on(w.z, n, trials, shift, alpha, w.sample, w.mag, w.counts);
    free_power_work(&w);
    return power;
}

double signed_rank_detectable_shift(long n, double alpha, double power, long trials, uint64_t seed)
{
    PowerWork w;
    if (n < 1 || trials < 1 || power_work(&w, n, trials, seed) != 0)
        return NAN;
    double result = NAN;
    if (power_on(w.z, n, trials, 20.0, alpha, w.sample, w.mag, w.counts) >= power) {
        double lo = 0.0, hi = 20.0;
        while (hi - lo > 0.005) {
            double mid = 0.5 * (lo + hi);
            if (power_on(w.z, n, trials, mid, alpha, w.sample, w.mag, w.counts) >= power)
                hi = mid;
            else
                lo = mid;
        }
        result = hi;
    }
    free_power_work(&w);
    return result;
}

double signed_rank_normal_quantile(double p)
{
    return normal_quantile(p);
}

double signed_rank_smallest_p(long n)
{
    /* Every difference on one side: W+ = 0 (or its mirror), one pattern of 2^n each. */
    return n < 1 ? 1.0 : fmin(1.0, 2.0 * ldexp(1.0, -(int)(n > 1000 ? 1000 : n)));
}

long signed_rank_least_pairs(double alpha)
{
    for (long n = 1; n <= 1000; n++)
        if (signed_rank_smallest_p(n) <= alpha)
            return n;
    return -1;
}
