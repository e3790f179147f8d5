/* The outlier rule: one implementation for every table that names a member
 * standing out from its peers - the MPI rank-outlier table (mpi/rank_view.c),
 * the summarised per-thread and per-rank tables (report/text_tables.c) and
 * the cluster report's nodes (clomp-stats outliers, stats/outlier_answer.c,
 * which results/clomp_results/cluster/cluster.py asks for a whole cluster at once).
 *
 * A member is an outlier when its figure is farther from the median of its
 * group than all of: OUTLIER_MADS scaled median absolute deviations (1.4826
 * x MAD, the standard deviation of a normal spread; 3.5 is Iglewicz and
 * Hoaglin's cut, robust to the outliers themselves), the member's own 95%
 * interval half-width (noise within the member: a rank's chunks, a node's
 * processes), and a floor the caller names (differences too small to
 * matter). Members excluded (busy by their own noise census) are no part of
 * the distribution and are never outliers: they are named for what they
 * are. With fewer than OUTLIER_FEWEST members in the distribution nothing is
 * judged: one of two cannot be told apart as the odd one. When most members
 * are equal (MAD 0) and no interval or floor applies, any member that
 * differs stands out. docs/cluster.md gives the rule's false rate. */
#ifndef CLOMP_OUTLIER_RULE_H
#define CLOMP_OUTLIER_RULE_H

#define OUTLIER_MADS 3.5
#define OUTLIER_MAD_SCALE 1.4826
#define OUTLIER_FEWEST 3

typedef struct OutlierGroup {
    long n;             /* members in the distribution: not excluded, with a figure (not NaN) */
    long excluded;      /* members excluded by the caller (busy) */
    long missing;       /* members not excluded whose figure is NaN (none measured) */
    int judged;         /* n >= OUTLIER_FEWEST */
    double median;      /* of the n figures; NaN when n is 0 */
    double mad;         /* their median absolute deviation from it (unscaled); NaN when n is 0 */
    double spread_cut;  /* OUTLIER_MADS x OUTLIER_MAD_SCALE x mad */
} OutlierGroup;

/* The distribution of value[0..count-1] without the members whose
 * excluded[i] is non-zero (excluded may be NULL: none) and without NaNs.
 * Returns 0, or -1 when memory runs out. */
int outlier_group(const double *value, const unsigned char *excluded, long count, OutlierGroup *g);

/* A member's threshold: the largest of the group's spread cut, its own
 * interval half-width and `floor` (either NaN or negative: none). */
double outlier_threshold(const OutlierGroup *g, double half_width, double floor);

/* 1 when a member's figure stands out: the group is judged, the figure is a
 * number and |value - median| > threshold. */
int outlier_stands_out(const OutlierGroup *g, double value, double threshold);

#endif
