/* Nested OMP: an outer team over groups of consecutive parts, each group
 * updated by an inner team: the cost of nested parallelism, which codes that
 * parallelise at two levels pay on every loop. */
#define _GNU_SOURCE   /* sched_getcpu */
#include <limits.h>
#include <omp.h>
#include <sched.h>

#include "cycle.h"
#include "deposit.h"
#include "fault.h"
#include "owned_check.h"
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

/* Where inner thread t of group g runs (distinct slots: no lock); the
 * team's size once per group, from the thread with its first part. */
static void record_inner_member(TeamObservation *seen, int g, int inner, int first_part)
{
    long slot = (long)g * inner + omp_get_thread_num();
    if (slot < seen->cpu_slots)
        seen->cpu[slot] = sched_getcpu();
    if (first_part)
        record_inner_team(seen);
}

/* As in parallel_for.h: the observing copy (run before the warm-up, which
 * runs the timed copy) records the teams of its first subcycle inside the
 * regions it measures; the timed copy carries no code for that. */
#define NESTED_OMP_SUBCYCLE(k, OBSERVE_OUTER, OBSERVE_INNER)                                 \
    {                                                                                        \
        Part **parts = pb->mesh.partArray;                                                   \
        long numParts = pb->mesh.shape.numParts, flopScale = pb->mesh.shape.flopScale;       \
        int outer = pb->nestedOuter, inner = pb->nestedInner;                                \
        double deposit = CALC_DEPOSIT(pb, CLOMP_SUBCYCLE_INDEX(it, k));                                               \
        (void)inner;   /* read only by the num_threads clause */                             \
        _Pragma("omp parallel for schedule(static) num_threads(outer)")                      \
        for (int g = 0; g < outer; g++) {                                                    \
            long first = numParts * g / outer, last = numParts * (g + 1) / outer;            \
            OBSERVE_OUTER;                                                                   \
            _Pragma("omp parallel for schedule(static) num_threads(inner)")                  \
            for (long p = first; p < last; p++) {                                            \
                OBSERVE_INNER;                                                               \
                UPDATE_PART(parts[p], deposit, flopScale, CLOMP_SUBCYCLE_INDEX(it, k));                               \
            }                                                                                \
        }                                                                                    \
    }
#define TIMED_SUBCYCLE(k) NESTED_OMP_SUBCYCLE(k, (void)0, (void)0)
#define OBSERVED_SUBCYCLE(k)                                                                 \
    NESTED_OMP_SUBCYCLE(k, if (CLOMP_SUBCYCLE_INDEX(it, (k)) == 0 && g == 0) seen->threads = omp_get_num_threads(),     \
                        if (CLOMP_SUBCYCLE_INDEX(it, (k)) == 0) record_inner_member(seen, g, inner, p == first))

CLOMP_MODULES(timed, (Problem *pb, long it), (pb, it), TIMED_SUBCYCLE)
CLOMP_MODULES(observed, (Problem *pb, long it, TeamObservation *seen), (pb, it, seen), OBSERVED_SUBCYCLE)

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    if (seen != NULL) {
        seen->nested = 1;
        seen->inner_min = INT_MAX;
        seen->inner_max = 0;
        seen->inner_total = 0;
        long slots = (long)pb->nestedOuter * pb->nestedInner;
        seen->cpu_slots = slots < TEAM_MAX_CPU_SLOTS ? (int)slots : TEAM_MAX_CPU_SLOTS;
        for (int i = 0; i < seen->cpu_slots; i++)
            seen->cpu[i] = -1;
        for (long it = 0; it < subcycles / SUBCYCLES_PER_ITERATION; it++)
            observed_cycle(pb, it, seen);
        if (seen->inner_max == 0)
            seen->inner_min = 0;   /* every group was empty (numParts < outer) */
        return;
    }
#define ITERATION(it) timed_cycle(pb, it)
#define VERIFY(c) verify_nested_owners(timer, c, pb->mesh.shape.numParts, pb->nestedOuter, pb->nestedInner)
    RUN_CHUNKED_ITERATIONS(timer, subcycles, ITERATION, VERIFY)
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

const Schedule schedule_nested_omp = {"Nested OMP", "nested", ROLE_CHECKED, 1, 1, pseudocode, run, NULL, 0, 0, 1, 0};
