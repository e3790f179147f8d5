#include "csv_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "construct_columns.h"
#include "figures.h"
#include "process_figures.h"

/* RFC 4180: quoted when it holds a comma, quote or line break. */
static void text_cell(FILE *out, const char *text)
{
    if (text == NULL)
        return;
    if (strpbrk(text, ",\"\r\n") == NULL) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

/* As the JSON writes numbers: the shortest text that reads back as the
 * same double; empty where the JSON has null. */
static void number_cell(FILE *out, double value)
{
    if (!isfinite(value))
        return;
    char text[32];
    for (int precision = 15; precision <= 17; precision++) {
        snprintf(text, sizeof text, "%.*g", precision, value);
        if (strtod(text, NULL) == value)
            break;
    }
    fputs(text, out);
}

static void write_cell(FILE *out, FigureCell cell)
{
    switch (cell.kind) {
    case CELL_NUMBER:
        number_cell(out, cell.number);
        break;
    case CELL_INTEGER:
    case CELL_BOOL:
        fprintf(out, "%ld", cell.integer);
        break;
    default:
        text_cell(out, cell.text);
    }
}

/* clomp --limits' columns, appended to every measurement's row (empty
 * without --limits): each figure of --limits' slice of process_figures.c
 * (its CSV column, limits_<member>), empty where it is not a result, then the team, the best
 * reference barrier and whether the machine was busy. Not in the construct
 * table (--constructs), whose columns are its own (constructs.csv_columns). */
static void write_limits_header(FILE *out)
{
    for (size_t i = 0; i < limit_figure_count; i++)
        fprintf(out, ",%s", limit_figures[i].csv);
    fputs(",limits_threads,limits_best_reference,limits_busy", out);
}

static void write_limits_cells(FILE *out, const RunRecord *r)
{
    const LimitsRecord *l = r->limits != NULL && r->limits->not_measured[0] == '\0' ? r->limits : NULL;
    for (size_t i = 0; i < limit_figure_count; i++) {
        LimitValue v = l != NULL ? limit_figures[i].value(l) : (LimitValue){0};
        fputc(',', out);
        if (v.available && v.not_a_result == NULL)
            number_cell(out, v.value);
    }
    if (r->limits == NULL) {
        fputs(",,,", out);
        return;
    }
    fprintf(out, ",%d,", r->limits->threads);
    if (l != NULL && l->best_reference >= 0)
        text_cell(out, l->timing[l->best_reference].key);
    fprintf(out, ",%d", r->limits->busy);
}

/* clomp --constructs: the construct table, one row per construct, chunk and
 * level shown; the header alone before it is measured (--dry-run, a failure). */
static int write_construct_csv(FILE *out, const RunRecord *r)
{
    const ConstructTable *t = r->constructs;
    for (size_t c = 0; c < construct_column_count; c++)
        fprintf(out, "%s%s", c > 0 ? "," : "", construct_columns[c].csv);
    fputc('\n', out);
    for (size_t i = 0; t != NULL && i < t->count; i++)
        for (int l = 0; l < CONSTRUCT_LEVELS; l++) {
            if (!construct_level_shown(&t->rows[i], l))
                continue;
            ConstructCellRow row = {r, &t->rows[i], l};
            for (size_t c = 0; c < construct_column_count; c++) {
                char buf[64];
                if (c > 0)
                    fputc(',', out);
                write_cell(out, construct_columns[c].cell(&row, buf, sizeof buf));
            }
            fputc('\n', out);
        }
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

int write_csv_report(FILE *out, const RunRecord *r)
{
    if (r->run->constructs.asked)
        return write_construct_csv(out, r);
    for (size_t c = 0; c < figure_column_count; c++) {
        if (c == figure_columns_before_limits)
            write_limits_header(out);
        fprintf(out, "%s%s", c > 0 ? "," : "", figure_columns[c].csv);
    }
    if (figure_column_count == figure_columns_before_limits)
        write_limits_header(out);
    fputc('\n', out);
    for (size_t i = 0; r->results != NULL && i < r->count; i++) {
        const Measurement *m = &r->results[i];
        if (!measurement_reported(m))
            continue;
        MeasurementFigures f;
        measurement_figures(r, m, &f);
        FigureRow row = {r, m, &f};
        for (size_t c = 0; c < figure_column_count; c++) {
            char buf[64];
            if (c == figure_columns_before_limits)
                write_limits_cells(out, r);
            if (c > 0)
                fputc(',', out);
            write_cell(out, figure_columns[c].cell(&row, buf, sizeof buf));
        }
        if (figure_column_count == figure_columns_before_limits)
            write_limits_cells(out, r);
        fputc('\n', out);
    }
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}
