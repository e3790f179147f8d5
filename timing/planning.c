#include "planning.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decision.h"
#include "signed_rank.h"
#include "simulation_memo.h"

/* P(a, x), the regularized lower incomplete gamma function: its series for
 * x < a + 1, else 1 - the continued fraction of Q (modified Lentz). */
static double regularized_gamma(double a, double x)
{
    if (x <= 0.0)
        return 0.0;
    double front = exp(a * log(x) - x - lgamma(a));
    if (x < a + 1.0) {
        double term = 1.0 / a, sum = term;
        for (int n = 1; n < 100000 && fabs(term) > 1e-17 * fabs(sum); n++) {
            term *= x / (a + n);
            sum += term;
        }
        return fmin(1.0, front * sum);
    }
    const double tiny = 1e-300;
    double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
    for (int i = 1; i < 100000; i++) {
        double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        d = fabs(d) < tiny ? tiny : d;
        c = b + an / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        double step = d * c;
        h *= step;
        if (fabs(step - 1.0) < 1e-16)
            break;
    }
    return fmax(0.0, 1.0 - front * h);
}

double chi_square_quantile(double p, double df)
{
    if (!(p > 0.0 && p < 1.0) || !(df > 0.0))
        return NAN;
    double low = 0.0, high = fmax(1.0, df);
    while (regularized_gamma(0.5 * df, 0.5 * high) < p && high < 1e300)
        high *= 2.0;
    for (int i = 0; i < 300 && high - low > 1e-12 * high; i++) {
        double mid = 0.5 * (low + high);
        if (regularized_gamma(0.5 * df, 0.5 * mid) < p)
            low = mid;
        else
            high = mid;
    }
    return 0.5 * (low + high);
}

double sd_upper_bound(double sd, long n, double confidence)
{
    if (n < 2 || !(confidence > 0.0 && confidence < 1.0))
        return NAN;
    return sd * sqrt((double)(n - 1) / chi_square_quantile(1.0 - confidence, (double)(n - 1)));
}

/* The plan's power on fixed standard-normal draws, trial t's z[t * n ..
 * t * n + n - 1], shifted by `shift`. cumulative: signed_rank_cumulative of
 * each look (NULL above the exact range); ranked: room for n. */
static double plan_power_on(const double *z, long n, long trials, const long *looks, int k, double nominal,
                            double shift, double *const *cumulative, SignedDraw *ranked)
{
    long stopped = 0;
    for (long t = 0; t < trials; t++) {
        double w = 0.0;
        long m = 0;
        for (int j = 0; j < k; j++) {
            long upto = looks[j] < n ? looks[j] : n;   /* a look never reads past its draws */
            for (long i = m; i < upto; i++) {
                double x = z[t * n + i] + shift;
                ranked[i] = (SignedDraw){fabs(x), x > 0.0};
            }
            w = signed_draws_rank(ranked, m, upto, w);
            m = upto;
            if (signed_rank_p_cumulative(m, w, cumulative[j]) <= nominal) {
                stopped++;
                break;
            }
        }
    }
    return (double)stopped / (double)trials;
}

/* Draws, each look's cumulative exact counts (signed_rank_cumulative) and room to rank n draws,
 * for a plan; NULL z on bad input or memory. */
typedef struct PlanWork {
    double *z, **cumulative;
    SignedDraw *ranked;
    long n;
} PlanWork;

static void free_plan(PlanWork *w, int k)
{
    for (int j = 0; w->cumulative != NULL && j < k; j++)
        free(w->cumulative[j]);
    free(w->cumulative);
    free(w->z);
    free(w->ranked);
}

static int plan_work(PlanWork *w, const long *looks, int k, long trials, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    if (k < 1 || trials < 1 || looks[0] < 1)
        return -1;
    for (int j = 1; j < k; j++)
        if (looks[j] <= looks[j - 1])
            return -1;
    w->n = looks[k - 1];
    w->z = calloc((size_t)(w->n * trials), sizeof *w->z);   /* zeroed: every draw is written below, but the analyser cannot see it */
    w->cumulative = calloc((size_t)k, sizeof *w->cumulative);
    w->ranked = malloc((size_t)w->n * sizeof *w->ranked);
    int failed = w->z == NULL || w->cumulative == NULL || w->ranked == NULL;
    for (int j = 0; !failed && j < k; j++) {
        if (looks[j] > SIGNED_RANK_EXACT_MAX)
            continue;
        w->cumulative[j] = malloc((size_t)(looks[j] * (looks[j] + 1) / 2 + 1) * sizeof **w->cumulative);
        failed = w->cumulative[j] == NULL || signed_rank_cumulative((int)looks[j], w->cumulative[j]) != 0;
    }
    if (failed) {
        free_plan(w, k);
        return -1;
    }
    ClompRng rng = {seed};
    for (long i = 0; i < w->n * trials; i++)
        w->z[i] = rng_normal(&rng);
    return 0;
}

