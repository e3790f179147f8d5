/* The OMPT tool inside clomp (ompt/tool.h). Its callbacks tag every parallel
 * region's parallel_data with what they learn of it (nesting level,
 * requested and actual team size), count the warm-up's events only while a
 * census is open, and otherwise return after that tag: a tool attached
 * costs what the runtime's OMPT paths cost, plus these few stores. */
#define _GNU_SOURCE   /* dladdr */
#include "tool.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <omp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "omp_tools.h"

static OmptMode requested_mode;
static double requested_rate_hz = OMPT_DEFAULT_RATE_HZ;
static int start_called;
static int tool_initialized;
static char runtime_version[96];

static ompt_get_parallel_info_t get_parallel_info;
static ompt_get_task_info_t get_task_info;

/* A region's parallel_data, packed: bits 0-15 the actual team size (0
 * until its primary implicit task began), 16-31 the requested size, 32-39
 * the nesting level (>= 1, so a tagged region is never 0), 40-63 a serial
 * number. An implicit or explicit task's task_data holds its level. */
#define TAG_TEAM(v) ((int)((v) & 0xffffu))
#define TAG_REQUESTED(v) ((int)(((v) >> 16) & 0xffffu))
#define TAG_LEVEL(v) ((int)(((v) >> 32) & 0xffu))

