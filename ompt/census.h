/* What clomp's OMPT tool (ompt/tool.c) saw, as data: the run's tool set-up,
 * each measurement's census of its warm-up, and the sampling tool's check
 * of what the runtime reports. The record holds these; writers print them. */
#ifndef CLOMP_OMPT_CENSUS_H
#define CLOMP_OMPT_CENSUS_H

#include "../cli/ompt_mode.h"

/* Nesting levels the census keeps apart: level 1, and level 2 or deeper. */
#define OMPT_CENSUS_LEVELS 2
/* Ancestor levels a sample names separately (deeper ones count in the last). */
#define OMPT_SAMPLE_LEVELS 4

/* The parallel regions begun at one nesting level. */
typedef struct OmptLevelCensus {
    long regions;
    long requested_sum;             /* requested team sizes (num_threads, or the runtime's default) */
    int requested_min, requested_max;
    long team_sum;                  /* actual team sizes, from each team's primary implicit task */
    int team_min, team_max;
    long serialized;                /* teams of one thread where more were requested */
    long implicit_tasks;            /* implicit tasks begun: one per thread of every team */
} OmptLevelCensus;

/* One measurement's warm-up (the timed code's iteration, untimed), counted
 * by the tool's callbacks. */
typedef struct OmptCensus {
    int taken;                      /* 1: the census ran (a census or sampling tool was attached) */
    long iterations;                /* iterations the warm-up ran (1) */
    OmptLevelCensus level[OMPT_CENSUS_LEVELS];
    long explicit_tasks;            /* task_create with the explicit flag (tasks, taskloop's tasks) */
    long taskloops;                 /* taskloop constructs begun */
    long loops;                     /* worksharing loops begun, counted per thread */
    long barriers;                  /* barriers begun (implicit, explicit, the runtime's), per thread */
    int plan_known;                 /* 1: clomp knows what this schedule should create (measure/ompt_plan.c) */
    int matches_plan;               /* plan_known: regions, levels and teams as planned */
    long planned_regions[OMPT_CENSUS_LEVELS];
    int planned_team[OMPT_CENSUS_LEVELS];
} OmptCensus;

/* The sampling tool's samples taken while one measurement ran (its
 * observation, warm-up and timed runs, every round). A sample walks the
 * ancestor levels with ompt_get_task_info and ompt_get_parallel_info: it is
 * consistent when at every level the team size and parallel data agree with
 * what the callbacks recorded for that region, unavailable when the runtime
 * (or the tool's record of a region being created) has nothing to say, and
 * inconsistent otherwise. A thread in no task at all (idle in the runtime's
 * pool) is counted apart, as idle. */
typedef struct OmptSamples {
    long consistent, unavailable, inconsistent;
    long idle;                      /* apart: samples of a thread in no OpenMP task (waiting in the pool) */
    long inconsistent_at[OMPT_SAMPLE_LEVELS];   /* by the first ancestor level that disagreed (0: innermost) */
    int deepest;                    /* most ancestor levels with a parallel region seen in one sample */
} OmptSamples;

/* The run's tool: what was asked, and whether the runtime took it. */
typedef struct OmptSetup {
    OmptMode mode;                  /* --ompt; OMPT_MODE_NONE by default */
    double rate_hz;                 /* sampling: timer rate, in Hz of the process's CPU time */
    int started;                    /* the runtime called ompt_start_tool (0 with libgomp, or OMP_TOOL=disabled) */
    int attached;                   /* a tool is attached: its cost is in the timed figures */
    char runtime_file[64];          /* the OpenMP library's file, by its real name ("libgomp.so.1.0.0"); "" if unknown */
    char runtime[32];               /* that name up to ".so" ("libgomp", "libomp") */
    char runtime_version[96];       /* what ompt_start_tool was given ("LLVM OMP version: ...") */
    char runtime_path[512];         /* the library file's real path, as /proc/self/maps lists it: which of several
                                     * installed versions this process loaded (libomp 14, 16, 19 all say the
                                     * same version string); "" if unknown */
} OmptSetup;

#endif
