/* Series and multiple-test helpers of timing/signed_rank.h (one module,
 * split for length): Holm's procedure, lag-1 autocorrelation and the
 * effective sample size, the interval widened for serial correlation, the
 * permutation test of serial correlation and the seeded generator. */
#include "signed_rank.h"

#include "decision.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CLOMP_PI 3.14159265358979323846

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
    int constant = 1;
    for (long i = 1; i < n && constant; i++)
        constant = x[i] == x[0];
    if (constant)   /* no variance: no correlation to speak of */
        return (double)n;
    double rho = lag1_bias_corrected(lag1_autocorrelation(x, n), n);
    if (!(rho > 0.0))
        return (double)n;
    return rho >= 1.0 ? 0.0 : (double)n * (1.0 - rho) / (1.0 + rho);
}

int widen_for_correlation(ShiftEstimate *s, double effective, double level)
{
    if (!s->has_ci || !(effective < (double)s->n))
        return 0;
    double n = (double)s->n;
    if (!(effective >= 2.0)) {
        s->has_ci = 0;
        return -1;
    }
    double q = 0.5 + 0.5 * level;
    double f = student_t_quantile(q, 0.5 * (effective - 1.0)) / student_t_quantile(q, n - 1.0) * sqrt(n / effective);
    s->low = s->estimate - (s->estimate - s->low) * f;
    s->high = s->estimate + (s->high - s->estimate) * f;
    s->low_open = s->high_open = 0;
    s->coverage = level;
    return 0;
}

double serial_correlation_p(const double *x, long n, long permutations, uint64_t seed)
{
    if (n < 3 || permutations < 1)
        return 1.0;
    double *copy = malloc((size_t)n * sizeof *copy);
    if (copy == NULL)
        return NAN;
    memcpy(copy, x, (size_t)n * sizeof *copy);
    double seen = lag1_autocorrelation(x, n);
    ClompRng rng = {seed};
    long as_large = 0;
    for (long k = 0; k < permutations; k++) {
        for (long i = n - 1; i > 0; i--) {   /* Fisher-Yates */
            long j = (long)(rng_next(&rng) % (uint64_t)(i + 1));
            double t = copy[i];
            copy[i] = copy[j];
            copy[j] = t;
        }
        as_large += lag1_autocorrelation(copy, n) >= seen - 1e-12;
    }
    free(copy);
    return (double)(as_large + 1) / (double)(permutations + 1);
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

