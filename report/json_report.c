#include "json_report.h"

#include <math.h>
#include <string.h>

#include "../kernels/problem.h"
#include "json.h"
#include "record_figures.h"

extern char **environ;

/* [low, high], or null without an interval. */
static void interval(JsonWriter *w, const char *key, int has, double low, double high)
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

static void write_inputs(JsonWriter *w, const RunSetup *run)
{
    char policy[32];
    json_object_begin(w, "inputs");
    json_integer(w, "numThreads", run->inputNumThreads);
    json_integer(w, "allocThreads", run->inputAllocThreads);
    json_integer(w, "numParts", run->numParts);
    json_integer(w, "zonesPerPart", run->zonesPerPart);
    json_integer(w, "zoneSize", run->requestedZoneSize);
    json_integer(w, "flopScale", run->flopScale);
    json_integer(w, "timeScale", run->timeScale);
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
    json_object_end(w);
}

static void write_build(JsonWriter *w)
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
    json_object_end(w);
}

/* The same variables the text report lists: those that steer OpenMP runtimes. */
static void write_openmp_environment(JsonWriter *w)
{
    json_object_begin(w, "openmp_environment");
    for (char **env = environ; env != NULL && *env != NULL; env++) {
        const char *eq = strchr(*env, '=');
        if (eq == NULL || !is_openmp_variable(*env))
            continue;
        char name[256];
        size_t len = (size_t)(eq - *env) < sizeof name - 1 ? (size_t)(eq - *env) : sizeof name - 1;
        memcpy(name, *env, len);
        name[len] = '\0';
        json_string(w, name, eq + 1);
    }
    json_object_end(w);
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
        if (p->core >= 0)
            json_integer(w, "core", p->core);
        else
            json_null(w, "core");
        if (p->socket >= 0)
            json_integer(w, "socket", p->socket);
        else
            json_null(w, "socket");
        if (p->node >= 0)
            json_integer(w, "node", p->node);
        else
            json_null(w, "node");
        if (p->place >= 0)
            json_integer(w, "place", p->place);
        else
            json_null(w, "place");
        json_integer(w, "allowed_cpus", p->allowed_cpus);
        json_integer(w, "allowed_cores", p->allowed_cores);
        json_object_end(w);
    }
    json_array_end(w);
    json_object_end(w);
}

static void write_setup(JsonWriter *w, const RunRecord *r)
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
        if (l->measured)
            json_number(w, "local_percent", l->percent);
        else
            json_null(w, "local_percent");
        json_integer(w, "local_pages", l->local_pages);
        json_integer(w, "known_pages", l->known_pages);
        json_integer(w, "queried_pages", l->queried_pages);
        json_integer(w, "total_pages", l->total_pages);
        json_integer(w, "sampled_parts", l->sampled_parts);
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
            if (l->after.measured)
                json_number(w, "local_percent", l->after.percent);
            else
                json_null(w, "local_percent");
            json_integer(w, "local_pages", l->after.local_pages);
            json_integer(w, "known_pages", l->after.known_pages);
            json_integer(w, "queried_pages", l->after.queried_pages);
            json_array_begin(w, "pages_per_node");
            for (int n = 0; n <= l->after.max_node; n++)
                json_integer(w, NULL, l->after.pages_per_node[n]);
            json_array_end(w);
            json_object_end(w);
        }
        json_object_end(w);
    }
    write_thread_placement(w, r->locality != NULL ? &r->locality->team : NULL);
    json_object_end(w);

    const CycleRate *c = &r->run->cycles;
    json_object_begin(w, "cycles");
    json_string(w, "source", c->source == CYCLES_TSC ? "tsc" : c->source == CYCLES_GIVEN ? "given" : "unavailable");
    if (c->source == CYCLES_UNAVAILABLE)
        json_null(w, "ghz");
    else
        json_number(w, "ghz", c->ghz);
    json_string(w, "note", c->source == CYCLES_UNAVAILABLE ? c->why : cycle_source_text(c));
    json_object_end(w);
}

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

static void write_statistics(JsonWriter *w, const SampleStats *st)
{
    json_object_begin(w, "statistics");
    json_integer(w, "n", st->n);
    json_number(w, "min", st->min);
    json_number(w, "max", st->max);
    json_number(w, "median", st->median);
    json_number(w, "mean", st->mean);
    json_number(w, "sd", st->sd);
    json_number(w, "cv", st->cv);
    json_integer(w, "outliers", st->outliers);
    interval(w, "median_ci_95", st->has_ci, st->ci_low, st->ci_high);
    json_number(w, "median_ci_coverage", st->has_ci ? st->ci_coverage : NAN);
    json_string(w, "median_ci_scope", st->has_ci ? INTERVAL_SCOPE : NULL);
    json_object_end(w);
}

