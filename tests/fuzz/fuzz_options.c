/* libFuzzer harness (make fuzz): the command-line parser never crashes, never
 * accepts a value outside its range, and every refusal is one line with
 * exit status 2. Input: arguments separated by newlines. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/exit_status.h"
#include "cli/options.h"

#define MAX_ARGS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char buf[4096];
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    char error[256];
    Options opts;

    if (size >= sizeof buf)
        size = sizeof buf - 1;
    memcpy(buf, data, size);
    buf[size] = '\0';
    argv[argc++] = "clomp";
    for (char *p = buf; argc <= MAX_ARGS;) {
        argv[argc++] = p;
        char *nl = strchr(p, '\n');
        if (nl == NULL)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    argv[argc] = NULL;

    int status = parse_options(argc, argv, &opts, error, sizeof error);
    if (status != 0 && status != EXIT_USAGE)
        abort();
    if (status == EXIT_USAGE && strchr(error, '\n') != NULL)
        abort();   /* a refusal is one line */
    /* Whatever answers without running (--help, --version, a --list-*, --topology) sets no input. */
    if (status == 0 && !opts.answers_without_running) {
        long threads[2] = {opts.numThreads, opts.allocThreads};
        long positive[5] = {opts.numParts, opts.zonesPerPart, opts.zoneSize, opts.flopScale, opts.timeScale};
        for (int i = 0; i < 2; i++)
            if (threads[i] < 1 && threads[i] != -1)
                abort();
        for (int i = 0; i < 5; i++)
            if (positive[i] < 1)
                abort();
        if (opts.nestedOuter < 0 || opts.nestedInner < 0)
            abort();
        /* The measurement options stay in their documented ranges. */
        if (opts.trials < 0 || opts.trials > MAX_TRIALS || opts.rounds < 1 || opts.rounds > MAX_ROUNDS)
            abort();
        if (opts.ghz < 0.0 || opts.ghz > MAX_GHZ || opts.ghz != opts.ghz)
            abort();
        if (opts.offload_device < -1 || opts.offload_device > MAX_OFFLOAD_DEVICE)   /* -1: the runtime's default */
            abort();
        if ((opts.schedules != NULL && opts.schedules[0] == '\0') || (opts.json_path != NULL && opts.json_path[0] == '\0'))
            abort();
        /* The construct options too (--constructs, issue 19). */
        const ConstructOptions *c = &opts.constructs;
        if (c->reps < 1 || c->reps > CONSTRUCT_MAX_REPS || !(c->target_us > 0.0 && c->target_us <= CONSTRUCT_MAX_TARGET_US))
            abort();
        if (!(c->sync_delay_us > 0.0 && c->sync_delay_us <= CONSTRUCT_MAX_DELAY_US) ||
            !(c->loop_delay_us > 0.0 && c->loop_delay_us <= CONSTRUCT_MAX_DELAY_US))
            abort();
        /* A length (additions) is 0 (calibrate) or within range, and never given beside a time. */
        if (c->sync_delay_length < 0 || c->sync_delay_length > CONSTRUCT_MAX_DELAY_LENGTH ||
            c->loop_delay_length < 0 || c->loop_delay_length > CONSTRUCT_MAX_DELAY_LENGTH ||
            (c->sync_delay_length > 0 && c->sync_delay_us_given) || (c->loop_delay_length > 0 && c->loop_delay_us_given))
            abort();
        if (c->chunk_count < 0 || c->chunk_count > CONSTRUCT_MAX_CHUNKS)
            abort();
        for (int i = 0; i < c->chunk_count; i++)
            if (c->chunks[i] < 1 || c->chunks[i] > 1000000L)
                abort();
        if (c->list != NULL && c->list[0] == '\0')
            abort();
        if (c->iters_per_thread < 1 || c->iters_per_thread > CONSTRUCT_MAX_ITERS_PER_THREAD)
            abort();
        /* Array sizes: 1..16 of them, each a power of 3 up to 59049 (kernels/array_constructs.c has no other). */
        if (c->size_count < 1 || c->size_count > CONSTRUCT_MAX_CHUNKS)
            abort();
        for (int i = 0; i < c->size_count; i++) {
            long n = c->sizes[i];
            while (n > 1 && n % 3 == 0)
                n /= 3;
            if (n != 1 || c->sizes[i] > CONSTRUCT_MAX_ARRAY_SIZE)
                abort();
        }
    }
    return 0;
}
