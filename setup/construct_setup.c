/* --constructs resolved (setup.h): the LIST checked against the construct
 * table, the options that only make sense with it refused without it, and
 * the nested shape's size checked before anything runs. */
#include "setup.h"

#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "../cli/exit_status.h"

#define FAIL(status, ...) return (snprintf(why, why_size, __VA_ARGS__), (status))

/* Threads a level-2 run may ask for at most, whatever OMP_THREAD_LIMIT says. */
#define CONSTRUCT_MAX_NESTED_THREADS 4096L

static int select_constructs(RunSetup *run, const char *list, char *why, size_t why_size)
{
    /* --constructs alone: every row but an offload build's target probes,
     * which run when named (as the optional schedules), so that the suite's
     * construct runs are the same in every build (docs/offload.md). */
    for (size_t i = 0; i < clomp_construct_count; i++)
        run->construct_selected[i] = list == NULL && clomp_constructs[i]->kind != CONSTRUCT_TARGET;
    for (const char *p = list; p != NULL;) {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        char key[64];
        if (len == 0 || len >= sizeof key)
            FAIL(EXIT_USAGE, "--constructs: '%.60s' is not a comma-separated list of keys (see --list-constructs)",
                 list);
        memcpy(key, p, len);
        key[len] = '\0';
        const Construct *c = find_construct(key);
        if (c == NULL)
            FAIL(EXIT_USAGE, "--constructs: unknown construct '%.60s' (see --list-constructs)", key);
        for (size_t i = 0; i < clomp_construct_count; i++)
            run->construct_selected[i] |= clomp_constructs[i] == c;
        p = comma != NULL ? comma + 1 : NULL;
    }
    return 0;
}

int resolve_constructs(const Options *opts, RunSetup *run, char *why, size_t why_size)
{
    const ConstructOptions *c = &opts->constructs;
    ConstructOptions defaults;
    default_construct_options(&defaults);
    run->constructs = *c;
    if (!c->asked) {
        if (c->reps != defaults.reps || c->target_us != defaults.target_us ||
            c->sync_delay_us != defaults.sync_delay_us || c->loop_delay_us != defaults.loop_delay_us ||
            c->sync_delay_length != 0 || c->loop_delay_length != 0 ||
            c->chunk_count != 0 || c->sizes_given ||
            c->iters_per_thread != defaults.iters_per_thread)
            FAIL(EXIT_USAGE, "--construct-*: these options set up --constructs, which was not given");
        return 0;
    }
    int status = select_constructs(run, c->list, why, why_size);
    if (status != 0)
        return status;
    if (opts->nestedOuter > 0) {
        long limit = omp_get_thread_limit(), threads = opts->nestedOuter * opts->nestedInner;
        if (opts->nestedOuter > CONSTRUCT_MAX_NESTED_THREADS || opts->nestedInner > CONSTRUCT_MAX_NESTED_THREADS ||
            threads > CONSTRUCT_MAX_NESTED_THREADS || threads > limit)
            FAIL(EXIT_USAGE, "--nested: %ldx%ld is too large for --constructs: at most %ld threads in all%s",
                 opts->nestedOuter, opts->nestedInner, limit < CONSTRUCT_MAX_NESTED_THREADS ? limit :
                 CONSTRUCT_MAX_NESTED_THREADS, limit < CONSTRUCT_MAX_NESTED_THREADS ? " (OMP_THREAD_LIMIT)" : "");
    }
    return 0;
}
