/* The live progress of the text report: each measurement's block as the
 * sequence gets to it (one round), or every block after the last round;
 * the round lines in between. Reads the measurements as they are finished. */
#ifndef CLOMP_PROGRESS_H
#define CLOMP_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

#include "../measure/record.h"

typedef struct Progress {
    FILE *out;
    const RunSetup *run;
    const Measurement *shown;   /* what the report shows: this rank's, or (MPI) the used ranks' */
    size_t count;
} Progress;

/* A measurement's timed run is about to start: its block opens (the
 * sequence calls this only with one round). */
void progress_starting(const Progress *p, const Measurement *m);
/* Measurement i is finished (one round: the rest of its block). */
void progress_finished(const Progress *p, size_t i);
/* A measurement that does not run, in its place (one round). */
void progress_skipped(const Progress *p, const Measurement *m);
/* Several rounds: one line per round, every block after the last. */
void progress_round_done(const Progress *p, long round, double seconds, long measured);
void progress_all_blocks(const Progress *p);

#endif
