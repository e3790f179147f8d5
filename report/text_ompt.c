/* The text report's OMPT lines (--ompt): the tool in the set-up, and in
 * each measurement's block that a tool was attached, its census and its
 * samples. Nothing without --ompt. */
#include <stdlib.h>

#include "text_report.h"

void print_ompt_setup(FILE *out, const RunSetup *run)
{
    const OmptSetup *o = &run->ompt;
    if (o->mode == OMPT_MODE_NONE)
        return;
    if (o->attached) {
        fprintf(out, "             OMPT: %s tool attached to %s (%s)", ompt_mode_name(o->mode),
                o->runtime[0] != '\0' ? o->runtime : "the runtime", o->runtime_version);
        if (o->mode == OMPT_MODE_SAMPLING)
            fprintf(out, ", sampling at %g Hz of CPU time", o->rate_hz);
        fprintf(out, ": every timed figure carries its cost\n");
        return;
    }
    const char *disabled = getenv("OMP_TOOL");
    fprintf(out, "             OMPT: not provided by this runtime (%s)%s%s; --ompt=%s has no effect\n",
            o->runtime[0] != '\0' ? o->runtime : "unknown", disabled != NULL ? ", OMP_TOOL=" : "",
            disabled != NULL ? disabled : "", ompt_mode_name(o->mode));
}

static void print_level(FILE *out, const OmptLevelCensus *c, int level)
{
    fprintf(out, "%s%ld at level %d%s", level > 1 ? ", " : "", c->regions, level,
            level == OMPT_CENSUS_LEVELS ? "+" : "");
    if (c->regions == 0)
        return;
    if (c->team_min == c->team_max)
        fprintf(out, " (teams of %d", c->team_max);
    else
        fprintf(out, " (teams of %d to %d", c->team_min, c->team_max);
    if (c->requested_min == c->requested_max)
        fprintf(out, ", %d requested", c->requested_max);
    else
        fprintf(out, ", %d to %d requested", c->requested_min, c->requested_max);
    if (c->serialized > 0)
        fprintf(out, ", %ld serialized", c->serialized);
    fprintf(out, ")");
}

void print_ompt_block(FILE *out, const RunSetup *run, const Measurement *m)
{
    const char *name = m->schedule->name;
    const OmptCensus *c = &m->census;
    const OmptSamples *s = &m->samples;
    if (!run->ompt.attached)
        return;
    fprintf(out, "%13s     OMPT: %s tool attached: these figures include its cost\n", name,
            ompt_mode_name(run->ompt.mode));
    if (c->taken) {
        fprintf(out, "%13s   Census: per warm-up iteration, parallel regions: ", name);
        for (int l = 0; l < OMPT_CENSUS_LEVELS; l++)
            print_level(out, &c->level[l], l + 1);
        fprintf(out, "; implicit tasks %ld, explicit tasks %ld, taskloops %ld, loops %ld, barriers %ld (per thread)%s\n",
                c->level[0].implicit_tasks + c->level[1].implicit_tasks, c->explicit_tasks, c->taskloops, c->loops,
                c->barriers, !c->plan_known ? "" : c->matches_plan ? "; as planned" : "; NOT as planned");
    }
    if (run->ompt.mode == OMPT_MODE_SAMPLING)
        fprintf(out, "%13s  Samples: %ld consistent, %ld unavailable, %ld inconsistent; %ld idle (a thread in no "
                     "task); up to %d level%s of regions seen, %g Hz of CPU time\n", name, s->consistent,
                s->unavailable, s->inconsistent, s->idle, s->deepest, s->deepest == 1 ? "" : "s", run->ompt.rate_hz);
}
