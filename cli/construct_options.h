/* clomp --constructs and its options (docs/constructs.md): what the
 * command line asks of the construct table; setup/ checks the keys. */
#ifndef CLOMP_CONSTRUCT_OPTIONS_H
#define CLOMP_CONSTRUCT_OPTIONS_H

#include <stddef.h>

/* EPCC v3.1's defaults (common.h, schedbench.c). */
#define CONSTRUCT_DEFAULT_REPS 20            /* outerreps */
#define CONSTRUCT_DEFAULT_TARGET_US 1000.0   /* test time per repetition aimed at */
#define CONSTRUCT_DEFAULT_SYNC_DELAY_US 0.10 /* syncbench's delay */
#define CONSTRUCT_DEFAULT_LOOP_DELAY_US 15.0 /* schedbench's delay per iteration */
#define CONSTRUCT_ITERS_PER_THREAD 128       /* schedbench's itersperthr: also the largest chunk of the sweep */
#define CONSTRUCT_MAX_REPS 100000L
#define CONSTRUCT_MAX_TARGET_US 1.0e7        /* 10 s per repetition */
#define CONSTRUCT_MAX_DELAY_US 1.0e6
#define CONSTRUCT_MAX_DELAY_LENGTH 100000000   /* additions per delay: about 55 ms at 0.55 ns each (timing it: 3000 calls) */
#define CONSTRUCT_MAX_CHUNKS 16
#define CONSTRUCT_MAX_ITERS_PER_THREAD 65536
/* arraybench's sizes: 1, 3, 9, ... 59049 doubles (EPCC 4.0's default and
 * clomp's built-in set: copyin's threadprivate arrays have a size fixed at
 * compile time, kernels/array_constructs.c). */
#define CONSTRUCT_MAX_ARRAY_SIZE 59049
#define CONSTRUCT_ARRAY_SIZES 11

typedef struct ConstructOptions {
    int asked;                 /* --constructs[=LIST] */
    int want_list;             /* --list-constructs */
    const char *list;          /* the LIST as given; NULL: every construct */
    long reps;                 /* --construct-reps=N */
    double target_us;          /* --construct-time=US */
    double sync_delay_us;      /* --construct-delay=US */
    double loop_delay_us;      /* --construct-loop-delay=US */
    int sync_delay_length;     /* --construct-delay-length=N additions; 0: calibrated to sync_delay_us */
    int loop_delay_length;     /* --construct-loop-delay-length=N; 0: calibrated to loop_delay_us */
    int sync_delay_us_given;   /* --construct-delay given: with a length too is refused */
    int loop_delay_us_given;
    int iters_per_thread;      /* --construct-iters=N: the loops' iterations per thread (128, EPCC 3.1's; 4.0's 1024) */
    int chunk_count;           /* --construct-chunks=LIST; 0: the power-of-two sweep 1..iters_per_thread */
    long chunks[CONSTRUCT_MAX_CHUNKS];
    int sizes_given;           /* --construct-sizes=LIST given */
    int size_count;            /* the array sizes (default: all CONSTRUCT_ARRAY_SIZES) */
    long sizes[CONSTRUCT_MAX_CHUNKS];
} ConstructOptions;

/* The defaults above. */
void default_construct_options(ConstructOptions *c);

/* One command-line argument: 1 when it is a construct option (parsed into
 * `c`), 0 when it is not one, or an exit status (2) with a one-line error. */
int parse_construct_option(const char *arg, ConstructOptions *c, char *error, size_t size);

/* A plain decimal above 0 and at most `maximum` (digits and one '.'; no
 * sign, exponent, hex or inf), and a whole number so: 0, or exit status 2
 * with "OPTION: 'TEXT' why" (also for --limits' options). */
int parse_positive(const char *option, const char *text, double maximum, double *value, char *error, size_t size);
int parse_whole(const char *option, const char *text, double maximum, double *value, char *error, size_t size);

#endif
