/* "noise_census" in the --json document: the probe per thread of the timed
 * team and the timed runs' totals (docs/noise.md, docs/json-schema.md).
 * Reads the record only. */
#include "json_sections.h"

#include <math.h>

void write_json_noise(JsonWriter *w, const RunRecord *r)
{
    const NoiseCensus *c = r->noise;
    /* Not reached (--dry-run, or a failure before the probe): null. */
    if (c == NULL || (!c->enabled && r->run->noise_census)) {
        json_null(w, "noise_census");
        return;
    }
    json_object_begin(w, "noise_census");
    json_bool(w, "enabled", c->enabled);
    json_bool(w, "probed", c->probed);
    json_string(w, "note", c->note[0] != '\0' ? c->note : NULL);
    json_number(w, "quantum_us", c->quantum_us);
    json_integer(w, "quantum_work", c->quantum_work);
    json_integer(w, "quanta_per_thread", c->quanta);
    json_number(w, "probe_seconds", c->probed ? c->probe_seconds : NAN);
    json_string(w, "lost_definition", "sum over quanta of the time beyond the median quantum, over the sum of quanta");
    json_array_begin(w, "threads");
    for (int t = 0; c->probed && t < c->threads; t++) {
        const NoiseThread *n = &c->thread[t];
        json_object_begin(w, NULL);
        json_integer(w, "thread", t);
        json_integer(w, "cpu", n->cpu);
        json_number(w, "fastest_us", n->fastest_us);
        json_number(w, "median_us", n->median_us);
        json_number(w, "p99_us", n->p99_us);
        json_number(w, "lost_fraction", n->lost_fraction);
        json_number(w, "largest_detour_us", n->largest_detour_us);
        json_integer(w, "timed_spans", n->chunks);
        json_integer(w, "timed_spans_disturbed", n->disturbed_chunks);
        json_integer(w, "timed_involuntary_switches", n->switches);
        json_integer(w, "timed_migrations", n->migrations);
        json_object_end(w);
    }
    json_array_end(w);
    int sampled = c->probed && c->state != NULL;
    json_bool(w, "sampled", sampled);
    json_number(w, "steal_seconds", sampled && c->steal_reported ? c->steal_seconds : NAN);
    if (sampled && c->interrupts_readable)
        json_integer(w, "interrupts", c->interrupts);
    else
        json_null(w, "interrupts");
    json_number(w, "sampling_seconds", sampled ? c->sampling_seconds : NAN);
    json_number(w, "comparable_share", NOISE_COMPARABLE_SHARE);
    /* The busy-machine rule (docs/noise.md): null when the probe did not run. */
    if (c->busy_judged)
        json_bool(w, "busy", c->busy);
    else
        json_null(w, "busy");
    json_number(w, "busy_threshold", NOISE_BUSY_LOST_SHARE);
    json_string(w, "busy_reason", c->busy_judged && c->busy ? c->busy_reason : NULL);
    json_object_end(w);
}
