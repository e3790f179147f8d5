/* clomp-stats summary|pilot-n ... --table CSV INPUT RUNS KEY COLUMN: the values
 * come from a suite's <base>.csv (the driver's run facts, then clomp's CSV
 * row: a header row names the columns; RFC 4180 quotes, as clomp writes them)
 * instead of the argument list, read by column name. run_clomp.sh
 * --replicates auto's decisions read it so (stats/replicates_answer.c): the runs
 * never need Python, and the shell does not read the table itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure_comparison.h"
#include "suite_table.h"

enum { MAX_CELLS = 256, MAX_LINE = 65536 };

/* One record of the table into BUF: its line, and the lines after it while a
 * quoted cell is still open (clomp keeps a cell's line breaks inside its
 * quotes: a host name with a newline is one record), without the record's
 * own line break. 0 at the end of the file. */
static int read_record(FILE *f, char *buf, size_t size)
{
    size_t used = 0;
    int open = 0;
    buf[0] = '\0';
    while (used + 1 < size && fgets(buf + used, (int)(size - used), f) != NULL) {
        for (const char *p = buf + used; *p != '\0'; p++)
            open ^= *p == '"';   /* "" inside a cell flips twice */
        used += strlen(buf + used);
        if (!open && buf[used - 1] == '\n')
            break;
    }
    if (used == 0)
        return 0;
    while (used > 0 && (buf[used - 1] == '\n' || buf[used - 1] == '\r'))
        buf[--used] = '\0';
    return 1;
}

/* RECORD split into CELLS (in place; a quoted cell's "" is one quote): their count. */
static int split_csv(char *line, char **cells)
{
    int n = 0;
    char *in = line, *out = line;
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
    if (length == 0)
        return 0;   /* an empty run cell is no run (and strstr would find "" forever) */
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += length)
        if ((p == list || p[-1] == ' ') && (p[length] == '\0' || p[length] == ' '))
            return 1;
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
    int columns = read_record(f, header_line, sizeof header_line) ? split_csv(header_line, header) : 0;
    while (read_record(f, line, sizeof line)) {
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
