/* --caliper-json: the run record as one Caliper json-split profile
 * (caliper_report.h). The layout Caliper's cali-query writes and Hatchet's
 * CaliperReader reads: "data" (one row per node: its index in "nodes", then
 * every metric), "columns", "column_metadata" (is_value; unit and label as
 * Caliper's attribute.unit and attribute.alias), "nodes" (label, column
 * "path", parent) and the run's metadata as the other top-level keys. Every
 * node has its row, its metrics null where they do not apply, so that no
 * reader fills a missing row with zeros. */
#include "caliper_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "caliper_sections.h"
#include "construct_columns.h"
#include "figures.h"

typedef struct ProfileNode {
    ProfileNodeKind kind;
    char label[96];
    int parent;                    /* index into the nodes; -1: the root */
    const Measurement *m;          /* PROFILE_NODE_MEASUREMENT */
    const ConstructResult *row;    /* PROFILE_NODE_CONSTRUCT */
    int level_index;               /* ... its level (construct_record.h) */
    const ProcessFigure *limit;      /* PROFILE_NODE_LIMIT */
} ProfileNode;

/* The construct table's levels as nodes: stable names, so that the same node
 * of two runs at different team sizes is one node to Thicket (the teams are
 * the rows' outer_threads and inner_threads). */
static const char *const level_names[CONSTRUCT_LEVELS] = {"level 1", "level 1, inner team", "level 2"};

static int add_node(ProfileNode *nodes, size_t *n, ProfileNodeKind kind, int parent, const char *label)
{
    ProfileNode *node = &nodes[*n];
    memset(node, 0, sizeof *node);
    node->kind = kind;
    node->parent = parent;
    snprintf(node->label, sizeof node->label, "%s", label);
    return (int)(*n)++;
}

static void add_constructs(const RunRecord *r, ProfileNode *nodes, size_t *n, int root)
{
    const ConstructTable *t = r->constructs;
    int group = add_node(nodes, n, PROFILE_NODE_GROUP, root, "constructs");
    for (int l = 0; l < CONSTRUCT_LEVELS; l++) {
        int shown = 0;
        for (size_t i = 0; i < t->count; i++)
            shown |= construct_level_shown(&t->rows[i], l);
        if (!shown)
            continue;
        int level = add_node(nodes, n, PROFILE_NODE_GROUP, group, level_names[l]);
        for (size_t i = 0; i < t->count; i++) {
            if (!construct_level_shown(&t->rows[i], l))
                continue;
            char name[64];
            const char *label = construct_row_name(t->rows[i].construct, t->rows[i].chunk, name, sizeof name);
            ProfileNode *node = &nodes[add_node(nodes, n, PROFILE_NODE_CONSTRUCT, level, label)];
            node->row = &t->rows[i];
            node->level_index = l;
        }
    }
}

/* The tree, parents before their children: clomp -> each measurement the
 * JSON lists; constructs -> level -> row (--constructs); limits -> each of
 * its figures by key (--limits, when measured). */
static ProfileNode *build_nodes(const RunRecord *r, size_t *count)
{
    size_t most = 1 + r->count + (r->constructs != NULL ? 1 + CONSTRUCT_LEVELS * (1 + r->constructs->count) : 0) +
                  (r->limits != NULL ? 1 + limit_figure_count : 0);
    ProfileNode *nodes = malloc(most * sizeof *nodes);
    size_t n = 0;
    if (nodes == NULL)
        return NULL;
    int root = add_node(nodes, &n, PROFILE_NODE_GROUP, -1, "clomp");
    for (size_t i = 0; r->results != NULL && i < r->count; i++)
        if (measurement_reported(&r->results[i]))
            nodes[add_node(nodes, &n, PROFILE_NODE_MEASUREMENT, root, r->results[i].schedule->name)].m = &r->results[i];
    if (r->constructs != NULL)
        add_constructs(r, nodes, &n, root);
    if (r->limits != NULL) {
        int group = add_node(nodes, &n, PROFILE_NODE_GROUP, root, "limits");
        for (size_t f = 0; r->limits->not_measured[0] == '\0' && f < limit_figure_count; f++)
            nodes[add_node(nodes, &n, PROFILE_NODE_LIMIT, group, limit_figures[f].member)].limit = &limit_figures[f];
    }
    *count = n;
    return nodes;
}

static void write_cell(JsonWriter *w, FigureCell cell)
{
    if (cell.kind == CELL_NUMBER)
        json_number(w, NULL, cell.number);
    else if (cell.kind == CELL_INTEGER || cell.kind == CELL_BOOL)
        json_integer(w, NULL, cell.integer);
    else
        json_null(w, NULL);   /* a metric is a number: no column of the list is a text (tests/caliper.t) */
}

