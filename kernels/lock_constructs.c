/* EPCC 4.0's lock rows beside LOCK/UNLOCK (its LOCK_CONTENDED, in
 * sync_constructs.c): the same lock pair with omp_lock_hint_contended, and
 * the pair taken by one thread only (the master of the team; the others
 * wait at the region's end), with and without omp_lock_hint_uncontended.
 * The hinted rows need omp_init_lock_with_hint (OpenMP 4.5): libgomp up to
 * GCC 12 lacks it, so the Makefile probes for it (CLOMP_HAVE_LOCK_HINT) and
 * without it the rows are listed and reported "not provided". Probed, every
 * row checks that no two threads held the lock at once. */
#include <omp.h>

#include "construct.h"
#include "construct_probe.h"
#include "construct_region.h"
#include "delay.h"
#include "fault.h"

/* EPCC's refer: the delays alone, one thread. */
static void delays(const ConstructWork *w)
{
    for (long j = 0; j < w->innerreps; j++)
        epcc_delay(w->delay_length);
}

/* One lock pair around a delay; probed, its holders are counted. */
static inline void locked_delay(const ConstructWork *w, omp_lock_t *lock, int wrong)
{
    if (!wrong)
        omp_set_lock(lock);
    if (w->probe != NULL && atomic_fetch_add(&w->probe->inside, 1) != 0)
        probe_fail(w->probe, "two threads held the lock at once");
    probe_hold(w);
    epcc_delay(w->delay_length);
    if (w->probe != NULL)
        atomic_fetch_sub(&w->probe->inside, 1);
    if (!wrong)
        omp_unset_lock(lock);
}

/* innerreps/threads pairs per thread (contended), or innerreps by the master. */
static void lock_pairs(const ConstructWork *w, omp_lock_t *lock, int contended, int wrong)
{
#pragma omp parallel num_threads(w->threads) firstprivate(w, lock, contended, wrong)
    {
        region_log_note(w->log);
        if (contended) {
            long reps = w->innerreps / omp_get_num_threads();
            for (long j = 0; j < reps; j++)
                locked_delay(w, lock, wrong);
        } else {
#pragma omp master
            for (long j = 0; j < w->innerreps; j++)
                locked_delay(w, lock, wrong);
        }
    }
}

static void test_lock_uncontended(const ConstructWork *w)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
    lock_pairs(w, &lock, 0, 0);
    omp_destroy_lock(&lock);
}

static int check_lock(const ConstructWork *w, void (*test)(const ConstructWork *), char *why, size_t why_size)
{
    ConstructProbe p;
    probe_start(&p, 0.0);
    ConstructWork c = probe_work(w, &p, 4L * w->threads);
    test(&c);
    return probe_verdict(&p, why, why_size);
}

static int check_lock_uncontended(const ConstructWork *w, char *why, size_t why_size)
{
    return check_lock(w, test_lock_uncontended, why, why_size);
}

#ifdef CLOMP_HAVE_LOCK_HINT
static void test_lock_contended_hint(const ConstructWork *w)
{
    omp_lock_t lock;
    omp_init_lock_with_hint(&lock, omp_lock_hint_contended);
    lock_pairs(w, &lock, 1, CONSTRUCT_WRONG_BODY("lock_contended_hint"));
    omp_destroy_lock(&lock);
}

static void test_lock_uncontended_hint(const ConstructWork *w)
{
    omp_lock_t lock;
    omp_init_lock_with_hint(&lock, omp_lock_hint_uncontended);
    lock_pairs(w, &lock, 0, 0);
    omp_destroy_lock(&lock);
}

static int check_lock_contended_hint(const ConstructWork *w, char *why, size_t why_size)
{
    return check_lock(w, test_lock_contended_hint, why, why_size);
}

static int check_lock_uncontended_hint(const ConstructWork *w, char *why, size_t why_size)
{
    return check_lock(w, test_lock_uncontended_hint, why, why_size);
}
#define HINT_TEST(test) test
#define HINT_CHECK(check) check
#define NOT_PROVIDED NULL
#else
#define HINT_TEST(test) NULL
#define HINT_CHECK(check) NULL
#define NOT_PROVIDED "not provided: the OpenMP runtime clomp was built with has no omp_init_lock_with_hint"
#endif

const Construct construct_lock_contended_hint = {
    .key = "lock_contended_hint", .name = "LOCK_CONTENDED_HINT", .kind = CONSTRUCT_SYNC,
    .test = HINT_TEST(test_lock_contended_hint), .reference = delays, .check = HINT_CHECK(check_lock_contended_hint),
    .what = "LOCK/UNLOCK on a lock made with omp_lock_hint_contended, innerreps/threads per thread",
    .not_provided = NOT_PROVIDED};
const Construct construct_lock_uncontended = {
    "lock_uncontended", "LOCK_UNCONTENDED", CONSTRUCT_SYNC, 0, test_lock_uncontended, delays,
    "omp_set_lock, a delay, omp_unset_lock by the master alone (innerreps of them), the team waiting",
    .check = check_lock_uncontended};
const Construct construct_lock_uncontended_hint = {
    .key = "lock_uncontended_hint", .name = "LOCK_UNCONTENDED_HINT", .kind = CONSTRUCT_SYNC,
    .test = HINT_TEST(test_lock_uncontended_hint), .reference = delays,
    .check = HINT_CHECK(check_lock_uncontended_hint),
    .what = "LOCK_UNCONTENDED on a lock made with omp_lock_hint_uncontended", .not_provided = NOT_PROVIDED};
