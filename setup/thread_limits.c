/* Thread counts the runtime and the system cannot create, refused before
 * the first parallel region (setup.h). Past them libgomp does not fail
 * cleanly: it crashes in GOMP_parallel (SIGSEGV), so the bounds are checked
 * here, each from what the system says, and the first one exceeded is named.
 * A count below every bound runs, oversubscribed or not. */
#define _GNU_SOURCE   /* dl_iterate_phdr (link.h) */
#include "setup.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <limits.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../cli/exit_status.h"

/* libgomp starts a team with a start record per new thread on the
 * launching thread's stack (gomp_alloca in gomp_team_start): measured with
 * GCC 12's libgomp, 128 bytes per thread and about 62 KiB of other frames
 * (1546 threads ran and 1554 crashed under a 256 KiB stack, 3587 and 3593
 * under 512 KiB). The bound keeps a margin: 144 bytes and 96 KiB. Other
 * runtimes (LLVM's libomp) allocate theirs on the heap: no such bound. */
#define GOMP_START_BYTES_PER_THREAD 144.0
#define GOMP_STACK_RESERVED_BYTES (96.0 * 1024)
/* An outer thread of a nested team has few frames of its own under the
 * inner team's start records. */
#define GOMP_THREAD_STACK_RESERVED_BYTES (32.0 * 1024)

/* A small /proc or /sys file into `buf`, without stdio: nothing here may
 * touch the heap before the mesh is built (its pages are counted). */
static int read_text(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return 0;
}

/* One number from a /proc or /sys file; -1 when absent or "max". */
static double read_number(const char *path)
{
    char buf[64], *end;
    if (read_text(path, buf, sizeof buf) != 0)
        return -1;
    double value = strtod(buf, &end);
    return end == buf ? -1 : value;
}

/* Threads that exist on the whole system now (the 4th field of /proc/loadavg, "running/total"). */
static double system_threads_now(void)
{
    char buf[128];
    if (read_text("/proc/loadavg", buf, sizeof buf) != 0)
        return -1;
    const char *slash = strchr(buf, '/');
    return slash == NULL ? -1 : strtod(slash + 1, NULL);
}

/* This process's cgroup (v2) task limit less its tasks now; -1 when unlimited or unknown. */
static double cgroup_pids_room(void)
{
    char buf[1024], path[1200];
    if (read_text("/proc/self/cgroup", buf, sizeof buf) != 0)
        return -1;
    char *line = strstr(buf, "0::");
    if (line == NULL || (line != buf && line[-1] != '\n'))
        return -1;
    line += 3;
    line[strcspn(line, "\n")] = '\0';
    snprintf(path, sizeof path, "/sys/fs/cgroup%s/pids.max", line);
    double max = read_number(path);
    snprintf(path, sizeof path, "/sys/fs/cgroup%s/pids.current", line);
    double current = read_number(path);
    return max >= 0 && current >= 0 ? max - current : -1;
}

/* OMP_STACKSIZE in bytes (a number, default unit KiB, or B/K/M/G); 0 when unset or unreadable. */
static double omp_stacksize_bytes(void)
{
    const char *text = getenv("OMP_STACKSIZE");
    char *end;
    if (text == NULL)
        return 0;
    double value = strtod(text, &end);
    while (*end == ' ')
        end++;
    switch (*end) {
        case 'b': case 'B': return value;
        case '\0': case 'k': case 'K': return value * 1024;
        case 'm': case 'M': return value * 1024 * 1024;
        case 'g': case 'G': return value * 1024 * 1024 * 1024;
        default: return 0;
    }
}

/* The stack of a thread the runtime creates: OMP_STACKSIZE, else the pthread default. */
static double thread_stack_bytes(void)
{
    double bytes = omp_stacksize_bytes();
    pthread_attr_t attr;
    size_t size = 0;
    if (bytes > 0)
        return bytes;
    if (pthread_attr_init(&attr) == 0) {
        pthread_attr_getstacksize(&attr, &size);
        pthread_attr_destroy(&attr);
    }
    return size > 0 ? (double)size : 8.0 * 1024 * 1024;
}

/* LLVM's libomp gives each thread it creates an explicit stack of its
 * stack size (KMP_STACKSIZE or OMP_STACKSIZE, else the main thread's:
 * ulimit -s), so glibc does not add the static TLS to it (below), and a
 * stack that cannot hold the TLS makes libomp end the process ("OMP: Error
 * #29: Unable to set OMP thread stack size", seen under ulimit -s 256 with
 * 2 threads). libomp says that size (kmp_get_stacksize_s, which libgomp
 * does not have, looked up so that no build links it); 0 on other runtimes. */
static double libomp_thread_stack_bytes(void)
{
    void *symbol = dlsym(RTLD_DEFAULT, "kmp_get_stacksize_s");
    size_t (*stacksize)(void);
    if (symbol == NULL)
        return 0;
    memcpy(&stacksize, &symbol, sizeof stacksize);   /* an object pointer as a function's, as dlsym gives it */
    return (double)stacksize();
}

/* glibc places a thread's static thread-local storage (every loaded
 * object's PT_TLS segment: here mostly the construct table's COPYIN arrays,
 * threadprivate, about 700 KiB) inside the thread's stack, and refuses to
 * create a thread whose stack cannot hold it ("Thread creation failed:
 * Invalid argument" from libgomp). */
static int add_tls(struct dl_phdr_info *info, size_t size, void *sum)
{
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_TLS)
            *(double *)sum += (double)info->dlpi_phdr[i].p_memsz + (double)info->dlpi_phdr[i].p_align;
    return 0;
}

