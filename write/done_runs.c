/* --resume's check of the runs marked done (suite/run_guard.sh, drop_incomplete_done_runs): a
 * run marked done that has no line in <base>.runs.csv (the driver's record of it) was cut short
 * by a driver from before the record journal (on a full disk): it is no longer done, and runs
 * again.
 *
 *   clomp-write drop-unrecorded DONE   standard input: the recorded runs, one a line (the run
 *       column of <base>.runs.csv, read by its name in the shell). Each whole line of DONE, its
 *       blanks around it dropped (as the shell's `read` gives it; a last line without its
 *       newline is not read), is kept when it is one of them; an empty one is passed over.
 *
 * Exit 0 every run marked done is recorded (nothing printed); 1 some are not: they are named on
 * stderr in the driver's words, and DONE's new text (the kept runs, one a line) is on stdout;
 * 3 DONE holds a line that is not a run number (1 to 9 digits); 2 usage. A DONE that cannot be
 * read has nothing to drop. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_guard.h"

/* Whether RUN is one of the N lines of RECORDED (each ended by '\0'). */
static int recorded_run(const char *recorded, size_t size, const char *run)
{
    for (size_t at = 0; at < size; at += strlen(recorded + at) + 1)
        if (strcmp(recorded + at, run) == 0)
            return 1;
    return 0;
}

int done_drop_unrecorded(int argc, char **argv)
{
    if (argc != 1) {
        fprintf(stderr, "usage: clomp-write drop-unrecorded DONE   (the recorded runs on stdin)\n");
        return 2;
    }
    /* The recorded runs, each line ended by '\0' in one block. */
    char *recorded = NULL, *line = NULL;
    size_t recorded_size = 0, cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        if (line[n - 1] == '\n')
            line[--n] = '\0';
        char *more = realloc(recorded, recorded_size + (size_t)n + 1);
        if (more == NULL)
            break;
        recorded = more;
        memcpy(recorded + recorded_size, line, (size_t)n + 1);
        recorded_size += (size_t)n + 1;
    }
    FILE *done = fopen(argv[0], "r");
    char *kept = NULL, *dropped = NULL;
    size_t kept_size = 0, dropped_size = 0;
    FILE *keep = open_memstream(&kept, &kept_size), *drop = open_memstream(&dropped, &dropped_size);
    int status = keep == NULL || drop == NULL ? 3 : 0;
    while (status == 0 && done != NULL && (n = getline(&line, &cap, done)) > 0 && line[n - 1] == '\n') {
        char *at = line;
        line[n - 1] = '\0';
        char *run = shell_word(&at, 1);
        size_t len = strlen(run);
        if (len == 0)
            continue;
        if (len > 9 || strspn(run, "0123456789") != len)
            status = 3;
        else if (recorded_run(recorded, recorded_size, run))
            fprintf(keep, "%s\n", run);
        else
            fprintf(drop, "%s%s", ftell(drop) > 0 ? " " : "", run);
    }
    if (done != NULL)
        fclose(done);
    if (keep != NULL)
        fclose(keep);
    if (drop != NULL)
        fclose(drop);
    if (status == 0 && dropped != NULL && dropped[0] != '\0') {
        fprintf(stderr, "run_clomp.sh: --resume: run(s) %s marked done but with incomplete files: running them again\n", dropped);
        fputs(kept != NULL ? kept : "", stdout);
        status = 1;
    }
    free(recorded);
    free(line);
    free(kept);
    free(dropped);
    return status;
}
