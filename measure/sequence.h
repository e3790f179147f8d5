/* The measurement sequence: R rounds of every selected schedule, each run
 * warmed up, timed in chunks and verified at the end of every chunk. */
#ifndef CLOMP_SEQUENCE_H
#define CLOMP_SEQUENCE_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "../report/report.h"

/* Set while OpenMP regions run, so that an abort from inside the runtime
 * (libomp cannot create a thread) is told apart from a crash of ours. */
extern volatile sig_atomic_t clomp_openmp_running;

typedef struct SequenceOutput {
    FILE *report;   /* the text report (a sink under --quiet) */
    FILE *failures; /* VERIFY FAILED lines: the report, or stderr under --quiet */
} SequenceOutput;

/* Allocates each measurement's timing arrays for run->rounds rounds; -1 when
 * out of memory. */
int prepare_measurements(const RunSetup *run, Measurement *results, size_t count);
void free_measurements(Measurement *results, size_t count);

/* Runs the whole sequence. Returns 0, or the exit status (verification
 * failed, or the runtime gave other team sizes) with a one-line reason in
 * `why`; the results gathered so far stay in `results`. Blocks are printed
 * as each run ends when there is one round, after the last round otherwise. */
int run_measurements(Problem *pb, const RunSetup *run, Measurement *results, size_t count,
                     const SequenceOutput *out, char *why, size_t why_size);

/* The figures of one measurement from its chunks (bestcase: the summarized
 * measurement its overhead is taken against, or NULL). */
void summarize_measurement(Measurement *m, const Measurement *bestcase);

#endif
