#include "chunk_plan.h"

#include "../kernels/problem.h"

void plan_chunks(long iterations, long trials, long subcycles_per_iteration, long *end_subcycle)
{
    long base = iterations / trials, longer = iterations % trials, done = 0;
    for (long c = 0; c < trials; c++) {
        done += base + (c < longer ? 1 : 0);
        end_subcycle[c] = done * subcycles_per_iteration;
    }
}

long default_trials(long iterations, double serial_iteration_seconds, long numThreads)
{
    double fastest_run = serial_iteration_seconds * (double)iterations / (double)(numThreads > 0 ? numThreads : 1);
    long trials = DEFAULT_TRIALS;
    while (trials > 1 && fastest_run / (double)trials < MIN_CHUNK_SECONDS)
        trials--;
    return trials < iterations ? trials : iterations;
}

long probe_iterations(long run_iterations)
{
    return run_iterations < PROBE_MIN_ITERATIONS ? PROBE_MIN_ITERATIONS : run_iterations;
}
