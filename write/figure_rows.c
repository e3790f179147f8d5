/* The catalogue of figures for the suite's shell (issue 43; docs/output.md, "Figures"):
 *   clomp-write figures SET COLUMN... < (clomp --list-figures)
 * prints one line per figure whose sets column lists SET (comma-separated), the named COLUMNs of
 * it joined by '|', in the catalogue's order; so that no figure list is written in the suite.
 * The listing is tab-separated, its first line the columns' names ("# " before the first); a
 * name given twice is its last column. As suite/catalogue.sh's awk did (tests/figure_rows.t
 * keeps it): a COLUMN the listing lacks gives the whole line, a line short of it an empty field,
 * and COLUMN arguments are split at blanks. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure_rows.h"

enum { MAX_FIELDS = 256, MAX_WANTED = 64 };

/* LINE split at its tabs in place (LINE's newline cut): the number of fields. */
static int split_tabs(char *line, char *field[])
{
    int n = 0;
    line[strcspn(line, "\n")] = '\0';
    field[n++] = line;
    for (char *tab = strchr(line, '\t'); tab && n < MAX_FIELDS; tab = strchr(tab + 1, '\t')) {
        *tab = '\0';
        field[n++] = tab + 1;
    }
    return n;
}

int figure_rows_main(int argc, char **argv)
{
    char *line = NULL, *header = NULL, *field[MAX_FIELDS], *name[MAX_FIELDS], *wanted[MAX_WANTED];
    char *ring, *words;
    int column[MAX_WANTED], sets = -1, n_wanted = 0, status = 0;
    size_t cap = 0, length = 0, used = 0;
    if (argc < 1) {
        fprintf(stderr, "usage: clomp-write figures SET COLUMN... < (clomp --list-figures)\n");
        return 2;
    }
    for (int i = 1; i < argc; i++)
        length += strlen(argv[i]) + 1;
    words = calloc(1, length + 1);
    ring = malloc(strlen(argv[0]) + 3);
    if (!words || !ring) {
        free(words);
        free(ring);
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        size_t size = strlen(argv[i]);
        memcpy(words + used, argv[i], size);
        words[used + size] = ' ';
        used += size + 1;
    }
    for (char *w = strtok(words, " \t\n"); w && n_wanted < MAX_WANTED; w = strtok(NULL, " \t\n"))
        wanted[n_wanted++] = w;
    snprintf(ring, strlen(argv[0]) + 3, ",%s,", argv[0]);
    while (getline(&line, &cap, stdin) > 0) {
        char *whole, *listed;
        const char *sets_field;
        int n;
        if (!header) {
            int names;
            header = strdup(line);
            if (!header) {
                status = 1;
                break;
            }
            names = split_tabs(header, name);
            for (int i = 0; i < names; i++)
                if (strncmp(name[i], "# ", 2) == 0)
                    name[i] += 2;
            for (int w = 0; w < n_wanted; w++) {
                column[w] = -1;
                for (int i = 0; i < names; i++)
                    if (strcmp(name[i], wanted[w]) == 0)
                        column[w] = i;
            }
            for (int i = 0; i < names; i++)
                if (strcmp(name[i], "sets") == 0)
                    sets = i;
            continue;
        }
        line[strcspn(line, "\n")] = '\0';
        whole = strdup(line);
        if (!whole) {
            status = 1;
            break;
        }
        n = split_tabs(line, field);
        sets_field = sets < 0 ? whole : sets < n ? field[sets] : "";
        listed = malloc(strlen(sets_field) + 3);
        if (!listed) {
            free(whole);
            status = 1;
            break;
        }
        snprintf(listed, strlen(sets_field) + 3, ",%s,", sets_field);
        if (strstr(listed, ring)) {
            for (int w = 0; w < n_wanted; w++)
                printf("%s%s", w ? "|" : "", column[w] < 0 ? whole : column[w] < n ? field[column[w]] : "");
            printf("\n");
        }
        free(listed);
        free(whole);
    }
    free(line);
    free(header);
    free(words);
    free(ring);
    return status;
}
