#include "json_sections.h"

#include <math.h>
#include <string.h>

#include "build_info.h"
#include "figures.h"
#include "../offload/device_info.h"

extern char **environ;

void json_interval(JsonWriter *w, const char *key, int has, double low, double high)
{
    if (!has) {
        json_null(w, key);
        return;
    }
    json_array_begin(w, key);
    json_number(w, NULL, low);
    json_number(w, NULL, high);
    json_array_end(w);
}

/* This job's cores as counted (numa/job_cores.h), and the team against them. */
static void write_job_cores(JsonWriter *w, const RunSetup *run)
{
    static const char *const sharing[] = {"fits the cores", "smt", "oversubscribed"};
    const JobCores *jc = &run->job;
    char text[160];
    json_object_begin(w, "job_cores");
    json_integer(w, "cores", jc->cores);
    json_integer(w, "hardware_threads", jc->hw_threads);
    json_integer(w, "threads_per_core", jc->job.threads_per_core);
    json_integer(w, "sockets", jc->job.sockets);
    json_integer(w, "numa_nodes", jc->job.numa_nodes);
    json_integer(w, "l3_domains", jc->job.l3_domains);
    if (jc->quota_cpus > 0)
        json_number(w, "cpu_quota", jc->quota_cpus);
    else
        json_null(w, "cpu_quota");
    if (jc->slurm_cpus > 0) {
        json_integer(w, "slurm_cpus", jc->slurm_cpus);
        json_string(w, "slurm_unit", jc->slurm_unit);
    } else {
        json_null(w, "slurm_cpus");
        json_null(w, "slurm_unit");
    }
    if (jc->override > 0)
        json_integer(w, "cores_given", jc->override);
    else
        json_null(w, "cores_given");
    json_integer(w, "node_cores", jc->node.cores);
    json_integer(w, "node_hardware_threads", jc->node.hw_threads);
    json_string(w, "counted_from", jc->counted_from);
    json_string(w, "stand_in_root", jc->root[0] != '\0' ? jc->root : NULL);
    json_integer(w, "team_threads", run->team_threads);
    json_string(w, "team", sharing[team_sharing(jc, run->team_threads, text, sizeof text)]);
    json_bool(w, "oversubscribe_given", run->oversubscribe);
    json_object_end(w);
}

void write_json_inputs(JsonWriter *w, const RunSetup *run)
{
    char policy[32];
    long given[CLOMP_PARAMETER_COUNT];
    run_inputs_given(run, given);
    json_object_begin(w, "inputs");
    for (int i = 0; i < CLOMP_PARAMETER_COUNT; i++)
        json_integer(w, clomp_parameter_names[i], given[i]);
    json_string(w, "numa", placement_text(&run->placement, policy, sizeof policy));
    json_string(w, "zone_stride", run->zoneLayout == ZONE_LAYOUT_SPREAD ? "zonesize" : "record");
    if (run->requested_trials > 0)
        json_integer(w, "trials", run->requested_trials);
    else
        json_null(w, "trials");
    json_integer(w, "rounds", run->rounds);
    json_string(w, "schedules", run->schedule_list);
    if (run->cycles.source == CYCLES_GIVEN)
        json_number(w, "ghz", run->cycles.ghz);
    else
        json_null(w, "ghz");
    json_object_end(w);

    json_object_begin(w, "resolved");
    json_integer(w, "numThreads", run->numThreads);
    json_integer(w, "allocThreads", run->allocThreads);
    json_integer(w, "zoneSize", run->zoneSize);
    MeshShape shape = run_mesh_shape(run);
    json_string(w, "zone_layout", mesh_zone_layout_name(shape.layout));
    json_integer(w, "zone_stride_bytes", mesh_zone_stride(&shape));
    json_integer(w, "iterations", run->iterations);
    json_integer(w, "subcycles", run->subcycles);
    json_number(w, "memory_bytes", (double)run->memory_bytes);
    json_integer(w, "warmup_zones_per_part", run->warmup_zones_per_part);
    if (run->nested_unavailable[0] != '\0') {
        json_null(w, "nested_outer");
        json_null(w, "nested_inner");
    } else {
        json_integer(w, "nested_outer", run->nestedOuter);
        json_integer(w, "nested_inner", run->nestedInner);
    }
    json_string(w, "nested_shape", run->nested_unavailable[0] != '\0' ? run->nested_unavailable
                                                                      : run->nested_shape_source);
    if (run->trials > 0)
        json_integer(w, "trials", run->trials);
    else
        json_null(w, "trials");   /* --dry-run without --trials: calibrated only when the mesh exists */
    json_array_begin(w, "chunk_end_iterations");
    for (long c = 0; run->chunk_end != NULL && c < run->trials; c++)
        json_integer(w, NULL, run->chunk_end[c] / SUBCYCLES_PER_ITERATION);
    json_array_end(w);
    write_job_cores(w, run);
    json_object_end(w);
}