/* CLOMP 1.2's "MPI Dist" line: the runtime over the ranks, and the rank whose figures are shown. */
static void write_distribution(JsonWriter *w, const RankSpread *sp)
{
    json_object_begin(w, "mpi_distribution");
    json_number(w, "runtime_min_seconds", sp->min_seconds);
    json_integer(w, "min_rank", sp->min_rank);
    json_number(w, "runtime_max_seconds", sp->max_seconds);
    json_integer(w, "max_rank", sp->max_rank);
    json_number(w, "runtime_avg_seconds", sp->avg_seconds);
    json_integer(w, "used_rank", sp->used_rank);
    json_string(w, "used", sp->used_fastest ? "fastest" : "slowest");
    json_object_end(w);
}

static void write_measurement(JsonWriter *w, const RunRecord *r, const Measurement *m)
{
    const Schedule *s = m->schedule;
    const RunSetup *run = r->run;
    MeasurementFigures f;
    measurement_figures(r, m, &f);
    int complete = f.complete;

    json_object_begin(w, NULL);
    json_string(w, "name", s->name);
    json_string(w, "key", s->key);
    json_string(w, "role", f.role);
    json_bool(w, "selected", m->selected);
    if (strcmp(s->key, "nested") == 0 && run->nested_unavailable[0] != '\0')
        json_string(w, "unavailable", run->nested_unavailable);
    else
        json_null(w, "unavailable");
    json_string(w, "started", m->rounds_done > 0 ? m->started : NULL);
    if (f.threads >= 0)
        json_integer(w, "threads", f.threads);
    else
        json_null(w, "threads");
    if (m->team.nested) {
        json_object_begin(w, "nested_teams");
        json_integer(w, "outer", m->team.threads);
        json_integer(w, "inner_min", m->team.inner_min);
        json_integer(w, "inner_max", m->team.inner_max);
        int threads;
        json_integer(w, "distinct_cpus", team_distinct_cpus(&m->team, &threads));
        json_array_begin(w, "cpus");
        for (int g = 0; g < run->nestedOuter && g * run->nestedInner < m->team.cpu_slots; g++) {
            json_array_begin(w, NULL);
            for (int i = 0; i < run->nestedInner && g * run->nestedInner + i < m->team.cpu_slots; i++)
                if (m->team.cpu[g * run->nestedInner + i] >= 0)
                    json_integer(w, NULL, m->team.cpu[g * run->nestedInner + i]);
            json_array_end(w);
        }
        json_array_end(w);
        json_object_end(w);
    }
    json_object_begin(w, "verification");
    json_string(w, "result", f.verification);
    json_integer(w, "verified_chunks", m->verified_chunks);
    json_object_end(w);
    if (f.has_checksum) {
        json_object_begin(w, "checksum");
        json_number(w, "sum", f.checksum.sum);
        json_number(w, "residue", f.checksum.residue);
        json_number(w, "total", f.checksum.total);
        json_object_end(w);
    } else {
        json_null(w, "checksum");
    }

    /* Figures only for complete measurements: a partial one would mislead. */
    json_number(w, "runtime_seconds", f.runtime_seconds);
    json_number(w, "us_per_loop", f.us);
    json_number(w, "speedup", f.speedup);
    json_number(w, "efficacy_percent", f.efficacy);
    json_number(w, "overhead_us_per_loop", f.overhead);
    interval(w, "overhead_ci_95", complete && m->has_overhead && m->has_overhead_ci, m->overhead_low, m->overhead_high);
    json_string(w, "overhead_ci_method",
                !(complete && m->has_overhead && m->has_overhead_ci) ? NULL
                : m->overhead_ci_paired ? "paired per-round differences, order statistics"
                                        : "pooled chunk medians, Bonferroni");
    json_string(w, "overhead_ci_scope", complete && m->has_overhead && m->has_overhead_ci ? INTERVAL_SCOPE : NULL);
    interval(w, "overhead_round_range", complete && m->has_overhead && m->has_round_range, m->round_range_low,
             m->round_range_high);
    json_integer(w, "subnormals", m->subnormals);
    if (m->spread.ranks > 0)
        write_distribution(w, &m->spread);
    if (complete)
        write_statistics(w, &m->stats);
    else
        json_null(w, "statistics");

    json_array_begin(w, "rounds");
    for (long round = 0; round < m->rounds_done; round++) {
        json_object_begin(w, NULL);
        json_integer(w, "round", round + 1);
        json_number(w, "runtime_seconds", m->round_seconds[round]);
        json_number(w, "median_us_per_loop", complete ? m->round_median_us[round] : NAN);
        json_array_begin(w, "chunks");
        for (long c = 0; c < m->chunks; c++) {
            long subcycles = chunk_subcycles(m, c);
            double seconds = m->chunk_seconds[round * m->chunks + c];
            json_object_begin(w, NULL);
            json_integer(w, "iterations", subcycles / SUBCYCLES_PER_ITERATION);
            json_number(w, "seconds", seconds);
            json_number(w, "us_per_loop", seconds * 1e6 / (double)subcycles);
            json_object_end(w);
        }
        json_array_end(w);
        json_object_end(w);
    }
    json_array_end(w);
    json_object_end(w);
}

