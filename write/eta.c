/* The suite's ETA (clomp-write eta, called by suite/calibrate.sh's eta_seconds
 * before each run): the estimates of the runs left that are not done yet,
 * scaled by what the runs measured so far took against their estimates (1
 * before any), in whole seconds (docs/suite.md, "The dry run's estimate").
 * Here rather than in the driver's shell because it is asked before every run
 * and read the .done file's every line each time. */
#define _POSIX_C_SOURCE 200809L
#include "eta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A whole number as the driver wrote it: digits, without a leading zero but 0. */
static int run_number(const char *word, size_t len, long long *value)
{
    if (len == 0 || len > 18 || strspn(word, "0123456789") < len || (word[0] == '0' && len > 1))
        return 0;
    *value = strtoll(word, NULL, 10);
    return 1;
}

int eta_main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: clomp-write eta FROM DONE_FILE ESTIMATED MEASURED [ESTIMATE...]   (FROM: the first run\n"
                        "       left, 0-based; the estimates of runs FROM on, whole seconds)\n");
        return 2;
    }
    long long from = strtoll(argv[0], NULL, 10), n_left = argc - 4;
    char *done = calloc((size_t)n_left + 1, 1), *line = NULL;
    size_t size = 0;
    struct stat st;   /* a regular file, or none (the driver's [ -f ]) */
    FILE *f = stat(argv[1], &st) == 0 && S_ISREG(st.st_mode) ? fopen(argv[1], "r") : NULL;
    if (!done)
        return 3;
    /* The .done file: the numbers (1-based) of the runs done, a line each. */
    while (f && getline(&line, &size, f) != -1) {
        size_t len = strcspn(line, "\n");
        long long run;
        if (run_number(line, len, &run) && run - 1 - from >= 0 && run - 1 - from < n_left)
            done[run - 1 - from] = 1;
    }
    free(line);
    if (f)
        fclose(f);
    long long left = 0;
    for (long long i = 0; i < n_left; i++)
        if (!done[i])
            left += strtoll(argv[4 + i], NULL, 10);
    free(done);
    double estimated = strtod(argv[2], NULL), measured = strtod(argv[3], NULL);
    double factor = estimated > 0 && measured > 0 ? measured / estimated : 1;
    printf("%lld\n", (long long)((double)left * factor + 0.5));
    return fflush(stdout) == 0 ? 0 : 3;
}
