/* Everything a schedule needs to run: the mesh, the deposit state shared by
 * all parts, and the thread counts. */
#ifndef CLOMP_PROBLEM_H
#define CLOMP_PROBLEM_H

#include "../mesh/mesh.h"

/* CLOMP 1.2 splits an iteration into four modules of 1, 2, 3 and 4 subcycles. */
#define SUBCYCLES_PER_ITERATION 10

/* Probes (OMP Barrier, OMP Parallel, Parallel For, calc_deposit) time at
 * least this many iterations, 10 instances each, whatever the mesh: their
 * work does not grow with it, and a big mesh's few iterations (2 for the
 * mem-bound input at timeScale 1, 1 for a 2 GB mesh) gave 10-20 barriers,
 * too few to time against a wake-up or one detour (issue 35). */
#define PROBE_MIN_ITERATIONS 100

typedef struct DepositState {
    double partRatio;             /* 1/numParts */
    double residue_ratio_part0;   /* total residue / part 0 residue, from set-up */
    double percent_residue;       /* total residue after one update with partRatio */
    double max_residue;           /* limit of the carried residue: p/(1-p) */
    double error_bound;           /* min over parts of residue*ratio */
    double tight_error_bound;     /* min over parts of residue*ratio*ratio */
    long order_violations;        /* calc_deposit() calls that found update_count != 1 */
    long first_violation_count;   /* part 0's update_count at the first violation */
    /* Parts whose residue after the set-up update is 0 or subnormal (it
     * carries nothing). Counted here, once: later sweeps of the mesh (the
     * trial planning's timing, resets) overwrite the residues with those of a
     * zero deposit, which are 0 whatever the input. */
    long vanished_residues;
} DepositState;

typedef struct Problem {
    Mesh mesh;
    /* A mesh too large for the caches: a small one of the same parts (the
     * same team, regions and per-part work, a few zones each) that the
     * untimed observation and warm-up run on instead; NULL: the mesh itself. */
    struct Problem *warmup;
    DepositState deposit;
    int numThreads;
    int nestedOuter;
    int nestedInner;
    int delay_length;   /* the Parallel For probe's delay: additions per call (delay.h), calibrated at start */
} Problem;

/* The Parallel For probe's delay as calibrated (kernels/delay.h calibrates it). */
typedef struct DelayCalibration {
    double target_us;   /* the time asked for */
    int length;         /* additions per delay(); 0: not calibrated */
    double us;          /* one delay() of `length` additions at calibration: best of its repeats */
    int given;          /* 1: `length` was given (--construct-delay-length), only timed; target_us 0 */
} DelayCalibration;

#define TEAM_MAX_CPU_SLOTS 1024

/* Team sizes seen inside a schedule's parallel regions, in the observation before its warm-up. */
typedef struct TeamObservation {
    int threads;        /* team size of the (outer) region */
    int idle_threads;   /* threads whose manual slice holds no part */
    int nested;         /* the inner_* fields below are filled in */
    int inner_min;      /* nested: smallest and largest inner team, and their sum */
    int inner_max;
    int inner_total;
    /* nested: the CPU of inner thread t of group g at cpu[g * requested
     * inner + t] (-1: not seen), for the first cpu_slots of them. */
    int cpu_slots;
    int cpu[TEAM_MAX_CPU_SLOTS];
} TeamObservation;

#endif
