/* clomp --limits and its options (docs/limits.md): the node's own limits
 * measured on the run's team, beside OpenMP's barrier and fork/join. */
#ifndef CLOMP_LIMITS_OPTIONS_H
#define CLOMP_LIMITS_OPTIONS_H

#include <stddef.h>

#define LIMITS_DEFAULT_REPS 20            /* EPCC's outer repetitions */
#define LIMITS_DEFAULT_TARGET_US 1000.0   /* EPCC's test time per repetition */
#define LIMITS_DEFAULT_TRIPS 2048         /* round trips timed per pair of CPUs */
#define LIMITS_MAX_REPS 10000L
#define LIMITS_MAX_TARGET_US 1.0e6
#define LIMITS_MAX_TRIPS 10000000L

typedef struct LimitsOptions {
    int asked;            /* --limits */
    long reps;            /* --limits-reps=N: timed repetitions of each barrier and fork/join */
    double target_us;     /* --limits-time=US: each repetition aimed at this long */
    long trips;           /* --limits-trips=N: round trips per pair (in batches of 32, rounded up) */
    int given;            /* some --limits-* option was given */
} LimitsOptions;

void default_limits_options(LimitsOptions *l);

/* One command-line argument: 1 when it is a --limits option (parsed into
 * `l`), 0 when it is not one, or exit status 2 with a one-line error. */
int parse_limits_option(const char *arg, LimitsOptions *l, char *error, size_t size);

/* After the whole command line: exit status 2 when a --limits-* option came without --limits. */
int check_limits_options(const LimitsOptions *l, char *error, size_t size);

#endif
