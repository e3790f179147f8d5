/* The JSON's OMPT members: "ompt" at the top level (the tool asked for, and
 * whether the runtime took it), and in each measurement (null when no tool
 * was attached; else the tool, whose cost its figures carry, its census and
 * its samples). docs/json-schema.md, "OMPT". */
#include "json_sections.h"

static void write_level(JsonWriter *w, const OmptLevelCensus *c, int level)
{
    json_object_begin(w, NULL);
    json_integer(w, "level", level);
    json_integer(w, "regions", c->regions);
    json_integer(w, "requested_min", c->requested_min);
    json_integer(w, "requested_max", c->requested_max);
    json_integer(w, "team_min", c->team_min);
    json_integer(w, "team_max", c->team_max);
    json_integer(w, "team_sum", c->team_sum);
    json_integer(w, "serialized", c->serialized);
    json_integer(w, "implicit_tasks", c->implicit_tasks);
    json_object_end(w);
}

static void write_census(JsonWriter *w, const OmptCensus *c)
{
    if (!c->taken) {
        json_null(w, "census");
        return;
    }
    json_object_begin(w, "census");
    json_integer(w, "iterations", c->iterations);
    json_array_begin(w, "levels");
    for (int l = 0; l < OMPT_CENSUS_LEVELS; l++)
        write_level(w, &c->level[l], l + 1);
    json_array_end(w);
    json_integer(w, "explicit_tasks", c->explicit_tasks);
    json_integer(w, "taskloops", c->taskloops);
    json_integer(w, "loops", c->loops);
    json_integer(w, "barriers", c->barriers);
    if (c->plan_known) {
        json_object_begin(w, "plan");
        json_array_begin(w, "regions");
        for (int l = 0; l < OMPT_CENSUS_LEVELS; l++)
            json_integer(w, NULL, c->planned_regions[l]);
        json_array_end(w);
        json_array_begin(w, "teams");
        for (int l = 0; l < OMPT_CENSUS_LEVELS; l++)
            json_integer(w, NULL, c->planned_team[l]);
        json_array_end(w);
        json_bool(w, "matched", c->matches_plan);
        json_object_end(w);
    } else {
        json_null(w, "plan");
    }
    json_object_end(w);
}

void write_json_ompt_measurement(JsonWriter *w, const RunSetup *run, const Measurement *m)
{
    if (!run->ompt.attached || m->rounds_done == 0) {
        json_null(w, "ompt");
        return;
    }
    json_object_begin(w, "ompt");
    json_string(w, "tool", ompt_mode_name(run->ompt.mode));
    json_bool(w, "figures_include_tool_cost", 1);
    write_census(w, &m->census);
    if (run->ompt.mode == OMPT_MODE_SAMPLING) {
        const OmptSamples *s = &m->samples;
        json_object_begin(w, "samples");
        json_integer(w, "consistent", s->consistent);
        json_integer(w, "unavailable", s->unavailable);
        json_integer(w, "inconsistent", s->inconsistent);
        json_integer(w, "idle", s->idle);
        json_array_begin(w, "inconsistent_by_ancestor_level");
        for (int l = 0; l < OMPT_SAMPLE_LEVELS; l++)
            json_integer(w, NULL, s->inconsistent_at[l]);
        json_array_end(w);
        json_integer(w, "deepest_levels", s->deepest);
        json_object_end(w);
    } else {
        json_null(w, "samples");
    }
    json_object_end(w);
}

void write_json_ompt_setup(JsonWriter *w, const RunSetup *run)
{
    const OmptSetup *o = &run->ompt;
    json_object_begin(w, "ompt");
    json_string(w, "requested", ompt_mode_name(o->mode));
    if (o->mode == OMPT_MODE_SAMPLING)
        json_number(w, "sampling_rate_hz", o->rate_hz);
    else
        json_null(w, "sampling_rate_hz");
    json_bool(w, "tool_attached", o->attached);
    json_bool(w, "runtime_started_tool", o->started);
    json_string(w, "runtime", o->runtime[0] != '\0' ? o->runtime : NULL);
    json_string(w, "runtime_file", o->runtime_file[0] != '\0' ? o->runtime_file : NULL);
    json_string(w, "runtime_version", o->started ? o->runtime_version : NULL);
    json_string(w, "runtime_path", o->runtime_path[0] != '\0' ? o->runtime_path : NULL);
    json_object_end(w);
}
