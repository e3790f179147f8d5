/* The measurement sequence: R rounds of every selected schedule, each run
 * warmed up, timed in chunks and verified at the end of every chunk. */
#ifndef CLOMP_SEQUENCE_H
#define CLOMP_SEQUENCE_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "noise.h"   /* the census the hooks sample into */
#include "record.h"

/* Set while OpenMP regions run, so that an abort from inside the runtime
 * (libomp cannot create a thread) is told apart from a crash of ours. */
extern volatile sig_atomic_t clomp_openmp_running;

/* What the sequence tells its caller as it goes; it prints nothing itself
 * but the VERIFY FAILED lines of a failing check. Any hook may be NULL. */
typedef struct SequenceHooks {
    void *context;
    FILE *failures;   /* VERIFY FAILED lines: the report, or stderr under --quiet */
    /* One round: a measurement's timed run is about to start (its team and
     * start time are known). */
    void (*starting)(void *context, const Measurement *m);
    /* Right before every timed run, outside the timed region. */
    void (*before_timed)(void *context, const Measurement *m);
    /* After every timed run, with its status (0, or the failure and its
     * reason in `why`; after the last round of a good run `m` is already
     * summarized); returns the status the sequence goes on with. */
    int (*after_run)(void *context, const Measurement *m, long round, int status, char *why, size_t why_size);
    /* A measurement's last round is done and it is summarized: figures and
     * warnings are final. */
    void (*finished)(void *context, Measurement *results, size_t count, size_t index);
    /* Several rounds: round `round` (0-based) ended after `seconds`. */
    void (*round_done)(void *context, long round, double seconds, long measured);
    /* The last round reached a measurement that is not run (left out by
     * --schedules, or Nested OMP below 2x2 threads), in its place. */
    void (*skipped)(void *context, const Measurement *m);
    /* The noise census (measure/noise.h) to sample the timed runs into; NULL: none. */
    NoiseCensus *noise;
    /* The cycle rate whose team core clock to measure right after the timed runs (its clock_after,
     * timing/core_clock.h) and whose core clock range to widen by it (timing/cycles.c); NULL: not. */
    CycleRate *cycles;
} SequenceHooks;

/* Allocates each measurement's timing arrays for run->rounds rounds; -1 when
 * out of memory. */
int prepare_measurements(const RunSetup *run, Measurement *results, size_t count);
void free_measurements(Measurement *results, size_t count);

/* Runs the whole sequence. Returns 0, or the exit status (verification
 * failed, or the runtime gave other team sizes) with a one-line reason in
 * `why`; the results gathered so far stay in `results`. */
int run_measurements(Problem *pb, const RunSetup *run, Measurement *results, size_t count,
                     const SequenceHooks *hooks, char *why, size_t why_size);

#endif
