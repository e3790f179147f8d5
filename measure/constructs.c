/* The construct table measured (constructs.h): which rows, at which levels
 * and in which order; each level by EPCC's method (construct_level.c), then
 * each row's verdicts and its level-2 ratio. */
#include "constructs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../cli/exit_status.h"
#include "../kernels/delay.h"
#include "../timing/clock.h"
#include "construct_level.h"
#include "construct_overhead.h"
#include "construct_resolution.h"
#include "construct_shape.h"

#define FAIL(status, ...) return (snprintf(why, why_size, __VA_ARGS__), (status))

/* level[] index to the level it measures: 1, 1 (INNER threads), 2. */
static int construct_level_of(int index)
{
    return index == 2 ? 2 : 1;
}

/* Why level[l] of construct c is not run here, or NULL when it is. */
static const char *level_not_run(const RunSetup *run, const ConstructTable *t, const Construct *c, int l)
{
    if (c->not_provided != NULL || c->test == NULL)
        return c->not_provided != NULL ? c->not_provided : "not provided";
    if (l == 0)
        return NULL;
    if (c->kind == CONSTRUCT_TARGET)
        return "a target probe runs from the initial thread only";
    if (t->outer == 0)
        return t->level2_unavailable;
    if (l == 1 && t->inner == run->numThreads)
        return "the same team as level 1";
    return l == 2 ? c->nested_not_provided : NULL;
}

/* Every level that cannot run here, marked with why before anything is
 * measured: a run that ends early still gives each its own reason. */
static void mark_not_applicable(const RunSetup *run, ConstructTable *t)
{
    for (size_t i = 0; i < t->count; i++)
        for (int l = 0; l < CONSTRUCT_LEVELS; l++) {
            const char *na = level_not_run(run, t, t->rows[i].construct, l);
            ConstructLevel *L = &t->rows[i].level[l];
            L->status = CONSTRUCT_NOT_RUN;
            snprintf(L->problem, sizeof L->problem, "%s", na != NULL ? na : "");
        }
}

/* Row `row`'s level[l] named for a person: "COPYIN 27 level 1", the
 * table's row name (construct_row_name). */
static const char *level_place(const ConstructResult *row, int l, char *buf, size_t size)
{
    char name[64];
    snprintf(buf, size, "%s level %d", construct_row_name(row->construct, row->chunk, name, sizeof name),
             construct_level_of(l));
    return buf;
}

/* A run that ends at row `at`'s level[l] (NULL: before any): every level
 * still to be measured says where. */
static void mark_not_reached(ConstructTable *t, const ConstructResult *at, int l)
{
    char where[96] = "the construct table's start (out of memory)";
    if (at != NULL)
        level_place(at, l, where, sizeof where);
    for (size_t i = 0; i < t->count; i++)
        for (int k = 0; k < CONSTRUCT_LEVELS; k++) {
            ConstructLevel *L = &t->rows[i].level[k];
            if (L->status == CONSTRUCT_NOT_RUN && L->problem[0] == '\0')
                snprintf(L->problem, sizeof L->problem, "not measured: the run ended at %s", where);
        }
}

/* Each measured level's verdict (judge_resolution), and the row's ratio of
 * level 2 over level 1 at INNER threads. */
static void finish_rows(ConstructTable *t)
{
    for (size_t i = 0; i < t->count; i++) {
        ConstructResult *row = &t->rows[i];
        for (int l = 0; l < CONSTRUCT_LEVELS; l++)
            judge_resolution(t, row, l);
        const ConstructLevel *base = row->level[1].status == CONSTRUCT_NOT_RUN ? &row->level[0] : &row->level[1];
        /* A base whose interval reaches 0 (an uncontended lock, a critical
         * section nobody waits for) would make any ratio: none is given. */
        int base_above_zero = base->overhead.has_ci ? base->overhead.ci_low > 0.0 : base->overhead.median > 0.0;
        row->ratio = row->level[2].status == CONSTRUCT_MEASURED && base->status == CONSTRUCT_MEASURED && base_above_zero
                         ? construct_ratio(row->level[2].overhead.median, base->overhead.median)
                         : NAN;
    }
}

