/* The noise census during the timed runs. Around every timed chunk, with
 * the clock stopped, the thread that reads the clock reads each team
 * thread's involuntary context switches (nonvoluntary_ctxt_switches, the
 * counter getrusage(RUSAGE_THREAD) reports as ru_nivcsw) and the CPU it last
 * ran on, from /proc/self/task/TID/{status,stat}, kept open and re-read with
 * pread: no thread of the team runs any extra code, so the sampling works
 * the same inside a schedule's parallel region (Manual OMP, OMP Barrier) as
 * between regions. A chunk is disturbed when some thread was preempted or
 * ended it on another CPU. Around every timed run: the steal time
 * (/proc/stat) and the interrupts (/proc/interrupts) of the CPUs the team
 * was seen on. */
#define _GNU_SOURCE
#include "noise.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kernels/fault.h"
#include "../timing/clock.h"

typedef struct ThreadCounters {
    long switches;
    int cpu;
} ThreadCounters;

struct NoiseState {
    int threads;
    int status_fd[NOISE_MAX_THREADS], stat_fd[NOISE_MAX_THREADS];
    ThreadCounters at_start[NOISE_MAX_THREADS];   /* the open chunk's */
    ThreadCounters run_start[NOISE_MAX_THREADS];  /* the timed run's */
    long run_chunks;           /* chunks sampled in it */
    ChunkSampler sampler;
    NoiseCensus *census;
    Measurement *m;            /* the timed run being sampled, or NULL */
    int sampled;               /* threads sampled in it */
    int chunk_open;
    unsigned char cpus[CLOMP_MAX_CPUS / 8];   /* CPUs its threads were seen on */
    long long steal_start[CLOMP_MAX_CPUS], irq_start[CLOMP_MAX_CPUS];
    char *buf;                 /* for /proc/interrupts */
    size_t buf_size;
};

/* The whole of a /proc file into st->buf (grown as needed); its length, or -1. */
static long read_proc(struct NoiseState *st, int fd)
{
    size_t used = 0;
    for (;;) {
        if (st->buf_size - used < 4096) {
            char *grown = realloc(st->buf, st->buf_size * 2 + 8192);
            if (grown == NULL)
                return -1;
            st->buf = grown;
            st->buf_size = st->buf_size * 2 + 8192;
        }
        ssize_t n = pread(fd, st->buf + used, st->buf_size - used - 1, (off_t)used);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        used += (size_t)n;
    }
    st->buf[used] = '\0';
    return (long)used;
}

static int read_thread(int status_fd, int stat_fd, ThreadCounters *tc)
{
    char buf[2048];
    tc->switches = -1;
    tc->cpu = -1;
    ssize_t n = pread(status_fd, buf, sizeof buf - 1, 0);
    if (n > 0) {
        buf[n] = '\0';
        const char *p = strstr(buf, "nonvoluntary_ctxt_switches:");
        if (p != NULL)
            tc->switches = strtol(p + strlen("nonvoluntary_ctxt_switches:"), NULL, 10);
    }
    n = pread(stat_fd, buf, sizeof buf - 1, 0);
    if (n > 0) {
        buf[n] = '\0';
        const char *p = strrchr(buf, ')');   /* the name may hold spaces and parentheses */
        /* Field 39 (processor): 37 fields after the name's closing parenthesis. */
        for (int field = 2; p != NULL && field < 39; field++)
            p = strchr(p + 1, ' ');
        if (p != NULL)
            tc->cpu = (int)strtol(p + 1, NULL, 10);
    }
    return tc->switches >= 0 && tc->cpu >= 0 ? 0 : -1;
}

static void mark_cpu(struct NoiseState *st, int cpu)
{
    if (cpu >= 0 && cpu < CLOMP_MAX_CPUS)
        st->cpus[cpu / 8] |= (unsigned char)(1u << (cpu % 8));
}

static int cpu_marked(const struct NoiseState *st, int cpu)
{
    return (st->cpus[cpu / 8] >> (cpu % 8)) & 1;
}

static void read_threads(const struct NoiseState *st, ThreadCounters *into)
{
    for (int t = 0; t < st->sampled; t++)
        read_thread(st->status_fd[t], st->stat_fd[t], &into[t]);
}

/* A span (a chunk, or a timed run with no chunk boundary outside its region)
 * from `from` to now: its switches and migrations, per thread and in all. */
