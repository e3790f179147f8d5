/* The reference barriers of clomp --limits (docs/limits.md): hand-written
 * with C11 atomics, each in a file of its own, to say what a barrier on
 * this node's threads can cost when nothing but the cache-line transfers
 * it needs stands in the way. Each is a table row (ref_barriers.c); state
 * for one team, created before a parallel region of that team and used by
 * every thread of it with its own thread number. */
#ifndef CLOMP_REF_BARRIER_H
#define CLOMP_REF_BARRIER_H

#include <stdatomic.h>
#include <stddef.h>

/* Flags that different threads write are kept this far apart: two 64-byte
 * lines (the adjacent-line prefetcher fetches pairs; POWER's and Apple's
 * line), as the construct table's logs are (kernels/construct.h). */
#define REF_LINE 128

/* One flag on lines of its own. */
typedef struct RefFlag {
    _Alignas(REF_LINE) atomic_int value;
} RefFlag;
_Static_assert(sizeof(RefFlag) == REF_LINE, "a RefFlag fills its lines");

/* A value one thread writes and others read, on lines of its own (the
 * verification's stamps, the pool's per-worker counts). Plain, not atomic:
 * what makes it visible is the barrier or fork/join under test. */
typedef struct RefSlot {
    _Alignas(REF_LINE) long value;
} RefSlot;
_Static_assert(sizeof(RefSlot) == REF_LINE, "a RefSlot fills its lines");

/* The fault build's broken round (make clomp-faults, CLOMP_FAULT=limits-skip-round;
 * kernels/fault.h): for one verified episode, thread `victim` does not wait
 * in round `round` for the thread it would have waited for there, and
 * thread `delayed` (that one, or one only it would have heard from) arrives
 * late. All -1 otherwise; the normal build never reads it. */
typedef struct RefFault {
    int victim, round, delayed;
} RefFault;

/* One barrier's state for a team (the kind's own layout after this
 * header). `threads` >= 1. */
typedef struct RefBarrier {
    const struct RefBarrierKind *kind;
    int threads;
    RefFault fault;
} RefBarrier;

typedef struct RefBarrierKind {
    const char *key;     /* "central", "dissemination", "tournament" */
    const char *name;    /* as the report names it */
    const char *how;     /* one line: the algorithm */
    /* A new barrier for `threads` threads, every flag in its initial state; NULL when out of memory. */
    RefBarrier *(*create)(int threads);
    /* Thread `thread` (0 .. threads-1) waits until every thread of the team has called it this episode. */
    void (*wait)(RefBarrier *b, int thread);
    /* The fault build's plan: which thread skips which round, and who then goes unheard. */
    RefFault (*broken_round)(int threads);
} RefBarrierKind;

/* Thread-count helper: ceil(log2(threads)), 0 for one thread: the rounds of
 * the dissemination and tournament barriers. */
int ref_rounds(int threads);

void ref_barrier_free(RefBarrier *b);

/* The table, in the order the report lists them. */
extern const RefBarrierKind *const ref_barrier_kinds[];
extern const size_t ref_barrier_kind_count;

extern const RefBarrierKind ref_central_barrier;
extern const RefBarrierKind ref_dissemination_barrier;
extern const RefBarrierKind ref_tournament_barrier;

#endif