double sequential_power(const long *looks, int k, double nominal, double shift, long trials, uint64_t seed)
{
    PlanWork w;
    if (plan_work(&w, looks, k, trials, seed) != 0)
        return NAN;
    double power = plan_power_on(w.z, w.n, trials, looks, k, nominal, shift, w.cumulative, w.ranked);
    free_plan(&w, k);
    return power;
}

double sequential_detectable_shift(const long *looks, int k, double nominal, double power, long trials, uint64_t seed)
{
    SimulationKey key = plan_key(3.0, looks, k, nominal, trials, seed);
    key_add(&key, power);
    double known;
    if (recall(&key, &known))
        return known;
    PlanWork w;
    if (plan_work(&w, looks, k, trials, seed) != 0)
        return NAN;
    double result = NAN;
    if (plan_power_on(w.z, w.n, trials, looks, k, nominal, 20.0, w.cumulative, w.ranked) >= power) {
        double lo = 0.0, hi = 20.0;
        while (hi - lo > 0.005) {
            double mid = 0.5 * (lo + hi);
            if (plan_power_on(w.z, w.n, trials, looks, k, nominal, mid, w.cumulative, w.ranked) >= power)
                hi = mid;
            else
                lo = mid;
        }
        result = hi;
    }
    free_plan(&w, k);
    remember(&key, result);
    return result;
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

double signed_rank_power(long n, double shift, double alpha, long trials, uint64_t seed)
{
    const long look[1] = {n};   /* one look is the plain test */
    return n < 1 ? NAN : sequential_power(look, 1, alpha, shift, trials, seed);
}

double signed_rank_detectable_shift(long n, double alpha, double power, long trials, uint64_t seed)
{
    const long look[1] = {n};
    return n < 1 ? NAN : sequential_detectable_shift(look, 1, alpha, power, trials, seed);
}

long signed_rank_pairs_needed(double shift_sd, double alpha, double power, long trials, uint64_t seed)
{
    if (!(shift_sd > 0.0))
        return -1;
    const long one[1] = {1};
    SimulationKey key = plan_key(4.0, one, 1, alpha, trials, seed);
    key_add(&key, shift_sd);
    key_add(&key, power);
    double known;
    if (recall(&key, &known))
        return (long)known;
    /* signed_rank_power(n, ...) for n = 6, 7, ...: each n's trials read the
     * first n x trials draws of one seeded stream, drawn here once for all. */
    const long most = SIGNED_RANK_EXACT_MAX;
    double *z = trials > 0 ? calloc((size_t)(most * trials), sizeof *z) : NULL;   /* zeroed: for the analyser, as in plan_work */
    double *cumulative = malloc((size_t)(most * (most + 1) / 2 + 1) * sizeof *cumulative);
    SignedDraw *ranked = malloc((size_t)most * sizeof *ranked);
    int ready = z != NULL && cumulative != NULL && ranked != NULL;   /* else the normal approximation below */
    long found = 0, drawn = 0;
    ClompRng rng = {seed};
    for (long n = 6; ready && found == 0 && n <= most; n++) {
        for (; drawn < n * trials; drawn++)
            z[drawn] = rng_normal(&rng);
        const long look[1] = {n};
        double *const each[1] = {cumulative};
        signed_rank_cumulative((int)n, cumulative);
        if (plan_power_on(z, n, trials, look, 1, alpha, shift_sd, each, ranked) >= power)
            found = n;
    }
    free(z);
    free(cumulative);
    free(ranked);
    if (found == 0) {
        double zq = signed_rank_normal_quantile(1.0 - alpha / 2.0) + signed_rank_normal_quantile(power);
        double n = 3.14159265358979323846 / 3.0 * (zq / shift_sd) * (zq / shift_sd);
        found = n > (double)SIGNED_RANK_EXACT_MAX ? (long)ceil(n) : SIGNED_RANK_EXACT_MAX + 1;
    }
    if (ready)
        remember(&key, (double)found);
    return found;
}
