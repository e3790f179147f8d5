/* The untimed check of a reference barrier or fork/join (clomp --limits,
 * after every timed repetition): each thread writes a stamp of the episode
 * into its own slot before the barrier, and after it every thread reads
 * every slot and must find that episode's stamp; then the episodes each
 * thread passed are counted. The first REF_CHECK_FENCED episodes are
 * fenced by OpenMP barriers (so that a barrier that lets a thread through
 * early cannot leave the next episode waiting forever: the fault build's
 * broken round is one of these); the next REF_CHECK_BACK_TO_BACK follow one
 * another as the timed ones do, the stamps in two sets used in turn. */
#ifndef CLOMP_REF_CHECK_H
#define CLOMP_REF_CHECK_H

#include <stdatomic.h>
#include <stddef.h>

#include "ref_barrier.h"
#include "ref_forkjoin.h"

#define REF_CHECK_FENCED 4
#define REF_CHECK_BACK_TO_BACK 16
#define REF_CHECK_EPISODES (REF_CHECK_FENCED + REF_CHECK_BACK_TO_BACK)

typedef struct RefCheck {
    int threads;
    RefSlot *slot;           /* [2 * threads]: the stamps, two sets */
    RefSlot *passed;         /* [threads]: episodes each thread passed */
    atomic_long wrong;       /* slots read with another episode's stamp */
    atomic_int noted;        /* the first one is described below */
    int reader, writer;      /* the thread that read it and the one whose slot it was */
    long seen, expected;
    long episode;            /* the episode within the check (1..) */
    const char *meaning;     /* what a wrong stamp means for what was checked */
} RefCheck;

RefCheck *ref_check_create(int threads);
void ref_check_free(RefCheck *c);

/* Every thread of a team of c->threads calls it, inside the team's region,
 * with its own number: REF_CHECK_EPISODES episodes of `b`, stamps from
 * stamp_base (which no earlier check used). `broken` (the fault build): the
 * first episode runs b's broken round. */
void ref_check_barrier(RefBarrier *b, RefCheck *c, long stamp_base, int broken, int thread);

/* The same for the fork/join pool, whose master (thread 0) forks
 * REF_CHECK_EPISODES episodes and reads every worker's stamp after each
 * join; `broken`: it does not wait for the first join. The pool is stopped
 * at the end. */
void ref_check_forkjoin(RefForkJoin *p, RefCheck *c, long stamp_base, int broken, int thread);

/* After the region: 0 when every stamp read was its episode's and every
 * thread passed (a worker: ran) REF_CHECK_EPISODES episodes, else 1 with
 * one line; the check is then ready for the next one. */
int ref_check_verdict(RefCheck *c, char *why, size_t size);

#endif
