/* The CLOMP 1.2 command line plus clomp's own --options. */
#ifndef CLOMP_OPTIONS_H
#define CLOMP_OPTIONS_H

#include <stdio.h>

#include "../mesh/mesh.h"
#include "../numa/placement.h"
#include "construct_options.h"
#include "limits_options.h"
#include "ompt_mode.h"

typedef struct Options {
    long numThreads;       /* -1: omp_get_max_threads() */
    long allocThreads;     /* -1: same as numThreads */
    long numParts;
    long zonesPerPart;
    long zoneSize;
    long flopScale;
    long timeScale;
    long nestedOuter;      /* 0: default shape */
    long nestedInner;
    Placement placement;   /* --numa=POLICY; first touch by default */
    int placement_given;
    int want_help;
    int show_usage;        /* the error is about the argument count: print usage too */
    int want_version;
    int want_schedule_list;   /* --list-schedules */
    int want_figure_list;     /* --list-figures (with --json: as JSON) */
    int figure_list_json;
    int answers_without_running;   /* --help, --version or a --list-*: said, nothing run */
    int dry_run;           /* --dry-run: validate and print the plan, build nothing */
    int want_topology;     /* --topology: the job's cores and domains as clomp counts them, nothing run */
    long cores;            /* --cores=N: this job's cores, instead of counting them; 0: counted */
    int oversubscribe;     /* --oversubscribe: run a team of more than 64 threads per hardware thread */
    long trials;           /* --trials=K chunks per timed run; 0: chosen by clomp */
    long paired_blocks;    /* --paired-blocks=N blocks of the paired overhead; -1: as many as the chunks */
    long rounds;           /* --rounds=R repeats of the whole sequence (1) */
    double ghz;            /* --ghz=F cycle rate; 0: calibrate the TSC */
    const char *schedules; /* --schedules=LIST as given (checked against the table later); NULL: all */
    const char *json_path; /* --json=FILE; "-" is standard output */
    const char *csv_path;  /* --csv=FILE; "-" is standard output */
    const char *caliper_path;   /* --caliper-json=FILE: the Caliper json-split profile; "-" is standard output */
    int quiet;             /* --quiet: only the summary block */
    int verdict;           /* --verdict: the answer block at the end */
    int detail;            /* --detail: the blocks' other overhead estimators too */
    int noise_census_off;  /* --noise-census=off: no noise probe or per-chunk sampling (on by default) */
    ZoneLayout zone_layout;   /* --zone-stride=record (CLOMP 1.2's, default) | zonesize (spread) */
    long mpi_timeout;      /* --mpi-timeout=S (clomp_mpi): seconds a rank waits for the others; 0: default */
    long offload_device;   /* --offload-device=N (offload builds): the target device; -1: the runtime's default */
    ConstructOptions constructs;   /* --constructs[=LIST] and its options, --list-constructs */
    LimitsOptions limits;  /* --limits and its options */
    OmptMode ompt_mode;    /* --ompt=MODE: the OMPT tool to attach (ompt/tool.h); none by default */
    double ompt_rate_hz;   /* --ompt=sampling,RATE: samples per second of CPU time; 0: the default */
} Options;

#define MAX_TRIALS 10000L
#define MAX_ROUNDS 1000L
#define MAX_GHZ 100.0
#define MAX_MPI_TIMEOUT 86400L
#define MAX_OFFLOAD_DEVICE 4095L
#define MAX_CORES 1048576L

/* The seven CLOMP parameters in command-line order. */
#define CLOMP_PARAMETER_COUNT 7
extern const char *const clomp_parameter_names[CLOMP_PARAMETER_COUNT];

/* Parses argv. On error writes one line naming the parameter and the bad
 * text into `error` and returns the exit status to use; returns 0 on
 * success. A wrong count of numbers sets show_usage (error is "" when
 * numbers are missing). */
int parse_options(int argc, char **argv, Options *opts, char *error, size_t error_size);

void print_usage(FILE *out, const char *exe);

#endif
