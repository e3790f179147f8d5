/* The suite manifest read back by its JSON (write/manifest_reader.h), whatever its layout (the
 * driver once read it by lines: sed on `  "plan": [`). The whole file is checked to be one JSON
 * document (RFC 8259) before anything is answered; a value kept is copied token for token. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "manifest_reader.h"

#define MAX_BYTES (64L << 20)   /* a manifest is a few hundred bytes a run */
#define MAX_DEPTH 64

struct doc {
    const char *file;
    char *text;          /* NUL-terminated; no NUL inside */
    const char *error;   /* the first error's words, and where */
    long at;
};

static const char *ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

static const char *fail_at(struct doc *d, const char *p, const char *why)
{
    if (d->error == NULL) {
        d->error = why;
        d->at = (long)(p - d->text);
    }
    return NULL;
}

static const char *skip_string(struct doc *d, const char *p)   /* P at its '"' */
{
    for (p++;; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"')
            return p + 1;
        if (c == '\0')
            return fail_at(d, p, "a string without its closing quote");
        if (c < 0x20)
            return fail_at(d, p, "a control character in a string");
        if (c != '\\')
            continue;
        p++;
        if (*p == 'u') {
            for (int k = 1; k <= 4; k++)
                if (!isxdigit((unsigned char)p[k]))
                    return fail_at(d, p, "a \\u escape without four hex digits");
            p += 4;
        } else if (*p == '\0' || strchr("\"\\/bfnrt", *p) == NULL) {
            return fail_at(d, p, "an unknown escape in a string");
        }
    }
}

static const char *skip_digits(const char *p)
{
    while (isdigit((unsigned char)*p))
        p++;
    return p;
}

static const char *skip_number(struct doc *d, const char *p)
{
    const char *start = p;
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (isdigit((unsigned char)*p))
        p = skip_digits(p);
    else
        return fail_at(d, start, "not a value");
    if (*p == '.') {
        if (!isdigit((unsigned char)p[1]))
            return fail_at(d, p, "a number without digits after its point");
        p = skip_digits(p + 1);
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return fail_at(d, p, "a number without digits in its exponent");
        p = skip_digits(p);
    }
    return p;
}

/* Past the value at P (after any white space), or NULL (d->error says why). */
static const char *skip_value(struct doc *d, const char *p, int depth) // NOLINT(misc-no-recursion): nesting, at most 64 deep
{
    p = ws(p);
    if (depth > MAX_DEPTH)
        return fail_at(d, p, "nested deeper than 64");
    if (*p == '"')
        return skip_string(d, p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = ws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (close == '}') {
                if (*p != '"' || (p = skip_string(d, p)) == NULL)   /* a bad name's own error comes first */
                    return fail_at(d, p, "a member without a quoted name");
                if (*(p = ws(p)) != ':')
                    return fail_at(d, p, "a member name without its ':'");
                p++;
            }
            if ((p = skip_value(d, p, depth + 1)) == NULL)
                return NULL;
            if (*(p = ws(p)) == close)
                return p + 1;
            if (*p != ',')
                return fail_at(d, p, close == '}' ? "an object without ',' or '}' here" : "an array without ',' or ']' here");
            p = ws(p + 1);
        }
    }
    static const char *const literals[] = {"true", "false", "null"};
    for (size_t k = 0; k < sizeof literals / sizeof *literals; k++)
        if (strncmp(p, literals[k], strlen(literals[k])) == 0)
            return p + strlen(literals[k]);
    return skip_number(d, p);
}

static int say_bad(const struct doc *d, const char *why)
{
    fprintf(stderr, "clomp-write: %s: %s\n", d->file, why);
    return READ_BAD;
}

