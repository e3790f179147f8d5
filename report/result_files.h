/* Where the reports go: the text report to stdout (stderr when the JSON or
 * CSV has stdout, a sink under --quiet), --json and --csv to temporary files
 * (mkstemp, beside FILE) renamed over FILE only when complete; a device or
 * FIFO is written in place, never replaced. Calls the writers; writes nothing of
 * its own. */
#ifndef CLOMP_RESULT_FILES_H
#define CLOMP_RESULT_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "../measure/record.h"

#define RESULT_PATH_MAX 4096

typedef struct ResultFile {
    const char *option;    /* "--json", "--csv" */
    const char *path;      /* NULL: not asked for */
    int (*write)(FILE *out, const RunRecord *record);
    FILE *file;            /* NULL once written (or never opened) */
    int in_place;          /* a device or FIFO (or our own stdout): written where it is, never replaced */
    char tmp[RESULT_PATH_MAX];
    char *pending;         /* names tmp while it exists, for a signal handler to remove */
} ResultFile;

typedef struct Outputs {
    FILE *text;        /* the report: stdout, or stderr when JSON or CSV has stdout */
    FILE *report;      /* header and blocks: `text`, or under --quiet a sink (NULL until open_report) */
    ResultFile json;
    ResultFile csv;
} Outputs;

/* `pending[2]`: where the temporary files' names are kept while they exist
 * (for signal handlers). 0, or an exit status with the reason in `why`. */
int open_outputs(Outputs *o, const RunSetup *run, char pending[2][RESULT_PATH_MAX], char *why, size_t why_size);

/* Under --quiet, the sink the header and blocks go to: opened only once the
 * mesh is built, so that --quiet never moves the heap under it (the pages
 * its locality counts would differ). 0, or an exit status with the reason. */
int open_report(Outputs *o, char *why, size_t why_size);

/* Writes the files that were asked for from `record`; a file that cannot
 * be written is a resource failure (said on stderr). */
int close_outputs(Outputs *o, const RunRecord *record);

/* clomp --list-figures: the catalogue of figures on OUT, as the text
 * writer's table or (JSON 1) the JSON writer's document; 0, or -1 when the
 * JSON could not be written. */
int write_figure_list(FILE *out, int json);

#endif