static void close_span(struct NoiseState *st, const ThreadCounters *from)
{
    NoiseCensus *c = st->census;
    MeasurementNoise *mn = &st->m->noise;
    int disturbed = 0;
    for (int t = 0; t < st->sampled; t++) {
        ThreadCounters now;
        if (read_thread(st->status_fd[t], st->stat_fd[t], &now) != 0 || from[t].switches < 0)
            continue;
        long switches = now.switches - from[t].switches;
        int moved = now.cpu != from[t].cpu;
        mark_cpu(st, now.cpu);
        mark_cpu(st, from[t].cpu);
        mn->switches += switches;
        mn->migrations += moved;
        c->thread[t].switches += switches;
        c->thread[t].migrations += moved;
        c->thread[t].chunks++;
        c->thread[t].disturbed_chunks += switches > 0 || moved;
        disturbed |= switches > 0 || moved;
    }
    mn->chunks++;
    mn->disturbed += disturbed;
}

static void sample_chunk(void *context, int at_end)
{
    struct NoiseState *st = context;
    double start = now_seconds();
    CENSUS_DELAY();   /* the test build's known cost of a read (kernels/fault.h) */
    if (!at_end) {
        read_threads(st, st->at_start);
        st->chunk_open = 1;
    } else if (st->chunk_open) {
        close_span(st, st->at_start);
        st->run_chunks++;
        st->chunk_open = 0;
    }
    st->census->sampling_seconds += now_seconds() - start;
}

void noise_sampler_open(NoiseCensus *c, const int *tids, int threads)
{
    struct NoiseState *st = calloc(1, sizeof *st);
    if (st == NULL)
        return;
    st->census = c;
    st->sampler = (ChunkSampler){sample_chunk, st};
    for (int t = 0; t < threads; t++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/self/task/%d/status", tids[t]);
        st->status_fd[t] = open(path, O_RDONLY | O_CLOEXEC);
        snprintf(path, sizeof path, "/proc/self/task/%d/stat", tids[t]);
        st->stat_fd[t] = open(path, O_RDONLY | O_CLOEXEC);
        ThreadCounters tc;
        if (st->status_fd[t] < 0 || st->stat_fd[t] < 0 || read_thread(st->status_fd[t], st->stat_fd[t], &tc) != 0) {
            snprintf(c->note, sizeof c->note, "thread %d's /proc/self/task counters are not readable", t);
            st->threads = t + 1;
            c->state = st;
            free_noise_census(c);   /* closes what was opened */
            return;
        }
        st->threads = t + 1;
    }
    c->state = st;
}

/* Per-CPU steal ticks (/proc/stat's 8th column) into steal[]; 0, or -1. */
static int read_steal(long long *steal)
{
    FILE *f = fopen("/proc/stat", "r");
    char line[512];
    int found = 0;
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL) {
        /* "cpuN user nice system idle iowait irq softirq steal ...": the total "cpu" line is skipped. */
        char *p = line + 3, *end;
        if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
            continue;
        long cpu = strtol(p, &end, 10);
        long long value = 0;
        int fields = 0;
        for (p = end; fields < 8; fields++, p = end) {
            value = strtoll(p, &end, 10);
            if (end == p)
                break;
        }
        if (fields == 8 && cpu >= 0 && cpu < CLOMP_MAX_CPUS) {
            steal[cpu] = value;
            found = 1;
        }
    }
    fclose(f);
    return found ? 0 : -1;
}

/* Per-CPU interrupt counts, summed over /proc/interrupts' lines, into irq[]; 0, or -1. */
static int read_interrupts(struct NoiseState *st, long long *irq)
{
    int fd = open("/proc/interrupts", O_RDONLY | O_CLOEXEC);
    long n = fd >= 0 ? read_proc(st, fd) : -1;
    if (fd >= 0)
        close(fd);
    if (n <= 0)
        return -1;
    int column_cpu[CLOMP_MAX_CPUS], columns = 0;
    char *line = st->buf, *next = strchr(line, '\n');
    for (char *p = strstr(line, "CPU"); p != NULL && (next == NULL || p < next) && columns < CLOMP_MAX_CPUS;
         p = strstr(p + 3, "CPU"))
        column_cpu[columns++] = (int)strtol(p + 3, NULL, 10);
    memset(irq, 0, CLOMP_MAX_CPUS * sizeof *irq);
    for (line = next; line != NULL; line = strchr(line + 1, '\n')) {
        char *p = strchr(line + 1, ':');
        char *eol = strchr(line + 1, '\n');
        if (p == NULL || (eol != NULL && p > eol))
            continue;
        p++;
        for (int k = 0; k < columns; k++) {
            char *end;
            long long v = strtoll(p, &end, 10);
            if (end == p || (eol != NULL && end > eol))
                break;
            if (column_cpu[k] >= 0 && column_cpu[k] < CLOMP_MAX_CPUS)
                irq[column_cpu[k]] += v;
            p = end;
        }
    }
    return columns > 0 ? 0 : -1;
}

