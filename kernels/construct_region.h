/* Inside every region a construct test opens, its first thread records what
 * the runtime gave (construct.h's RegionLog): four queries of the current
 * team and a few compares, once per region, beside the microsecond a region
 * costs. The other threads record nothing: they share the team's answers. */
#ifndef CLOMP_CONSTRUCT_REGION_H
#define CLOMP_CONSTRUCT_REGION_H

#include <omp.h>

#include "construct.h"

static inline void region_log_note(RegionLog *log)
{
    if (log == NULL || omp_get_thread_num() != 0)
        return;
    int threads = omp_get_num_threads(), level = omp_get_level(), active = omp_get_active_level();
    int ancestor = omp_get_ancestor_thread_num(1);
    if (log->regions++ == 0) {
        log->threads_min = log->threads_max = threads;
        log->level_min = log->level_max = level;
        log->active_min = log->active_max = active;
        log->ancestor_min = log->ancestor_max = ancestor;
        return;
    }
    log->threads_min = threads < log->threads_min ? threads : log->threads_min;
    log->threads_max = threads > log->threads_max ? threads : log->threads_max;
    log->level_min = level < log->level_min ? level : log->level_min;
    log->level_max = level > log->level_max ? level : log->level_max;
    log->active_min = active < log->active_min ? active : log->active_min;
    log->active_max = active > log->active_max ? active : log->active_max;
    log->ancestor_min = ancestor < log->ancestor_min ? ancestor : log->ancestor_min;
    log->ancestor_max = ancestor > log->ancestor_max ? ancestor : log->ancestor_max;
}

#endif
