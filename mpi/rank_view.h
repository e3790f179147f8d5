/* What an MPI run's report shows, from every rank's measurements (rank 0):
 * CLOMP 1.2's choice of rank, the ranks that stand out, where each rank ran.
 * Pure functions of the gathered records, in every build (unit-tested
 * without MPI). */
#ifndef CLOMP_RANK_VIEW_H
#define CLOMP_RANK_VIEW_H

#include <stddef.h>

#include "../measure/record.h"

/* Measurement i's runtime over the ranks and the rank 1.2 reports for it:
 * the fastest for Serial Ref and Bestcase OMP, the slowest for the others. */
RankSpread rank_spread(const RankTable *t, size_t i);

/* `view`: measurement i as the report shows it: the used rank's, finished
 * again against `view_bestcase` (the bestcase the report shows, or NULL),
 * so that an overhead is 1.2's, slowest schedule against fastest bestcase.
 * The timing arrays stay the table's. */
void rank_view(const RunSetup *run, const RankTable *t, size_t i, const Measurement *view_bestcase,
               Measurement *view);

/* Outlier rule: with 3 or more ranks, a rank's Serial Ref us/Loop (or
 * Static OMP overhead) is an outlier when it is farther from the ranks'
 * median than 3.5 scaled median absolute deviations (1.4826 x MAD, the
 * Iglewicz-Hoaglin cut), than the rank's own 95% interval half-width, and
 * than 1% of the ranks' median Serial Ref us/Loop: a real difference, not
 * noise within a rank or between identical ranks. */
#define RANK_OUTLIER_MADS 3.5
#define RANK_OUTLIER_FLOOR 0.01
void rank_outliers(const RankTable *t, RankOutliers *o);

/* "0-3,8" for the CPUs set in `mask` (CLOMP_MAX_CPUS bits); their count in *count. */
void cpu_list_text(const unsigned char *mask, char *buf, size_t size, int *count);

/* Ranks on one host whose CPU sets overlap: they compete for cores. */
void rank_layout_warnings(const RankInfo *info, int ranks, WarningList *list);

#endif
