/* Whether a measured construct level is the construct's cost
 * (construct_resolution.h). */
#include "construct_resolution.h"

#include <stdio.h>

#include "construct_overhead.h"
#include "../numa/cpu_classes.h"

/* Which level-2 inner team had two threads on one CPU ("team 0 on CPUs 1,1";
 * a big team counted: "team 0: 32 threads on 2 distinct CPUs (0..1)"), in
 * buf; NULL when none did (or level 2 was not observed). */
static const char *shared_inner_cpus(const ConstructTable *t, char *buf, size_t size)
{
    const TeamObservation *seen = &t->level2_team;
    for (int k = 0; k < t->outer; k++) {
        long first = (long)k * t->inner, left = seen->cpu_slots - first;
        int n = left < t->inner ? (int)left : t->inner;
        if (left <= 0 || !team_shares_cpu(&seen->cpu[first], n))
            continue;
        char cpus[TEAM_CPUS_TEXT];
        describe_team_cpus(&seen->cpu[first], n, cpus, sizeof cpus);
        snprintf(buf, size, n <= TEAM_CPUS_LISTED ? "team %d on CPUs %s" : "team %d: %s", k, cpus);
        return buf;
    }
    return NULL;
}

/* A measured level whose figure is not the construct's cost becomes
 * UNRESOLVED, with the reason (construct_unresolved: the rule). */
void judge_resolution(const ConstructTable *t, ConstructResult *row, int l)
{
    ConstructLevel *L = &row->level[l];
    if (L->status != CONSTRUCT_MEASURED)
        return;
    char shared[TEAM_CPUS_TEXT + 32], busy[96];   /* "team K on CPUs " + the listed CPUs, never cut */
    snprintf(busy, sizeof busy, "the noise census: a team thread lost %.0f%% of its time or more",
             100.0 * NOISE_BUSY_LOST_SHARE);
    ConstructEvidence e = {row->construct->kind, L->innerreps, &L->overhead, L->reps, L->disturbed_reps,
                           t->busy ? busy : NULL,
                           l == 2 ? shared_inner_cpus(t, shared, sizeof shared) : NULL,
                           L->shared_cpu_reps};   /* -1 where not watched: level 2, a team above the CPUs */
    if (construct_unresolved(&e, L->problem, sizeof L->problem))
        L->status = CONSTRUCT_UNRESOLVED;
}

