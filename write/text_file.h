/* A stream read whole, and a growing list of lines (write/text_file.c): what the clomp-write
 * subcommands share. */
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

#endif