/* The rows in table order, one chunk or size each, nothing measured yet. */
static int list_rows(const RunSetup *run, ConstructTable *t)
{
    long chunks[CONSTRUCT_MAX_CHUNKS];
    t->capacity = 0;
    for (size_t i = 0; i < clomp_construct_count; i++)
        if (run->construct_selected[i])
            t->capacity += (size_t)construct_row_params(run, clomp_constructs[i], chunks);
    t->rows = calloc(t->capacity > 0 ? t->capacity : 1, sizeof *t->rows);
    if (t->rows == NULL)
        return EXIT_RESOURCE;
    for (size_t i = 0; i < clomp_construct_count; i++) {
        if (!run->construct_selected[i])
            continue;
        int n = construct_row_params(run, clomp_constructs[i], chunks);
        for (int k = 0; k < n; k++) {
            ConstructResult *row = &t->rows[t->count++];
            row->construct = clomp_constructs[i];
            row->chunk = chunks[k];
            row->ratio = NAN;
        }
    }
    return 0;
}

/* The levels in phases: every row's level 1, then every row's level 1 at
 * INNER threads, then every row's level 2 - never one row's level 1 right
 * after another's level 2. A runtime whose idle threads spin on after a
 * region (libomp: KMP_BLOCKTIME, 200 ms) otherwise leaves the inner teams'
 * threads spinning through the next row's level 1: on 2 CPUs a clang build
 * had every level-1 repetition of the data rows preempted when each row
 * ran its levels in turn (8 of 8 rows unresolved; 0 of 8 with level 2
 * serialized). The untimed look at level 2's team waits for its phase for
 * the same reason. */
int measure_constructs(const RunSetup *run, ConstructTable *t, char *why, size_t why_size)
{
    if (list_rows(run, t) != 0)
        FAIL(EXIT_RESOURCE, "out of memory for the construct table");
    const ConstructOptions *o = &run->constructs;
    t->sync_delay = o->sync_delay_length > 0 ? time_given_delay(epcc_delay, o->sync_delay_length) :
                    calibrate_delay(epcc_delay, o->sync_delay_us);
    t->loop_delay = o->loop_delay_length > 0 ? time_given_delay(epcc_delay, o->loop_delay_length) :
                    calibrate_delay(epcc_delay, o->loop_delay_us);
    set_construct_shape(run, t);
    mark_not_applicable(run, t);
    OwnLineLog *logs = aligned_alloc(CONSTRUCT_LINE, (t->outer > 0 ? (size_t)t->outer : 1) * sizeof *logs);
    if (logs == NULL) {
        mark_not_reached(t, NULL, 0);
        FAIL(EXIT_RESOURCE, "out of memory for the construct logs");
    }
    for (int l = 0; l < CONSTRUCT_LEVELS; l++) {
        if (l == 2 && t->outer > 0)
            observe_level2_team(t);
        for (size_t i = 0; i < t->count; i++) {
            ConstructResult *row = &t->rows[i];
            ConstructLevel *L = &row->level[l];
            if (level_not_run(run, t, row->construct, l) != NULL)
                continue;   /* marked with why (mark_not_applicable) */
            int status = measure_construct_level(run, t, row, l, logs);
            if (status == 0 && L->status != CONSTRUCT_WRONG)
                continue;
            if (status != 0)
                snprintf(L->problem, sizeof L->problem, "not measured: out of memory for its repetitions");
            mark_not_reached(t, row, l);
            finish_rows(t);
            free(logs);
            if (status != 0)
                FAIL(status, "out of memory for %ld construct repetitions", run->constructs.reps);
            char place[96];
            FAIL(EXIT_VERIFY_FAILED, "construct %s (%dx%d): %s", level_place(row, l, place, sizeof place), L->outer,
                 L->inner, L->problem);
        }
    }
    free(logs);
    finish_rows(t);
    return 0;
}

int measure_asked_constructs(const RunSetup *run, RunRecord *record, ConstructTable *t, char *why, size_t why_size)
{
    double from = process_cost_now().wall_seconds;
    int status = 0;
    if (run->constructs.asked) {
        record->constructs = t;
        const NoiseCensus *c = record->noise;
        t->busy = c != NULL && c->busy_judged && c->busy;
        snprintf(t->busy_reason, sizeof t->busy_reason, "%s", t->busy ? c->busy_reason : "");
        status = measure_constructs(run, t, why, why_size);
    }
    /* The wall time's parts (record_wall_time): the table's own, and the end of the measuring. */
    record->measured_until = process_cost_now().wall_seconds;
    if (record->constructs != NULL)
        record->constructs_seconds = record->measured_until - from;
    return status;
}

void free_constructs(ConstructTable *t)
{
    free(t->rows);
    t->rows = NULL;
    t->count = t->capacity = 0;
}
