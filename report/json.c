#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Level 0 stands for the document itself, so count[0] can refuse a second
 * top-level value; containers therefore nest at most JSON_MAX_DEPTH - 1 deep. */

void json_start(JsonWriter *w, FILE *out)
{
    w->out = out;
    w->depth = 0;
    w->count[0] = 0;
    w->closer[0] = '\0';
    w->error = 0;
    w->one_line_depth = 0;
}

void json_one_line(JsonWriter *w, int depth)
{
    w->one_line_depth = depth;
}

/* Whether the members of the container at `depth` share its line. */
static int on_one_line(const JsonWriter *w, int depth)
{
    return w->one_line_depth > 0 && depth >= w->one_line_depth;
}

static void indent(const JsonWriter *w, int level)
{
    fputc('\n', w->out);
    for (int i = 0; i < level; i++)
        fputs("  ", w->out);
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
        if (!on_one_line(w, w->depth))
            indent(w, w->depth);
        else if (w->count[w->depth] > 0)
            fputc(' ', w->out);
    }
    if (key) {
        json_put_string(w->out, key, strlen(key), JSON_UTF8_CHECKED);
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
    if (w->count[w->depth] > 0 && !on_one_line(w, w->depth))
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
        json_put_string(w->out, value, strlen(value), JSON_UTF8_CHECKED);
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
