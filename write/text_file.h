/* A stream read whole (write/text_file.c): the one reader the clomp-write subcommands share. */
#ifndef CLOMP_WRITE_TEXT_FILE_H
#define CLOMP_WRITE_TEXT_FILE_H

#include <stdio.h>

/* All of F, NUL-terminated, its length in *LEN (a NULL F reads as empty); NULL when out of memory. */
char *read_all(FILE *f, size_t *len);

#endif
