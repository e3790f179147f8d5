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

/* The ranks whose Serial Ref us/Loop or Static OMP overhead stand out, by
 * the outlier rule (timing/outlier_rule.h); the ranks whose own noise census
 * said busy (info[r].busy; info may be NULL) are left out and counted. */
void rank_outliers(const RankTable *t, const RankInfo *info, RankOutliers *o);

/* "0-3,8" for the CPUs set in `mask` (CLOMP_MAX_CPUS bits); their count in *count. */
void cpu_list_text(const unsigned char *mask, char *buf, size_t size, int *count);

/* Ranks on one host whose CPU sets overlap: they compete for cores. */
void rank_layout_warnings(const RankInfo *info, int ranks, WarningList *list);

#endif
