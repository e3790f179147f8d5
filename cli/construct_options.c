#include "construct_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_status.h"

void default_construct_options(ConstructOptions *c)
{
    memset(c, 0, sizeof *c);
    c->reps = CONSTRUCT_DEFAULT_REPS;
    c->target_us = CONSTRUCT_DEFAULT_TARGET_US;
    c->sync_delay_us = CONSTRUCT_DEFAULT_SYNC_DELAY_US;
    c->loop_delay_us = CONSTRUCT_DEFAULT_LOOP_DELAY_US;
    c->iters_per_thread = CONSTRUCT_ITERS_PER_THREAD;
    for (long n = 1; n <= CONSTRUCT_MAX_ARRAY_SIZE; n *= 3)
        c->sizes[c->size_count++] = n;
}

static int refuse(char *error, size_t size, const char *option, const char *text, const char *why)
{
    char shown[64];
    size_t n = 0;
    for (const char *p = text; *p != '\0' && n + 1 < sizeof shown; p++) {
        char c = '?';   /* any byte outside printable ASCII */
        if (*p >= 0x20 && *p < 0x7f)
            c = *p;
        shown[n++] = c;
    }
    shown[n] = '\0';
    snprintf(error, size, "%s: '%s' %s", option, shown, why);
    return EXIT_USAGE;
}

/* A plain decimal (digits, at most one '.'), above 0 and at most `maximum`;
 * a sign, an exponent, hex or inf is refused with what was wrong. */
int parse_positive(const char *option, const char *text, double maximum, double *value, char *error,
                          size_t size)
{
    int digits = 0, dots = 0;
    if (text[0] == '-')
        return refuse(error, size, option, text, "is negative: it must be above 0");
    for (const char *p = text; *p != '\0'; p++) {
        if (*p >= '0' && *p <= '9')
            digits++;
        else if (*p == '.')
            dots++;
        else
            return refuse(error, size, option, text, "is not a decimal number");
    }
    if (digits == 0 || dots > 1)
        return refuse(error, size, option, text, "is not a decimal number");
    *value = strtod(text, NULL);
    if (!(*value > 0.0))
        return refuse(error, size, option, text, "must be above 0");
    if (*value > maximum) {
        char why[64];
        snprintf(why, sizeof why, "is above the maximum %g", maximum);
        return refuse(error, size, option, text, why);
    }
    return 0;
}

/* A whole number above 0 and at most `maximum`, as parse_positive takes it
 * once a fraction or nothing at all is refused; kept as a double so that a
 * value far beyond a long is refused before any conversion. */
int parse_whole(const char *option, const char *text, double maximum, double *value, char *error, size_t size)
{
    if (text[0] == '\0' || strchr(text, '.') != NULL)
        return refuse(error, size, option, text, "is not a whole number");
    return parse_positive(option, text, maximum, value, error, size);
}

static int parse_chunks(const char *text, ConstructOptions *c, char *error, size_t size)
{
    const char *option = "--construct-chunks";
    c->chunk_count = 0;
    for (const char *p = text;;) {
        char *end;
        if (*p < '1' || *p > '9')
            return refuse(error, size, option, text, "is not a comma-separated list of chunk sizes above 0");
        long n = strtol(p, &end, 10);
        if (n > 1000000L)
            return refuse(error, size, option, text, "holds a chunk size above 1000000");
        if (c->chunk_count == CONSTRUCT_MAX_CHUNKS)
            return refuse(error, size, option, text, "holds more than 16 chunk sizes");
        c->chunks[c->chunk_count++] = n;
        if (*end == '\0')
            return 1;
        if (*end != ',')
            return refuse(error, size, option, text, "is not a comma-separated list of chunk sizes above 0");
        p = end + 1;
    }
}

/* A comma-separated list of array sizes, each a power of 3 from 1 to 59049;
 * `c` changes only when the whole list is good. */
static int parse_sizes(const char *text, ConstructOptions *c, char *error, size_t size)
{
    const char *option = "--construct-sizes", *list = "is not a comma-separated list of array sizes (1, 3, 9, ... 59049)";
    long sizes[CONSTRUCT_MAX_CHUNKS];
    int count = 0;
    for (const char *p = text;;) {
        char *end;
        if (*p < '1' || *p > '9')
            return refuse(error, size, option, text, list);
        long n = strtol(p, &end, 10), power = 1;
        while (power < n && power <= CONSTRUCT_MAX_ARRAY_SIZE)
            power *= 3;
        if (power != n || n > CONSTRUCT_MAX_ARRAY_SIZE)
            return refuse(error, size, option, text, "holds a size that is not a power of 3 from 1 to 59049 (the sizes built in)");
        if (count == CONSTRUCT_MAX_CHUNKS)
            return refuse(error, size, option, text, "holds more than 16 sizes");
        sizes[count++] = n;
        if (*end == '\0')
            break;
        if (*end != ',')
            return refuse(error, size, option, text, list);
        p = end + 1;
    }
    memcpy(c->sizes, sizes, (size_t)count * sizeof *sizes);
    c->size_count = count;
    c->sizes_given = 1;
    return 1;
}

