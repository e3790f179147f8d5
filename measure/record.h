/* The data model of a run: what was asked for (RunSetup), what each
 * measurement measured and what follows from it (Measurement, warnings
 * included), and the finished record every report prints from (RunRecord).
 * Measuring fills these in; reporting only reads them. */
#ifndef CLOMP_RECORD_H
#define CLOMP_RECORD_H

#include <stddef.h>

#include "../cli/construct_options.h"
#include "../cli/limits_options.h"
#include "../kernels/construct.h"
#include "../kernels/problem.h"
#include "../kernels/schedule.h"
#include "../mesh/verify.h"
#include "../numa/job_cores.h"
#include "../numa/placement.h"
#include "../numa/team_placement.h"
#include "../ompt/census.h"
#include "../timing/cycle_rate.h"
#include "../timing/process_cost.h"
#include "../timing/statistics.h"
#include "construct_record.h"
#include "limits_record.h"
#include "noise_record.h"
#include "paired_record.h"

/* WARNING lines: found with the figures they are about, printed by the
 * text report and listed by the JSON one. */
#define CLOMP_MAX_WARNINGS 8
typedef enum {
    WARNING_LINE,             /* a WARNING line: after the set-up lines, or in its measurement's block */
    WARNING_WITH_PLACEMENT,   /* under the thread placement table */
    WARNING_SAID_OTHERWISE    /* the text report says it in its own words (the locality lines) */
} WarningShown;
typedef struct Warning {
    char text[320];
    WarningShown shown;       /* where the text report prints it; the JSON lists every one */
} Warning;
typedef struct WarningList {
    size_t count;
    Warning item[CLOMP_MAX_WARNINGS];
} WarningList;

/* Adds a warning (dropped beyond CLOMP_MAX_WARNINGS). */
__attribute__((format(printf, 3, 4))) void add_warning(WarningList *list, WarningShown shown, const char *fmt, ...);

/* Where one rank of an MPI run ran. */
#define CLOMP_MAX_CPUS 1024
typedef struct RankInfo {
    int rank;
    char host[64];
    char cpus[192];                              /* its affinity at start, as a list: "0-3,8" */
    int cpu_count;
    unsigned char cpu_mask[CLOMP_MAX_CPUS / 8];  /* the same CPUs, one bit each */
    /* Its own noise census's busy verdict (docs/noise.md), shared with rank 0
     * after the probe (cluster_share_noise): a busy rank is named busy, never
     * an outlier (timing/outlier_rule.h). */
    int busy_judged;
    int busy;
    double lost_fraction;                        /* its noisiest thread's share of the probe lost */
    char busy_reason[200];
} RankInfo;

/* The MPI side of a run (clomp_mpi); ranks 0 in the plain clomp. */
typedef struct MpiSetup {
    int ranks;                 /* MPI tasks; 0: not an MPI build */
    const char *thread_level;  /* what MPI_Init_thread provided */
    const RankInfo *info;      /* [ranks], on rank 0 */
    long timeout;              /* --mpi-timeout, seconds */
} MpiSetup;

/* One measurement's runtime over the ranks (CLOMP 1.2's "MPI Dist" line)
 * and the rank whose figures the report shows for it. */
typedef struct RankSpread {
    int ranks;                 /* 0: not an MPI run */
    double min_seconds, max_seconds, avg_seconds;
    int min_rank, max_rank;
    int used_rank;
    int used_fastest;          /* 1: the fastest rank (Serial Ref, Bestcase, as 1.2), 0: the slowest */
} RankSpread;

/* Where the mesh's pages are (measure/locality.c measures it). */
#define LOCALITY_MAX_NODES 64
#define LOCALITY_MAX_THREADS 1024
/* Pages queried per part at most: enough for a percentage to the first
 * decimal, cheap for a 64-million-zone mesh. */
#define LOCALITY_MAX_SAMPLES_PER_PART 1024

/* One measurement of where the zone pages are. Pages are distinct: a page
 * several parts' blocks share counts once, for the lowest-numbered of them. */
typedef struct LocalityFigures {
    int measured;          /* some page's node was known */
    double percent;        /* local share of known pages; -1 when not measured */
    long local_pages, known_pages, queried_pages;
    long shared_pages;     /* queried pages that two or more parts' blocks touch */
    int max_node;          /* pages_per_node[0..max_node] (capped at LOCALITY_MAX_NODES-1) */
    long pages_per_node[LOCALITY_MAX_NODES];
} LocalityFigures;

