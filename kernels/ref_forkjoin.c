/* The reference fork/join (ref_forkjoin.h). One line carries the fork to
 * every worker (the episode number the master stores), one the join back
 * (a counter every worker increments, which the master waits on); the
 * counter is never reset, so a late worker can never be counted for the
 * next fork. */
#include "ref_forkjoin.h"

#include <stdlib.h>

#include "fault.h"
#include "ref_spin.h"

RefForkJoin *ref_forkjoin_create(int threads)
{
    RefForkJoin *p = aligned_alloc(REF_LINE, (sizeof *p + REF_LINE - 1) / REF_LINE * REF_LINE);
    RefSlot *done = aligned_alloc(REF_LINE, 2 * (size_t)threads * sizeof *done);
    if (p == NULL || done == NULL) {
        free(p);
        free(done);
        return NULL;
    }
    p->threads = threads;
    p->fault = (RefFault){-1, -1, -1};
    p->fault_episode = -1;
    p->episode = p->forks = 0;
    p->stamps = NULL;
    p->stamp_base = 0;
    p->done = done;
    for (int t = 0; t < 2 * threads; t++)
        done[t].value = 0;
    atomic_init(&p->generation, 0);
    atomic_init(&p->joined, 0);
    atomic_init(&p->stop, 0);
    return p;
}

void ref_forkjoin_free(RefForkJoin *p)
{
    if (p != NULL)
        free(p->done);
    free(p);
}

void ref_pool_work(RefForkJoin *p, int thread)
{
    RefSlot *last = &p->done[thread], *runs = &p->done[p->threads + thread];
    for (long episode = last->value + 1;; episode++) {
        ref_wait_long_at_least(&p->generation, episode);
        last->value = episode;
        if (atomic_load_explicit(&p->stop, memory_order_relaxed) &&
            atomic_load_explicit(&p->generation, memory_order_acquire) == episode)
            return;   /* the stop's own episode: every fork before it was run */
        if (p->stamps != NULL) {
            if (episode == p->fault_episode)
                REF_ARRIVE_LATE(&p->fault, thread);
            p->stamps[thread].value = p->stamp_base + episode;
        }
        runs->value++;
        atomic_fetch_add_explicit(&p->joined, 1, memory_order_release);
    }
}

void ref_fork_join(RefForkJoin *p)
{
    long episode = ++p->episode, forks = ++p->forks;
    atomic_store_explicit(&p->generation, episode, memory_order_release);
    if (!(episode == p->fault_episode && REF_SKIPS(&p->fault, 0, 0)))
        ref_wait_long_at_least(&p->joined, (long)(p->threads - 1) * forks);
}

void ref_pool_stop(RefForkJoin *p)
{
    atomic_store_explicit(&p->stop, 1, memory_order_relaxed);
    atomic_store_explicit(&p->generation, ++p->episode, memory_order_release);
}

void ref_pool_restart(RefForkJoin *p)
{
    atomic_store_explicit(&p->stop, 0, memory_order_relaxed);
    p->stamps = NULL;
    p->fault = (RefFault){-1, -1, -1};
    p->fault_episode = -1;
}

long ref_pool_runs(const RefForkJoin *p, int thread)
{
    return p->done[p->threads + thread].value;
}
