#include "construct_columns.h"

#include <math.h>
#include <stdio.h>

const char *construct_status_text(ConstructStatus status)
{
    switch (status) {
    case CONSTRUCT_MEASURED:
        return "measured";
    case CONSTRUCT_SERIALIZED:
        return "serialized by the runtime";
    case CONSTRUCT_FEWER:
        return "fewer threads than asked";
    case CONSTRUCT_WRONG:
        return "failed";
    case CONSTRUCT_UNRESOLVED:
        return "unresolved";
    default:
        return "not run";
    }
}

int construct_level_number(int level_index)
{
    return level_index == 2 ? 2 : 1;
}

int construct_level_shown(const ConstructResult *result, int level_index)
{
    return level_index != 1 || result->level[1].status != CONSTRUCT_NOT_RUN;
}

#define NUMBER(x) ((FigureCell){CELL_NUMBER, (x), 0, NULL})
#define INTEGER(x) ((FigureCell){CELL_INTEGER, 0.0, (x), NULL})
#define TEXT(x) ((FigureCell){CELL_TEXT, 0.0, 0, (x)})
#define LEVEL (&row->result->level[row->level_index])
/* A figure of the construct's overhead only where it is one. */
#define MEASURED (LEVEL->status == CONSTRUCT_MEASURED)
#define RAN (LEVEL->status != CONSTRUCT_NOT_RUN && LEVEL->reps > 0)
#define SEEN (LEVEL->seen.regions > 0)

static FigureCell key(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return TEXT(row->result->construct->key);
}
/* EPCC's name with the chunk in place of n: "DYNAMIC 4". */
static FigureCell name(const ConstructCellRow *row, char *b, size_t n)
{
    return TEXT(construct_row_name(row->result->construct, row->result->chunk, b, n));
}
static FigureCell chunk(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return row->result->chunk > 0 ? INTEGER(row->result->chunk) : TEXT(NULL);
}
static FigureCell level(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return INTEGER(construct_level_number(row->level_index));
}
static FigureCell outer(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return LEVEL->inner > 0 ? INTEGER(LEVEL->outer) : TEXT(NULL);
}
static FigureCell inner(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return LEVEL->inner > 0 ? INTEGER(LEVEL->inner) : TEXT(NULL);
}
static FigureCell status(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return TEXT(construct_status_text(LEVEL->status));
}
static FigureCell problem(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return TEXT(LEVEL->problem[0] != '\0' ? LEVEL->problem : NULL);
}
static FigureCell innerreps(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return RAN ? INTEGER(LEVEL->innerreps) : TEXT(NULL);
}
static FigureCell reps(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return RAN ? INTEGER(LEVEL->reps) : TEXT(NULL);
}
static FigureCell overhead(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return NUMBER(MEASURED ? LEVEL->overhead.median : NAN);
}
static FigureCell overhead_low(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return NUMBER(MEASURED && LEVEL->overhead.has_ci ? LEVEL->overhead.ci_low : NAN);
}
static FigureCell overhead_high(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return NUMBER(MEASURED && LEVEL->overhead.has_ci ? LEVEL->overhead.ci_high : NAN);
}
static FigureCell overhead_cycles(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return NUMBER(MEASURED ? cycles_from_us(&row->record->run->cycles, LEVEL->overhead.median) : NAN);
}
static FigureCell cv(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return NUMBER(MEASURED && LEVEL->overhead.n > 1 ? LEVEL->overhead.cv : NAN);
}
static FigureCell outliers(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return MEASURED ? INTEGER(LEVEL->overhead.outliers) : TEXT(NULL);
}
static FigureCell test_us(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return NUMBER(RAN ? LEVEL->test_us : NAN);
}
static FigureCell reference_us(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return NUMBER(RAN ? LEVEL->reference_us : NAN);
}
static FigureCell threads_min(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return SEEN ? INTEGER(LEVEL->seen.threads_min) : TEXT(NULL);
}
static FigureCell threads_max(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return SEEN ? INTEGER(LEVEL->seen.threads_max) : TEXT(NULL);
}
static FigureCell level_seen(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return SEEN ? INTEGER(LEVEL->seen.level_max) : TEXT(NULL);
}
static FigureCell active_level(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return SEEN ? INTEGER(LEVEL->seen.active_max) : TEXT(NULL);
}
static FigureCell ancestors(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return SEEN && row->level_index == 2 ? INTEGER(LEVEL->ancestors) : TEXT(NULL);
}
static FigureCell regions(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return RAN ? INTEGER(LEVEL->seen.regions) : TEXT(NULL);
}
/* sync, loop, task, data or target: what the charts and tables group by. */
static FigureCell kind(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return TEXT(construct_kind_name(row->result->construct->kind));
}
static FigureCell ratio(const ConstructCellRow *row, char *b, size_t n)
{
    (void)b, (void)n;
    return NUMBER(row->level_index == 2 ? row->result->ratio : NAN);
}

const ConstructColumn construct_columns[] = {
    {"construct", NULL, key},
    {"construct_name", NULL, name},
    {"chunk", NULL, chunk},
    {"level", "level", level},
    {"outer_threads", "outer_threads", outer},
    {"inner_threads", "inner_threads", inner},
    {"status", "status", status},
    {"problem", "problem", problem},
    {"innerreps", "innerreps", innerreps},
    {"repetitions", "repetitions", reps},
    {"overhead_us", "overhead_us", overhead},
    {"overhead_ci95_low_us", "overhead_ci95_low_us", overhead_low},
    {"overhead_ci95_high_us", "overhead_ci95_high_us", overhead_high},
    {"overhead_cycles", "overhead_cycles", overhead_cycles},
    {"overhead_cv", "overhead_cv", cv},
    {"overhead_outliers", "overhead_outliers", outliers},
    {"test_us", "test_us", test_us},
    {"reference_us", "reference_us", reference_us},
    {"regions_seen", "regions_seen", regions},
    {"team_threads_min", "team_threads_min", threads_min},
    {"team_threads_max", "team_threads_max", threads_max},
    {"level_seen", "level_seen", level_seen},
    {"active_level_seen", "active_level_seen", active_level},
    {"outer_threads_seen", "outer_threads_seen", ancestors},
    {"level2_over_level1", NULL, ratio},
    {"kind", NULL, kind},
};

const size_t construct_column_count = sizeof construct_columns / sizeof construct_columns[0];
