/* clomp --limits (docs/limits.md): after the timed runs (and the construct
 * table), on the run's team with its binding: the core clock, every pair of
 * the team's threads' cache-line round trip (limits_pairs.c), then the
 * reference barriers, OpenMP's barrier, the reference fork/join and
 * OpenMP's, timed in turn in every repetition, each reference checked after
 * every repetition (limits_timing.c); then what follows from them. */
#ifndef CLOMP_LIMITS_H
#define CLOMP_LIMITS_H

#include <stddef.h>

#include "record.h"

/* When --limits was given: the record points at `l`, which is filled (0, or
 * EXIT_VERIFY_FAILED when a reference's check failed, with l->failure in
 * `why`; EXIT_RESOURCE out of memory). Either way the record gets the end of
 * the measuring and the group's wall time. 0 without --limits. */
int measure_asked_limits(const RunSetup *run, RunRecord *record, LimitsRecord *l, char *why, size_t why_size);

void free_limits(LimitsRecord *l);

/* The parts, each filling its share of `l` (l->threads set, >= 2):
 * every pair's round trip, read against the topology under `root`
 * (0, or EXIT_RESOURCE); */
int measure_limit_pairs(const RunSetup *run, LimitsRecord *l, const char *root);
/* the barriers and fork/joins, each a figure over its repetitions, and
 * their multiples from the same repetitions (0, EXIT_VERIFY_FAILED, EXIT_RESOURCE). */
int measure_limit_timings(const RunSetup *run, LimitsRecord *l, char *why, size_t why_size);

/* Arithmetic on what was measured (tests/unit/test_limits.c): the valid
 * pairs' spread, all and by class, from l->pairs[]; */
void summarize_limit_pairs(LimitsRecord *l);
/* one timing's figure from its repetitions' ns per operation; */
void summarize_limit_timing(LimitTiming *t, const double *rep_ns, long reps);
/* OpenMP's over a reference's, repetition by repetition: `not_a_result`
 * set when either is not one, or the machine was `busy`. */
void limit_multiple(LimitDerived *d, const LimitTiming *omp, const double *omp_ns, const LimitTiming *ref,
                    const double *ref_ns, long reps, int busy);

/* Why a multiple or the bound is not a result on a busy machine: the
 * census's own reason is said once, beside them (LimitsRecord.busy_reason). */
#define LIMITS_BUSY "the machine was busy (the noise census; its reason: the Busy line, the JSON's busy_reason)"

#endif