/* Where the Part records are (mesh/mesh.h: written every subcycle by the
 * thread that computes the part), counted by record: a record is local when
 * every page it lies on is on that thread's node. Apart from the zone pages. */
typedef struct RecordLocality {
    int measured;          /* some record's pages were all known */
    double percent;        /* local share of known records; -1 when not measured */
    long records, local_records, known_records;
    long pages;            /* distinct pages holding them */
    int max_node;
    long pages_per_node[LOCALITY_MAX_NODES];   /* those pages per node */
} RecordLocality;

/* One part: the thread that computes it under schedule(static), that
 * thread's CPU and node; every page its zone block touches (local_pages,
 * known_pages: a page shared with other parts counts for each), and the
 * pages counted with it in the totals (counted_*: those whose
 * lowest-numbered part it is). */
typedef struct PartLocality {
    int thread, cpu, node;
    long local_pages, known_pages;
    long counted_local, counted_known;
} PartLocality;

typedef struct LocalitySummary {
    int queried;           /* the pages were queried (NUMA available, memory enough); 0: see `note` */
    int measured;          /* some page's node was known; 0: see `note` */
    char note[96];         /* why it was not measured */
    int nodes;             /* NUMA nodes configured */
    double percent;        /* local share of known pages; -1 when not measured */
    /* Distinct zone pages (each once, for the lowest-numbered part touching it). */
    long local_pages, known_pages, queried_pages, unknown_pages, total_pages, sampled_parts, shared_pages;
    int max_node;          /* pages_per_node[0..max_node] (capped at LOCALITY_MAX_NODES-1) */
    long pages_per_node[LOCALITY_MAX_NODES];
    int threads_bound;     /* OMP_PROC_BIND is not false */
    int numa_balancing;    /* numa_balancing_mode() when the pages were queried */
    int threads;           /* per_thread[0..threads-1] (capped at LOCALITY_MAX_THREADS) */
    struct {
        int node;          /* node of the thread's CPU in the static pass */
        long local_pages, known_pages;   /* the distinct pages counted with its parts */
    } per_thread[LOCALITY_MAX_THREADS];
    long parts;            /* part[0..parts-1] when queried, else NULL */
    PartLocality *part;
    int part_max_node;     /* part_pages_by_node[p * (part_max_node + 1) + n]: the */
    long *part_pages_by_node; /* sampled pages of part p on node n, for parts with remote pages (else NULL) */
    RecordLocality records;   /* the Part records, after the mesh build */
    /* With numa_balancing on, pages move while the timed runs go: the same
     * measurement once more after them (after.measured 0 when not taken). */
    int remeasured;
    char after_note[64];   /* remeasured but not measured: why */
    LocalityFigures after;
    RecordLocality after_records;
} LocalitySummary;

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
    long warmup_zones_per_part;   /* > 0: the untimed warm-ups run on a small mesh of that many zones per part */
    int nestedOuter;
    int nestedInner;
    char nested_shape_source[160];   /* "--nested", or how the default was chosen */
    char nested_unavailable[64];     /* non-empty: Nested OMP is N/A for this reason */
    JobCores job;             /* this job's cores and domains, counted once at set-up (numa/job_cores.h) */
    long team_threads;        /* the most threads alive at once: numThreads, allocThreads or --nested's */
    int oversubscribe;        /* --oversubscribe: an absurd team runs anyway */
    Placement placement;
    long trials;              /* chunks per timed run (resolved) */
    long requested_trials;    /* --trials as given; 0: default */
    long *chunk_end;          /* [trials]: cumulative subcycles at the end of each chunk */
    long rounds, paired_blocks;   /* --paired-blocks: the paired overhead's blocks; -1: trials; 0: none */
    int quiet;
    int verdict;              /* --verdict */
    int detail;               /* --detail: every overhead estimator's line, not only the project's */
    const char *json_path;
    const char *csv_path;
    const char *caliper_path;     /* --caliper-json=FILE, or NULL */
    const char *schedule_list;    /* --schedules as given, or NULL */
    int selected[32];             /* per clomp_schedules[] entry: asked for in this run */
    const char *unavailable[32];  /* per entry: why it cannot run here (NULL: it can); set with the nested shape */
    CycleRate cycles;
    int noise_census;         /* --noise-census: 1 (default) probes and samples the noise (docs/noise.md) */
    DelayCalibration delay;   /* the Parallel For probe's delay, calibrated at start (length 0: not yet) */
    MpiSetup mpi;
    ConstructOptions constructs;  /* --constructs: asked or not, and how */
    LimitsOptions limits;         /* --limits: asked or not, and how */
    int construct_selected[64];   /* per clomp_constructs[] entry: in --constructs=LIST (all without a list) */
    int max_active_levels;        /* omp_get_max_active_levels() once configured */
    int max_active_levels_from_env;   /* 1: OMP_MAX_ACTIVE_LEVELS set it (clomp left it); 0: clomp set 2 */
    OmptSetup ompt;           /* --ompt and what the runtime made of it (ompt/tool.h) */
} RunSetup;

