/* One measurement of the CLOMP sequence. Each lives in its own file and says
 * only what to time; the driver warms it up, times it and verifies it. */
#ifndef CLOMP_SCHEDULE_H
#define CLOMP_SCHEDULE_H

#include <stddef.h>

#include "chunk_timer.h"
#include "problem.h"

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
     * untimed). `seen` is non-NULL only in the untimed warm-up, where the
     * schedule records the team sizes it was given. */
    void (*run)(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen);
} Schedule;

/* In CLOMP 1.2 order, then clomp's additions (appended, so that 1.2's
 * summary columns keep their places); the driver relies on Serial Ref
 * preceding Bestcase and Bestcase preceding the checked schedules. */
extern const Schedule *const clomp_schedules[];
extern const size_t clomp_schedule_count;

/* By report name ("Static OMP") or key ("static"). */
const Schedule *find_schedule(const char *name);

#endif
