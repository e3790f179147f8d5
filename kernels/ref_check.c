/* The reference barriers' and fork/join's untimed check (ref_check.h). */
#include "ref_check.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "fault.h"

RefCheck *ref_check_create(int threads)
{
    RefCheck *c = calloc(1, sizeof *c);
    RefSlot *slots = aligned_alloc(REF_LINE, 3 * (size_t)threads * sizeof *slots);
    if (c == NULL || slots == NULL) {
        free(c);
        free(slots);
        return NULL;
    }
    c->threads = threads;
    c->slot = slots;
    c->passed = slots + 2 * (size_t)threads;
    for (int t = 0; t < 3 * threads; t++)
        slots[t].value = 0;
    atomic_init(&c->wrong, 0);
    atomic_init(&c->noted, 0);
    return c;
}

void ref_check_free(RefCheck *c)
{
    if (c != NULL)
        free(c->slot);
    free(c);
}

/* Every slot of set `set` must hold `stamp`; the first one that does not is described. */
static void read_stamps(RefCheck *c, const RefSlot *set, long stamp, long episode, int reader)
{
    for (int t = 0; t < c->threads; t++) {
        long seen = set[t].value;
        if (seen == stamp)
            continue;
        atomic_fetch_add_explicit(&c->wrong, 1, memory_order_relaxed);
        if (atomic_exchange_explicit(&c->noted, 1, memory_order_relaxed) == 0) {
            c->reader = reader;
            c->writer = t;
            c->seen = seen;
            c->expected = stamp;
            c->episode = episode;
        }
    }
}

void ref_check_barrier(RefBarrier *b, RefCheck *c, long stamp_base, int broken, int thread)
{
    long passed = 0;
    if (thread == 0)   /* read after the region */
        c->meaning = "the barrier let a thread through before every thread had arrived";
    for (long e = 1; e <= REF_CHECK_FENCED; e++) {
        if (broken && e == 1 && thread == 0)
            b->fault = b->kind->broken_round(b->threads);
#pragma omp barrier
        if (e == 1)
            REF_ARRIVE_LATE(&b->fault, thread);
        c->slot[thread].value = stamp_base + e;
        b->kind->wait(b, thread);
        passed++;
        read_stamps(c, c->slot, stamp_base + e, e, thread);
#pragma omp barrier
        if (e == 1 && thread == 0)
            b->fault = (RefFault){-1, -1, -1};
    }
    for (long e = REF_CHECK_FENCED + 1; e <= REF_CHECK_EPISODES; e++) {
        RefSlot *set = c->slot + (e % 2) * c->threads;
        set[thread].value = stamp_base + e;
        b->kind->wait(b, thread);
        passed++;
        read_stamps(c, set, stamp_base + e, e, thread);
    }
    c->passed[thread].value = passed;
}

void ref_check_forkjoin(RefForkJoin *p, RefCheck *c, long stamp_base, int broken, int thread)
{
    if (thread != 0) {
        long before = ref_pool_runs(p, thread);
        ref_pool_work(p, thread);
        c->passed[thread].value = ref_pool_runs(p, thread) - before;
        return;
    }
    /* The master: stamps are stamp_base + the pool's episode; its own slot as the workers'. */
    c->meaning = "the join ended before every worker had run the episode";
    p->stamps = c->slot;
    p->stamp_base = stamp_base;
    if (broken) {
        p->fault = (RefFault){0, 0, p->threads - 1};
        p->fault_episode = p->episode + 1;
    }
    for (long e = 1; e <= REF_CHECK_EPISODES; e++) {
        c->slot[0].value = stamp_base + p->episode + 1;
        ref_fork_join(p);
        read_stamps(c, c->slot, stamp_base + p->episode, e, 0);
    }
    ref_pool_stop(p);
    c->passed[0].value = REF_CHECK_EPISODES;
}

int ref_check_verdict(RefCheck *c, char *why, size_t size)
{
    int failed = 0;
    if (atomic_load(&c->wrong) > 0) {
        snprintf(why, size, "%ld stamps read wrong: in episode %ld of %d thread %d read thread %d's stamp %ld, "
                 "not %ld (%s)", atomic_load(&c->wrong), c->episode, REF_CHECK_EPISODES, c->reader, c->writer,
                 c->seen, c->expected, c->meaning);
        failed = 1;
    }
    for (int t = 0; t < c->threads && !failed; t++)
        if (c->passed[t].value != REF_CHECK_EPISODES) {
            snprintf(why, size, "thread %d passed %ld episodes, not %d", t, c->passed[t].value, REF_CHECK_EPISODES);
            failed = 1;
        }
    atomic_store(&c->wrong, 0);
    atomic_store(&c->noted, 0);
    for (int t = 0; t < c->threads; t++)
        c->passed[t].value = 0;
    return failed;
}
