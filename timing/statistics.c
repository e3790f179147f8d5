#include "statistics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decision.h"
#include "signed_rank.h"

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of an already sorted sample. */
static double sorted_median(const double *sorted, long n)
{
    return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

double median_of(const double *values, long n)
{
    double *sorted = malloc((size_t)n * sizeof *sorted);
    if (sorted == NULL)
        return NAN;
    memcpy(sorted, values, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, compare_doubles);
    double m = sorted_median(sorted, n);
    free(sorted);
    return m;
}

double mad_of(const double *values, long n)
{
    double *dev = malloc((size_t)(n > 0 ? n : 1) * sizeof *dev);
    if (dev == NULL || n < 1) {
        free(dev);
        return NAN;
    }
    double m = median_of(values, n);
    for (long i = 0; i < n; i++)
        dev[i] = fabs(values[i] - m);
    double mad = median_of(dev, n);
    free(dev);
    return mad;
}

int median_ci_ranks(long n, double level, long *lo, long *hi, double *coverage)
{
    /* The median lies below x(j) only if fewer than j samples fall below it:
     * P = P(Binomial(n, 1/2) <= j-1). Walk j up while the symmetric interval
     * [x(j), x(n+1-j)] still covers `level`; the log-space pmf keeps large n
     * exact enough. */
    if (n < 2)
        return -1;
    double tail = 0.0;   /* P(B <= j-1) */
    long best = 0;
    double best_coverage = 0.0;
    for (long j = 1; 2 * j < n + 1; j++) {
        long k = j - 1;
        tail += exp(lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) - (double)n * log(2.0));
        double c = 1.0 - 2.0 * tail;
        if (c < level)
            break;
        best = j;
        best_coverage = c;
    }
    if (best == 0)
        return -1;
    *lo = best;
    *hi = n + 1 - best;
    *coverage = best_coverage;
    return 0;
}

SampleStats summarize_samples(const double *values, long n, double level)
{
    SampleStats s;
    memset(&s, 0, sizeof s);
    s.n = n;
    if (n < 1)
        return s;
    double *sorted = malloc((size_t)n * sizeof *sorted);
    if (sorted == NULL) {
        s.n = 0;
        return s;
    }
    memcpy(sorted, values, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, compare_doubles);

    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = sorted_median(sorted, n);
    double sum = 0.0;
    for (long i = 0; i < n; i++)
        sum += values[i];
    s.mean = sum / (double)n;
    if (n >= 2) {
        double squares = 0.0;
        for (long i = 0; i < n; i++)
            squares += (values[i] - s.mean) * (values[i] - s.mean);
        s.sd = sqrt(squares / (double)(n - 1));
        s.cv = s.mean != 0.0 ? s.sd / fabs(s.mean) : 0.0;
        if (s.sd > 0.0)
            for (long i = 0; i < n; i++)
                s.outliers += fabs(values[i] - s.mean) > CLOMP_OUTLIER_SIGMAS * s.sd;
    }
    long lo, hi;
    if (median_ci_ranks(n, level, &lo, &hi, &s.ci_coverage) == 0) {
        s.has_ci = 1;
        s.ci_low = sorted[lo - 1];
        s.ci_high = sorted[hi - 1];
    } else {
        s.ci_coverage = 0.0;
    }
    free(sorted);
    return s;
}

int difference_interval(const SampleStats *a, const SampleStats *b, double *low, double *high)
{
    if (!a->has_ci || !b->has_ci)
        return -1;
    *low = a->ci_low - b->ci_high;
    *high = a->ci_high - b->ci_low;
    return 0;
}

RateEstimate rate_of_sums(const double *y, const double *x, long n)
{
    RateEstimate r = {0, NAN, NAN, NAN};
    double sy = 0.0, sx = 0.0;
    for (long i = 0; i < n; i++) {
        sy += y[i];
        sx += x[i];
    }
    if (n < 1 || !(sx > 0.0))
        return r;
    r.rate = sy / sx;
    double *e = malloc((size_t)n * sizeof *e);
    if (n < 3 || e == NULL) {
        free(e);
        return r;
    }
    double squares = 0.0;
    for (long i = 0; i < n; i++) {
        e[i] = y[i] - r.rate * x[i];
        squares += e[i] * e[i];
    }
    double size = effective_sample_size(e, n);
    free(e);
    if (size < 2.0)
        return r;
    r.ok = 1;
    r.se = sqrt(squares / (double)(n - 1) / size) / (sx / (double)n);
    r.df = size - 1.0;
    return r;
}

int rate_difference_interval(const RateEstimate *a, const RateEstimate *b, double level, double *low, double *high)
{
    if (!a->ok || !b->ok)
        return -1;
    double va = a->se * a->se, vb = b->se * b->se, d = a->rate - b->rate;
    double half = 0.0;
    if (va + vb > 0.0) {
        double df = (va + vb) * (va + vb) / (va * va / a->df + vb * vb / b->df);
        half = student_t_quantile(0.5 + 0.5 * level, df) * sqrt(va + vb);
    }
    *low = d - half;
    *high = d + half;
    return 0;
}

int decimals_for_uncertainty(double uncertainty, int max_decimals)
{
    if (!(uncertainty > 0.0) || !isfinite(uncertainty))
        return max_decimals;
    /* The first significant digit of the uncertainty is the last one printed;
     * the nudge keeps 0.00999999 (a half-width of 0.02) at 2 decimals. */
    int decimals = (int)-floor(log10(uncertainty) + 1e-6);
    if (decimals < 0)
        return 0;
    return decimals > max_decimals ? max_decimals : decimals;
}
