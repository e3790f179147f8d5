/* EPCC 4.0's arraybench: a parallel region whose data clause makes each
 * thread a copy of an array of n doubles (private, firstprivate, copyin of
 * a threadprivate array) or broadcasts one thread's array to the others'
 * (a single with copyprivate), each thread then one delay into its copy
 * (clomp_array_delay: out of line, as EPCC's array_delay, so that the
 * copies are made). The overhead per instance is the region and the
 * copies; the reference is EPCC's (innerreps delays by one thread, each
 * into an array). EPCC builds one
 * program per size; here every size of --construct-sizes (powers of 3 from
 * 1 to 59049, CONSTRUCT_MAX_ARRAY_SIZE: a threadprivate array's size is
 * fixed when compiled) has its functions, one table entry each. Probed,
 * each clause's effect is checked: a private copy is not the original, a
 * firstprivate or copyin copy holds the original's values, copyprivate
 * gives every thread the single's values. */
#include <omp.h>

#include "../cli/construct_options.h"
#include "construct.h"
#include "construct_probe.h"
#include "construct_region.h"
#include "delay.h"
#include "fault.h"

#define PRAGMA(x) _Pragma(#x)

/* Probed: the copy `a` of n doubles holds `want` at its first, middle and last element. */
static inline void probe_copy(const ConstructWork *w, const double *a, long n, double want, const char *clause)
{
    if (w->probe != NULL && (a[0] != want || a[n / 2] != want || a[n - 1] != want))
        probe_fail(w->probe, "thread %d's %s copy of %ld doubles does not hold the original's values",
                   omp_get_thread_num(), clause, n);
}

static inline void fill(double *a, long n, double value)
{
    for (long i = 0; i < n; i++)
        a[i] = value;
}

/* The four clauses for arrays of N doubles: shared_N (the original) and
 * threadprivate_N (copyin's). */
