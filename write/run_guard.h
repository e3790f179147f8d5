/* The suite driver's guards over its runs (suite/run_guard.sh), as clomp-write
 * subcommands: each takes the words after its name and returns the exit status
 * (2: usage, with one line on stderr). */
#ifndef CLOMP_WRITE_RUN_GUARD_H
#define CLOMP_WRITE_RUN_GUARD_H

/* write/run_group.c: a run's process group. */
int run_group_watch(int argc, char **argv); /* watch PGID LIMIT MARKER DRIVER WORKER */
int run_group_end(int argc, char **argv);   /* end-group PGID */

/* write/record_journal.c: the record's undo journal. */
int record_journal_write(int argc, char **argv); /* journal BASE RUN SUFFIX... */
int record_journal_undo(int argc, char **argv);  /* undo BASE JOURNAL */

/* write/run_reason.c: why a run FAILED, why a write failed. */
int run_reason_failure(int argc, char **argv); /* reason RC STDERR MARKER */
int run_reason_write(int argc, char **argv);   /* write-failed (the tools' messages on stdin) */

#endif