static void write_target(JsonWriter *w, const RunSetup *run, const char *key, const Measurement *m, int overhead,
                         double target)
{
    if (m == NULL || (overhead && !m->has_overhead)) {
        json_null(w, key);
        return;
    }
    double us = overhead ? m->overhead_us : m->us;
    int has = overhead ? m->has_overhead_ci : m->stats.has_ci;
    double low = overhead ? m->overhead_low : m->stats.ci_low, high = overhead ? m->overhead_high : m->stats.ci_high;
    double cycles = cycles_from_us(&run->cycles, us);
    json_object_begin(w, key);
    json_number(w, "cycles", cycles);
    interval(w, "cycles_ci_95", has && !isnan(cycles), cycles_from_us(&run->cycles, low), cycles_from_us(&run->cycles, high));
    json_string(w, "cycles_ci_scope", has && !isnan(cycles) ? INTERVAL_SCOPE : NULL);
    if (target > 0.0) {
        json_number(w, "target_below", target);
        json_string(w, "verdict", target_verdict(cycles, has, cycles_from_us(&run->cycles, low),
                                                 cycles_from_us(&run->cycles, high), target));
    }
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

/* One rank's figures for one measurement, as that rank summarized them
 * (overhead against its own bestcase); null figures until it is complete. */
static void write_rank_measurement(JsonWriter *w, const RunRecord *r, const Measurement *m)
{
    int complete = m->rounds_done == r->run->rounds && m->stats.n > 0;
    int checked = m->schedule->role == ROLE_REFERENCE || m->schedule->role == ROLE_CHECKED;
    json_object_begin(w, NULL);
    json_string(w, "key", m->schedule->key);
    json_integer(w, "rounds_done", m->rounds_done);
    json_number(w, "runtime_seconds", complete ? m->seconds : NAN);
    json_number(w, "us_per_loop", complete ? m->us : NAN);
    interval(w, "us_per_loop_ci_95", complete && m->stats.has_ci, m->stats.ci_low, m->stats.ci_high);
    json_number(w, "cv", complete ? m->stats.cv : NAN);
    json_number(w, "overhead_us_per_loop", complete && m->has_overhead ? m->overhead_us : NAN);
    interval(w, "overhead_ci_95", complete && m->has_overhead && m->has_overhead_ci, m->overhead_low,
             m->overhead_high);
    json_integer(w, "verified_chunks", m->verified_chunks);
    if (checked && m->rounds_done > 0) {
        json_object_begin(w, "checksum");
        json_number(w, "sum", m->checksum.sum);
        json_number(w, "residue", m->checksum.residue);
        json_number(w, "total", m->checksum.total);
        json_object_end(w);
    } else {
        json_null(w, "checksum");
    }
    json_object_end(w);
}

/* clomp_mpi: the ranks, where they ran, each one's figures, the outliers. */
static void write_mpi(JsonWriter *w, const RunRecord *r)
{
    const MpiSetup *mpi = &r->run->mpi;
    json_object_begin(w, "mpi");
    json_integer(w, "ranks", mpi->ranks);
    json_string(w, "thread_level", mpi->thread_level);
    json_integer(w, "timeout_seconds", mpi->timeout);
    json_array_begin(w, "per_rank");
    for (int rank = 0; mpi->info != NULL && rank < mpi->ranks; rank++) {
        const RankInfo *info = &mpi->info[rank];
        json_object_begin(w, NULL);
        json_integer(w, "rank", info->rank);
        json_string(w, "host", info->host);
        json_string(w, "cpus", info->cpus);
        json_integer(w, "cpu_count", info->cpu_count);
        json_array_begin(w, "measurements");
        const RankTable *t = r->rank_table;
        for (size_t i = 0; t != NULL && t->results != NULL && i < t->count; i++) {
            const Measurement *m = &t->results[(size_t)rank * t->count + i];
            if (m->schedule != NULL && m->selected)
                write_rank_measurement(w, r, m);
        }
        json_array_end(w);
        json_object_end(w);
    }
    json_array_end(w);
    const RankOutliers *o = r->outliers;
    if (o == NULL) {
        json_null(w, "outliers");
    } else {
        json_object_begin(w, "outliers");
        json_bool(w, "judged", o->ranks >= 3);
        json_number(w, "serial_median_us_per_loop", o->serial_median);
        json_number(w, "static_overhead_median_us_per_loop", o->overhead_median);
        json_array_begin(w, "ranks");
        for (size_t k = 0; k < o->count; k++) {
            const RankOutlier *x = &o->item[k];
            json_object_begin(w, NULL);
            json_integer(w, "rank", x->rank);
            json_string(w, "host", mpi->info != NULL ? mpi->info[x->rank].host : NULL);
            json_string(w, "figure", x->figure);
            json_number(w, "value_us_per_loop", x->value);
            json_number(w, "median_us_per_loop", x->median);
            json_number(w, "deviation_us_per_loop", x->deviation);
            json_number(w, "threshold_us_per_loop", x->threshold);
            json_object_end(w);
        }
        json_array_end(w);
        json_object_end(w);
    }
    json_object_end(w);
}

int write_json_report(FILE *out, const RunRecord *r)
{
    JsonWriter w;

    json_start(&w, out);
    json_object_begin(&w, NULL);
    json_string(&w, "schema", "clomp-result");
    json_integer(&w, "schema_version", CLOMP_JSON_SCHEMA_VERSION);
    json_integer(&w, "schema_minor", CLOMP_JSON_SCHEMA_MINOR);
    json_string(&w, "clomp_version", build_info()->version);
    json_string(&w, "status", record_status(r));
    json_integer(&w, "exit_status", r->exit_status);
    json_string(&w, "failure", r->failure);
    json_string(&w, "invocation", r->run->invocation);
    json_string(&w, "executable", r->run->exe);
    json_string(&w, "host", r->host);
    json_string(&w, "start_time", r->started);
    write_inputs(&w, r->run);
    write_build(&w);
    write_openmp_environment(&w);
    write_setup(&w, r);
    if (r->run->mpi.ranks > 0)
        write_mpi(&w, r);

    json_array_begin(&w, "measurements");
    for (size_t i = 0; r->results != NULL && i < r->count; i++)
        if (measurement_reported(&r->results[i]))
            write_measurement(&w, r, &r->results[i]);
    json_array_end(&w);

    json_object_begin(&w, "llnl_targets");
    write_target(&w, r->run, "barrier_latency", record_find(r, ROLE_PROBE, "barrier"), 0, LLNL_BARRIER_TARGET_CYCLES);
    /* The 500-cycle target is judged on the EPCC-style probe; Static OMP's
     * overhead against Bestcase (CLOMP's own figure) is shown, not judged. */
    write_target(&w, r->run, "parallel_for_overhead", record_find(r, ROLE_PROBE, "parallel_for"), 0,
                 LLNL_PARALLEL_FOR_TARGET_CYCLES);
    write_target(&w, r->run, "fork_join", record_find(r, ROLE_PROBE, "parallel"), 0, 0.0);
    write_target(&w, r->run, "static_overhead", record_find(r, ROLE_CHECKED, "static"), 1, 0.0);
    json_object_end(&w);

    write_process_cost(&w, &r->cost);

    json_array_begin(&w, "warnings");
    write_warnings(&w, "setup", r->setup_warnings);
    for (size_t i = 0; r->results != NULL && i < r->count; i++)
        write_warnings(&w, r->results[i].schedule->name, &r->results[i].warnings);
    json_array_end(&w);
    json_object_end(&w);
    return json_finish(&w);
}
