#include "ompt_plan.h"

#include <string.h>


/* The schedules whose warm-up is not SUBCYCLES_PER_ITERATION regions of the
 * run's team at level 1 (the loop, task and fork-join schedules): a new
 * schedule of that common shape needs no row. */
typedef enum { PLAN_REGION_PER_SUBCYCLE, PLAN_NO_REGION, PLAN_ONE_REGION_PER_CHUNK, PLAN_NESTED } PlanShape;
static const struct {
    const char *key;
    PlanShape shape;
} exceptions[] = {
    {"calc_deposit", PLAN_NO_REGION},          /* serial */
    {"serial", PLAN_NO_REGION},                /* serial */
    {"barrier", PLAN_ONE_REGION_PER_CHUNK},    /* one region, a barrier per subcycle */
    {"bestcase", PLAN_ONE_REGION_PER_CHUNK},   /* one region over the chunk's subcycles */
    {"manual", PLAN_ONE_REGION_PER_CHUNK},
    {"nested", PLAN_NESTED},
};

static PlanShape plan_shape(const Schedule *s)
{
    for (size_t i = 0; i < sizeof exceptions / sizeof exceptions[0]; i++)
        if (strcmp(exceptions[i].key, s->key) == 0)
            return exceptions[i].shape;
    return s->uses_threads ? PLAN_REGION_PER_SUBCYCLE : PLAN_NO_REGION;
}

static void plan(const RunSetup *run, const Schedule *s, OmptCensus *c)
{
    long subcycles = c->iterations * SUBCYCLES_PER_ITERATION;
    c->plan_known = 1;
    switch (plan_shape(s)) {
    case PLAN_NO_REGION:
        break;
    case PLAN_ONE_REGION_PER_CHUNK:   /* the warm-up is one chunk */
        c->planned_regions[0] = 1;
        c->planned_team[0] = (int)run->numThreads;
        break;
    case PLAN_NESTED:
        c->planned_regions[0] = subcycles;
        c->planned_team[0] = run->nestedOuter;
        c->planned_regions[1] = subcycles * run->nestedOuter;
        c->planned_team[1] = run->nestedInner;
        break;
    default:
        c->planned_regions[0] = subcycles;
        c->planned_team[0] = (int)run->numThreads;
        break;
    }
}

void ompt_census_check(const RunSetup *run, Measurement *m)
{
    const Schedule *s = m->schedule;
    OmptCensus *c = &m->census;
    WarningList *w = &m->warnings;
    if (c->taken) {
        plan(run, s, c);
        c->matches_plan = 1;
        for (int l = 0; l < OMPT_CENSUS_LEVELS; l++) {
            const OmptLevelCensus *got = &c->level[l];
            long want = c->planned_regions[l];
            int team = c->planned_team[l];
            if (got->regions != want) {
                c->matches_plan = 0;
                add_warning(w, WARNING_LINE, "OMPT census: %ld parallel regions began at level %d%s in the warm-up's "
                            "iteration, %ld planned", got->regions, l + 1, l + 1 == OMPT_CENSUS_LEVELS ? " or deeper" : "",
                            want);
            }
            if (got->regions == 0 || (got->team_min == team && got->team_max == team))
                continue;
            c->matches_plan = 0;
            if (got->serialized > 0 && got->team_max == 1)
                add_warning(w, WARNING_LINE, "OMPT census: %ld %s regions ran with 1 thread, %d requested: serialized "
                            "by the runtime", got->serialized, l == 0 ? "level-1" : "inner", team);
            else
                add_warning(w, WARNING_LINE, "OMPT census: level-%d teams of %d to %d threads, %d planned",
                            l + 1, got->team_min, got->team_max, team);
        }
    }
    const OmptSamples *sm = &m->samples;
    if (sm->inconsistent > 0) {
        int worst = 0;
        for (int l = 1; l < OMPT_SAMPLE_LEVELS; l++)
            if (sm->inconsistent_at[l] > sm->inconsistent_at[worst])
                worst = l;
        add_warning(w, WARNING_LINE, "OMPT sampling: %ld of %ld samples inconsistent, most at ancestor level %d "
                    "(%ld; 0 is the innermost region): the runtime's team or parallel data disagreed with its callbacks",
                    sm->inconsistent, sm->consistent + sm->unavailable + sm->inconsistent, worst,
                    sm->inconsistent_at[worst]);
    }
}
