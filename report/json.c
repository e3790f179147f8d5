#include "json.h"

#include <math.h>
#include <stdlib.h>

/* Level 0 stands for the document itself, so count[0] can refuse a second
 * top-level value; containers therefore nest at most JSON_MAX_DEPTH - 1 deep. */

void json_start(JsonWriter *w, FILE *out)
{
    w->out = out;
    w->depth = 0;
    w->count[0] = 0;
    w->closer[0] = '\0';
    w->error = 0;
}

static void indent(const JsonWriter *w, int level)
{
    fputc('\n', w->out);
    for (int i = 0; i < level; i++)
        fputs("  ", w->out);
}

/* Length of the well-formed UTF-8 sequence at p, or 0 if there is none.
 * Overlong forms, surrogates and code points past U+10FFFF are ill-formed
 * (RFC 3629) and would make the document invalid for strict readers. */
static int utf8_length(const unsigned char *p)
{
    static const unsigned long smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    int n;
    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) /* 0xc0 and 0xc1 only start overlong forms */
        n = 2;
    else if (p[0] >= 0xe0 && p[0] <= 0xef)
        n = 3;
    else if (p[0] >= 0xf0 && p[0] <= 0xf4)
        n = 4;
    else
        return 0;
    unsigned long cp = p[0] & (0x7f >> n);
    for (int i = 1; i < n; i++) {
        /* The terminating NUL fails this test, so truncation is caught too. */
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if (cp < smallest[n] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        return 0;
    return n;
}

static void write_string(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    while (*p) {
        int n = utf8_length(p);
        if (n > 1) {
            fwrite(p, 1, (size_t)n, out);
            p += n;
            continue;
        }
        unsigned char c = *p++;
        /* As an escape, so a reader of the file can tell a replaced byte
         * from a genuine U+FFFD in the input, which passes through raw. */
        if (n == 0)
            fputs("\\ufffd", out);
        else if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c == '\r')
            fputs("\\r", out);
        else if (c == '\b')
            fputs("\\b", out);
        else if (c == '\f')
            fputs("\\f", out);
        else if (c < 0x20 || c == 0x7f) /* DEL is legal JSON but invisible and terminal-hostile */
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* Checks that a value may go here and writes what precedes it: the comma,
 * the indentation and the key. Returns 0 when the caller may write it. */
static int begin_value(JsonWriter *w, const char *key)
{
    if (w->error)
        return -1;
    int in_object = w->closer[w->depth] == '}';
    if ((key != NULL) != in_object || (w->depth == 0 && w->count[0] > 0)) {
        w->error = 1;
        return -1;
    }
    if (w->depth > 0) {
        if (w->count[w->depth] > 0)
            fputc(',', w->out);
        indent(w, w->depth);
    }
    if (key) {
        write_string(w->out, key);
        fputs(": ", w->out);
    }
    w->count[w->depth]++;
    return 0;
}

static void open_container(JsonWriter *w, const char *key, char opener, char closer)
{
    if (!w->error && w->depth + 1 >= JSON_MAX_DEPTH)
        w->error = 1;
    if (begin_value(w, key) != 0)
        return;
    fputc(opener, w->out);
    w->depth++;
    w->count[w->depth] = 0;
    w->closer[w->depth] = closer;
}

static void close_container(JsonWriter *w, char closer)
{
    if (w->error)
        return;
    if (w->depth == 0 || w->closer[w->depth] != closer) {
        w->error = 1;
        return;
    }
    /* An empty container stays on one line: {} rather than {\n}. */
    if (w->count[w->depth] > 0)
        indent(w, w->depth - 1);
    fputc(closer, w->out);
    w->depth--;
}

void json_object_begin(JsonWriter *w, const char *key) { open_container(w, key, '{', '}'); }
void json_object_end(JsonWriter *w) { close_container(w, '}'); }
void json_array_begin(JsonWriter *w, const char *key) { open_container(w, key, '[', ']'); }
void json_array_end(JsonWriter *w) { close_container(w, ']'); }

void json_string(JsonWriter *w, const char *key, const char *value)
{
    if (begin_value(w, key) != 0)
        return;
    if (value)
        write_string(w->out, value);
    else
        fputs("null", w->out);
}

void json_number(JsonWriter *w, const char *key, double value)
{
    if (begin_value(w, key) != 0)
        return;
    if (!isfinite(value)) {
        fputs("null", w->out);
        return;
    }
    /* %.17g always reads back exactly but shows noise such as
     * 0.10000000000000001; fewer digits are used whenever they suffice.
     * %g never yields inf/nan here and its forms ("-0", "1e-05") are JSON. */
    char text[32];
    for (int precision = 15; precision <= 17; precision++) {
        snprintf(text, sizeof text, "%.*g", precision, value);
        if (strtod(text, NULL) == value)
            break;
    }
    fputs(text, w->out);
}

void json_integer(JsonWriter *w, const char *key, long long value)
{
    if (begin_value(w, key) == 0)
        fprintf(w->out, "%lld", value);
}

void json_bool(JsonWriter *w, const char *key, int value)
{
    if (begin_value(w, key) == 0)
        fputs(value ? "true" : "false", w->out);
}

void json_null(JsonWriter *w, const char *key)
{
    if (begin_value(w, key) == 0)
        fputs("null", w->out);
}

void json_document_begin(JsonWriter *w, FILE *out, const char *schema, long version)
{
    json_start(w, out);
    json_object_begin(w, NULL);
    json_string(w, "schema", schema);
    json_integer(w, "schema_version", version);
}

int json_finish(JsonWriter *w)
{
    if (w->error || w->depth != 0)
        return -1;
    fputc('\n', w->out);
    /* fflush reports errors of bytes still buffered; ferror those already gone. */
    if (fflush(w->out) != 0 || ferror(w->out))
        return -1;
    return 0;
}
