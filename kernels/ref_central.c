/* The sense-reversing central counter barrier (Hensgen, Finkel & Manber
 * 1988; Mellor-Crummey & Scott 1991, algorithm 7): every thread decrements
 * one shared counter; the last to arrive resets it and flips the shared
 * sense, on which the others spin. Two lines move: the counter's, through
 * every thread in turn, and the sense's, to every waiter. */
#include <stdlib.h>

#include "fault.h"
#include "ref_barrier.h"
#include "ref_spin.h"

typedef struct Central {
    RefBarrier base;
    RefFlag count;    /* threads still to arrive this episode */
    RefFlag sense;    /* flipped by the last arrival: the release */
    RefFlag local[];  /* [threads]: each thread's own sense (its line only its own) */
} Central;

static RefBarrier *create(int threads)
{
    size_t size = sizeof(Central) + (size_t)threads * sizeof(RefFlag);
    Central *c = aligned_alloc(REF_LINE, (size + REF_LINE - 1) / REF_LINE * REF_LINE);
    if (c == NULL)
        return NULL;
    c->base = (RefBarrier){&ref_central_barrier, threads, {-1, -1, -1}};
    atomic_init(&c->count.value, threads);
    atomic_init(&c->sense.value, 0);
    for (int t = 0; t < threads; t++)
        atomic_init(&c->local[t].value, 0);
    return &c->base;
}

static void wait(RefBarrier *b, int thread)
{
    Central *c = (Central *)b;
    int sense = !atomic_load_explicit(&c->local[thread].value, memory_order_relaxed);
    atomic_store_explicit(&c->local[thread].value, sense, memory_order_relaxed);
    /* acq_rel: the last arrival sees every write made before the others arrived. */
    if (atomic_fetch_sub_explicit(&c->count.value, 1, memory_order_acq_rel) == 1) {
        atomic_store_explicit(&c->count.value, c->base.threads, memory_order_relaxed);
        atomic_store_explicit(&c->sense.value, sense, memory_order_release);
    } else if (!REF_SKIPS(&b->fault, thread, 0)) {
        ref_wait_int(&c->sense.value, sense);
    }
}

/* Thread 0 leaves without waiting for the release while the last thread is late. */
static RefFault broken_round(int threads)
{
    return (RefFault){0, 0, threads - 1};
}

const RefBarrierKind ref_central_barrier = {
    "central", "Central counter",
    "sense-reversing central counter: one shared count, the last arrival flips a shared sense",
    create, wait, broken_round,
};
