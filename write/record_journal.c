/* The record's undo journal (suite/run_guard.sh, record_run): before the
 * driver appends a run's record to the suite's files it writes, synced and
 * renamed into place (clomp-write replace), the run's number and the size of
 * each file it appends to; the journal goes once the run is marked done. A
 * write that fails, or a driver killed (or a node that lost power) in
 * between, leaves the files as the journal says they were: undo puts them
 * back. No file is read for its text.
 *
 *   clomp-write journal BASE RUN SUFFIX...   the journal on stdout: "run RUN",
 *       then "SIZE SUFFIX" for each file BASE+SUFFIX ("-": none yet; the name
 *       itself, a link included, is measured: lstat).
 *   clomp-write undo BASE JOURNAL   when JOURNAL exists and its run is not in
 *       BASE.done (a whole line), each file back to its size (truncated; "-":
 *       removed); then JOURNAL goes. A line whose suffix is not made of
 *       [A-Za-z0-9_.] is passed over, as is a last line without its newline
 *       (a journal cut while written).
 *
 * Exit 0; 2 usage; 3 JOURNAL is not a journal, 4 a file cannot be put back:
 * then one line on stdout, the driver's message after "--resume: ", and the
 * journal stays. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run_guard.h"

int record_journal_write(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: clomp-write journal BASE RUN SUFFIX...\n");
        return 2;
    }
    printf("run %s\n", argv[1]);
    for (int i = 2; i < argc; i++) {
        char path[8192];
        struct stat st;
        snprintf(path, sizeof path, "%s%s", argv[0], argv[i]);
        if (lstat(path, &st) == 0)
            printf("%lld %s\n", (long long)st.st_size, argv[i]);
        else
            printf("- %s\n", argv[i]);
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* The next whole line of F (newline dropped) into *LINE; 0 at the end or on a last line without its newline. */
static int whole_line(FILE *f, char **line, size_t *cap)
{
    ssize_t n = getline(line, cap, f);
    if (n <= 0 || (*line)[n - 1] != '\n')
        return 0;
    (*line)[n - 1] = '\0';
    return 1;
}

static int all_of(const char *s, const char *set) { return *s != '\0' && strspn(s, set) == strlen(s); }

/* Whether RUN is a whole line of FILE (an absent file has none). */
static int has_line(const char *file, const char *run)
{
    FILE *f = fopen(file, "r");
    if (f == NULL)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int found = 0;
    while (!found && (n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n')
            line[--n] = '\0';
        found = strcmp(line, run) == 0;
    }
    free(line);
    fclose(f);
    return found;
}

/* FILE back to SIZE bytes (a file gone is made again, as truncate(1) does); never through a link. */
static int put_back(const char *file, const char *size)
{
    if (!all_of(size, "0123456789") || strlen(size) > 18)
        return 0;
    int fd = open(file, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
    if (fd < 0)
        return 0;
    struct stat st;
    int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ftruncate(fd, (off_t)strtoll(size, NULL, 10)) == 0;
    return close(fd) == 0 && ok;
}

int record_journal_undo(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: clomp-write undo BASE JOURNAL\n");
        return 2;
    }
    const char *base = argv[0], *journal = argv[1];
    struct stat st;
    if (stat(journal, &st) != 0)
        return 0;
    FILE *j = fopen(journal, "r");
    char *line = NULL;
    size_t cap = 0;
    if (j == NULL || !whole_line(j, &line, &cap)) {
        if (j != NULL)
            fclose(j);
        free(line);
        printf("%s is not a record journal; remove it if no run is being recorded\n", journal);
        return 3;
    }
    char *at = line, *word = shell_word(&at, 0), *run = shell_word(&at, 1);
    if (strcmp(word, "run") != 0 || !all_of(run, "0123456789") || strlen(run) > 9) {
        fclose(j);
        free(line);
        printf("%s is not a record journal; remove it if no run is being recorded\n", journal);
        return 3;
    }
    char run_number[16], done[8192];
    snprintf(run_number, sizeof run_number, "%s", run);
    snprintf(done, sizeof done, "%s.done", base);
    int status = 0;
    if (!has_line(done, run_number)) {
        while (status == 0 && whole_line(j, &line, &cap)) {
            at = line;
            char *size = shell_word(&at, 0), *suffix = shell_word(&at, 1);
            if (!all_of(suffix, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_."))
                continue;
            char path[8192];
            snprintf(path, sizeof path, "%s%s", base, suffix);
            if (strcmp(size, "-") == 0) {
                unlink(path);
            } else if (!put_back(path, size)) {
                printf("cannot put %s back as it was before run %s\n", path, run_number);
                status = 4;
            }
        }
    }
    fclose(j);
    free(line);
    if (status == 0)
        unlink(journal);
    return status;
}