typedef struct Measurement {
    const Schedule *schedule;
    int selected;              /* 0: left out by --schedules, every figure N/A */
    const char *unavailable;   /* selected but cannot run here: why (Nested OMP below 2x2 threads); else NULL */
    char started[64];          /* start of its first timed run */
    TeamObservation team;
    MeshChecksum checksum;     /* after the last chunk (identical in every round) */
    long subnormals;
    long verified_chunks;      /* chunk checks passed, all rounds */
    /* Untimed wall time, all rounds: the team observation and the warm-up
     * (a probe's chunk planning too), resetting the mesh before the timed
     * run, and the checks (between the chunks and after the run). */
    double warmup_seconds, reset_seconds, check_seconds;

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

    /* Figures (summarize_measurement). CLOMP 1.2's, all from Runtime, as
     * 1.2's lines, the summary and the CORAL RFP line print them: */
    double seconds;            /* Runtime: median over rounds of round_seconds */
    double runtime_us;         /* us/Loop: Runtime over the run's subcycles, in microseconds */
    double runtime_efficacy;   /* percent: Bestcase's runtime_us / runtime_us */
    double runtime_overhead_us;/* runtime_us - Bestcase's runtime_us */
    /* The 95% interval of runtime_overhead_us itself (one round: the chunks'
     * rates, timing/statistics.h rate_difference_interval); the only ground
     * for calling a negative one noise. */
    int has_runtime_overhead_ci;
    double runtime_overhead_low, runtime_overhead_high;
    /* clomp's own, robust to an outlying chunk, with intervals: */
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
    PairedOverhead paired;     /* the overhead from blocks of adjacent chunks (measure/paired_overhead.c) */

    /* Whether its figures are a result at all (judge_validity, docs/statistics.md):
     * 0 unless it ran faster than Bestcase OMP beyond its interval, or its mean
     * (Runtime) and median chunk disagree by more than CLOMP_MEAN_MEDIAN_FACTOR. */
    int invalid;
    char invalid_reason[200];  /* why, when invalid */
    int bestcase_invalid;      /* its overhead is taken against a Bestcase OMP that is not a result */

    WarningList warnings;      /* from its figures (measurement_warnings), printed in its block */
    int noisy;                 /* its chunks vary by more than CLOMP_NOISY_CV (the noisy-measurement warning) */
    MeasurementNoise noise;    /* the noise census during its timed runs */
    RankSpread spread;         /* MPI: over the ranks; the figures above are those of spread.used_rank */
    OmptCensus census;         /* --ompt=census/sampling: the warm-up as the runtime's tool interface saw it */
    OmptSamples samples;       /* --ompt=sampling: what the sampler found while it ran */
} Measurement;

/* A measurement whose Runtime us/Loop (CLOMP 1.2's figure: the mean over
 * its chunks) and median chunk us/Loop differ by more than this factor
 * either way is not a result: most of its time went into a few outlying
 * chunks, so neither figure describes the run (docs/statistics.md). */
#define CLOMP_MEAN_MEDIAN_FACTOR 2.0

/* MPI, on rank 0: every rank's measurements as each rank summarized them
 * (overheads against its own bestcase). */
typedef struct RankTable {
    int ranks;
    size_t count;
    Measurement *results;      /* [rank * count + i] */
    /* Rank 0's wall time to gather one measurement from every rank, judge it
     * and share the verdict (the gather waits for the last rank to arrive, so
     * the least of them is the closest to the cost of the gather itself). */
    int gathers;
    size_t gather_bytes_per_rank;
    double gather_min_seconds, gather_total_seconds;
} RankTable;

/* Ranks whose Serial Ref us/Loop or Static OMP overhead stands out from
 * the others' (mpi/rank_view.c finds them) by the outlier rule of
 * timing/outlier_rule.h: farther from the median of the ranks that were not
 * busy than 3.5 scaled MADs, than the rank's own 95% interval half-width and
 * than this share of the ranks' median Serial Ref us/Loop (the floor: a real
 * difference, not noise within a rank or between identical ranks). */
