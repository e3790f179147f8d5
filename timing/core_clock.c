#define _GNU_SOURCE
#include "core_clock.h"

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"

#ifdef __linux__
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#endif

/* 1000 dependent additions: each needs the one before, so they take 1000
 * cycles whatever the core's width. Inline assembly where the compiler
 * would otherwise fold the chain into one addition; elsewhere an empty asm
 * after each addition keeps the value in a register and the chain intact. */
static inline unsigned long add_chain_1000(unsigned long x, unsigned long one)
{
    /* Register operands: recent x86 renamers fold chains of additions of an
     * immediate (several per cycle), never register-register additions. */
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile(".rept 1000\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(one));
#elif defined(__aarch64__)
    __asm__ volatile(".rept 1000\n\tadd %0, %0, %1\n\t.endr" : "+r"(x) : "r"(one));
#else
    for (int i = 0; i < 1000; i++) {
        x += one;
        __asm__ volatile("" : "+r"(x));
    }
#endif
    return x;
}

/* Each thread stores its chain's result in its own sink (a shared one was a
 * data race between the team's threads: make tsan); the store keeps the
 * chain from being optimised away, the volatile 1 from being folded. */
static _Thread_local volatile unsigned long chain_sink;
static volatile unsigned long chain_one = 1;

static unsigned long run_chain(long adds)
{
    unsigned long x = 0, one = chain_one;
    for (long i = 0; i < adds / 1000; i++)
        x = add_chain_1000(x, one);
    return x;
}

double core_clock_one_thread(void)
{
    double best = 0.0;
    for (int r = 0; r < CORE_CLOCK_REPEATS; r++) {
        double t0 = now_seconds();
        chain_sink = run_chain(CORE_CLOCK_ADDS);
        double ns = (now_seconds() - t0) * 1e9;
        if (ns > 0.0 && (double)CORE_CLOCK_ADDS / ns > best)
            best = (double)CORE_CLOCK_ADDS / ns;
    }
    return best;
}

#ifdef __linux__
static int open_counter(unsigned long long config, int group)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = config;
    attr.disabled = group < 0;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &attr, 0, -1, group, 0);
}

/* cycles / ref-cycles of the calling thread over one chain; 0 and errno when not counted. */
static double perf_ratio(int *err)
{
    int cycles = open_counter(PERF_COUNT_HW_CPU_CYCLES, -1);
    if (cycles < 0) {
        *err = errno;
        return 0.0;
    }
    int ref = open_counter(PERF_COUNT_HW_REF_CPU_CYCLES, cycles);
    if (ref < 0) {
        *err = errno;
        close(cycles);
        return 0.0;
    }
    ioctl(cycles, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
    ioctl(cycles, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
    chain_sink = run_chain(CORE_CLOCK_ADDS);
    ioctl(cycles, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
    long long c = 0, r = 0;
    int got = read(cycles, &c, sizeof c) == (ssize_t)sizeof c && read(ref, &r, sizeof r) == (ssize_t)sizeof r;
    close(ref);
    close(cycles);
    if (!got || c <= 0 || r <= 0) {
        *err = ENODATA;
        return 0.0;
    }
    return (double)c / (double)r;
}
#endif

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int measure_core_clock(CoreClockSample *s, int threads)
{
    memset(s, 0, sizeof *s);
    if (threads < 1)
        return -1;
    if (threads > CORE_CLOCK_MAX_THREADS)
        threads = CORE_CLOCK_MAX_THREADS;
    double ratio[CORE_CLOCK_MAX_THREADS];
    int errors[CORE_CLOCK_MAX_THREADS];
    int seen = 0;
    double start = now_seconds();
#pragma omp parallel num_threads(threads) reduction(max : seen)
    {
        int t = omp_get_thread_num();
        seen = omp_get_num_threads();
        s->ghz[t] = core_clock_one_thread();
        ratio[t] = 0.0;
        errors[t] = ENOSYS;
#ifdef __linux__
        ratio[t] = perf_ratio(&errors[t]);
#endif
    }
    s->seconds = now_seconds() - start;
    s->threads = seen < threads ? seen : threads;
    double sorted[CORE_CLOCK_MAX_THREADS];
    memcpy(sorted, s->ghz, (size_t)s->threads * sizeof *sorted);
    qsort(sorted, (size_t)s->threads, sizeof *sorted, compare_doubles);
    s->min_ghz = sorted[0];
    s->max_ghz = sorted[s->threads - 1];
    s->median_ghz = s->threads % 2 ? sorted[s->threads / 2]
                                   : 0.5 * (sorted[s->threads / 2 - 1] + sorted[s->threads / 2]);
    s->measured = s->min_ghz > 0.0;
    s->perf = 1;
    s->perf_ratio_min = s->perf_ratio_max = ratio[0];
    for (int t = 0; t < s->threads; t++) {
        if (ratio[t] <= 0.0) {
            s->perf = 0;
            snprintf(s->perf_why, sizeof s->perf_why, "perf_event_open: %s", strerror(errors[t]));
            break;
        }
        s->perf_ratio_min = ratio[t] < s->perf_ratio_min ? ratio[t] : s->perf_ratio_min;
        s->perf_ratio_max = ratio[t] > s->perf_ratio_max ? ratio[t] : s->perf_ratio_max;
    }
    return s->measured ? 0 : -1;
}
