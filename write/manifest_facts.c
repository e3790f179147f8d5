/* The facts the driver gives clomp-write manifest, and the JSON values made of them
 * (write/manifest_facts.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "manifest_facts.h"

#include "../report/json.h"   /* json_put_string: report/json_string.c */

#define MAX_INPUT (64L << 20)

/* Standard input read whole and cut into facts; 0, or -1 (a read error, out of memory, or more than
 * 64 MiB), nothing then left allocated. */
int read_facts(struct facts *f)
{
    size_t size = 0, cap = 1 << 16;
    f->at = NULL;
    f->n = 0;
    f->text = malloc(cap + 1);
    if (f->text == NULL)
        return -1;
    for (;;) {
        if (size == cap && cap >= (size_t)MAX_INPUT) {
            /* full at the cap: the end of the input, or too much */
            char probe;
            ssize_t got = read(STDIN_FILENO, &probe, 1);
            if (got < 0 && errno == EINTR)
                continue;
            if (got != 0)
                goto fail;
            break;
        }
        if (size == cap) {
            char *more = realloc(f->text, 2 * cap + 1);
            if (more == NULL)
                goto fail;
            f->text = more;
            cap *= 2;
        }
        ssize_t got = read(STDIN_FILENO, f->text + size, cap - size);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            goto fail;
        if (got == 0)
            break;
        size += (size_t)got;
    }
    f->text[size] = '\0';
    size_t records = 1;
    for (size_t k = 0; k < size; k++)
        records += f->text[k] == '\0';
    f->at = calloc(records, sizeof *f->at);
    if (f->at == NULL)
        goto fail;
    for (char *p = f->text, *next; p < f->text + size; p = next) {
        char *tab = strchr(p, '\t');
        next = p + strlen(p) + 1;   /* before the tab is cut */
        if (*p == '\0')
            continue;
        if (tab != NULL)
            *tab = '\0';
        f->at[f->n++] = (struct fact){p, tab == NULL ? "" : tab + 1};
    }
    return 0;
fail:
    free(f->text);
    f->text = NULL;
    return -1;
}

/* The last value of fact NAME, or "" when there is none. */
const char *fact(const struct facts *f, const char *name)
{
    for (size_t k = f->n; k-- > 0;)
        if (strcmp(f->at[k].name, name) == 0)
            return f->at[k].value;
    return "";
}
int has_fact(const struct facts *f, const char *name)
{
    for (size_t k = 0; k < f->n; k++)
        if (strcmp(f->at[k].name, name) == 0)
            return 1;
    return 0;
}

/* The first N bytes of S as a JSON string, bytes as given (report/json_string.c). */
void put_str_n(FILE *out, const char *s, size_t n)
{
    json_put_string(out, s, n, JSON_BYTES_AS_GIVEN);
}
void put_str(FILE *out, const char *s)
{
    put_str_n(out, s, strlen(s));
}

/* S as a JSON number when it is a plain decimal, else null. */
void put_num(FILE *out, const char *s)
{
    const char *p = s + (*s == '-'), *digits = p;
    size_t whole = strspn(p, "0123456789");
    p += whole;
    if (*p == '.' && strspn(p + 1, "0123456789") > 0)
        p += 1 + strspn(p + 1, "0123456789");
    if (whole == 0 || *p != '\0') {
        fputs("null", out);
        return;
    }
    for (; whole > 1 && *digits == '0'; whole--)
        digits++;
    fprintf(out, "%s%s", *s == '-' ? "-" : "", digits);
}

/* The values of every fact NAME in F->at[FROM, TO), as a JSON array of strings. */
void put_strs(FILE *out, const struct facts *f, size_t from, size_t to, const char *name)
{
    const char *sep = "";
    putc('[', out);
    for (size_t k = from; k < to; k++)
        if (strcmp(f->at[k].name, name) == 0) {
            fputs(sep, out);
            put_str(out, f->at[k].value);
            sep = ", ";
        }
    putc(']', out);
}
