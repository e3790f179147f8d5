/* clomp-write drop-unfinished BASE (the driver's --resume, run_clomp.sh): the rows of runs that
 * are not in BASE.done (a run a driver from before the record journal, suite/run_guard.sh, left
 * half recorded, or one drop_incomplete_done_runs took back) leave the tables, by their run
 * column, so that the resumed run has its rows once; so does its JSON record.
 *
 * The tables: BASE_*.summary, BASE.csv, .constructs.csv, .target_constructs.csv,
 * .oversubscribed.csv and .runs.csv; each keeps its first row (the column names) and the rows
 * whose run cell (RFC 4180, one record per line: results/csv_columns.awk's reading) is a line of
 * BASE.done, and is rewritten with its own mode (replace_file: never through a link). One that
 * cannot be rewritten stops the resume: one line, exit 2. The records: BASE_<set>.run<N>.json and
 * the profile .run<N>.cali.json, removed when N is not a line of BASE.done. */
#define _GNU_SOURCE   /* getline, strdup */
#include "resume_drop.h"

#include "manifest_writer.h"   /* replace_file */
#include "text_file.h"

#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>   /* memfd_create */
#include <unistd.h>

/* FILE's lines (awk's records: a last line without a newline is one too); -1 when unreadable. */
static int read_lines(const char *file, struct lines *out)
{
    FILE *f = fopen(file, "r");
    if (f == NULL)
        return -1;
    char *line = NULL;
    size_t size = 0;
    ssize_t len;
    while ((len = getline(&line, &size, f)) >= 0) {
        if (len > 0 && line[len - 1] == '\n')
            line[len - 1] = '\0';
        char *copy = strdup(line);
        if (lines_add(out, copy) != 0)
            break;
    }
    int failed = ferror(f) || !feof(f);
    free(line);
    fclose(f);
    return failed ? -1 : 0;
}

static int is_line_of(const struct lines *done, const char *s)
{
    for (size_t i = 0; i < done->n; i++)
        if (strcmp(done->at[i], s) == 0)
            return 1;
    return 0;
}

/* The cell number COLUMN (from 0) of LINE, unquoted as results/csv_columns.awk reads it
 * (csv_cells), malloc'd; NULL when LINE has fewer cells. */
static char *cell(const char *line, long column)
{
    char *copy = strdup(line), **cells = malloc(((size_t)column + 1) * sizeof *cells);
    char *out = NULL;
    if (copy != NULL && cells != NULL && csv_cells(copy, cells, (int)column + 1) > column)
        out = strdup(cells[column]);
    free(cells);
    free(copy);
    return out;
}

/* The column named "run" in the first row (the last such, as awk's at[] keeps it), or -1. */
static long run_column(const char *header)
{
    long found = -1;
    for (long i = 0;; i++) {
        char *name = cell(header, i);
        if (name == NULL)
            return found;
        if (strcmp(name, "run") == 0)
            found = i;
        free(name);
    }
}

/* TABLE rewritten with its first row and its rows of runs in DONE; 0, or -1. */
static int drop_rows(const char *table, const struct lines *done)
{
    struct lines rows = {0};
    if (read_lines(table, &rows) != 0) {
        lines_free(&rows);
        return -1;
    }
    int fd = memfd_create("clomp-rows", 0);   /* in memory, as the driver's $( ) held them */
    FILE *kept = fd < 0 ? NULL : fdopen(fd, "w+");
    if (kept == NULL) {
        if (fd >= 0)
            close(fd);
        lines_free(&rows);
        return -1;
    }
    long column = rows.n ? run_column(rows.at[0]) : -1;
    size_t last = 0, written = 0;   /* the kept rows; the driver's $( ) dropped the trailing empty ones */
    char **keep = calloc(rows.n + 1, sizeof *keep);
    for (size_t i = 0; keep != NULL && i < rows.n; i++) {
        char *run = column >= 0 ? cell(rows.at[i], column) : NULL;
        if (i == 0 || is_line_of(done, run ? run : "")) {
            keep[written++] = rows.at[i];
            if (rows.at[i][0] != '\0')
                last = written;
        }
        free(run);
    }
    int status = keep == NULL ? -1 : 0;
    for (size_t i = 0; status == 0 && i < last; i++)
        if (fprintf(kept, "%s\n", keep[i]) < 0)
            status = -1;
    if (status == 0 && last == 0 && fputc('\n', kept) == EOF)   /* printf '%s\n' "" */
        status = -1;
    if (status == 0 && (fflush(kept) != 0 || fseek(kept, 0, SEEK_SET) != 0 || replace_file(table, fileno(kept)) != 0))
        status = -1;
    free(keep);
    fclose(kept);
    lines_free(&rows);
    return status;
}

