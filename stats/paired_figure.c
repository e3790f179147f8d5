#include "paired_figure.h"

#include <math.h>

int paired_figure(const double *a, const double *b, long n, double ci_level, double *d, PairedFigure *out)
{
    for (long i = 0; i < n; i++) {
        d[i] = b[i] - a[i];
        if (fabs(d[i]) <= 1e-12 * fmax(fabs(a[i]), fabs(b[i])))
            d[i] = 0.0;
    }
    out->n = n;
    out->shift = signed_rank_shift(d, n, ci_level);
    if (out->shift.n != n)
        return -1;
    out->lag1 = lag1_autocorrelation(d, n);
    out->lag1_corrected = lag1_bias_corrected(out->lag1, n);
    out->effective_pairs = effective_sample_size(d, n);
    /* The pairs were run one after another: a drift slower than a pair
     * cancels within it (the random order within a pair), so their
     * differences are independent by design. Checked: only a correlation
     * beyond chance widens the interval (and so the decision). */
    out->serial_p = serial_correlation_p(d, n, SERIAL_PERMUTATIONS, 44u);
    out->serial = out->serial_p <= SERIAL_ALPHA && out->effective_pairs < (double)n;
    if (out->serial)
        widen_for_correlation(&out->shift, out->effective_pairs, ci_level);
    return 0;
}

int paired_differs(const PairedFigure *f, double alpha)
{
    const ShiftEstimate *s = &f->shift;
    double design_floor = f->n >= 1 && f->n < 1023 ? 2.0 / ldexp(1.0, (int)f->n) : 0.0;
    return alpha > 0.0 && s->used > 0 && s->p_value <= alpha && design_floor <= alpha && shift_excludes(s, 0.0);
}
