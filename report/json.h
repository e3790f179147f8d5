/* A small streaming JSON writer for --json: correct escaping of any text
 * (host names, environment values, flags), numbers that stay valid JSON
 * (non-finite values become null), and pretty-printing a person can read. */
#ifndef CLOMP_JSON_H
#define CLOMP_JSON_H

#include <stdio.h>

#define JSON_MAX_DEPTH 32

typedef struct JsonWriter {
    FILE *out;
    int depth;
    int count[JSON_MAX_DEPTH];     /* members written so far at each open level */
    char closer[JSON_MAX_DEPTH];   /* '}' or ']' for each open level */
    int error;                     /* misuse (bad nesting, key inside an array, ...) or a write error */
    int one_line_depth;            /* containers this deep or deeper on one line; 0: never (json_one_line) */
} JsonWriter;

void json_start(JsonWriter *w, FILE *out);
/* A document of its own: json_start, its top-level object, and its `schema`
 * and `schema_version` members, as every document clomp writes begins. */
void json_document_begin(JsonWriter *w, FILE *out, const char *schema, long version);

/* Containers opened at `depth` (the document's top-level value is depth 1)
 * or deeper are written on one line each: a table's rows stay readable. */
void json_one_line(JsonWriter *w, int depth);

/* `key` names the member inside an object and must be NULL inside an array
 * and for the top-level value; anything else sets w->error. */
void json_object_begin(JsonWriter *w, const char *key);
void json_object_end(JsonWriter *w);
void json_array_begin(JsonWriter *w, const char *key);
void json_array_end(JsonWriter *w);

/* value NULL writes null. Any bytes: valid UTF-8 passes through, '"', '\\'
 * and control characters are escaped, each byte of an invalid UTF-8
 * sequence becomes U+FFFD. */
void json_string(JsonWriter *w, const char *key, const char *value);
/* Shortest text that reads back as the same double (%.17g at most); NaN and
 * infinities, which JSON cannot express, are written as null. */
void json_number(JsonWriter *w, const char *key, double value);
void json_integer(JsonWriter *w, const char *key, long long value);
void json_bool(JsonWriter *w, const char *key, int value);
void json_null(JsonWriter *w, const char *key);

/* The LEN bytes at S as a JSON string: '"', '\\', \n, \t and \r escaped as themselves and the
 * other control characters and DEL as \u00XX; JSON_UTF8_CHECKED (json_string's) also writes \b
 * and \f as themselves and each byte of an invalid UTF-8 sequence as \ufffd, JSON_BYTES_AS_GIVEN
 * (the suite manifest's, its bytes as they have always been) passes every other byte through
 * (report/json_string.c: alone of the benchmark, clomp-write links it). */
enum json_bytes { JSON_UTF8_CHECKED, JSON_BYTES_AS_GIVEN };
void json_put_string(FILE *out, const char *s, size_t len, enum json_bytes bytes);

/* Ends the document with a newline and flushes. Returns 0, or -1 when the
 * nesting was left open, the writer was misused, or a write failed. */
int json_finish(JsonWriter *w);

#endif
