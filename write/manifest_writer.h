/* The suite manifest as the driver writes it (write/manifest_writer.c): clomp-write manifest. */
#ifndef CLOMP_SUITE_MANIFEST_WRITER_H
#define CLOMP_SUITE_MANIFEST_WRITER_H

/* clomp-write manifest FILE | manifest --plan (ARGC, ARGV: the words after "manifest"): the
 * manifest written whole from the driver's facts on standard input, or the plan's entries printed.
 * Exit 0 written; 1 refused or a write failed (one line on stderr); 2 usage. */
int manifest_write(int argc, char **argv);

/* clomp-write replace (write/clomp_write.c): FROM's bytes become FILE, through a new private file
 * renamed over it, never through a link; 0, or 1 with one line on stderr. */
int replace_file(const char *file, int from);

#endif
