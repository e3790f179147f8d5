#include "outlier_rule.h"

#include <math.h>
#include <stdlib.h>

#include "statistics.h"

int outlier_group(const double *value, const unsigned char *excluded, long count, OutlierGroup *g)
{
    *g = (OutlierGroup){0, 0, 0, 0, NAN, NAN, NAN};
    double *kept = malloc((size_t)(count > 0 ? count : 1) * sizeof *kept);
    if (kept == NULL)
        return -1;
    for (long i = 0; i < count; i++) {
        if (excluded != NULL && excluded[i])
            g->excluded++;
        else if (isnan(value[i]))
            g->missing++;
        else
            kept[g->n++] = value[i];
    }
    if (g->n > 0) {
        g->median = median_of(kept, g->n);
        g->mad = mad_of(kept, g->n);
        g->spread_cut = OUTLIER_MADS * OUTLIER_MAD_SCALE * g->mad;
    }
    g->judged = g->n >= OUTLIER_FEWEST && !isnan(g->mad);
    free(kept);
    return 0;
}

double outlier_threshold(const OutlierGroup *g, double half_width, double floor)
{
    double t = g->spread_cut;
    if (half_width > t)   /* false for NaN */
        t = half_width;
    if (floor > t)
        t = floor;
    return t;
}

int outlier_stands_out(const OutlierGroup *g, double value, double threshold)
{
    return g->judged && !isnan(value) && fabs(value - g->median) > threshold;
}
