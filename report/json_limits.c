/* "limits" of the --json document (clomp --limits; null without it):
 * every figure of --limits' slice of process_figures.c by its member, then what they come
 * from: each timing, each pair, each class. */
#include "json_sections.h"

#include <math.h>

#include "process_figures.h"

static void write_figures(JsonWriter *w, const LimitsRecord *l)
{
    json_object_begin(w, "figures");
    for (size_t i = 0; i < limit_figure_count; i++) {
        const ProcessFigure *f = &limit_figures[i];
        LimitValue v = f->value(l);
        /* A figure derived from others that are not results is withheld; a timing's own is kept, flagged. */
        json_object_begin(w, f->member);
        json_number(w, "value", v.withheld || !v.available ? NAN : v.value);
        json_interval(w, "ci_95", v.has_ci && !v.withheld, v.low, v.high);
        json_string(w, "unit", f->unit);
        json_string(w, "label", f->label);
        json_bool(w, "valid", v.available && v.not_a_result == NULL);
        json_string(w, "not_a_result", v.not_a_result);
        json_string(w, "of", v.note);
        json_object_end(w);
    }
    json_object_end(w);
}

static void write_timing(JsonWriter *w, const LimitTiming *t)
{
    json_object_begin(w, NULL);
    json_string(w, "key", t->key);
    json_string(w, "name", t->name);
    json_string(w, "how", t->how);
    json_bool(w, "reference", t->reference);
    json_integer(w, "innerreps", t->innerreps);
    json_integer(w, "repetitions", t->measured ? t->reps : 0);
    json_number(w, "median_ns", t->measured ? t->ns.median : NAN);
    json_interval(w, "median_ci_95_ns", t->measured && t->ns.has_ci, t->ns.ci_low, t->ns.ci_high);
    json_number(w, "mean_ns", t->measured ? t->ns.mean : NAN);
    json_number(w, "min_ns", t->measured ? t->ns.min : NAN);
    json_number(w, "max_ns", t->measured ? t->ns.max : NAN);
    json_number(w, "cv", t->measured ? t->ns.cv : NAN);
    if (t->disturbed_reps >= 0)
        json_integer(w, "disturbed_repetitions", t->disturbed_reps);
    else
        json_null(w, "disturbed_repetitions");
    if (t->reference)
        json_integer(w, "checked_repetitions", t->checked_reps);
    else
        json_null(w, "checked_repetitions");
    json_bool(w, "valid", t->measured && !t->invalid);
    json_string(w, "invalid_reason", t->invalid ? t->invalid_reason : NULL);
    json_object_end(w);
}

static void write_spread(JsonWriter *w, const char *key, const LimitSpread *s)
{
    json_object_begin(w, key);
    json_integer(w, "pairs", s->pairs);
    json_number(w, "min_ns", s->min_ns);
    json_number(w, "median_ns", s->median_ns);
    json_number(w, "max_ns", s->max_ns);
    json_object_end(w);
}

static void write_pairs(JsonWriter *w, const LimitsRecord *l)
{
    json_integer(w, "trips_per_pair", l->trips_per_pair);
    json_object_begin(w, "pair_counts");
    json_integer(w, "pairs", l->pair_count);
    json_integer(w, "measured", l->pairs_measured);
    json_integer(w, "same_cpu", l->pairs_same_cpu);
    json_integer(w, "not_a_result", l->pairs_invalid);
    json_integer(w, "moved", l->pairs_moved);
    json_object_end(w);
    write_spread(w, "round_trip", &l->all);
    json_object_begin(w, "classes");
    for (int c = 0; c < PAIR_CLASSES; c++)
        write_spread(w, pair_class_key((PairClass)c), &l->classes[c]);
    json_object_end(w);
    json_array_begin(w, "pairs");
    for (long p = 0; p < l->pair_count; p++) {
        const LimitPair *q = &l->pairs[p];
        json_object_begin(w, NULL);
        json_array_begin(w, "threads");
        json_integer(w, NULL, q->thread_a);
        json_integer(w, NULL, q->thread_b);
        json_array_end(w);
        json_array_begin(w, "cpus");
        json_integer(w, NULL, q->cpu_a);
        json_integer(w, NULL, q->cpu_b);
        json_array_end(w);
        json_string(w, "class", pair_class_key(q->pair_class));
        json_integer(w, "batches", q->batches);
        json_number(w, "round_trip_ns", q->round_trip_ns);
        json_number(w, "mean_ns", q->mean_ns);
        json_bool(w, "valid", q->batches > 0 && !q->invalid);
        json_bool(w, "moved", q->moved);
        json_object_end(w);
    }
    json_array_end(w);
}

void write_json_limits(JsonWriter *w, const RunRecord *r)
{
    const LimitsRecord *l = r->limits;
    if (l == NULL) {
        json_null(w, "limits");
        return;
    }
    const LimitsOptions *o = &r->run->limits;
    json_object_begin(w, "limits");
    json_integer(w, "threads", l->threads);
    json_string(w, "not_measured", l->not_measured[0] != '\0' ? l->not_measured : NULL);
    json_string(w, "failure", l->failure[0] != '\0' ? l->failure : NULL);
    json_integer(w, "repetitions", o->reps);
    json_number(w, "target_us", o->target_us);
    json_integer(w, "checked_episodes", l->checked_episodes);
    json_integer(w, "rounds", l->rounds);
    json_number(w, "cycles_ghz", l->cycles_ghz > 0.0 ? l->cycles_ghz : NAN);
    json_string(w, "cycles_source", l->cycles_source);
    write_core_clock(w, "core_clock", &l->clock);
    json_bool(w, "busy", l->busy);
    json_string(w, "busy_reason", l->busy ? l->busy_reason : NULL);
    json_number(w, "llnl_barrier_target_cycles", l->llnl_barrier_cycles);
    json_string(w, "best_reference", l->best_reference >= 0 ? l->timing[l->best_reference].key : NULL);
    json_string(w, "topology_root", l->topology_root);
    if (l->not_measured[0] == '\0')
        write_figures(w, l);
    else
        json_null(w, "figures");
    json_array_begin(w, "timings");
    for (int i = 0; i < LIMIT_TIMINGS && l->not_measured[0] == '\0'; i++)
        if (l->timing[i].key != NULL)
            write_timing(w, &l->timing[i]);
    json_array_end(w);
    write_pairs(w, l);
    json_object_end(w);
}
