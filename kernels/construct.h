/* The construct table: one row per OpenMP construct whose overhead clomp
 * --constructs measures by EPCC's method (syncbench, schedbench, taskbench
 * and arraybench, v3.1 and 4.0), at the first level and inside nested teams. Each row says only what to
 * time (the construct around EPCC's calibrated delay) and what the same
 * delays cost run by one thread (its reference); measure/construct_level.c
 * times them, repeats them and verifies the teams the runtime gave. */
#ifndef CLOMP_CONSTRUCT_H
#define CLOMP_CONSTRUCT_H

#include <stddef.h>
#include <stdio.h>

/* What one thread writes while a test runs and what the others read are
 * kept this far apart (ConstructWork, OwnLineLog below): two 64-byte lines,
 * as Intel's adjacent-line prefetcher fetches them in pairs, and the line
 * of POWER and Apple cores. */
#define CONSTRUCT_LINE 128

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

/* One outer thread's log, on lines of its own: at level 2 every outer
 * thread writes its log at every region, and two logs on one line would
 * make the outer threads' caches fight over it. (The alignment is the
 * wrapper's, not RegionLog's: a RegionLog is also part of every row's
 * record, which is allocated with plain calloc.) */
typedef struct OwnLineLog {
    _Alignas(CONSTRUCT_LINE) RegionLog log;
} OwnLineLog;
_Static_assert(sizeof(OwnLineLog) % CONSTRUCT_LINE == 0, "an OwnLineLog fills whole lines");

/* One timed test or reference: `innerreps` instances of the construct.
 * Never allocated on the heap (its alignment): the measurement's own copies
 * are on the stack.
 *
 * Every thread of a test's regions reads it, so it fills lines of its own
 * (nothing the master writes during the test shares them), and every
 * test's regions take `w` and any other local of the calling function they
 * only read by value: `firstprivate(w)` on each `parallel`. (What the team
 * shares stays shared: a lock, an atomic's or a reduction's sum, the
 * dependence chains' addresses.) Taken by reference
 * (the default for a local), clang hands the other threads the address of
 * the caller's stack slot, and a region opened per instance makes each of
 * them read the line the master has just written at its fork call (the
 * return address it pushes): one cache-line transfer per instance, or none,
 * depending on where the stack happens to fall. PARALLEL measured 0.63-0.71 us
 * at some stack offsets and 0.75-1.03 us at others on the same machine
 * (clang 14, 2 threads, offsets pinned with `setarch -R`); by value,
 * 0.62-0.87 us at every offset, as EPCC's, whose regions read globals (2026-11-26,
 * docs/constructs.md "What a region reads"). gcc copies what a region
 * reads into a block on the caller's stack either way. */
typedef struct ConstructWork {
    _Alignas(CONSTRUCT_LINE) int threads;   /* the team asked for (num_threads) */
    int delay_length;       /* additions per delay (kernels/delay.h) */
    long innerreps;
    long chunk;             /* loop schedules with a chunk: n; else 0 */
    int iters_per_thread;   /* loop schedules: iterations per thread of each loop (schedbench's 128) */
    RegionLog *log;         /* NULL: not recorded (the reference runs no region) */
    /* NULL when timed. Set by a row's check (untimed): the body records what
     * it did there (kernels/construct_probe.h) for the check to verify. */
    struct ConstructProbe *probe;
} ConstructWork;
_Static_assert(sizeof(ConstructWork) % CONSTRUCT_LINE == 0, "a ConstructWork fills whole lines");

typedef enum {
    CONSTRUCT_SYNC,   /* syncbench: one delay per thread per instance (0.10 us) */
    CONSTRUCT_LOOP,   /* schedbench: a loop of iters_per_thread x threads delays per instance (15 us each) */
    CONSTRUCT_TASK,   /* taskbench: one delay per task, innerreps delays per thread (0.10 us) */
    CONSTRUCT_DATA,   /* arraybench: a parallel region with a data clause on an array of n doubles */
    CONSTRUCT_TARGET  /* offload builds: a target construct around one delay on the device (target_constructs.c) */
} ConstructKind;

/* A row's parameter, measured once per value (a row each): none, a
 * schedule's chunk (--construct-chunks) or an array's size (--construct-sizes). */
enum { CONSTRUCT_NO_PARAM = 0, CONSTRUCT_CHUNK = 1, CONSTRUCT_SIZE = 2 };

typedef struct Construct {
    const char *key;        /* --constructs and JSON/CSV name: lower case, no spaces */
    const char *name;       /* EPCC's test name: "PARALLEL FOR", "DYNAMIC n" */
    ConstructKind kind;
    int takes_chunk;        /* CONSTRUCT_CHUNK (STATIC n ...), CONSTRUCT_SIZE (PRIVATE n ...) or 0 */
    /* EPCC runs CRITICAL, LOCK/UNLOCK and ATOMIC innerreps/threads times per
     * thread (innerreps instances in all); the others innerreps times. */
    void (*test)(const ConstructWork *w);
    /* The same delays by one thread, no construct (EPCC's refer, referatom, referred). */
    void (*reference)(const ConstructWork *w);
    const char *what;       /* one line: what an instance is */
    /* The rows below 4.0 name these too (designated initializers). */
    /* Runs the test once, untimed, with a probe, and says whether the body
     * did what its construct promises (NULL: no check beyond the region
     * log). 0, or 1 with one line in `why`. Called at each level where the
     * test runs (by every outer thread at level 2). */
    int (*check)(const ConstructWork *w, char *why, size_t why_size);
    /* innerreps is a multiple of the team times this (0: 1); the task trees
     * of depth 6 run innerreps / 64 trees of 64 delays per thread. */
    int innerreps_step;
    /* The chunk sweep stops at iters_per_thread / threads (GUIDED, TASKLOOP). */
    int chunk_share;
    /* Non-NULL: the runtime this was built with lacks what the row needs;
     * the row is listed, and reported as not run with this reason. */
    const char *not_provided;
    /* Non-NULL: the same, inside nested teams only (level 2 not run). */
    const char *nested_not_provided;
} Construct;

extern const Construct *const clomp_constructs[];
extern const size_t clomp_construct_count;

/* By key ("parallel_for") or EPCC name ("PARALLEL FOR"); NULL when neither. */
const Construct *find_construct(const char *name);

/* A row's EPCC name, the chunk or size in place of n ("DYNAMIC 4",
 * "COPYIN 27"); c->name as it is when chunk is 0. In buf, or c->name. */
const char *construct_row_name(const Construct *c, long chunk, char *buf, size_t size);

/* The kind's name: sync, loop, task, data. */
const char *construct_kind_name(ConstructKind kind);

/* clomp --list-constructs: a '#' header, then one tab-separated line per
 * row: key, EPCC name, kind (sync | loop | task | data), parameter (n: a
 * chunk, size: an array size, -: none), what one instance is ("not
 * provided: ..." ahead of it where this build's runtime lacks it). */
void print_construct_list(FILE *out);

#endif
