#include "record.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void add_warning(WarningList *list, WarningShown shown, const char *fmt, ...)
{
    if (list->count >= CLOMP_MAX_WARNINGS)
        return;
    Warning *w = &list->item[list->count++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->text, sizeof w->text, fmt, ap); // NOLINT(clang-analyzer-valist.Uninitialized): va_start is just above
    va_end(ap);
    w->shown = shown;
}

const Measurement *find_measurement(const Measurement *results, size_t count, ScheduleRole role, const char *key)
{
    for (size_t i = 0; i < count; i++)
        if (measurement_runs(&results[i]) && results[i].schedule->role == role &&
            (key == NULL || strcmp(results[i].schedule->key, key) == 0))
            return &results[i];
    return NULL;
}

long chunk_subcycles(const Measurement *m, long c)
{
    return m->chunk_end[c] - (c > 0 ? m->chunk_end[c - 1] : 0);
}

int team_distinct_cpus(const TeamObservation *t, int *seen_threads)
{
    int distinct = 0, seen = 0;
    for (int i = 0; i < t->cpu_slots; i++) {
        if (t->cpu[i] < 0)
            continue;
        seen++;
        int repeat = 0;
        for (int j = 0; j < i && !repeat; j++)
            repeat = t->cpu[j] == t->cpu[i];
        distinct += !repeat;
    }
    *seen_threads = seen;
    return distinct;
}

WallTime record_wall_time(const RunRecord *r)
{
    WallTime w = {0};
    if (!r->cost.measured || r->measuring_from <= 0.0)
        return w;
    w.measured = 1;
    w.total = r->cost.wall_seconds;
    w.build = r->build_seconds;
    w.setup = r->measuring_from - r->build_seconds;
    for (size_t i = 0; r->results != NULL && i < r->count; i++) {
        const Measurement *m = &r->results[i];
        w.warmup += m->warmup_seconds;
        w.reset += m->reset_seconds;
        w.check += m->check_seconds;
        w.paired += m->paired.seconds;
        for (long round = 0; round < m->rounds_done; round++)
            w.timed += m->round_seconds[round];
    }
    w.constructs = r->constructs_seconds;
    w.limits = r->limits_seconds;
    if (r->measured_until > 0.0)
        w.after_runs = w.total - r->measured_until;
    w.rest = w.total - w.setup - w.build - w.warmup - w.reset - w.timed - w.check - w.paired - w.constructs - w.limits -
             w.after_runs;
    return w;
}
