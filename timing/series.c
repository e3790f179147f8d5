/* Series and multiple-test helpers of timing/signed_rank.h (one module,
 * split for length): Holm's procedure, lag-1 autocorrelation, batch
 * medians and the seeded generator. */
#include "signed_rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CLOMP_PI 3.14159265358979323846

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct IndexedP {
    double p;
    size_t index;
} IndexedP;

static int compare_indexed(const void *a, const void *b)
{
    const IndexedP *x = a, *y = b;
    if (x->p != y->p)
        return (x->p > y->p) - (x->p < y->p);
    return (x->index > y->index) - (x->index < y->index);
}

long holm_rejections(const double *p, size_t m, double alpha, int *reject, double *adjusted)
{
    IndexedP *sorted = malloc((m > 0 ? m : 1) * sizeof *sorted);
    if (sorted == NULL)
        return -1;
    for (size_t i = 0; i < m; i++) {
        sorted[i] = (IndexedP){p[i], i};
        reject[i] = 0;
    }
    qsort(sorted, m, sizeof *sorted, compare_indexed);
    long rejected = 0;
    int stopped = 0;
    double running = 0.0;
    for (size_t j = 0; j < m; j++) {
        if (!stopped && sorted[j].p <= alpha / (double)(m - j)) {
            reject[sorted[j].index] = 1;
            rejected++;
        } else {
            stopped = 1;
        }
        running = fmax(running, fmin(1.0, (double)(m - j) * sorted[j].p));
        if (adjusted != NULL)
            adjusted[sorted[j].index] = running;
    }
    free(sorted);
    return rejected;
}

double lag1_autocorrelation(const double *x, long n)
{
    if (n < 3)
        return 0.0;
    double mean = 0.0;
    for (long i = 0; i < n; i++)
        mean += x[i];
    mean /= (double)n;
    double num = 0.0, den = 0.0;
    for (long i = 0; i < n; i++) {
        den += (x[i] - mean) * (x[i] - mean);
        if (i + 1 < n)
            num += (x[i] - mean) * (x[i + 1] - mean);
    }
    return den > 0.0 ? num / den : 0.0;
}

double lag1_bias_corrected(double r, long n)
{
    if (n <= 4)
        return r;
    return fmax(-1.0, fmin(1.0, ((double)n * r + 1.0) / (double)(n - 4)));
}

double effective_sample_size(const double *x, long n)
{
    double rho = lag1_bias_corrected(lag1_autocorrelation(x, n), n);
    if (!(rho > 0.0))
        return (double)n;
    return rho >= 1.0 ? 0.0 : (double)n * (1.0 - rho) / (1.0 + rho);
}

static double median_sorted_copy(const double *x, long n)
{
    double *c = malloc((size_t)n * sizeof *c);
    if (c == NULL)
        return NAN;
    memcpy(c, x, (size_t)n * sizeof *c);
    qsort(c, (size_t)n, sizeof *c, compare_doubles);
    double m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
    free(c);
    return m;
}

long batch_medians(const double *x, long n, long length, double *out)
{
    if (length < 1 || n < 1)
        return 0;
    long full = n / length, rest = n % length;
    if (full == 0) {
        out[0] = median_sorted_copy(x, n);
        return 1;
    }
    int own_batch = rest > 0 && 2 * rest >= length;
    long batches = full + own_batch;
    for (long b = 0; b < batches; b++) {
        long start = b * length, count = length;
        if (b == batches - 1)
            count = n - start;   /* the last takes the remainder, or is it */
        out[b] = median_sorted_copy(x + start, count);
    }
    return batches;
}

long decorrelating_batch_length(double r, long n, long min_batches)
{
    if (!(r > 0.0))
        return 1;
    long length = 2;
    while (length < n && pow(r, (double)length) / (double)length >= 0.1)
        length++;
    while (length > 1 && n / length < min_batches)
        length--;
    return length;
}

uint64_t rng_next(ClompRng *rng)
{
    uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double rng_uniform(ClompRng *rng)
{
    return (double)(rng_next(rng) >> 11) * 0x1.0p-53;
}

double rng_normal(ClompRng *rng)
{
    double u = rng_uniform(rng), v = rng_uniform(rng);
    return sqrt(-2.0 * log(1.0 - u)) * cos(2.0 * CLOMP_PI * v);
}