#define ARRAY_TESTS(N)                                                                                       \
    static double shared_##N[N];                                                                             \
    static double threadprivate_##N[N];                                                                      \
    PRAGMA(omp threadprivate(threadprivate_##N))                                                             \
    static void private_##N(const ConstructWork *w)                                                          \
    {                                                                                                        \
        double *original = shared_##N;                                                                       \
        for (long j = 0; j < w->innerreps; j++) {                                                            \
            if (CONSTRUCT_WRONG_BODY("private")) {                                                           \
                PRAGMA(omp parallel num_threads(w->threads) firstprivate(w, original))                       \
                {                                                                                            \
                    region_log_note(w->log);                                                                 \
                    if (w->probe != NULL && shared_##N == original)                                          \
                        probe_fail(w->probe, "thread %d's private array is the original",                    \
                                   omp_get_thread_num());                                                    \
                    clomp_array_delay(w->delay_length, shared_##N);                                          \
                }                                                                                            \
            } else {                                                                                         \
                PRAGMA(omp parallel private(shared_##N) num_threads(w->threads) firstprivate(w, original))   \
                {                                                                                            \
                    region_log_note(w->log);                                                                 \
                    if (w->probe != NULL && shared_##N == original)                                          \
                        probe_fail(w->probe, "thread %d's private array is the original",                    \
                                   omp_get_thread_num());                                                    \
                    clomp_array_delay(w->delay_length, shared_##N);                                          \
                }                                                                                            \
            }                                                                                                \
        }                                                                                                    \
    }                                                                                                        \
    static void firstprivate_##N(const ConstructWork *w)                                                     \
    {                                                                                                        \
        double want = w->probe != NULL ? w->probe->marker : 0.0;                                             \
        if (w->probe != NULL)                                                                                \
            fill(shared_##N, N, want);                                                                       \
        for (long j = 0; j < w->innerreps; j++) {                                                            \
            if (CONSTRUCT_WRONG_BODY("firstprivate")) {                                                      \
                PRAGMA(omp parallel private(shared_##N) num_threads(w->threads) firstprivate(w, want))       \
                {                                                                                            \
                    region_log_note(w->log);                                                                 \
                    fill(shared_##N, N, 0.0);   /* a copy never made: what the stack held */                 \
                    probe_copy(w, shared_##N, N, want, "firstprivate");                                      \
                    clomp_array_delay(w->delay_length, shared_##N);                                          \
                }                                                                                            \
            } else {                                                                                         \
                PRAGMA(omp parallel firstprivate(shared_##N) num_threads(w->threads) firstprivate(w, want))  \
                {                                                                                            \
                    region_log_note(w->log);                                                                 \
                    probe_copy(w, shared_##N, N, want, "firstprivate");                                      \
                    clomp_array_delay(w->delay_length, shared_##N);                                          \
                }                                                                                            \
            }                                                                                                \
        }                                                                                                    \
    }                                                                                                        \
    static void copyprivate_##N(const ConstructWork *w)                                                      \
    {                                                                                                        \
        for (long j = 0; j < w->innerreps; j++) {                                                            \
            double want = w->probe != NULL ? w->probe->marker + (double)j : 0.0;                             \
            PRAGMA(omp parallel private(shared_##N) num_threads(w->threads) firstprivate(w, want))           \
            {                                                                                                \
                region_log_note(w->log);                                                                     \
                if (CONSTRUCT_WRONG_BODY("copyprivate")) {                                                   \
                    fill(shared_##N, N, 0.0);   /* a copy never made: what the stack held */                 \
                    PRAGMA(omp single)                                                                       \
                    {                                                                                        \
                        if (w->probe != NULL)                                                                \
                            fill(shared_##N, N, want);                                                       \
                        clomp_array_delay(w->delay_length, shared_##N);                                      \
                    }                                                                                        \
                } else {                                                                                     \
                    PRAGMA(omp single copyprivate(shared_##N))                                               \
                    {                                                                                        \
                        if (w->probe != NULL)                                                                \
                            fill(shared_##N, N, want);                                                       \
                        clomp_array_delay(w->delay_length, shared_##N);                                      \
                    }                                                                                        \
                }                                                                                            \
                probe_copy(w, shared_##N, N, want, "copyprivate");                                           \
            }                                                                                                \
        }                                                                                                    \
    }                                                                                                        \
    static void copyin_##N(const ConstructWork *w)                                                           \
    {                                                                                                        \
        double want = w->probe != NULL ? w->probe->marker : 0.0;                                             \
        if (w->probe != NULL)                                                                                \
            fill(threadprivate_##N, N, want);                                                                \
        for (long j = 0; j < w->innerreps; j++) {                                                            \
            if (CONSTRUCT_WRONG_BODY("copyin")) {                                                            \
                PRAGMA(omp parallel num_threads(w->threads) firstprivate(w, want))                           \
                {                                                                                            \
                    region_log_note(w->log);                                                                 \
                    probe_copy(w, threadprivate_##N, N, want, "copyin");                                     \
                    clomp_array_delay(w->delay_length, threadprivate_##N);                                   \
                }                                                                                            \
            } else {                                                                                         \
                PRAGMA(omp parallel copyin(threadprivate_##N) num_threads(w->threads) firstprivate(w, want)) \
                {                                                                                            \
                    region_log_note(w->log);                                                                 \
                    probe_copy(w, threadprivate_##N, N, want, "copyin");                                     \
                    clomp_array_delay(w->delay_length, threadprivate_##N);                                   \
                }                                                                                            \
            }                                                                                                \
        }                                                                                                    \
    }

ARRAY_TESTS(1)
ARRAY_TESTS(3)
ARRAY_TESTS(9)
ARRAY_TESTS(27)
ARRAY_TESTS(81)
ARRAY_TESTS(243)
ARRAY_TESTS(729)
ARRAY_TESTS(2187)
ARRAY_TESTS(6561)
ARRAY_TESTS(19683)
ARRAY_TESTS(59049)

typedef void (*ArrayTest)(const ConstructWork *);
#define ARRAY_ROW(N) {N, {private_##N, firstprivate_##N, copyprivate_##N, copyin_##N}},
static const struct {
    long size;
    ArrayTest clause[4];   /* private, firstprivate, copyprivate, copyin */
} sized[] = {ARRAY_ROW(1) ARRAY_ROW(3) ARRAY_ROW(9) ARRAY_ROW(27) ARRAY_ROW(81) ARRAY_ROW(243) ARRAY_ROW(729)
             ARRAY_ROW(2187) ARRAY_ROW(6561) ARRAY_ROW(19683) ARRAY_ROW(59049)};

/* The test of `clause` for the row's size (w->chunk): --construct-sizes
 * allows only the sizes above (cli/construct_options.c). */
static void run_sized(const ConstructWork *w, int clause)
{
    for (size_t i = 0; i < sizeof sized / sizeof sized[0]; i++)
        if (sized[i].size == w->chunk) {
            sized[i].clause[clause](w);
            return;
        }
}

/* EPCC's refer for arraybench: a delay stored into an array, one thread. */
static void array_delays(const ConstructWork *w)
{
    double a[1] = {0.0};
    for (long j = 0; j < w->innerreps; j++)
        clomp_array_delay(w->delay_length, a);
}

static void test_private(const ConstructWork *w) { run_sized(w, 0); }
static void test_firstprivate(const ConstructWork *w) { run_sized(w, 1); }
static void test_copyprivate(const ConstructWork *w) { run_sized(w, 2); }
static void test_copyin(const ConstructWork *w) { run_sized(w, 3); }

/* The clause's test, probed, a few instances. The marker is the same for
 * every check of a size (checks at level 2 run one outer thread at a time,
 * measure/constructs.c), and no timed run writes it: a copy that holds it
 * was copied. */
static int check_array(const ConstructWork *w, int clause, char *why, size_t why_size)
{
    ConstructProbe p;
    probe_start(&p, 1000.0 + (double)w->chunk);
    ConstructWork c = probe_work(w, &p, 3);
    run_sized(&c, clause);
    return probe_verdict(&p, why, why_size);
}

static int check_private(const ConstructWork *w, char *why, size_t n) { return check_array(w, 0, why, n); }
static int check_firstprivate(const ConstructWork *w, char *why, size_t n) { return check_array(w, 1, why, n); }
static int check_copyprivate(const ConstructWork *w, char *why, size_t n) { return check_array(w, 2, why, n); }
static int check_copyin(const ConstructWork *w, char *why, size_t n) { return check_array(w, 3, why, n); }

#define DATA_ROW(var, key_, name_, clause, what_)                                                    \
    const Construct var = {.key = (key_), .name = (name_), .kind = CONSTRUCT_DATA, .takes_chunk = CONSTRUCT_SIZE, \
                           .test = test_##clause, .reference = array_delays, .check = check_##clause, .what = (what_)}
DATA_ROW(construct_private, "private", "PRIVATE n", private,
         "a parallel region with private(an array of n doubles), each thread one delay into its copy");
DATA_ROW(construct_firstprivate, "firstprivate", "FIRSTPRIVATE n", firstprivate,
         "a parallel region with firstprivate(an array of n doubles), each thread one delay into its copy");
DATA_ROW(construct_copyprivate, "copyprivate", "COPYPRIVATE n", copyprivate,
         "a parallel region with a private array of n doubles and a single copyprivate(it) of one delay");
DATA_ROW(construct_copyin, "copyin", "COPYIN n", copyin,
         "a parallel region with copyin(a threadprivate array of n doubles), each thread one delay into its copy");