/* A delay is a time to calibrate to or a number of additions, never both:
 * whichever comes second is refused, so that neither silently wins. */
static int parse_delay_time(const char *option, const char *text, double *us, int *us_given, int length,
                            char *error, size_t size)
{
    if (length != 0)
        return refuse(error, size, option, text, "comes with a delay length too: give the delay as a time or as "
                      "a number of additions, not both");
    int status = parse_positive(option, text, CONSTRUCT_MAX_DELAY_US, us, error, size);
    if (status != 0)
        return status;
    *us_given = 1;
    return 1;
}

static int parse_delay_length(const char *option, const char *text, int *length, int us_given, char *error,
                              size_t size)
{
    double n = 0.0;
    if (us_given)
        return refuse(error, size, option, text, "comes with a delay time too: give the delay as a time or as "
                      "a number of additions, not both");
    int status = parse_whole(option, text, (double)CONSTRUCT_MAX_DELAY_LENGTH, &n, error, size);
    if (status != 0)
        return status;
    *length = (int)n;
    return 1;
}

int parse_construct_option(const char *arg, ConstructOptions *c, char *error, size_t size)
{
    double reps = 0.0;
    int status;
    if (strcmp(arg, "--constructs") == 0) {
        c->asked = 1;
        c->list = NULL;
        return 1;
    }
    if (strncmp(arg, "--constructs=", 13) == 0) {
        if (arg[13] == '\0')
            return refuse(error, size, "--constructs", "", "is an empty list (e.g. --constructs=parallel,barrier)");
        c->asked = 1;
        c->list = arg + 13;
        return 1;
    }
    if (strcmp(arg, "--list-constructs") == 0) {
        c->want_list = 1;
        return 1;
    }
    if (strncmp(arg, "--construct-reps=", 17) == 0) {
        const char *t = arg + 17;
        if (t[0] == '0' && t[1] == '\0')
            return refuse(error, size, "--construct-reps", t, "must be at least 1 (repetitions)");
        status = parse_whole("--construct-reps", t, (double)CONSTRUCT_MAX_REPS, &reps, error, size);
        if (status != 0)
            return status;   /* reps may be far beyond a long: never converted */
        c->reps = (long)reps;
        return 1;
    }
    if (strncmp(arg, "--construct-time=", 17) == 0)
        return (status = parse_positive("--construct-time", arg + 17, CONSTRUCT_MAX_TARGET_US, &c->target_us, error,
                                        size)) != 0 ? status : 1;
    if (strncmp(arg, "--construct-delay=", 18) == 0)
        return parse_delay_time("--construct-delay", arg + 18, &c->sync_delay_us, &c->sync_delay_us_given,
                                c->sync_delay_length, error, size);
    if (strncmp(arg, "--construct-loop-delay=", 23) == 0)
        return parse_delay_time("--construct-loop-delay", arg + 23, &c->loop_delay_us, &c->loop_delay_us_given,
                                c->loop_delay_length, error, size);
    if (strncmp(arg, "--construct-delay-length=", 25) == 0)
        return parse_delay_length("--construct-delay-length", arg + 25, &c->sync_delay_length,
                                  c->sync_delay_us_given, error, size);
    if (strncmp(arg, "--construct-loop-delay-length=", 30) == 0)
        return parse_delay_length("--construct-loop-delay-length", arg + 30, &c->loop_delay_length,
                                  c->loop_delay_us_given, error, size);
    if (strncmp(arg, "--construct-chunks=", 19) == 0)
        return parse_chunks(arg + 19, c, error, size);
    if (strncmp(arg, "--construct-iters=", 18) == 0) {
        double iters = 0.0;
        const char *t = arg + 18;
        status = parse_whole("--construct-iters", t, (double)CONSTRUCT_MAX_ITERS_PER_THREAD, &iters, error, size);
        if (status != 0)
            return status;
        c->iters_per_thread = (int)iters;
        return 1;
    }
    if (strncmp(arg, "--construct-sizes=", 18) == 0)
        return parse_sizes(arg + 18, c, error, size);
    return 0;
}
