/* The dissemination barrier (Hensgen, Finkel & Manber 1988; Mellor-Crummey
 * & Scott 1991, algorithm 9): ceil(log2 T) rounds; in round k thread i sets
 * a flag of thread (i + 2^k) mod T and waits for its own, set by thread
 * (i - 2^k) mod T. After round k a thread has heard, directly or through
 * others, from the 2^(k+1) - 1 threads before it: after the last, from all.
 * Every flag on lines of its own; two sets used in turn (parity) and a
 * sense flipped every other episode, so no flag is ever reset. The critical
 * path is ceil(log2 T) one-way line transfers: the bound --limits states. */
#include <stdlib.h>

#include "fault.h"
#include "ref_barrier.h"
#include "ref_spin.h"

typedef struct Dissemination {
    RefBarrier base;
    int rounds;
    RefFlag *flags;   /* [(thread * 2 + parity) * rounds + round]: set by the thread's partner in that round */
    RefFlag *local;   /* [thread]: its parity in bit 0 and its sense in bit 1 */
    RefFlag store[];
} Dissemination;

static RefBarrier *create(int threads)
{
    int rounds = ref_rounds(threads);
    size_t flags = (size_t)threads * 2 * (size_t)rounds;
    size_t size = sizeof(Dissemination) + (flags + (size_t)threads) * sizeof(RefFlag);
    Dissemination *d = aligned_alloc(REF_LINE, (size + REF_LINE - 1) / REF_LINE * REF_LINE);
    if (d == NULL)
        return NULL;
    d->base = (RefBarrier){&ref_dissemination_barrier, threads, {-1, -1, -1}};
    d->rounds = rounds;
    d->flags = d->store;
    d->local = d->store + flags;
    for (size_t f = 0; f < flags; f++)
        atomic_init(&d->flags[f].value, 0);
    for (int t = 0; t < threads; t++)
        atomic_init(&d->local[t].value, 2);   /* parity 0, sense 1 */
    return &d->base;
}

static void wait(RefBarrier *b, int thread)
{
    Dissemination *d = (Dissemination *)b;
    int threads = b->threads, local = atomic_load_explicit(&d->local[thread].value, memory_order_relaxed);
    int parity = local & 1, sense = local >> 1;
    for (int k = 0, step = 1; k < d->rounds; k++, step *= 2) {
        int partner = (thread + step) % threads;
        atomic_store_explicit(&d->flags[(partner * 2 + parity) * d->rounds + k].value, sense, memory_order_release);
        if (!REF_SKIPS(&b->fault, thread, k))
            ref_wait_int(&d->flags[(thread * 2 + parity) * d->rounds + k].value, sense);
    }
    if (parity == 1)
        sense = !sense;
    atomic_store_explicit(&d->local[thread].value, (1 - parity) | sense << 1, memory_order_relaxed);
}

/* The last round skipped: before it a thread has heard from the 2^(R-1) - 1
 * threads just before it and no other (2^(R-1) < T), so its last partner,
 * arriving late, goes unheard. (Round 0 would not do: for 5 threads the
 * later rounds reach round 0's partner around the ring.) */
static RefFault broken_round(int threads)
{
    int last = ref_rounds(threads) - 1, victim = threads - 1;
    return (RefFault){victim, last, (victim - (1 << last) + threads) % threads};
}

const RefBarrierKind ref_dissemination_barrier = {
    "dissemination", "Dissemination",
    "dissemination: ceil(log2 T) rounds, in round k each thread signals the one 2^k after it and waits for the "
    "one 2^k before",
    create, wait, broken_round,
};
