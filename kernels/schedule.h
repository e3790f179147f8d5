/* One measurement of the CLOMP sequence. Each lives in its own file and says
 * only what to time; the driver warms it up, times it and verifies it. */
#ifndef CLOMP_SCHEDULE_H
#define CLOMP_SCHEDULE_H

#include <stddef.h>
#include <stdio.h>

#include "problem.h"

/* The timer a schedule times its chunks with (chunk_timer.h). */
typedef struct ChunkTimer ChunkTimer;

typedef enum {
    ROLE_PROBE,       /* times a building block (calc_deposit, barrier); mesh untouched */
    ROLE_REFERENCE,   /* the serial run every checked schedule must match */
    ROLE_BESTCASE,    /* ideal parallel time; wrong answers by design, unchecked */
    ROLE_CHECKED      /* a real parallel schedule, verified bit for bit */
} ScheduleRole;

typedef struct Schedule {
    const char *name;                /* report label, at most 13 characters */
    const char *key;                 /* --schedules and JSON name: lower case, no spaces */
    ScheduleRole role;
    int uses_threads;                /* prints a measured #Threads line */
    int chunked;                     /* 0: too short to split, timed whole */
    const char *const *pseudocode;   /* NULL-terminated; what exactly is timed */
    /* Runs `subcycles` subcycles, timing each chunk of `timer` (NULL:
     * untimed). `seen` is non-NULL only in the untimed observation before
     * the warm-up, where the schedule records the team sizes it was given
     * (and may run a copy of its iteration that records them); with `seen`
     * NULL it runs exactly the code it times, which is how the warm-up
     * (measure/sequence.c) calls it. */
    void (*run)(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen);
    /* The schedule's parameter, shown in its report name ("Dynamic,4 OMP"):
     * what it is ("chunk size", "grainsize") and its value; NULL and 0 when
     * the runtime's default is used. */
    const char *parameter_kind;
    long parameter;
    /* 1: runs only when --schedules names it (clomp's extra schedules);
     * 0: part of the default sequence. */
    int optional;
    /* 1: runs nested teams: not available when the run has no nested shape
     * (below 2x2 threads), and the measurement says why. */
    int nests;
    /* 1: runs EPCC's calibrated delay (kernels/delay.h): its block and its
     * JSON say how long one delay lasts. */
    int delays;
} Schedule;

/* In CLOMP 1.2 order, then clomp's additions (appended, so that 1.2's
 * summary columns keep their places); the driver relies on Serial Ref
 * preceding Bestcase and Bestcase preceding the checked schedules. */
extern const Schedule *const clomp_schedules[];
extern const size_t clomp_schedule_count;

/* By report name ("Static OMP") or key ("static"). */
const Schedule *find_schedule(const char *name);

/* "probe", "reference", "bestcase" or "checked": the role as the reports name it. */
const char *schedule_role_text(ScheduleRole role);

/* clomp --list-schedules: one tab-separated line per table entry (key,
 * report name, role, parameter, default or optional, and the threads it
 * runs on: one, team or nested teams) after a '#' header; columns are
 * appended, never inserted (the suite's estimate reads them by name). */
void print_schedule_list(FILE *out);

/* The keys, space-separated, of the default (optional 0) or the optional
 * entries, into buf (truncated to size). Returns buf. */
const char *schedule_keys(char *buf, size_t size, int optional);

#endif
