#include "json_report.h"

#include <math.h>
#include <string.h>

#include "build_info.h"
#include "figures.h"
#include "json_sections.h"

static void write_process_cost(JsonWriter *w, const ProcessCost *c)
{
    if (!c->measured) {
        json_null(w, "process_cost");
        return;
    }
    json_object_begin(w, "process_cost");
    json_number(w, "user_cpu_seconds", c->user_seconds);
    json_number(w, "system_cpu_seconds", c->system_seconds);
    json_number(w, "wall_seconds", c->wall_seconds);
    json_number(w, "cpus_busy", c->wall_seconds > 0.0 ? (c->user_seconds + c->system_seconds) / c->wall_seconds : NAN);
    json_string(w, "source", "getrusage(RUSAGE_SELF) at the end of the run, every thread");
    json_object_end(w);
}

static void write_wall_time(JsonWriter *w, const RunRecord *r)
{
    WallTime t = record_wall_time(r);
    if (!t.measured) {
        json_null(w, "wall_time");
        return;
    }
    json_object_begin(w, "wall_time");
    json_number(w, "total_seconds", t.total);
    json_number(w, "setup_seconds", t.setup);
    json_number(w, "mesh_build_seconds", t.build);
    json_number(w, "warmup_seconds", t.warmup);
    json_number(w, "mesh_reset_seconds", t.reset);
    json_number(w, "timed_seconds", t.timed);
    json_number(w, "verification_seconds", t.check);
    json_number(w, "rest_seconds", t.rest);
    json_number(w, "constructs_seconds", t.constructs);
    json_number(w, "after_runs_seconds", t.after_runs);
    json_number(w, "paired_blocks_seconds", t.paired);
    json_number(w, "limits_seconds", t.limits);
    json_object_end(w);
}

/* One row of the LLNL targets table: the figure in cycles with its
 * interval, the target and verdict where it is judged, and where it comes from. */
static void write_target(JsonWriter *w, const RunRecord *r, const LlnlTarget *t)
{
    TargetJudgement j;
    judge_llnl_target(t, record_find_key(r, t->schedule_key), &r->run->cycles, &j);
    if (!j.available) {
        json_null(w, t->key);
        return;
    }
    int has = j.has_ci && !isnan(j.cycles);
    json_object_begin(w, t->key);
    json_number(w, "cycles", j.cycles);
    json_interval(w, "cycles_ci_95", has, j.cycles_low, j.cycles_high);
    json_string(w, "cycles_ci_scope", has ? INTERVAL_SCOPE : NULL);
    if (t->below_cycles > 0.0) {
        json_number(w, "target_below", t->below_cycles);
        json_string(w, "verdict", j.verdict);
    }
    const CycleRate *rate = &r->run->cycles;
    json_string(w, "clock", cycle_clock_text(rate));
    json_interval(w, "core_cycles", !isnan(j.cycles), j.core_low, j.core_high);
    json_string(w, "label", t->label);
    json_string(w, "measurement", t->schedule_key);
    json_string(w, "figure", t->figure == JUDGED_ON_OVERHEAD ? "overhead against Bestcase OMP" : "us/Loop");
    json_string(w, "citation", t->citation);
    json_string(w, "not_judged", t->below_cycles > 0.0 ? NULL : t->not_judged);
    json_object_end(w);
}

/* "label: text", as the text report's WARNING lines (and the ones it says another way). */
static void write_warnings(JsonWriter *w, const char *label, const WarningList *warnings)
{
    char text[400];
    for (size_t i = 0; warnings != NULL && i < warnings->count; i++) {
        snprintf(text, sizeof text, "%s: %s", label, warnings->item[i].text);
        json_string(w, NULL, text);
    }
}

int write_json_report(FILE *out, const RunRecord *r)
{
    JsonWriter w;

    json_document_begin(&w, out, "clomp-result", CLOMP_JSON_SCHEMA_VERSION);
    json_integer(&w, "schema_minor", CLOMP_JSON_SCHEMA_MINOR);
    json_string(&w, "clomp_version", build_info()->version);
    json_string(&w, "status", record_status(r));
    json_integer(&w, "exit_status", r->exit_status);
    json_string(&w, "failure", r->failure);
    json_string(&w, "invocation", r->run->invocation);
    json_string(&w, "executable", r->run->exe);
    json_string(&w, "host", r->host);
    json_string(&w, "start_time", r->started);
    write_json_inputs(&w, r->run);
    write_json_build(&w);
    write_json_setup(&w, r);
    write_json_ompt_setup(&w, r->run);
    write_json_noise(&w, r);
    if (r->run->mpi.ranks > 0)
        write_json_mpi(&w, r);

    json_array_begin(&w, "measurements");
    for (size_t i = 0; r->results != NULL && i < r->count; i++)
        if (measurement_reported(&r->results[i]))
            write_json_measurement(&w, r, &r->results[i]);
    json_array_end(&w);

    json_object_begin(&w, "llnl_targets");
    for (size_t t = 0; t < llnl_target_count; t++)
        write_target(&w, r, &llnl_targets[t]);
    json_object_end(&w);

    write_process_cost(&w, &r->cost);
    write_json_constructs(&w, r);
    write_wall_time(&w, r);
    write_json_limits(&w, r);

    json_array_begin(&w, "warnings");
    write_warnings(&w, "setup", r->setup_warnings);
    for (size_t i = 0; r->results != NULL && i < r->count; i++)
        write_warnings(&w, r->results[i].schedule->name, &r->results[i].warnings);
    json_array_end(&w);
    json_object_end(&w);
    return json_finish(&w);
}
