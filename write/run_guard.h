/* The suite driver's guards over its runs (suite/run_guard.sh), as clomp-write
 * subcommands: each takes the words after its name and returns the exit status
 * (2: usage, with one line on stderr). */
#ifndef CLOMP_WRITE_RUN_GUARD_H
#define CLOMP_WRITE_RUN_GUARD_H

#include <string.h>
#include <sys/types.h>

/* The next word of the line at *AT as bash's `read -r` splits it (blanks: space and tab), '\0'
 * ended in place; with REST, the rest of the line instead, the blanks around it dropped. *AT
 * moves past it. */
static inline char *shell_word(char **at, int rest)
{
    char *p = *at, *word;
    while (*p == ' ' || *p == '\t')
        p++;
    word = p;
    if (rest) {
        char *end = p + strlen(p);
        while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        *at = end;
        return word;
    }
    while (*p != '\0' && *p != ' ' && *p != '\t')
        p++;
    if (*p != '\0')
        *p++ = '\0';
    *at = p;
    return word;
}

/* write/run_group.c: a run's process group. */
int run_group_watch(int argc, char **argv); /* watch PGID LIMIT MARKER DRIVER WORKER */
int run_group_end(int argc, char **argv);   /* end-group PGID */
/* Whether any process of the run PGID still exists: its group, or the process itself. */
int run_group_alive(pid_t pg);

/* write/suite_lock.c: one driver at a time per suite. */
int suite_lock(int argc, char **argv); /* lock FD HOLDER ID */

/* write/record_journal.c: the record's undo journal. */
int record_journal_write(int argc, char **argv); /* journal BASE RUN SUFFIX... */
int record_journal_undo(int argc, char **argv);  /* undo BASE JOURNAL */

/* write/done_runs.c: --resume's check of the runs marked done. */
int done_drop_unrecorded(int argc, char **argv); /* drop-unrecorded DONE (the recorded runs on stdin) */

/* write/run_reason.c: why a run FAILED, why a write failed. */
int run_reason_failure(int argc, char **argv); /* reason RC STDERR MARKER */
int run_reason_write(int argc, char **argv);   /* write-failed (the tools' messages on stdin) */

#endif
