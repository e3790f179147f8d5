/* "constructs" of the --json document (clomp --constructs; null without it). */
#include "json_sections.h"

#include <math.h>

#include "construct_columns.h"

static void write_cell(JsonWriter *w, const char *key, FigureCell cell)
{
    if (cell.kind == CELL_NUMBER)
        json_number(w, key, cell.number);
    else if (cell.kind == CELL_INTEGER)
        json_integer(w, key, cell.integer);
    else if (cell.kind == CELL_BOOL)
        json_bool(w, key, (int)cell.integer);
    else
        json_string(w, key, cell.text);
}

static void write_delay(JsonWriter *w, const char *key, const DelayCalibration *d)
{
    json_object_begin(w, key);
    if (d->given)   /* --construct-delay-length: no time asked; calibrated_us is the given length's time */
        json_null(w, "target_us");
    else
        json_number(w, "target_us", d->target_us);
    json_integer(w, "length", d->length);
    json_bool(w, "length_given", d->given);
    json_number(w, "calibrated_us", d->us);
    json_object_end(w);
}

static void write_level2_team(JsonWriter *w, const ConstructTable *t)
{
    const TeamObservation *seen = &t->level2_team;
    if (t->outer == 0 || !seen->nested) {   /* N/A, or the run ended before level 2 */
        json_null(w, "level2_team");
        return;
    }
    json_object_begin(w, "level2_team");
    json_integer(w, "outer_threads", seen->threads);
    json_integer(w, "inner_threads_min", seen->inner_min);
    json_integer(w, "inner_threads_max", seen->inner_max);
    json_array_begin(w, "inner_team_cpus");
    for (int k = 0; k < t->outer && (long)k * t->inner < seen->cpu_slots; k++) {
        json_array_begin(w, NULL);
        for (int i = 0; i < t->inner && (long)k * t->inner + i < seen->cpu_slots; i++)
            json_integer(w, NULL, seen->cpu[k * t->inner + i]);
        json_array_end(w);
    }
    json_array_end(w);
    json_object_end(w);
}

void write_json_constructs(JsonWriter *w, const RunRecord *r)
{
    const ConstructTable *t = r->constructs;
    if (t == NULL) {
        json_null(w, "constructs");
        return;
    }
    json_object_begin(w, "constructs");
    json_string(w, "method", "EPCC (Bull 1999, suite 3.1); level 2 as Dimakopoulos et al. 2008");
    write_delay(w, "sync_delay", &t->sync_delay);
    write_delay(w, "loop_delay", &t->loop_delay);
    json_integer(w, "iterations_per_thread", t->iters_per_thread);
    json_integer(w, "repetitions", r->run->constructs.reps);
    json_number(w, "target_test_us", r->run->constructs.target_us);
    json_integer(w, "threads", r->run->numThreads);
    json_integer(w, "max_active_levels", r->run->max_active_levels);
    json_string(w, "max_active_levels_source",
                r->run->max_active_levels_from_env ? "OMP_MAX_ACTIVE_LEVELS" : "clomp (omp_set_max_active_levels(2))");
    json_string(w, "level2_unavailable", t->level2_unavailable[0] != '\0' ? t->level2_unavailable : NULL);
    json_integer(w, "outer_threads", t->outer);
    json_integer(w, "inner_threads", t->inner);
    json_integer(w, "cpus", t->cpus);
    json_bool(w, "oversubscribed", t->oversubscribed);
    json_string(w, "wait_policy", t->wait_policy);
    write_level2_team(w, t);
    /* The CSV's columns in its order (construct_columns): a reader remakes
     * the CSV from the rows below without knowing which member goes where. */
    json_array_begin(w, "csv_columns");
    for (size_t c = 0; c < construct_column_count; c++)
        json_string(w, NULL, construct_columns[c].csv);
    json_array_end(w);
    json_array_begin(w, "rows");
    for (size_t i = 0; i < t->count; i++) {
        json_object_begin(w, NULL);
        /* The row's own members (the ratio is level 2's over level 1's). */
        ConstructCellRow row = {r, &t->rows[i], 2};
        char buf[64];
        for (size_t c = 0; c < construct_column_count; c++)
            if (construct_columns[c].json == NULL)
                write_cell(w, construct_columns[c].csv, construct_columns[c].cell(&row, buf, sizeof buf));
        json_array_begin(w, "levels");
        for (int l = 0; l < CONSTRUCT_LEVELS; l++) {
            if (!construct_level_shown(&t->rows[i], l))
                continue;
            row.level_index = l;
            json_object_begin(w, NULL);
            for (size_t c = 0; c < construct_column_count; c++)
                if (construct_columns[c].json != NULL)
                    write_cell(w, construct_columns[c].json, construct_columns[c].cell(&row, buf, sizeof buf));
            json_object_end(w);
        }
        json_array_end(w);
        json_object_end(w);
    }
    json_array_end(w);
    json_object_end(w);
}