/* The names in DIR that begin with PREFIX (then "_") and end with SUFFIX, sorted, as paths. */
static void names_like(const char *dir, const char *prefix, const char *suffix, struct lines *out)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    size_t plen = strlen(prefix), slen = strlen(suffix);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        char *path = NULL;
        if (len >= plen + 1 + slen && strncmp(e->d_name, prefix, plen) == 0 && e->d_name[plen] == '_' &&
            strcmp(e->d_name + len - slen, suffix) == 0 && asprintf(&path, "%s/%s", dir, e->d_name) >= 0)
            lines_add(out, path);
    }
    closedir(d);
    if (out->n > 1)   /* none or one: nothing to sort (and no array when none) */
        qsort(out->at, out->n, sizeof *out->at, by_name);
}

int resume_drop_main(int argc, char **argv)
{
    if (argc != 1 || strrchr(argv[0], '/') == NULL) {
        fprintf(stderr, "usage: clomp-write drop-unfinished DIR/BASE   (--resume: runs not in BASE.done leave its tables)\n");
        return 2;
    }
    const char *base = argv[0], *slash = strrchr(base, '/');
    char *dir = strndup(base, (size_t)(slash - base) + (slash == base)), *done_file = NULL;
    struct lines done = {0}, tables = {0}, records = {0};
    int have_done = asprintf(&done_file, "%s.done", base) >= 0 && read_lines(done_file, &done) == 0;
    names_like(dir, slash + 1, ".summary", &tables);
    static const char *const own[] = {".csv", ".constructs.csv", ".target_constructs.csv", ".oversubscribed.csv",
                                      ".runs.csv"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
        char *path = NULL;
        if (asprintf(&path, "%s%s", base, own[i]) >= 0)
            lines_add(&tables, path);
    }
    int status = 0;
    for (size_t i = 0; status == 0 && i < tables.n; i++) {
        if (access(tables.at[i], F_OK) != 0)
            continue;
        if (!have_done || drop_rows(tables.at[i], &done) != 0) {
            fprintf(stderr, "run_clomp.sh: --resume: cannot rewrite %s\n", tables.at[i]);
            status = 2;
        }
    }
    regex_t run_json;
    if (status == 0 && regcomp(&run_json, "\\.run([0-9]+)(\\.cali)?\\.json$", REG_EXTENDED) == 0) {
        names_like(dir, slash + 1, ".json", &records);
        for (size_t i = 0; i < records.n; i++) {
            const char *name = strrchr(records.at[i], '/') + 1 + strlen(slash + 1) + 1;
            regmatch_t m[2];
            if (strstr(name, ".run") == NULL || regexec(&run_json, name, 2, m, 0) != 0)
                continue;
            char *n = strndup(name + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
            if (n != NULL && !is_line_of(&done, n))
                unlink(records.at[i]);
            free(n);
        }
        regfree(&run_json);
    }
    lines_free(&records);
    lines_free(&tables);
    lines_free(&done);
    free(done_file);
    free(dir);
    return status;
}
