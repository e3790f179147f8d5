/* The noise census (docs/noise.md): before the timed runs, a fixed-work-
 * quantum probe on every thread of the timed team (LLNL's FWQ: the same
 * small piece of work timed back to back, so any quantum longer than the
 * usual one is time the thread lost to something else); during the timed
 * runs, per chunk, whether a thread of the team was preempted or moved to
 * another CPU, and per timed run the steal time and interrupts on the
 * team's CPUs. Everything goes into the record (measure/noise_record.h). */
#ifndef CLOMP_NOISE_H
#define CLOMP_NOISE_H

#include "../kernels/chunk_timer.h"
#include "record.h"

/* The probe, on run->numThreads threads at once (nothing when
 * run->noise_census is 0); also prepares the per-chunk sampling. A busy
 * machine (judge_busy) adds its WARNING to `warnings` (the set-up's). */
void probe_noise(NoiseCensus *c, const RunSetup *run, WarningList *warnings);

/* The busy-machine rule on the probe's figures (NOISE_BUSY_LOST_SHARE):
 * busy_judged, busy, busy_threshold and busy_reason (probe_noise calls it). */
void judge_busy(NoiseCensus *c);

/* Opens the per-chunk sampling of the threads `tids[0..threads-1]` (the
 * team's, in thread-number order; the probe calls it). */
void noise_sampler_open(NoiseCensus *c, const int *tids, int threads);

/* Around one timed run of m: the sampler to put into its ChunkTimer (NULL
 * when the census is off), then the run's totals into m->noise and c. */
const ChunkSampler *noise_run_begin(NoiseCensus *c, Measurement *m);
void noise_run_end(NoiseCensus *c, Measurement *m);

/* After m is summarized: the warning when the probe's noise is comparable
 * with m's overhead (the rule: NOISE_COMPARABLE_SHARE in noise_record.h). */
void noise_measurement_warnings(const NoiseCensus *c, const RunSetup *run, Measurement *m, const Measurement *bestcase);

/* Closes what the sampler keeps open. */
void free_noise_census(NoiseCensus *c);

#endif