#define RANK_OUTLIER_FLOOR 0.01

#define CLOMP_MAX_OUTLIERS 32
typedef struct RankOutlier {
    int rank;
    const char *figure;        /* "Serial Ref us/Loop", "Static OMP overhead" */
    double value, median, deviation, threshold;   /* us/Loop */
} RankOutlier;
typedef struct RankOutliers {
    int ranks;                 /* ranks in the run */
    int busy;                  /* ranks whose own noise census said busy: left out of the comparison */
    int judged;                /* 1: enough ranks were compared (OUTLIER_FEWEST, not busy) */
    double serial_median;      /* NAN when not measured */
    double overhead_median;
    size_t count;
    RankOutlier item[CLOMP_MAX_OUTLIERS];
} RankOutliers;

/* The mesh the run builds. */
static inline MeshShape run_mesh_shape(const RunSetup *run)
{
    MeshShape shape = {run->numParts, run->zonesPerPart, run->zoneSize, run->flopScale, run->zoneLayout};
    return shape;
}

/* The construct table (--constructs): measure/construct_record.h, included above. */

/* A run as the reports see it: complete, or ended early by a failure. */
typedef struct RunRecord {
    const RunSetup *run;
    const Problem *pb;                   /* NULL when the mesh was never built */
    const LocalitySummary *locality;     /* NULL when the set-up was not reached */
    const TeamPlacement *placement;      /* the timed team's threads, observed once; NULL before */
    const Measurement *results;          /* clomp_mpi: for each measurement, the rank 1.2 reports (rank_view) */
    size_t count;
    const char *host;
    const char *started;
    double build_seconds;
    int exit_status;                     /* what clomp exits with */
    const char *failure;                 /* one-line reason, NULL when exit_status is 0 */
    const Measurement *failed;           /* the measurement that failed verification, or NULL */
    const WarningList *setup_warnings;   /* NULL before the set-up */
    const RankTable *rank_table;         /* MPI, rank 0: per-rank measurements; else NULL */
    const RankOutliers *outliers;        /* MPI, rank 0, complete runs; else NULL */
    const NoiseCensus *noise;            /* the noise census; NULL before the set-up */
    ProcessCost cost;                    /* CPU and wall seconds at the end (measured = 0: not taken) */
    const ConstructTable *constructs;    /* --constructs: the table (a failed run: levels not reached say so); else NULL */
    double measuring_from;               /* process wall seconds when the measurements began; 0: never */
    double measured_until;               /* ... when they and the construct table ended; 0: never */
    double constructs_seconds;           /* wall seconds measuring the construct table (--constructs) */
    const LimitsRecord *limits;          /* --limits (after the construct table); else NULL */
    double limits_seconds;               /* wall seconds measuring it */
} RunRecord;

/* Where the process's wall time went, in seconds (record_wall_time): the
 * set-up (calibrations, the locality, the chunk plan, the header), the mesh
 * build, then over every measurement and round the warm-ups, the resets of
 * the mesh, the timed runs (CLOMP 1.2's Runtimes) and the verification, and
 * what remains (the report, the summaries). */
typedef struct WallTime {
    int measured;              /* 0: the measurements never began, or no process cost */
    double total, setup, build, warmup, reset, timed, check;
    double constructs, paired; /* the construct table (--constructs); the paired overheads' blocks */
    double limits;             /* --limits */
    double after_runs;         /* from the end of the measurements to the record: locality again, summaries */
    double rest;               /* what no part timed (the hooks between measurements): small, >= 0 */
} WallTime;
WallTime record_wall_time(const RunRecord *r);

/* Whether a measurement is run: selected, and able to run here. */
static inline int measurement_runs(const Measurement *m)
{
    return m->selected && m->unavailable == NULL;
}

/* Whether the summary, the JSON and the CSV show a measurement: every one of
 * the default sequence (N/A, null or empty when --schedules leaves it out, so
 * that CLOMP 1.2's columns keep their places), then the optional schedules
 * that were asked for, in table order (the table lists them last). */
static inline int measurement_reported(const Measurement *m)
{
    return !m->schedule->optional || m->selected;
}

/* The run measurement of `role` (and `key`, unless NULL), or NULL. */
const Measurement *find_measurement(const Measurement *results, size_t count, ScheduleRole role, const char *key);

/* Distinct CPUs among a nested warm-up's inner threads; *threads: how many were seen. */
int team_distinct_cpus(const TeamObservation *t, int *threads);

long chunk_subcycles(const Measurement *m, long c);   /* subcycles in chunk c of a measurement */

#endif
