/* clomp-stats summary|pilot-n ... --table CSV INPUT RUNS KEY COLUMN: the values
 * come from a suite's <base>.csv (the driver's run facts, then clomp's CSV
 * row: a header row names the columns; RFC 4180 quotes, as clomp writes them)
 * instead of the argument list, read by column name. run_clomp.sh
 * --replicates auto asks this way (suite/replicates.sh): the runs never need
 * Python, and the shell no longer reads the table itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure_comparison.h"
#include "suite_table.h"

enum { MAX_CELLS = 256, MAX_LINE = 65536 };

/* LINE split into CELLS (in place; a quoted cell's "" is one quote): their count. */
static int split_csv(char *line, char **cells)
{
    int n = 0;
    char *in = line, *out = line;
    line[strcspn(line, "\r\n")] = '\0';
    while (n < MAX_CELLS) {
        int quoted = 0;
        cells[n++] = out;
        for (;; in++) {
            if (quoted && *in == '"' && in[1] == '"')
                *out++ = *in++;
            else if (*in == '"')
                quoted = !quoted;
            else if (*in == '\0' || (*in == ',' && !quoted))
                break;
            else
                *out++ = *in;
        }
        if (*in == '\0') {
            *out = '\0';
            break;
        }
        *out++ = '\0';
        in++;
    }
    return n;
}

/* The cell of column NAME in this row ("" when the table has no such column). */
static const char *cell(char *const *header, int columns, char *const *row, int cells, const char *name)
{
    for (int i = 0; i < columns && i < cells; i++)
        if (strcmp(header[i], name) == 0)
            return row[i];
    return "";
}

/* Whether WORD is one of the space-separated words of LIST. */
static int among(const char *word, const char *list)
{
    size_t length = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += length)
        if ((p == list || p[-1] == ' ') && (p[length] == '\0' || p[length] == ' '))
            return length > 0;
    return 0;
}

/* The row's input as "T A P Z S F TS POLICY" (clomp's seven numbers and the NUMA policy). */
static void input_of(char *const *header, int columns, char *const *row, int cells, char *text, size_t size)
{
    static const char *const names[] = {"numThreads", "allocThreads", "numParts", "zonesPerPart",
                                        "zoneSize",   "flopScale",    "timeScale", "numa"};
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0] && used < size; i++)
        used += (size_t)snprintf(text + used, size - used, "%s%s", i ? " " : "",
                                 cell(header, columns, row, cells, names[i]));
}

long table_values(const char *path, const char *input, const char *runs, const char *key, const char *column,
                  double *values, long *processes)
{
    static char header_line[MAX_LINE], line[MAX_LINE], seen[MAX_LINE], text[MAX_LINE];
    char *header[MAX_CELLS], *row[MAX_CELLS];
    long n = 0;
    *processes = 0;
    seen[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;   /* no table yet: no values, no processes */
    int columns = fgets(header_line, sizeof header_line, f) ? split_csv(header_line, header) : 0;
    while (fgets(line, sizeof line, f) != NULL) {
        int cells = split_csv(line, row);
        const char *run = cell(header, columns, row, cells, "run");
        input_of(header, columns, row, cells, text, sizeof text);
        if (strcmp(cell(header, columns, row, cells, "run_status"), "OK") != 0 || !among(run, runs) ||
            strcmp(text, input) != 0)
            continue;
        size_t used = strlen(seen);
        if (!among(run, seen) && used + strlen(run) + 2 < sizeof seen) {
            /* a process whose run marked a figure not a result still ran (issue 35) */
            snprintf(seen + used, sizeof seen - used, " %s", run);
            ++*processes;
        }
        const char *v = cell(header, columns, row, cells, column);
        if (strcmp(cell(header, columns, row, cells, "key"), key) != 0 || v[0] == '\0' ||
            strcmp(cell(header, columns, row, cells, "valid"), "0") == 0)
            continue;   /* a measurement its run marked not a result (valid 0) gives no value */
        if (n >= MAX_VALUES || parse_value(v, &values[n]) != 0) {
            fprintf(stderr, "clomp-stats: --table: %s: run %s's %s '%s' is not a number\n", path, run, column, v);
            fclose(f);
            return -1;
        }
        n++;
    }
    fclose(f);
    return n;
}