static void write_build_facts(JsonWriter *w)
{
    const BuildInfo *b = build_info();
    json_object_begin(w, "build");
    json_string(w, "compiler", b->compiler);
    json_string(w, "cc", b->cc);
    json_string(w, "cflags", b->cflags);
    json_string(w, "ldflags", b->ldflags);
    json_integer(w, "openmp", b->openmp);
    json_string(w, "openmp_spec", b->openmp_spec);
    json_string(w, "host", b->host);
    json_string(w, "date", b->date);
    json_bool(w, "libnuma", numa_support_built());
    const OffloadDeviceInfo *device = offload_device_info();
    if (device != NULL) {   /* offload builds only (docs/offload.md) */
        json_string(w, "offload_device", device->text);
        json_bool(w, "offload_host_plugin", device->host_plugin);
        json_string(w, "offload_policy_before", device->policy_before);
    }
    json_object_end(w);
}

/* The same variables the text report lists: those that steer OpenMP runtimes. */
static void write_openmp_environment(JsonWriter *w)
{
    json_object_begin(w, "openmp_environment");
    for (char **env = environ; env != NULL && *env != NULL; env++) {
        char name[256];
        const char *value = openmp_variable(*env, name, sizeof name);
        if (value != NULL)
            json_string(w, name, value);
    }
    json_object_end(w);
}

void write_json_build(JsonWriter *w)
{
    write_build_facts(w);
    write_openmp_environment(w);
}

/* A sysfs or OpenMP number, null where it is unknown (negative). */
static void known_integer(JsonWriter *w, const char *key, long value)
{
    if (value >= 0)
        json_integer(w, key, value);
    else
        json_null(w, key);
}

/* The header's placement table: null when it was not measured. */
static void write_thread_placement(JsonWriter *w, const TeamPlacement *tp)
{
    if (tp == NULL || !tp->observed) {
        json_null(w, "thread_placement");
        return;
    }
    json_object_begin(w, "thread_placement");
    json_integer(w, "team", tp->threads);
    json_integer(w, "cores_online", tp->cores_online);
    json_integer(w, "cpus_online", tp->cpus_online);
    json_integer(w, "shared_core_threads", tp->shared_core_threads);
    json_integer(w, "unbound_threads", tp->unbound_threads);
    json_array_begin(w, "threads");
    for (int t = 0; t < tp->threads; t++) {
        const ThreadPlace *p = &tp->place[t];
        json_object_begin(w, NULL);
        json_integer(w, "thread", p->thread);
        json_integer(w, "cpu", p->cpu);
        known_integer(w, "core", p->core);
        known_integer(w, "socket", p->socket);
        known_integer(w, "node", p->node);
        known_integer(w, "place", p->place);
        json_integer(w, "allowed_cpus", p->allowed_cpus);
        json_integer(w, "allowed_cores", p->allowed_cores);
        json_object_end(w);
    }
    json_array_end(w);
    json_object_end(w);
}

/* local_percent: the figure, or null when nothing was measured (never 100 by default). */
static void write_local_percent(JsonWriter *w, int measured, double percent)
{
    if (measured)
        json_number(w, "local_percent", percent);
    else
        json_null(w, "local_percent");
}


/* The team's measured core clock (timing/core_clock.h); null when not taken. */
void write_core_clock(JsonWriter *w, const char *key, const CoreClockSample *s)
{
    if (!s->measured) {
        json_null(w, key);
        return;
    }
    json_object_begin(w, key);
    json_string(w, "method", "dependent integer additions (1 cycle each) timed against CLOCK_MONOTONIC on each thread");
    json_number(w, "median_ghz", s->median_ghz);
    json_number(w, "min_ghz", s->min_ghz);
    json_number(w, "max_ghz", s->max_ghz);
    json_array_begin(w, "threads_ghz");
    for (int t = 0; t < s->threads; t++)
        json_number(w, NULL, s->ghz[t]);
    json_array_end(w);
    json_number(w, "seconds", s->seconds);
    if (s->perf) {
        json_interval(w, "perf_cycles_per_ref_cycle", 1, s->perf_ratio_min, s->perf_ratio_max);
        json_null(w, "perf_unavailable");
    } else {
        json_null(w, "perf_cycles_per_ref_cycle");
        json_string(w, "perf_unavailable", s->perf_why);
    }
    json_object_end(w);
}

/* The Part records' locality (numa.locality.part_records). */
static void write_records(JsonWriter *w, const RecordLocality *r)
{
    json_object_begin(w, "part_records");
    json_bool(w, "measured", r->measured);
    write_local_percent(w, r->measured, r->percent);
    json_integer(w, "records", r->records);
    json_integer(w, "local_records", r->local_records);
    json_integer(w, "known_records", r->known_records);
    json_integer(w, "pages", r->pages);
    json_array_begin(w, "pages_per_node");
    for (int n = 0; r->pages > 0 && n <= r->max_node; n++)
        json_integer(w, NULL, r->pages_per_node[n]);
    json_array_end(w);
    json_object_end(w);
}

