/* The reference fork/join of clomp --limits (docs/limits.md): a pool of
 * spinning workers released by one flag and joined by one counter, with
 * C11 atomics, run on the threads of an OpenMP team (thread 0 the master,
 * the others the pool) to say what starting and ending a parallel region
 * can cost on this node's threads. */
#ifndef CLOMP_REF_FORKJOIN_H
#define CLOMP_REF_FORKJOIN_H

#include "ref_barrier.h"

typedef struct RefForkJoin {
    int threads;
    RefFault fault;            /* the fault build: the master (victim 0) does not wait for the join of episode */
    long fault_episode;        /* fault_episode, and worker `delayed` is late to it; -1 otherwise */
    long episode;              /* the master's: episodes so far (forks and stops) */
    long forks;                /* the master's: forks so far (the join counts these) */
    RefSlot *stamps;           /* NULL, or [threads]: each worker writes stamp_base + episode into its slot */
    long stamp_base;
    RefSlot *done;             /* [2 * threads]: each worker's last episode seen, then its forks run */
    _Alignas(REF_LINE) atomic_long generation;   /* the fork: the master stores each new episode's number */
    _Alignas(REF_LINE) atomic_long joined;       /* the join: every worker adds 1 per episode, never reset */
    _Alignas(REF_LINE) atomic_int stop;
} RefForkJoin;

/* A pool for `threads` threads (the master and threads - 1 workers); NULL when out of memory. */
RefForkJoin *ref_forkjoin_create(int threads);
void ref_forkjoin_free(RefForkJoin *p);

/* Worker `thread` (1 .. threads-1), inside the team's region: runs every
 * episode the master forks until it stops the pool. */
void ref_pool_work(RefForkJoin *p, int thread);

/* The master (thread 0): one fork and join of every worker. */
void ref_fork_join(RefForkJoin *p);

/* The master: the workers leave ref_pool_work after the episodes already
 * forked (a stop is an episode of its own; the pool can be worked again,
 * in another region, after ref_pool_restart, called between regions:
 * no stamps, no fault). */
void ref_pool_stop(RefForkJoin *p);
void ref_pool_restart(RefForkJoin *p);

/* Forks worker `thread` has run, all regions. */
long ref_pool_runs(const RefForkJoin *p, int thread);

#endif
