/* The columns of the construct table (clomp --constructs): one row per
 * construct, chunk and level. The CSV is written from this table and the
 * JSON's level objects from the same rows, so the two never disagree. */
#ifndef CLOMP_CONSTRUCT_COLUMNS_H
#define CLOMP_CONSTRUCT_COLUMNS_H

#include <stddef.h>

#include "figures.h"

typedef struct ConstructCellRow {
    const RunRecord *record;
    const ConstructResult *result;
    int level_index;          /* into result->level[] */
} ConstructCellRow;

typedef struct ConstructColumn {
    const char *csv;          /* appended, never inserted */
    const char *json;         /* the level object's member; NULL: the row's (said once per construct) */
    FigureCell (*cell)(const ConstructCellRow *row, char *buf, size_t size);
} ConstructColumn;

extern const ConstructColumn construct_columns[];
extern const size_t construct_column_count;

/* "measured", "serialized by the runtime", "fewer threads", "not run", "failed". */
const char *construct_status_text(ConstructStatus status);

/* The level a level index stands for: 1, 1 (at INNER threads) or 2. */
int construct_level_number(int level_index);

/* Whether a row of the table is printed and written: level 1 at the run's
 * threads always; level 1 at INNER threads unless it is the same team. */
int construct_level_shown(const ConstructResult *result, int level_index);

#endif