/* FILE read whole and checked to be one JSON document; READ_FOUND, or READ_BAD said. */
static int load(struct doc *d, const char *file)
{
    memset(d, 0, sizeof *d);
    d->file = file;
    int fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return say_bad(d, errno == ELOOP ? "a symbolic link: not read (refused)" : strerror(errno));
    struct stat st;
    int refused = fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_BYTES;
    d->text = refused ? NULL : calloc((size_t)st.st_size + 1, 1);
    size_t have = 0;
    for (ssize_t got = 1; d->text != NULL && got > 0 && have < (size_t)st.st_size; have += got > 0 ? (size_t)got : 0)
        got = read(fd, d->text + have, (size_t)st.st_size - have);
    close(fd);
    if (refused || d->text == NULL || have != (size_t)st.st_size)
        return say_bad(d, refused ? "not a regular file of at most 64 MiB: not read (refused)"
                          : d->text == NULL ? "out of memory" : "could not be read whole");
    d->text[have] = '\0';
    if (memchr(d->text, '\0', have) != NULL)
        return say_bad(d, "holds a NUL byte: not a JSON document");
    const char *end = skip_value(d, d->text, 0);
    if (end != NULL && *ws(end) != '\0')
        fail_at(d, ws(end), "more after the document");
    if (d->error != NULL) {
        char why[160];
        snprintf(why, sizeof why, "not a JSON document (byte %ld: %s)", d->at + 1, d->error);
        return say_bad(d, why);
    }
    return READ_FOUND;
}

static unsigned hex4(const char *p)
{
    char digits[5] = {p[0], p[1], p[2], p[3], '\0'};
    return (unsigned)strtoul(digits, NULL, 16);
}

static void put_utf8(FILE *out, unsigned cp)
{
    int more = cp < 0x80 ? 0 : cp < 0x800 ? 1 : cp < 0x10000 ? 2 : 3;   /* continuation bytes */
    static const unsigned lead[] = {0x00, 0xc0, 0xe0, 0xf0};
    putc((int)(lead[more] | cp >> (6 * more)), out);
    for (int k = more - 1; k >= 0; k--)
        putc((int)(0x80 | (cp >> (6 * k) & 0x3f)), out);
}

/* The text of the (checked) string at P, escapes decoded to UTF-8; -1 at a \u0000, else 0. */
static int put_string(FILE *out, const char *p)
{
    for (p++; *p != '"'; p++) {
        if (*p != '\\') {
            putc(*p, out);
            continue;
        }
        p++;
        const char *plain = strchr("bfnrt", *p);
        if (plain != NULL) {
            putc("\b\f\n\r\t"[plain - "bfnrt"], out);
        } else if (*p == 'u') {
            unsigned cp = hex4(p + 1);
            p += 4;
            if (cp >= 0xd800 && cp < 0xdc00 && p[1] == '\\' && p[2] == 'u' && hex4(p + 3) >= 0xdc00 && hex4(p + 3) < 0xe000) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (hex4(p + 3) - 0xdc00);
                p += 6;
            }
            if (cp == 0)
                return -1;
            put_utf8(out, cp);
        } else {
            putc(*p, out);   /* " \ / */
        }
    }
    return 0;
}

/* The (checked) value from P to END in compact JSON: no white space outside strings, one space
 * after each ',' and ':' (Python's json.dumps, and the driver's own layout). */
static void put_compact(FILE *out, const char *p, const char *end)
{
    for (int in_string = 0; p < end; p++) {
        if (in_string) {
            putc(*p, out);
            if (*p == '\\')
                putc(*++p, out);
            else if (*p == '"')
                in_string = 0;
        } else if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            putc(*p, out);
            in_string = *p == '"';
            if (*p == ',' || *p == ':')
                putc(' ', out);
        }
    }
}

/* A value as get prints it: a string's text, anything else compact; -1 at a \u0000. */
static int put_value(FILE *out, struct doc *d, const char *p)
{
    if (*p == '"')
        return put_string(out, p);
    put_compact(out, p, skip_value(d, p, 0));
    return 0;
}

/* Whether the value at P prints (put_value) as WANT. */
static int value_is(struct doc *d, const char *p, const char *want)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    if (mem == NULL)
        return 0;
    int bad = put_value(mem, d, p);
    fclose(mem);
    int same = bad == 0 && text != NULL && strlen(text) == size && strcmp(text, want) == 0;
    free(text);
    return same;
}

/* The first item of the object or array at P, or NULL when empty; the next after ITEM, or NULL
 * after the last. An object's item is a member's name (its value: member_value). */
static const char *first_item(const char *p)
{
    p = ws(p + 1);
    return *p == '}' || *p == ']' ? NULL : p;
}
static const char *member_value(struct doc *d, const char *name)
{
    return ws(ws(skip_string(d, name)) + 1);
}
static const char *next_item(struct doc *d, const char *item, int in_object)
{
    const char *p = ws(skip_value(d, in_object ? member_value(d, item) : item, 0));
    return *p == ',' ? ws(p + 1) : NULL;
}