static uint64_t relaxed_load(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* ---- the census: counted only while open ------------------------------------------- */

static int counting;
static OmptCensus live;

static void add(long *counter, long n)
{
    __atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

static void lower(int *least, int value)
{
    int seen = __atomic_load_n(least, __ATOMIC_RELAXED);
    while (value < seen && !__atomic_compare_exchange_n(least, &seen, value, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

static void raise_to(int *most, int value)
{
    int seen = __atomic_load_n(most, __ATOMIC_RELAXED);
    while (value > seen && !__atomic_compare_exchange_n(most, &seen, value, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

static OmptLevelCensus *level_census(int level)
{
    return &live.level[level > OMPT_CENSUS_LEVELS ? OMPT_CENSUS_LEVELS - 1 : level - 1];
}

static int is_counting(void)
{
    return __atomic_load_n(&counting, __ATOMIC_RELAXED);
}

void ompt_census_begin(void)
{
    memset(&live, 0, sizeof live);
    for (int l = 0; l < OMPT_CENSUS_LEVELS; l++)
        live.level[l].requested_min = live.level[l].team_min = INT_MAX;
    __atomic_store_n(&counting, tool_initialized && requested_mode >= OMPT_MODE_CENSUS, __ATOMIC_SEQ_CST);
}

void ompt_census_end(OmptCensus *census)
{
    int was_counting = __atomic_exchange_n(&counting, 0, __ATOMIC_SEQ_CST);
    memset(census, 0, sizeof *census);
    if (!was_counting)
        return;
    *census = live;
    census->taken = 1;
    census->iterations = 1;
    for (int l = 0; l < OMPT_CENSUS_LEVELS; l++) {
        if (census->level[l].requested_min == INT_MAX)
            census->level[l].requested_min = 0;
        if (census->level[l].team_min == INT_MAX)
            census->level[l].team_min = 0;
    }
}

/* ---- the callbacks ------------------------------------------------------------------ */

static uint64_t region_serial;

static void on_parallel_begin(ompt_data_t *encountering_task_data, const ompt_frame_t *encountering_task_frame,
                              ompt_data_t *parallel_data, unsigned int requested_parallelism, int flags,
                              const void *codeptr_ra)
{
    (void)encountering_task_frame, (void)flags, (void)codeptr_ra;
    uint64_t level = (encountering_task_data != NULL ? (encountering_task_data->value & 0xffu) : 0) + 1;
    uint64_t requested = requested_parallelism > 0xffffu ? 0xffffu : requested_parallelism;
    uint64_t serial = __atomic_add_fetch(&region_serial, 1, __ATOMIC_RELAXED) & 0xffffffu;
    __atomic_store_n(&parallel_data->value, serial << 40 | level << 32 | requested << 16, __ATOMIC_RELAXED);
    if (is_counting()) {
        OmptLevelCensus *c = level_census((int)level);
        add(&c->regions, 1);
        add(&c->requested_sum, (long)requested);
        lower(&c->requested_min, (int)requested);
        raise_to(&c->requested_max, (int)requested);
    }
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data, ompt_data_t *task_data,
                             unsigned int actual_parallelism, unsigned int index, int flags)
{
    if (endpoint != ompt_scope_begin)
        return;
    if ((flags & ompt_task_initial) || parallel_data == NULL) {
        task_data->value = 0;
        return;
    }
    uint64_t tag = relaxed_load(&parallel_data->value);
    int level = TAG_LEVEL(tag);
    task_data->value = (uint64_t)level;
    int team = actual_parallelism > 0xffffu ? 0xffff : (int)actual_parallelism;
    if (index == 0)
        __atomic_fetch_or(&parallel_data->value, (uint64_t)team, __ATOMIC_RELAXED);
    if (is_counting() && level >= 1) {
        OmptLevelCensus *c = level_census(level);
        add(&c->implicit_tasks, 1);
        if (index == 0) {
            add(&c->team_sum, team);
            lower(&c->team_min, team);
            raise_to(&c->team_max, team);
            if (team == 1 && TAG_REQUESTED(tag) > 1)
                add(&c->serialized, 1);
        }
    }
}

static void on_task_create(ompt_data_t *encountering_task_data, const ompt_frame_t *encountering_task_frame,
                           ompt_data_t *new_task_data, int flags, int has_dependences, const void *codeptr_ra)
{
    (void)encountering_task_frame, (void)has_dependences, (void)codeptr_ra;
    new_task_data->value = encountering_task_data != NULL ? encountering_task_data->value : 0;
    if ((flags & ompt_task_explicit) && is_counting())
        add(&live.explicit_tasks, 1);
}

static void on_work(ompt_work_t work_type, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                    ompt_data_t *task_data, uint64_t count, const void *codeptr_ra)
{
    (void)parallel_data, (void)task_data, (void)count, (void)codeptr_ra;
    if (endpoint != ompt_scope_begin || !is_counting())
        return;
    if (work_type == ompt_work_loop)
        add(&live.loops, 1);
    else if (work_type == ompt_work_taskloop)
        add(&live.taskloops, 1);
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                           ompt_data_t *task_data, const void *codeptr_ra)
{
    (void)parallel_data, (void)task_data, (void)codeptr_ra;
    if (endpoint != ompt_scope_begin || !is_counting())
        return;
    if (kind != ompt_sync_region_taskwait && kind != ompt_sync_region_taskgroup && kind != ompt_sync_region_reduction)
        add(&live.barriers, 1);
}

/* ---- the sampling tool ---------------------------------------------------------------- */

static int sample_slot = -1;
static OmptSamples samples[OMPT_MAX_SLOTS];

typedef enum { SAMPLE_CONSISTENT, SAMPLE_UNAVAILABLE, SAMPLE_INCONSISTENT, SAMPLE_IDLE } SampleVerdict;

/* Walks the interrupted thread's tasks from the innermost outwards; each
 * implicit task is matched with the parallel region at the next parallel
 * ancestor level. Async-signal-safe: the OMPT inquiry entry points are. */
static SampleVerdict classify_sample(int *failed_level, int *levels)
{
    int plevel = 0;
    for (int tlevel = 0; tlevel < 64; tlevel++) {
        int flags = 0, thread_num = -1, team = 0;
        ompt_data_t *task_data = NULL, *task_parallel = NULL, *parallel = NULL;
        ompt_frame_t *frame = NULL;
        int found = get_task_info(tlevel, &flags, &task_data, &frame, &task_parallel, &thread_num);
        if (found == 0)
            return tlevel == 0 ? SAMPLE_IDLE : SAMPLE_CONSISTENT;   /* in no task, or past the outermost */
        if (found != 2)
            return SAMPLE_UNAVAILABLE;
        if (flags & ompt_task_initial)
            return SAMPLE_CONSISTENT;
        if (!(flags & ompt_task_implicit))
            continue;   /* an explicit task: its region is its implicit parent's */
        *failed_level = plevel < OMPT_SAMPLE_LEVELS ? plevel : OMPT_SAMPLE_LEVELS - 1;
        int pfound = get_parallel_info(plevel, &parallel, &team);
        if (pfound == 1)
            return SAMPLE_UNAVAILABLE;
        if (pfound != 2 || parallel == NULL || parallel != task_parallel)
            return SAMPLE_INCONSISTENT;
        uint64_t tag = relaxed_load(&parallel->value);
        if (tag == 0 || TAG_TEAM(tag) == 0)
            return SAMPLE_UNAVAILABLE;   /* the region is being created: its callbacks have not recorded it yet */
        if (TAG_TEAM(tag) != team || thread_num < 0 || thread_num >= team)
            return SAMPLE_INCONSISTENT;
        *levels = ++plevel;
    }
    return SAMPLE_CONSISTENT;
}

static void on_sample(int sig)
{
    (void)sig;
    int slot = __atomic_load_n(&sample_slot, __ATOMIC_RELAXED);
    if (slot < 0 || get_task_info == NULL || get_parallel_info == NULL)
        return;
    int saved_errno = errno, failed_level = 0, levels = 0;
    OmptSamples *s = &samples[slot];
    switch (classify_sample(&failed_level, &levels)) {
    case SAMPLE_CONSISTENT:
        add(&s->consistent, 1);
        break;
    case SAMPLE_UNAVAILABLE:
        add(&s->unavailable, 1);
        break;
    case SAMPLE_IDLE:
        add(&s->idle, 1);
        break;
    default:
        add(&s->inconsistent, 1);
        add(&s->inconsistent_at[failed_level], 1);
        break;
    }
    raise_to(&s->deepest, levels);
    errno = saved_errno;
}

static void sampling_timer(double rate_hz)
{
    long period_us = (long)(1e6 / rate_hz);
    struct itimerval timer = {{period_us / 1000000, period_us % 1000000}, {period_us / 1000000, period_us % 1000000}};
    if (rate_hz <= 0.0)
        timer = (struct itimerval){{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &timer, NULL);
}

void ompt_samples_for(int slot)
{
    __atomic_store_n(&sample_slot, slot >= 0 && slot < OMPT_MAX_SLOTS ? slot : -1, __ATOMIC_SEQ_CST);
}

void ompt_samples_take(int slot, OmptSamples *out)
{
    memset(out, 0, sizeof *out);
    if (slot < 0 || slot >= OMPT_MAX_SLOTS)
        return;
    OmptSamples *s = &samples[slot];
    out->consistent = __atomic_load_n(&s->consistent, __ATOMIC_RELAXED);
    out->unavailable = __atomic_load_n(&s->unavailable, __ATOMIC_RELAXED);
    out->inconsistent = __atomic_load_n(&s->inconsistent, __ATOMIC_RELAXED);
    out->idle = __atomic_load_n(&s->idle, __ATOMIC_RELAXED);
    for (int l = 0; l < OMPT_SAMPLE_LEVELS; l++)
        out->inconsistent_at[l] = __atomic_load_n(&s->inconsistent_at[l], __ATOMIC_RELAXED);
    out->deepest = __atomic_load_n(&s->deepest, __ATOMIC_RELAXED);
}

/* ---- start-up ------------------------------------------------------------------------- */

#define REGISTER(event, function) set_callback(event, (ompt_callback_t)(void (*)(void))(function))

static int initialize_tool(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data)
{
    (void)initial_device_num, (void)tool_data;
    tool_initialized = 1;
    if (requested_mode < OMPT_MODE_CENSUS)
        return 1;   /* the trivial tool: attached, no callbacks */
    ompt_set_callback_t set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
    get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
    get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
    if (set_callback != NULL) {
        REGISTER(ompt_callback_parallel_begin, on_parallel_begin);
        REGISTER(ompt_callback_implicit_task, on_implicit_task);
        REGISTER(ompt_callback_task_create, on_task_create);
        REGISTER(ompt_callback_work, on_work);
        REGISTER(ompt_callback_sync_region, on_sync_region);
    }
    if (requested_mode == OMPT_MODE_SAMPLING) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_sample;
        action.sa_flags = SA_RESTART;
        sigemptyset(&action.sa_mask);
        sigaction(SIGPROF, &action, NULL);
        sampling_timer(requested_rate_hz);
    }
    return 1;
}

static void finalize_tool(ompt_data_t *tool_data)
{
    (void)tool_data;
    if (requested_mode == OMPT_MODE_SAMPLING)
        sampling_timer(0.0);
    ompt_samples_for(-1);
}

/* Called by an OMPT runtime once, when it starts (libgomp never calls it). */
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version_text)
{
    static ompt_start_tool_result_t tool = {initialize_tool, finalize_tool, {0}};
    (void)omp_version;
    start_called = 1;
    snprintf(runtime_version, sizeof runtime_version, "%s", runtime_version_text != NULL ? runtime_version_text : "");
    return requested_mode == OMPT_MODE_NONE ? NULL : &tool;
}

void ompt_tool_request(OmptMode mode, double rate_hz)
{
    requested_mode = mode;
    if (rate_hz > 0.0)
        requested_rate_hz = rate_hz;
}

/* The file the OpenMP runtime was loaded from, by its real name (the gcc
 * build run on libomp finds it as libgomp.so.1), and its real path. */
static void runtime_file(char *name, size_t size, char *full, size_t full_size)
{
    Dl_info info;
    char real[PATH_MAX];
    int (*function)(void) = omp_get_num_threads;
    void *address;
    memcpy(&address, &function, sizeof address);   /* a function's address as dladdr takes it */
    name[0] = full[0] = '\0';
    if (dladdr(address, &info) == 0 || info.dli_fname == NULL)
        return;
    const char *path = realpath(info.dli_fname, real) != NULL ? real : info.dli_fname;
    if (strlen(path) < full_size)   /* a path cut short would name another file: none rather */
        memcpy(full, path, strlen(path) + 1);
    const char *slash = strrchr(path, '/'), *base = slash != NULL ? slash + 1 : path;
    size_t length = strlen(base) < size - 1 ? strlen(base) : size - 1;
    memcpy(name, base, length);
    name[length] = '\0';
}

void ompt_tool_setup(OmptSetup *setup)
{
    memset(setup, 0, sizeof *setup);
    setup->mode = requested_mode;
    setup->rate_hz = requested_mode == OMPT_MODE_SAMPLING ? requested_rate_hz : 0.0;
    setup->started = start_called;
    setup->attached = start_called && tool_initialized && requested_mode != OMPT_MODE_NONE;
    runtime_file(setup->runtime_file, sizeof setup->runtime_file, setup->runtime_path, sizeof setup->runtime_path);
    size_t stem = strcspn(setup->runtime_file, ".");
    if (stem >= sizeof setup->runtime)
        stem = sizeof setup->runtime - 1;
    memcpy(setup->runtime, setup->runtime_file, stem);
    setup->runtime[stem] = '\0';
    snprintf(setup->runtime_version, sizeof setup->runtime_version, "%s", runtime_version);
}
