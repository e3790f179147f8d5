/* The suite manifest as the driver reads it back (write/manifest_reader.c): by its JSON, never by
 * its line layout (docs/suite-manifest.md). clomp-write's get, entries and head. */
#ifndef CLOMP_SUITE_MANIFEST_READER_H
#define CLOMP_SUITE_MANIFEST_READER_H

#include <stdio.h>

/* Each writes its answer to OUT (stdout for clomp-write's get, entries and head; a buffer for
 * clomp-write manifest, which reads the manifest it rewrites: write/manifest_writer.c).
 * Exit statuses of the readers: 0 answered; 1 the value is absent or null (nothing printed);
 * 3 FILE is unreadable or not one JSON document (one line on stderr). */
enum { READ_FOUND = 0, READ_ABSENT = 1, READ_BAD = 3 };

/* get FILE PATH: the value at PATH (members and array elements, '.'-separated: NAME, an index,
 * or NAME=VALUE, the first object of an array whose member NAME is VALUE): a string's text,
 * anything else compact JSON (", " and ": " between items), then a newline. */
int manifest_get(FILE *out, const char *file, const char *path);
/* entries FILE PATH [KEY]: the array at PATH, one element a line in compact JSON; with KEY, each
 * line starts with the element's member KEY (as get prints it) and a tab. */
int manifest_entries(FILE *out, const char *file, const char *path, const char *key);
/* head FILE: "{" and then every top-level member but the ones each write makes anew (plan, runs,
 * replicates, history, status), in the file's order, one a line as `  "NAME": VALUE,` (compact):
 * what --resume keeps as the suite started. */
int manifest_head(FILE *out, const char *file);

#endif
