/* A stream read whole, a growing list of lines, a CSV line's cells, a variable's value and the
 * sort of names (write/text_file.c): what the clomp-write subcommands share. */
#ifndef CLOMP_WRITE_TEXT_FILE_H
#define CLOMP_WRITE_TEXT_FILE_H

#include <stdio.h>

/* All of F, NUL-terminated, its length in *LEN (a NULL F reads as empty); NULL when out of memory. */
char *read_all(FILE *f, size_t *len);

/* Lines a list owns (each malloc'd). */
struct lines {
    char **at;
    size_t n, cap;
};
/* LINE appended, owned by the list from here (freed when it cannot be kept); -1 when LINE is NULL
 * or out of memory. */
int lines_add(struct lines *l, char *line);
/* Every line and the list freed; L is empty again. */
void lines_free(struct lines *l);

/* LINE's cells (RFC 4180, one record a line, as results/csv_columns.awk splits them: "" inside
 * quotes is one "), cut and unquoted in place, their starts in CELLS; how many (1 to MAX; a line
 * with more cells ends at the MAXth's end). */
int csv_cells(char *line, char **cells, int max);

/* The environment variable NAME's value, "" when unset. */
const char *env_or_empty(const char *name);

/* qsort's order of strings (char *), byte by byte. */
int by_name(const void *a, const void *b);

#endif
