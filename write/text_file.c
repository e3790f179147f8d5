/* A stream read whole, and a list of lines, for the clomp-write subcommands that read a file or their standard input
 * at once (the failure reasons, the run states of the manifest, the plan, --resume's tables); the CSV reading of
 * the manifest's run rows and --resume's tables; a variable's value; the sort of names. */
#include <stdlib.h>
#include <string.h>

#include "text_file.h"

char *read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 12;
    char *text = malloc(cap);
    *len = 0;
    if (text == NULL)
        return NULL;
    size_t got;
    while (f != NULL && (got = fread(text + *len, 1, cap - *len - 1, f)) > 0) {
        *len += got;
        if (cap - *len - 1 == 0) {
            char *more = realloc(text, cap *= 2);
            if (more == NULL)
                break;
            text = more;
        }
    }
    text[*len] = '\0';
    return text;
}

int lines_add(struct lines *l, char *line)
{
    if (line == NULL)
        return -1;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **at = realloc(l->at, cap * sizeof *at);
        if (at == NULL)
            return free(line), -1;
        l->at = at, l->cap = cap;
    }
    l->at[l->n++] = line;
    return 0;
}

void lines_free(struct lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->at[i]);
    free(l->at);
    *l = (struct lines){0};
}

int csv_cells(char *line, char **cells, int max)
{
    int n = 0, quoted = 0;
    char *to = line;
    cells[n++] = to;
    for (const char *p = line; *p != '\0'; p++) {
        if (quoted && *p == '"' && p[1] == '"') {
            *to++ = *p++;
        } else if (*p == '"') {
            quoted = !quoted;
        } else if (*p == ',' && !quoted) {
            *to++ = '\0';
            if (n == max)
                return n;
            cells[n++] = to;
        } else {
            *to++ = *p;
        }
    }
    *to = '\0';
    return n;
}

const char *env_or_empty(const char *name)
{
    const char *value = getenv(name);
    return value ? value : "";
}

int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}