const ChunkSampler *noise_run_begin(NoiseCensus *c, Measurement *m)
{
    struct NoiseState *st = c->state;
    if (st == NULL)
        return NULL;
    st->m = m;
    st->sampled = m->schedule->uses_threads ? st->threads : 1;
    st->chunk_open = 0;
    st->run_chunks = 0;
    memset(st->cpus, 0, sizeof st->cpus);
    read_threads(st, st->run_start);
    c->steal_reported = read_steal(st->steal_start) == 0;
    c->interrupts_readable = read_interrupts(st, st->irq_start) == 0;
    if (!m->noise.sampled) {
        m->noise.sampled = 1;
        m->noise.threads = st->sampled;
        m->noise.steal_seconds = c->steal_reported ? 0.0 : NAN;
        m->noise.interrupts = c->interrupts_readable ? 0 : -1;
    }
    return &st->sampler;
}

void noise_run_end(NoiseCensus *c, Measurement *m)
{
    struct NoiseState *st = c->state;
    static long long now[CLOMP_MAX_CPUS];
    if (st == NULL || st->m != m)
        return;
    if (st->run_chunks == 0) {   /* Bestcase, Parallel For: the chunks end inside the region */
        close_span(st, st->run_start);
        m->noise.whole_runs = 1;
    }
    double tick = (double)sysconf(_SC_CLK_TCK);
    if (c->steal_reported && read_steal(now) == 0 && tick > 0.0) {
        long long ticks = 0;
        for (int cpu = 0; cpu < CLOMP_MAX_CPUS; cpu++)
            if (cpu_marked(st, cpu))
                ticks += now[cpu] - st->steal_start[cpu];
        m->noise.steal_seconds += (double)ticks / tick;
        c->steal_seconds = (isnan(c->steal_seconds) ? 0.0 : c->steal_seconds) + (double)ticks / tick;
    }
    if (c->interrupts_readable && read_interrupts(st, now) == 0) {
        long long count = 0;
        for (int cpu = 0; cpu < CLOMP_MAX_CPUS; cpu++)
            if (cpu_marked(st, cpu))
                count += now[cpu] - st->irq_start[cpu];
        m->noise.interrupts += (long)count;
        c->interrupts += (long)count;
    }
    st->m = NULL;
}

void noise_measurement_warnings(const NoiseCensus *c, const RunSetup *run, Measurement *m, const Measurement *bestcase)
{
    if (!c->probed || !m->has_overhead || bestcase == NULL || m == bestcase || m->chunks < 1)
        return;
    double lost = 0.0, detour = 0.0;
    for (int t = 0; t < c->threads; t++) {
        lost = fmax(lost, c->thread[t].lost_fraction);
        detour = fmax(detour, c->thread[t].largest_detour_us);
    }
    double overhead = fabs(m->overhead_us), noise_us = lost * m->us;
    double per_chunk = overhead * (double)run->subcycles / (double)m->chunks;
    if (noise_us >= NOISE_COMPARABLE_SHARE * overhead) {
        m->noise.comparable = 1;
        add_warning(&m->warnings, WARNING_LINE, "noise comparable with the overhead: the probe's noisiest thread lost "
                    "%.2f%% of its time to detours, %.3f us of this schedule's %.2f us/Loop, at least half the "
                    "overhead (%.3f us/Loop); see docs/noise.md", lost * 100.0, noise_us, m->us, m->overhead_us);
    } else if (detour >= per_chunk) {
        m->noise.comparable = 1;
        add_warning(&m->warnings, WARNING_LINE, "noise comparable with the overhead: the probe's largest detour "
                    "(%.0f us) is as long as a whole chunk's overhead (%.3f us/Loop x %ld subcycles); see "
                    "docs/noise.md", detour, m->overhead_us, run->subcycles / m->chunks);
    }
}

void free_noise_census(NoiseCensus *c)
{
    struct NoiseState *st = c->state;
    if (st == NULL)
        return;
    for (int t = 0; t < st->threads; t++) {
        if (st->status_fd[t] >= 0)
            close(st->status_fd[t]);
        if (st->stat_fd[t] >= 0)
            close(st->stat_fd[t]);
    }
    free(st->buf);
    free(st);
    c->state = NULL;
}
