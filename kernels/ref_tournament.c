/* The tournament barrier (Hensgen, Finkel & Manber 1988; Mellor-Crummey &
 * Scott 1991, algorithm 10), with a tree wake-up: in round k the thread
 * whose number is a multiple of 2^(k+1) waits for the one 2^k above it
 * (the loser of that match), which signals it and then waits to be woken;
 * thread 0, the champion, wins every round and wakes its losers, each of
 * whom wakes the losers it beat. Each flag has one writer and one reader,
 * on lines of their own, and holds the episode's sense: ceil(log2 T) line
 * transfers up the tree and as many down. */
#include <stdlib.h>

#include "fault.h"
#include "ref_barrier.h"
#include "ref_spin.h"

typedef struct Tournament {
    RefBarrier base;
    int rounds;
    RefFlag *arrived;   /* [thread * rounds + round]: set by the loser the thread beat in that round */
    RefFlag *wake;      /* [thread]: set by the winner it lost to */
    RefFlag *local;     /* [thread]: its sense */
    RefFlag store[];
} Tournament;

static RefBarrier *create(int threads)
{
    int rounds = ref_rounds(threads);
    size_t arrived = (size_t)threads * (size_t)rounds;
    size_t size = sizeof(Tournament) + (arrived + 2 * (size_t)threads) * sizeof(RefFlag);
    Tournament *t = aligned_alloc(REF_LINE, (size + REF_LINE - 1) / REF_LINE * REF_LINE);
    if (t == NULL)
        return NULL;
    t->base = (RefBarrier){&ref_tournament_barrier, threads, {-1, -1, -1}};
    t->rounds = rounds;
    t->arrived = t->store;
    t->wake = t->store + arrived;
    t->local = t->wake + threads;
    for (size_t f = 0; f < arrived + 2 * (size_t)threads; f++)
        atomic_init(&t->store[f].value, 0);
    return &t->base;
}

static void wait(RefBarrier *b, int thread)
{
    Tournament *t = (Tournament *)b;
    int sense = !atomic_load_explicit(&t->local[thread].value, memory_order_relaxed);
    atomic_store_explicit(&t->local[thread].value, sense, memory_order_relaxed);
    int k = 0;
    for (int step = 1; k < t->rounds; k++, step *= 2) {
        if (thread & step) {   /* lost round k to thread - 2^k: signal it, wait to be woken */
            atomic_store_explicit(&t->arrived[(thread - step) * t->rounds + k].value, sense, memory_order_release);
            ref_wait_int(&t->wake[thread].value, sense);
            break;
        }
        if (thread + step < b->threads && !REF_SKIPS(&b->fault, thread, k))
            ref_wait_int(&t->arrived[thread * t->rounds + k].value, sense);
    }
    /* Wake the losers this thread beat, the last round's first (the largest subtree). */
    while (--k >= 0) {
        int loser = thread + (1 << k);
        if (loser < b->threads)
            atomic_store_explicit(&t->wake[loser].value, sense, memory_order_release);
    }
}

/* The champion does not wait for the final's loser (thread 2^(R-1), which
 * arrives late), and wakes everyone without it. */
static RefFault broken_round(int threads)
{
    int last = ref_rounds(threads) - 1;
    return (RefFault){0, last, 1 << last};
}

const RefBarrierKind ref_tournament_barrier = {
    "tournament", "Tournament",
    "tournament: ceil(log2 T) rounds of matches up to thread 0, which wakes the losers down the same tree",
    create, wait, broken_round,
};