/* The value of member NAME of the object at P, or NULL. */
static const char *member(struct doc *d, const char *p, const char *name)
{
    if (*p != '{')
        return NULL;
    for (const char *item = first_item(p); item != NULL; item = next_item(d, item, 1))
        if (value_is(d, item, name))
            return member_value(d, item);
    return NULL;
}

/* One step of a path from the value at P: a member's name, an array's index, or NAME=VALUE. */
static const char *step(struct doc *d, const char *p, const char *segment)
{
    if (*p == '{')
        return member(d, p, segment);
    if (*p != '[')
        return NULL;
    const char *equals = strchr(segment, '=');
    char *end = NULL;
    long index = equals == NULL && isdigit((unsigned char)*segment) ? strtol(segment, &end, 10) : -1;
    if (equals == NULL && (end == NULL || *end != '\0'))
        return NULL;
    char name[256];
    if (equals != NULL)
        snprintf(name, sizeof name, "%.*s", (int)(equals - segment), segment);
    long k = 0;
    for (const char *item = first_item(p); item != NULL; item = next_item(d, item, 0), k++)
        if (equals == NULL ? k == index : member(d, item, name) != NULL && value_is(d, member(d, item, name), equals + 1))
            return item;
    return NULL;
}

/* The value at PATH ("" is the document), or NULL when absent or null. */
static const char *at_path(struct doc *d, const char *path)
{
    const char *p = ws(d->text);
    char segment[512];
    while (p != NULL && *path != '\0') {
        size_t n = strcspn(path, ".");
        if (n >= sizeof segment)
            return NULL;
        snprintf(segment, sizeof segment, "%.*s", (int)n, path);
        path += n + (path[n] == '.');
        p = step(d, p, segment);
    }
    return p == NULL || strncmp(p, "null", 4) == 0 ? NULL : p;
}

int manifest_get(FILE *out, const char *file, const char *path)
{
    struct doc d;
    int status = load(&d, file);
    const char *p = status == READ_FOUND ? at_path(&d, path) : NULL;
    status = status == READ_FOUND && p == NULL ? READ_ABSENT : status;
    char *text = NULL;
    size_t size = 0;
    FILE *mem = p == NULL ? NULL : open_memstream(&text, &size);
    if (mem != NULL) {
        int bad = put_value(mem, &d, p);
        fclose(mem);
        if (bad != 0 || strlen(text) != size)
            status = say_bad(&d, "the value holds a NUL character (\\u0000): not printed");
        else
            fprintf(out, "%s\n", text);
    }
    free(text);
    free(d.text);
    return status;
}

int manifest_entries(FILE *out, const char *file, const char *path, const char *key)
{
    struct doc d;
    int status = load(&d, file);
    const char *p = status == READ_FOUND ? at_path(&d, path) : NULL;
    status = status == READ_FOUND && p == NULL ? READ_ABSENT : status;
    if (p != NULL && *p != '[')
        status = say_bad(&d, "the value asked for is not an array");
    else if (p != NULL) {
        for (const char *item = first_item(p); item != NULL; item = next_item(&d, item, 0)) {
            const char *k = key == NULL ? NULL : member(&d, item, key);
            if (k != NULL && put_value(out, &d, k) != 0)
                status = READ_BAD;
            if (key != NULL)
                putc('\t', out);
            put_compact(out, item, skip_value(&d, item, 0));
            putc('\n', out);
        }
    }
    free(d.text);
    return status;
}

int manifest_head(FILE *out, const char *file)
{
    static const char *const made_anew[] = {"plan", "runs", "replicates", "history", "status"};
    struct doc d;
    int status = load(&d, file);
    const char *p = status == READ_FOUND ? ws(d.text) : NULL;
    if (p != NULL && *p != '{')
        status = say_bad(&d, "not a JSON object");
    else if (p != NULL) {
        fprintf(out, "{\n");
        for (const char *item = first_item(p); item != NULL; item = next_item(&d, item, 1)) {
            int kept = 1;
            for (size_t k = 0; k < sizeof made_anew / sizeof *made_anew; k++)
                kept = kept && !value_is(&d, item, made_anew[k]);
            if (!kept)
                continue;
            const char *value = member_value(&d, item);
            fprintf(out, "  ");
            put_compact(out, item, skip_string(&d, item));
            fprintf(out, ": ");
            put_compact(out, value, skip_value(&d, value, 0));
            fprintf(out, ",\n");
        }
    }
    free(d.text);
    return status;
}
