/* How a timed run of `iterations` iterations is split into chunks. */
#ifndef CLOMP_CHUNK_PLAN_H
#define CLOMP_CHUNK_PLAN_H

/* The default aims for this many chunks (EPCC uses 20 outer repetitions)... */
#define DEFAULT_TRIALS 20
/* ...but no more than keep the fastest plausible chunk (the serial time of
 * the chunk shared perfectly by the threads) this long: far above the clock
 * (~20-50 ns per read) and fork/join costs. */
#define MIN_CHUNK_SECONDS 200e-6

/* Probes (OMP Barrier, OMP Parallel), not verified, may take fewer chunks:
 * each at least this long keeps thread 0's one clock read per chunk
 * (20-50 ns) below 0.25% of it. */
#define MIN_PROBE_CHUNK_SECONDS 20e-6

/* The iterations a probe times: the run's, or PROBE_MIN_ITERATIONS
 * (kernels/problem.h) when the run has fewer. */
long probe_iterations(long run_iterations);

/* Fills end_subcycle[0..trials-1] with the cumulative subcycle count at the
 * end of each of `trials` chunks: whole iterations, as even as possible, the
 * first (iterations % trials) chunks one iteration longer. trials must be
 * 1..iterations. The last entry is iterations x subcycles_per_iteration. */
void plan_chunks(long iterations, long trials, long subcycles_per_iteration, long *end_subcycle);

/* The default number of chunks, from the measured time of one serial
 * iteration: DEFAULT_TRIALS, fewer when chunks would be shorter than
 * MIN_CHUNK_SECONDS at numThreads threads, and never more than there are
 * iterations. */
long default_trials(long iterations, double serial_iteration_seconds, long numThreads);

#endif