static void write_value(JsonWriter *w, const RunRecord *r, const ProfileNode *node, const MeasurementFigures *f,
                        const ProfileColumn *c)
{
    char buf[96];
    if (node->kind == PROFILE_NODE_MEASUREMENT && c->figure >= 0) {
        FigureRow row = {r, node->m, f};
        write_cell(w, figure_columns[c->figure].cell(&row, buf, sizeof buf));
    } else if (node->kind == PROFILE_NODE_CONSTRUCT && c->construct >= 0) {
        ConstructCellRow row = {r, node->row, node->level_index};
        write_cell(w, construct_columns[c->construct].cell(&row, buf, sizeof buf));
    } else if (node->kind == PROFILE_NODE_LIMIT && c->limit != LIMIT_PART_NONE &&
               (c->limit_unit == NULL || strcmp(c->limit_unit, node->limit->unit) == 0)) {
        double value = profile_limit_part(node->limit, r->limits, c->limit);
        if (c->limit == LIMIT_PART_VALID)
            json_integer(w, NULL, value != 0.0);
        else
            json_number(w, NULL, value);
    } else {
        json_null(w, NULL);
    }
}

static void write_data(JsonWriter *w, const RunRecord *r, const ProfileNode *nodes, size_t count,
                       const ProfileColumn *columns, size_t column_count)
{
    json_array_begin(w, "data");
    for (size_t i = 0; i < count; i++) {
        MeasurementFigures f;
        if (nodes[i].kind == PROFILE_NODE_MEASUREMENT)
            measurement_figures(r, nodes[i].m, &f);
        json_array_begin(w, NULL);
        json_integer(w, NULL, (long long)i);
        for (size_t c = 0; c < column_count; c++)
            write_value(w, r, &nodes[i], &f, &columns[c]);
        json_array_end(w);
    }
    json_array_end(w);
}

/* "columns" and "column_metadata": the path, then each metric with its unit,
 * its label, and per kind of node the record member it equals
 * (clomp.record: docs/harnesses.md). */
static void write_columns(JsonWriter *w, const ProfileColumn *columns, size_t column_count)
{
    json_array_begin(w, "columns");
    json_string(w, NULL, "path");
    for (size_t c = 0; c < column_count; c++)
        json_string(w, NULL, columns[c].name);
    json_array_end(w);
    json_array_begin(w, "column_metadata");
    json_object_begin(w, NULL);
    json_bool(w, "is_value", 0);
    json_object_end(w);
    for (size_t c = 0; c < column_count; c++) {
        json_object_begin(w, NULL);
        json_bool(w, "is_value", 1);
        json_string(w, "attribute.unit", columns[c].unit);
        json_string(w, "attribute.alias", columns[c].label);
        json_object_begin(w, "clomp.record");
        for (int k = 0; k < PROFILE_NODE_KINDS; k++) {
            const char *member = profile_column_member(&columns[c], (ProfileNodeKind)k);
            if (member != NULL)
                json_string(w, profile_node_kind_names[k], member);
        }
        json_object_end(w);
        if (columns[c].limit_unit != NULL)   /* only on the --limits figures in this unit */
            json_string(w, "clomp.limits_unit", columns[c].limit_unit);
        json_object_end(w);
    }
    json_array_end(w);
}

static void write_nodes(JsonWriter *w, const ProfileNode *nodes, size_t count)
{
    json_array_begin(w, "nodes");
    for (size_t i = 0; i < count; i++) {
        json_object_begin(w, NULL);
        json_string(w, "label", nodes[i].label);
        json_string(w, "column", "path");
        if (nodes[i].parent >= 0)
            json_integer(w, "parent", nodes[i].parent);
        json_string(w, "clomp.kind", profile_node_kind_names[nodes[i].kind]);
        json_object_end(w);
    }
    json_array_end(w);
}

int write_caliper_report(FILE *out, const RunRecord *r)
{
    ProfileColumn columns[PROFILE_MAX_COLUMNS];
    size_t column_count = profile_columns(columns, PROFILE_MAX_COLUMNS), count = 0;
    ProfileNode *nodes = column_count > 0 ? build_nodes(r, &count) : NULL;
    if (nodes == NULL)
        return -1;
    JsonWriter w;
    json_start(&w, out);
    json_one_line(&w, 3);   /* a row, a column's metadata, a node: one line each */
    json_object_begin(&w, NULL);
    write_data(&w, r, nodes, count, columns, column_count);
    write_columns(&w, columns, column_count);
    write_nodes(&w, nodes, count);
    write_caliper_metadata(&w, r);
    json_object_end(&w);
    free(nodes);
    return json_finish(&w);
}
