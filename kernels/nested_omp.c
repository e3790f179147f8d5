/* Nested OMP: an outer team over groups of consecutive parts, each group
 * updated by an inner team: the cost of nested parallelism, which codes that
 * parallelise at two levels pay on every loop. */
#include <limits.h>
#include <omp.h>

#include "deposit.h"
#include "fault.h"
#include "schedule.h"
#include "update_part.h"

static void record_inner_team(TeamObservation *seen)
{
    int n = omp_get_num_threads();
#pragma omp critical(clomp_nested_observation)
    {
        seen->inner_total += n;
        if (n < seen->inner_min)
            seen->inner_min = n;
        if (n > seen->inner_max)
            seen->inner_max = n;
    }
}

/* As in static_omp.c: the warm-up copy records the teams of its first
 * subcycle inside the regions it measures; the timed copy carries no code
 * for that. */
#define NESTED_OMP_SUBCYCLES(OBSERVE_OUTER, OBSERVE_INNER)                              \
    for (long s = 0; s < subcycles; s++) {                                               \
        double deposit = CALC_DEPOSIT(pb, s);                                            \
        _Pragma("omp parallel for schedule(static) num_threads(outer)")                  \
        for (int g = 0; g < outer; g++) {                                                \
            long first = numParts * g / outer, last = numParts * (g + 1) / outer;        \
            OBSERVE_OUTER;                                                               \
            _Pragma("omp parallel for schedule(static) num_threads(inner)")              \
            for (long p = first; p < last; p++) {                                        \
                OBSERVE_INNER;                                                           \
                UPDATE_PART(parts[p], deposit, flopScale, s);                            \
            }                                                                            \
        }                                                                                \
        chunk_timer_after_subcycle(timer, s, &next);                                     \
    }

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    Part **parts = pb->mesh.partArray;
    long numParts = pb->mesh.shape.numParts, flopScale = pb->mesh.shape.flopScale, next = 0;
    int outer = pb->nestedOuter;
    // cppcheck-suppress unreadVariable ; read by the num_threads clause
    int inner = pb->nestedInner; // NOLINT(clang-analyzer-deadcode.DeadStores): read by num_threads

    chunk_timer_start(timer);
    if (seen == NULL) {
        NESTED_OMP_SUBCYCLES((void)0, (void)0)
        return;
    }
    seen->nested = 1;
    seen->inner_min = INT_MAX;
    seen->inner_max = 0;
    seen->inner_total = 0;
    NESTED_OMP_SUBCYCLES(if (s == 0 && g == 0) seen->threads = omp_get_num_threads(),
                         if (s == 0 && p == first) record_inner_team(seen))
    if (seen->inner_max == 0)
        seen->inner_min = 0;   /* every group was empty (numParts < outer) */
}

static const char *const pseudocode[] = {
    "------ Start Nested OMP Pseudocode ------",
    "/* Two levels: OUTER groups of consecutive parts, INNER threads each */",
    "deposit = calc_deposit ();",
    "#pragma omp parallel for schedule(static) num_threads(OUTER)",
    "for (group = 0; group lt OUTER; group++)",
    "  #pragma omp parallel for schedule(static) num_threads(INNER)",
    "  for (pidx = first(group); pidx lt end(group); pidx++)",
    "    update_part (partArray[pidx], deposit);",
    "------- End Nested OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_nested_omp = {"Nested OMP", "nested", ROLE_CHECKED, 1, 1, pseudocode, run};
