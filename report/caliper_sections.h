/* The parts of the Caliper profile (caliper_report.c writes the whole): its
 * metric columns and its run metadata. Shared by the profile's files only. */
#ifndef CLOMP_CALIPER_SECTIONS_H
#define CLOMP_CALIPER_SECTIONS_H

#include <stddef.h>

#include "../measure/record.h"
#include "json.h"
#include "process_figures.h"

/* What a node of the tree is: the kind of record object its metrics come from. */
typedef enum { PROFILE_NODE_GROUP, PROFILE_NODE_MEASUREMENT, PROFILE_NODE_CONSTRUCT, PROFILE_NODE_LIMIT } ProfileNodeKind;
#define PROFILE_NODE_KINDS 4
/* The kinds' names in column_metadata's clomp.record (the group nodes have no metrics). */
extern const char *const profile_node_kind_names[PROFILE_NODE_KINDS];

typedef enum { LIMIT_PART_NONE, LIMIT_PART_VALUE, LIMIT_PART_LOW, LIMIT_PART_HIGH, LIMIT_PART_VALID } LimitPart;

/* One metric column: its name, unit and label, and for each kind of node
 * where its value comes from and the record member it equals. */
typedef struct ProfileColumn {
    char name[64];
    char label[112];
    const char *unit;
    int figure;               /* figure_columns (figures.h) index for measurements; -1: none */
    char member[64];          /* ... the measurement's JSON member it equals */
    int construct;            /* construct_columns index for construct rows; -1: none */
    LimitPart limit;          /* for --limits figures: the figure's part */
    const char *limit_unit;   /* ... of the figures in this unit (NULL: every figure, LIMIT_PART_VALID) */
} ProfileColumn;

#define PROFILE_MAX_COLUMNS 64

/* The profile's metric columns, in order (caliper_columns.c: THE list);
 * returns how many, or 0 when the table names a column the writers lack. */
size_t profile_columns(ProfileColumn *columns, size_t max);

/* The record member a column equals on a node of `kind`, or NULL. */
const char *profile_column_member(const ProfileColumn *c, ProfileNodeKind kind);

/* A --limits figure's value, interval bound or validity as the JSON's limits.figures writes it. */
double profile_limit_part(const ProcessFigure *f, const LimitsRecord *l, LimitPart part);

/* The run's metadata: every top-level key but data, columns, column_metadata and nodes. */
void write_caliper_metadata(JsonWriter *w, const RunRecord *r);

#endif
