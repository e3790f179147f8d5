/* The CLOMP 1.2 report: header, one block per measurement, comma-delimited
 * summary and the CORAL RFP line. 1.2's lines keep their text and columns;
 * clomp's additions come after them. */
#ifndef CLOMP_REPORT_H
#define CLOMP_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "../kernels/problem.h"
#include "../kernels/schedule.h"
#include "../mesh/verify.h"
#include "../numa/locality.h"
#include "../timing/cycles.h"
#include "../timing/process_cost.h"
#include "../timing/statistics.h"
#include "build_info.h"

/* The run as resolved from the command line. */
typedef struct RunSetup {
    const char *exe;
    char invocation[1024];
    long inputNumThreads;     /* as given */
    long numThreads;          /* resolved */
    long allocThreads;        /* resolved */
    long inputAllocThreads;   /* as given (-1 stays -1), as CLOMP 1.2 reports it */
    long numParts;
    long zonesPerPart;
    long requestedZoneSize;
    long zoneSize;            /* as used: raised to 32 as in CLOMP 1.2, never rounded */
    ZoneLayout zoneLayout;    /* CLOMP 1.2's (default) or spread (--zone-stride=zonesize) */
    long flopScale;
    long timeScale;
    double uncapped_iterations;   /* before the 2e9 cap */
    long iterations;
    long subcycles;
    size_t memory_bytes;
    int nestedOuter;
    int nestedInner;
    char nested_shape_source[160];   /* "--nested", or how the default was chosen */
    char nested_unavailable[64];     /* non-empty: Nested OMP is N/A for this reason */
    Placement placement;
    long trials;              /* chunks per timed run (resolved) */
    long requested_trials;    /* --trials as given; 0: default */
    long *chunk_end;          /* [trials]: cumulative subcycles at the end of each chunk */
    long rounds;
    int quiet;
    const char *json_path;
    const char *csv_path;
    const char *schedule_list;    /* --schedules as given, or NULL */
    int selected[32];             /* per clomp_schedules[] entry: measured in this run */
    CycleRate cycles;
} RunSetup;

typedef struct Measurement {
    const Schedule *schedule;
    int selected;              /* 0: left out by --schedules, every figure N/A */
    char started[64];          /* start of its first timed run */
    TeamObservation team;
    MeshChecksum checksum;     /* after the last chunk (identical in every round) */
    long subnormals;
    long verified_chunks;      /* chunk checks passed, all rounds */

    /* Raw timings: `chunks` per round (1 when the schedule is timed whole),
     * ending at chunk_end[c] subcycles: the run's plan for what is verified,
     * a plan of its own for a timed-whole or probe measurement. */
    long chunks;
    const long *chunk_end;
    long *own_chunk_end;       /* allocated for the latter, else NULL */
    double *thread_marks;      /* Bestcase: its ChunkTimer's per-thread chunk ends, else NULL */
    double *part_value_sum;    /* verified ones: per part, its owner's sums for the whole-mesh checks, else NULL */
    double *part_residue;
    long rounds_done;
    double *chunk_seconds;     /* [round * chunks + chunk] */
    double *round_seconds;     /* [round]: the sum of its chunks, CLOMP 1.2's Runtime */
    double *round_median_us;   /* [round]: median chunk us/Loop of the round */

    /* Figures (summarize_measurement). */
    double seconds;            /* Runtime: median over rounds of round_seconds */
    double us;                 /* us/Loop: median chunk, all rounds */
    SampleStats stats;         /* chunk us/Loop, interval at CLOMP_CI_LEVEL */
    SampleStats paired_stats;  /* same samples, interval at the level differences need */
    double efficacy;           /* percent: bestcase us / us; with rounds, the median over rounds */
    int has_overhead;          /* checked schedules with a bestcase */
    double overhead_us;        /* median over rounds of (us - bestcase us) of the same round */
    int has_overhead_ci;       /* a 95% interval of the overhead: */
    int overhead_ci_paired;    /*   1: from the per-round differences (6+ rounds); 0: pooled chunks, Bonferroni */
    double overhead_low, overhead_high;
    int has_round_range;       /* 2-5 rounds: no 95% interval, but the per-round differences' range */
    double round_range_low, round_range_high;
} Measurement;

/* The mesh the run builds. */
static inline MeshShape run_mesh_shape(const RunSetup *run)
{
    MeshShape shape = {run->numParts, run->zonesPerPart, run->zoneSize, run->flopScale, run->zoneLayout};
    return shape;
}

void print_header(FILE *out, const RunSetup *run, const char *host, const char *start_time);
void print_setup(FILE *out, const RunSetup *run, const Problem *pb, double build_seconds, LocalitySummary *locality);
/* --dry-run: what a run would do, after the header, without a mesh. */
void print_plan(FILE *out, const RunSetup *run);

void print_block_start(FILE *out, const Measurement *m);
/* In place of the block of a measurement that cannot run here (Nested OMP
 * below 2x2 threads): its name and why; nothing when it simply was not
 * selected. */
void print_block_unavailable(FILE *out, const RunSetup *run, const Measurement *m);
/* serial / bestcase: earlier measurements this block is compared with (may be NULL). */
void print_block_results(FILE *out, const RunSetup *run, const Measurement *m,
                         const Measurement *serial, const Measurement *bestcase);

/* Cycles of the barrier, fork/join and parallel-for overhead against LLNL's
 * targets; after the last block, before the summary. */
void print_targets(FILE *out, const RunSetup *run, const Measurement *results, size_t count);

/* "met", "not met", "undecided" (the interval straddles the target) or
 * "unavailable" (no cycle rate: cycles is NAN). */
const char *target_verdict(double cycles, int has_ci, double low, double high, double target);

/* "Process CPU time: U s user, S s system, W s wall ...: C CPUs busy on
 * average": after the targets, before the summary (a clomp line). */
void print_process_cost(FILE *out, const ProcessCost *cost);

void print_summary(FILE *out, const RunSetup *run, const Measurement *results, size_t count);

/* Every WARNING line printed, kept for the JSON report. */
void record_warning(const char *label, const char *text);
size_t warning_count(void);
const char *warning_text(size_t i);   /* "label: text" */

/* `value` rounded to the first significant digit of `uncertainty` (one
 * digit more is never supported by the data); plain %.*f with max_decimals
 * when there is no uncertainty. Returns buf. */
const char *measured_text(char *buf, size_t size, double value, double uncertainty, int max_decimals);

/* Whether an environment entry ("NAME=value") steers an OpenMP runtime
 * (OMP_*, GOMP_*, KMP_*, XLSMPOPTS, LIBOMP_*): the text report and the JSON
 * list the same ones. */
int is_openmp_variable(const char *entry);

/* Whether the summary, the JSON and the CSV show a measurement: every one of
 * the default sequence (N/A, null or empty when --schedules leaves it out, so
 * that CLOMP 1.2's columns keep their places), then the optional schedules
 * that ran, in table order (the table lists them last). */
int measurement_reported(const Measurement *m);

/* The selected measurement of `role` (and `key`, unless NULL), or NULL. */
const Measurement *find_measurement(const Measurement *results, size_t count, ScheduleRole role, const char *key);

/* Escaped as in the report: bytes outside printable ASCII as \xNN. */
void print_escaped(FILE *out, const char *text);

/* Distinct CPUs among a nested warm-up's inner threads; *threads: how
 * many were seen. */
int team_distinct_cpus(const TeamObservation *t, int *threads);

/* Subcycles in chunk c of a measurement. */
long chunk_subcycles(const Measurement *m, long c);

#endif
