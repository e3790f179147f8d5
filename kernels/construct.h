/* The construct table: one row per OpenMP construct whose overhead clomp
 * --constructs measures by EPCC's method (syncbench and schedbench, v3.1),
 * at the first level and inside nested teams. Each row says only what to
 * time (the construct around EPCC's calibrated delay) and what the same
 * delays cost run by one thread (its reference); measure/constructs.c times
 * them, repeats them and verifies the teams the runtime gave. */
#ifndef CLOMP_CONSTRUCT_H
#define CLOMP_CONSTRUCT_H

#include <stddef.h>
#include <stdio.h>

/* What the runtime gave inside a construct's regions: recorded by the first
 * thread of every region (kernels/construct_region.h), smallest and largest
 * seen. `regions` 0: no region of the construct ran. */
typedef struct RegionLog {
    long regions;
    int threads_min, threads_max;     /* omp_get_num_threads() */
    int level_min, level_max;         /* omp_get_level() */
    int active_min, active_max;       /* omp_get_active_level() */
    int ancestor_min, ancestor_max;   /* omp_get_ancestor_thread_num(1): the outer thread at level 2 */
} RegionLog;

/* One timed test or reference: `innerreps` instances of the construct. */
typedef struct ConstructWork {
    int threads;            /* the team asked for (num_threads) */
    int delay_length;       /* additions per delay (kernels/delay.h) */
    long innerreps;
    long chunk;             /* loop schedules with a chunk: n; else 0 */
    int iters_per_thread;   /* loop schedules: iterations per thread of each loop (schedbench's 128) */
    RegionLog *log;         /* NULL: not recorded (the reference runs no region) */
} ConstructWork;

typedef enum {
    CONSTRUCT_SYNC,   /* syncbench: one delay per thread per instance (0.10 us) */
    CONSTRUCT_LOOP,   /* schedbench: a loop of iters_per_thread x threads delays per instance (15 us each) */
    CONSTRUCT_TARGET  /* offload builds: a target construct around one delay on the device (target_constructs.c) */
} ConstructKind;

typedef struct Construct {
    const char *key;        /* --constructs and JSON/CSV name: lower case, no spaces */
    const char *name;       /* EPCC's test name: "PARALLEL FOR", "DYNAMIC n" */
    ConstructKind kind;
    int takes_chunk;        /* STATIC n, DYNAMIC n, GUIDED n: measured once per chunk size */
    /* EPCC runs CRITICAL, LOCK/UNLOCK and ATOMIC innerreps/threads times per
     * thread (innerreps instances in all); the others innerreps times. */
    void (*test)(const ConstructWork *w);
    /* The same delays by one thread, no construct (EPCC's refer, referatom, referred). */
    void (*reference)(const ConstructWork *w);
    const char *what;       /* one line: what an instance is */
} Construct;

extern const Construct *const clomp_constructs[];
extern const size_t clomp_construct_count;

/* By key ("parallel_for") or EPCC name ("PARALLEL FOR"); NULL when neither. */
const Construct *find_construct(const char *name);

/* clomp --list-constructs: a '#' header, then one tab-separated line per
 * row: key, EPCC name, kind (sync | loop), chunk (n | -), what it times. */
void print_construct_list(FILE *out);

#endif