void write_json_setup(JsonWriter *w, const RunRecord *r)
{
    char policy[32];
    json_object_begin(w, "setup");
    if (r->pb != NULL) {
        const DepositState *d = &r->pb->deposit;
        json_number(w, "build_seconds", r->build_seconds);
        json_string(w, "deposit_model", mesh_deposit_model_text(r->pb->mesh.deposit_model));
        json_number(w, "iteration_residue_percent", d->percent_residue * 100.0);
        json_number(w, "max_error_bound", d->error_bound);
        json_number(w, "tight_error_bound", d->tight_error_bound);
        json_number(w, "max_residue", d->max_residue);
    }
    json_object_end(w);

    json_object_begin(w, "numa");
    json_string(w, "placement", placement_text(&r->run->placement, policy, sizeof policy));
    if (r->locality == NULL) {
        json_null(w, "locality");
    } else {
        const LocalitySummary *l = r->locality;
        json_object_begin(w, "locality");
        json_bool(w, "measured", l->measured);
        json_string(w, "note", l->measured ? NULL : l->note);
        json_integer(w, "nodes", l->nodes);
        write_local_percent(w, l->measured, l->percent);
        json_integer(w, "local_pages", l->local_pages);
        json_integer(w, "known_pages", l->known_pages);
        json_integer(w, "queried_pages", l->queried_pages);
        json_integer(w, "total_pages", l->total_pages);
        json_integer(w, "sampled_parts", l->sampled_parts);
        json_integer(w, "shared_pages", l->shared_pages);
        json_string(w, "pages_counted", "distinct pages: a page two or more parts' zone blocks share counts once, "
                                        "for the lowest-numbered of them (per_thread: that part's thread)");
        json_array_begin(w, "pages_per_node");
        for (int n = 0; l->nodes > 0 && n <= l->max_node; n++)
            json_integer(w, NULL, l->pages_per_node[n]);
        json_array_end(w);
        json_bool(w, "threads_bound", l->threads_bound);
        json_array_begin(w, "per_thread");
        for (int t = 0; l->measured && t < l->threads; t++) {
            json_object_begin(w, NULL);
            json_integer(w, "thread", t);
            json_integer(w, "node", l->per_thread[t].node);
            json_integer(w, "local_pages", l->per_thread[t].local_pages);
            json_integer(w, "known_pages", l->per_thread[t].known_pages);
            json_object_end(w);
        }
        json_array_end(w);
        write_records(w, &l->records);
        json_string(w, "measured_at", "after the mesh build, before the timed runs");
        if (l->numa_balancing < 0)
            json_null(w, "numa_balancing");
        else
            json_integer(w, "numa_balancing", l->numa_balancing);
        if (!l->remeasured) {
            json_null(w, "after_timed_runs");
        } else {
            json_object_begin(w, "after_timed_runs");
            json_bool(w, "measured", l->after.measured);
            write_local_percent(w, l->after.measured, l->after.percent);
            json_integer(w, "local_pages", l->after.local_pages);
            json_integer(w, "known_pages", l->after.known_pages);
            json_integer(w, "queried_pages", l->after.queried_pages);
            json_array_begin(w, "pages_per_node");
            for (int n = 0; n <= l->after.max_node; n++)
                json_integer(w, NULL, l->after.pages_per_node[n]);
            json_array_end(w);
            json_integer(w, "shared_pages", l->after.shared_pages);
            write_records(w, &l->after_records);
            json_object_end(w);
        }
        json_object_end(w);
    }
    write_thread_placement(w, r->placement);
    json_object_end(w);

    const CycleRate *c = &r->run->cycles;
    json_object_begin(w, "cycles");
    json_string(w, "source", c->source == CYCLES_TSC ? "tsc" : c->source == CYCLES_GIVEN ? "given" : "unavailable");
    if (c->source == CYCLES_UNAVAILABLE)
        json_null(w, "ghz");
    else
        json_number(w, "ghz", c->ghz);
    json_string(w, "note", c->source == CYCLES_UNAVAILABLE ? c->why : cycle_source_text(c));
    json_string(w, "clock", cycle_clock_text(c));
    json_interval(w, "core_clock_ghz", c->source == CYCLES_TSC && c->core_range_known != CORE_RANGE_UNKNOWN, c->core_min_ghz,
                  c->core_max_ghz);
    json_string(w, "core_clock_source", c->source != CYCLES_TSC ? NULL : core_range_source_text(c));
    write_core_clock(w, "core_clock_before", &r->run->cycles.clock_before);
    write_core_clock(w, "core_clock_after", &r->run->cycles.clock_after);
    json_string(w, "verdict_scope", "one process");
    json_object_end(w);
}

