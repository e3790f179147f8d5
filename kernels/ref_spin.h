/* How the reference barriers and the ping-pong wait for a flag: spin on it
 * with the CPU's pause hint, which keeps an SMT sibling's share of the core
 * and leaves the line shared in the cache until its writer takes it. After
 * REF_SPIN_POLLS polls the waiter also yields its CPU on every poll: a team
 * with a CPU per thread never waits that long (the whole barrier is under
 * a few microseconds), while a team larger than its CPUs (the tests run
 * 64 threads on 2) would otherwise spin away the time slice of the very
 * thread it waits for. */
#ifndef CLOMP_REF_SPIN_H
#define CLOMP_REF_SPIN_H

#include <sched.h>
#include <stdatomic.h>

#define REF_SPIN_POLLS 1000

static inline void ref_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield" ::: "memory");
#endif
}

/* Until *flag == value (acquire: what its writer wrote before is seen after). */
static inline void ref_wait_int(atomic_int *flag, int value)
{
    for (long polls = 0; atomic_load_explicit(flag, memory_order_acquire) != value; polls++) {
        if (polls < REF_SPIN_POLLS)
            ref_pause();
        else
            sched_yield();
    }
}

/* Until *counter >= value. */
static inline void ref_wait_long_at_least(atomic_long *counter, long value)
{
    for (long polls = 0; atomic_load_explicit(counter, memory_order_acquire) < value; polls++) {
        if (polls < REF_SPIN_POLLS)
            ref_pause();
        else
            sched_yield();
    }
}

#endif