static double static_tls_bytes(void)
{
    double sum = 0;
    dl_iterate_phdr(add_tls, &sum);
    return sum;
}

/* What a thread's stack needs beside its TLS: PTHREAD_STACK_MIN and a guard page's worth. */
#define THREAD_STACK_MIN_REST (16.0 * 1024 + 4096)

typedef struct Bound {
    double threads;     /* the most threads this bound allows; < 0: no bound */
    char what[160];     /* the limit, as the message names it */
} Bound;

static void consider(Bound *worst, double threads, const char *fmt, double value)
{
    if (threads < 0 || (worst->threads >= 0 && threads >= worst->threads))
        return;
    worst->threads = threads;
    snprintf(worst->what, sizeof worst->what, fmt, value);
}

int check_thread_limits(const RunSetup *run, char *why, size_t why_size)
{
    double level1 = (double)(run->numThreads > run->allocThreads ? run->numThreads : run->allocThreads);
    int nested = run->nested_shape_source[0] != '\0' && run->nestedOuter > 0;
    double outer = nested ? run->nestedOuter : 0, inner = nested ? run->nestedInner : 0;
    double total = level1 > outer * inner ? level1 : outer * inner;   /* threads alive at once */
    char asked[128];
    if (total == level1)
        snprintf(asked, sizeof asked, "%.0f threads requested (numThreads, or OMP_NUM_THREADS for -1)", level1);
    else
        snprintf(asked, sizeof asked, "--nested %.0fx%.0f: %.0f threads requested", outer, inner, total);

    /* The OpenMP thread limit bounds the first-level team; nested teams
     * beyond it are serialised by the runtime (and reported), not a crash. */
    if (level1 > omp_get_thread_limit()) {
        snprintf(why, why_size, "%.0f threads requested, above the OpenMP thread limit of %d (OMP_THREAD_LIMIT, omp_get_thread_limit())",
                 level1, omp_get_thread_limit());
        return EXIT_RESOURCE;
    }
    Bound bound = {-1, ""};
    struct rlimit rl;
    if (geteuid() != 0 && getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        consider(&bound, (double)rl.rlim_cur, "the process limit of %.0f threads per user (RLIMIT_NPROC, ulimit -u)",
                 (double)rl.rlim_cur);
    double now = system_threads_now(), max = read_number("/proc/sys/kernel/threads-max");
    if (now >= 0 && max >= 0)
        consider(&bound, max - now, "the system's room for %.0f more threads (/proc/sys/kernel/threads-max less those running)",
                 max - now);
    max = read_number("/proc/sys/kernel/pid_max");
    if (now >= 0 && max >= 0)
        consider(&bound, max - now, "the system's room for %.0f more thread IDs (/proc/sys/kernel/pid_max less those in use)",
                 max - now);
    double room = cgroup_pids_room();
    consider(&bound, room, "this cgroup's room for %.0f more tasks (pids.max less pids.current)", room);
    /* An explicit OMP_STACKSIZE is the whole stack, TLS included; glibc's
     * default (no size asked) is sized with the TLS already added. libomp
     * always asks its own size. */
    double libomp_stack = libomp_thread_stack_bytes();
    int explicit_stack = omp_stacksize_bytes() > 0 || libomp_stack > 0;
    double stack = libomp_stack > 0 ? libomp_stack : thread_stack_bytes(), tls = explicit_stack ? static_tls_bytes() : 0;
    if (total > 1 && stack < tls + THREAD_STACK_MIN_REST) {
        snprintf(why, why_size, "%s, but a thread's %.0f KiB stack (%s) cannot hold its %.0f KiB of thread-local storage "
                 "(the construct table's COPYIN arrays) and a minimal stack", asked, stack / 1024,
                 omp_stacksize_bytes() > 0 ? "OMP_STACKSIZE" : "libomp's, from the main thread's ulimit -s; set OMP_STACKSIZE",
                 tls / 1024);
        return EXIT_RESOURCE;
    }
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        consider(&bound, (double)rl.rlim_cur / stack, "the address-space limit (RLIMIT_AS, ulimit -v) for stacks of %.0f bytes",
                 stack);
    if (bound.threads >= 0 && total > bound.threads) {
        snprintf(why, why_size, "%s, above %s", asked, bound.what);
        return EXIT_RESOURCE;
    }
#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER)
    /* libgomp: the main thread starts the first-level team, each outer thread its inner team. */
    double team = level1 > outer ? level1 : outer;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        double room_main = ((double)rl.rlim_cur - GOMP_STACK_RESERVED_BYTES) / GOMP_START_BYTES_PER_THREAD;
        if (team > room_main) {
            snprintf(why, why_size, "%s, a team of %.0f above the %.0f that libgomp can start from the main thread's %.0f KiB stack (ulimit -s)",
                     asked, team, room_main > 0 ? room_main : 0, (double)rl.rlim_cur / 1024);
            return EXIT_RESOURCE;
        }
    }
    double room_thread = (stack - tls - GOMP_THREAD_STACK_RESERVED_BYTES) / GOMP_START_BYTES_PER_THREAD;
    if (inner > room_thread) {
        snprintf(why, why_size, "%s, inner teams of %.0f above the %.0f that libgomp can start from a thread's %.0f KiB stack (OMP_STACKSIZE; %.0f KiB of it thread-local storage)",
                 asked, inner, room_thread > 0 ? room_thread : 0, stack / 1024, tls / 1024);
        return EXIT_RESOURCE;
    }
#endif
    return 0;
}
