/* The faults themselves (test build only, see fault.h). Each fires exactly
 * once: in the middle of the middle iteration of the armed schedule's timed
 * run (stale deposit: the second subcycle; CLOMP_FAULT_SUBCYCLE=n: subcycle
 * n), on the part in the middle of the mesh. region-delay is not a fault of
 * the results but a known cost: every subcycle of the armed schedule's timed
 * run, the thread that computes the deposit (serial code just before the
 * subcycle's parallel region; Manual OMP: its single) spins for
 * CLOMP_FAULT_DELAY_US microseconds on the TSC (timing/'s calibration, run
 * before main; the monotonic clock where there is no invariant TSC), so
 * the schedule's overhead grows by that much per subcycle and Bestcase's does
 * not (bench/detect.sh). census-delay is not a fault either: every census
 * read at a chunk boundary spins CLOMP_FAULT_DELAY_US, in every timed run,
 * and the count is printed at exit (tests/chunk_accounting.t). */
#ifdef CLOMP_FAULTS

#define _GNU_SOURCE
#include "fault.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../timing/clock.h"
#include "../timing/cycles.h"
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

typedef enum {
    FAULT_NONE,
    FAULT_LOST_UPDATE,        /* one zone's update skipped once */
    FAULT_SKIPPED_PART,       /* one part not updated in one subcycle */
    FAULT_DOUBLE_UPDATE,      /* one part updated twice in one subcycle */
    FAULT_STALE_DEPOSIT,      /* one part uses the previous subcycle's deposit once */
    FAULT_REORDERED_ZONES,    /* two adjacent zones updated in swapped order once */
    FAULT_MISSING_BARRIER,    /* Manual OMP's barrier before the single removed once */
    FAULT_EXTRA_CALC_DEPOSIT, /* calc_deposit called twice in one subcycle */
    FAULT_CONSTRUCT_OUTSIDE,  /* --constructs: a test's delays timed outside its construct (no mesh fault) */
    FAULT_REGION_DELAY,       /* a known delay before every parallel region (no mesh fault) */
    FAULT_CONSTRUCT_WRONG,    /* --constructs: a construct's body without what it promises (no mesh fault) */
    FAULT_DEVICE_ZONE,        /* Offload OMP: one zone's value off by its last bit on the device, once */
    FAULT_CONSTRUCT_STALL,    /* --constructs: each row's first level-1 calibration timing stalled (no mesh fault) */
    FAULT_LIMITS_SKIP_ROUND,  /* --limits: a reference barrier's round skipped, once per repetition (no mesh fault) */
    FAULT_CENSUS_DELAY        /* a known delay in every census read at a chunk boundary (no mesh fault) */
} FaultKind;

const char *const fault_names[] = {
    "none", "lost-update", "skipped-part", "double-update", "stale-deposit",
    "reordered-zones", "missing-barrier", "extra-calc-deposit", "construct-outside", "region-delay",
    "construct-wrong", "device-zone", "construct-stall", "limits-skip-round", "census-delay", NULL,
};

static FaultKind armed = FAULT_NONE;
static long target_subcycle = -1, target_part = -1, target_zone = 0;
static double current_deposit, previous_deposit;

/* region-delay: the delay asked for, in us and in clock ticks; the clock's
 * ticks per us (calibrated once per process); what was spun, to report. */
static double delay_us, ticks_per_us;
static unsigned long long delay_ticks, spun_ticks, spins;
static const char *delay_schedule = "";
static int ticks_are_tsc;   /* else nanoseconds of CLOCK_MONOTONIC */
static int census_delayed;  /* CLOMP_FAULT=census-delay, for the whole process */
static unsigned long long census_spins, census_ticks;

static unsigned long long fault_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (ticks_are_tsc)
        return __rdtsc();
#endif
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void report_census_delay(void)
{
    fprintf(stderr, "clomp-faults: census-delay: %llu delays, %.4f us each on average (asked %g)\n", census_spins,
            census_spins > 0 ? (double)census_ticks / (double)census_spins / ticks_per_us : 0.0, delay_us);
}

/* Spins `ticks` clock ticks; returns what was spun (the last read included). */
static unsigned long long spin_ticks(unsigned long long ticks)
{
    unsigned long long start = fault_ticks(), now;
    do
        now = fault_ticks();
    while (now - start < ticks);
    return now - start;
}

/* The settings are checked before main, where exit(2) with one line is a
 * clean usage error (later, clomp's exit handler would read an exit as the
 * OpenMP runtime's). */
__attribute__((constructor)) static void check_fault_environment(void)
{
    const char *name = getenv("CLOMP_FAULT"), *text = getenv("CLOMP_FAULT_DELAY_US");
    int known = 0;
    for (int k = 1; name != NULL && fault_names[k] != NULL; k++)
        known |= strcmp(name, fault_names[k]) == 0;
    if (name != NULL && !known) {
        fprintf(stderr, "clomp-faults: unknown CLOMP_FAULT '%s'\n", name);
        exit(2);
    }
    if (name == NULL || (strcmp(name, "region-delay") != 0 && strcmp(name, "census-delay") != 0))
        return;
    char *end;
    delay_us = text != NULL ? strtod(text, &end) : -1.0;
    if (text == NULL || *text == '\0' || *end != '\0' || !(delay_us >= 0.0 && delay_us <= 1e6)) {
        fprintf(stderr, "clomp-faults: %s needs CLOMP_FAULT_DELAY_US, microseconds 0..1000000 (got '%s')\n",
                name, text != NULL ? text : "nothing");
        exit(2);
    }
    /* Here, not when armed: a 10 ms spin just before the timed run made
     * Static OMP 0.1 us/Loop faster than without it (bench/detect.sh at 0 us). */
    CycleRate rate = calibrate_cycle_rate(0.0, 0);
    ticks_are_tsc = rate.source == CYCLES_TSC;
    ticks_per_us = ticks_are_tsc ? rate.ghz * 1e3 : 1e3;
    if (strcmp(name, "census-delay") == 0) {
        census_delayed = 1;
        atexit(report_census_delay);
    }
}

static void arm_region_delay(const char *schedule)
{
    delay_ticks = (unsigned long long)(delay_us * ticks_per_us + 0.5);
    spun_ticks = spins = 0;
    delay_schedule = schedule;
    fprintf(stderr, "clomp-faults: region-delay of %g us armed in %s before every parallel region\n", delay_us, schedule);
}

/* Spins until delay_ticks have passed since the first read; the span
 * measured includes the last read (what the region really waits). */
static void region_delay(void)
{
    if (delay_ticks == 0)
        return;
    spun_ticks += spin_ticks(delay_ticks);
    spins++;
}

void fault_census_delay(void)
{
    if (!census_delayed || delay_us <= 0.0)
        return;
    census_ticks += spin_ticks((unsigned long long)(delay_us * ticks_per_us + 0.5));
    census_spins++;
}

void fault_arm(const char *schedule, long subcycles, long numParts, long zonesPerPart)
{
    const char *name = getenv("CLOMP_FAULT"), *only = getenv("CLOMP_FAULT_SCHEDULE");
    armed = FAULT_NONE;
    if (name == NULL || (only != NULL && strcmp(only, schedule) != 0))
        return;
    for (int k = 1; fault_names[k] != NULL; k++)
        if (strcmp(name, fault_names[k]) == 0)
            armed = (FaultKind)k;
    if (armed == FAULT_NONE) {
        fprintf(stderr, "clomp-faults: unknown CLOMP_FAULT '%s'\n", name);
        exit(2);
    }
    if (armed == FAULT_CONSTRUCT_OUTSIDE || armed == FAULT_CONSTRUCT_WRONG || armed == FAULT_CONSTRUCT_STALL ||
        armed == FAULT_LIMITS_SKIP_ROUND || armed == FAULT_CENSUS_DELAY) {
        /* not mesh faults: read below */
        armed = FAULT_NONE;
        return;
    }
    if (armed == FAULT_REGION_DELAY) {
        arm_region_delay(schedule);
        return;
    }
    /* Mid-iteration: chunks end at iteration boundaries, and the sync at a
     * chunk's end would mask a missing barrier there. */
    target_subcycle = subcycles / 20 * 10 + 5;
    /* Once the carried residue has converged, consecutive deposits are
     * bit-identical and a stale one computes exactly the right thing: there
     * is no error to detect. Use the second subcycle, where they differ. */
    if (armed == FAULT_STALE_DEPOSIT)
        target_subcycle = 1;
    /* Tests place the fault in a chosen chunk. */
    const char *at = getenv("CLOMP_FAULT_SUBCYCLE");
    if (at != NULL) {
        char *end;
        target_subcycle = strtol(at, &end, 10);
        if (*at == '\0' || *end != '\0' || target_subcycle < 1 || target_subcycle >= subcycles) {
            fprintf(stderr, "clomp-faults: CLOMP_FAULT_SUBCYCLE '%s' is not a subcycle 1..%ld\n", at, subcycles - 1);
            exit(2);
        }
        /* A chunk may end there: its synchronisation would hide the missing
         * barrier, and thread 0 would verify while others still update. */
        if (armed == FAULT_MISSING_BARRIER && target_subcycle % 10 == 0) {
            fprintf(stderr, "clomp-faults: missing-barrier needs a subcycle inside an iteration, not %ld\n",
                    target_subcycle);
            exit(2);
        }
    }
    target_part = numParts / 2;
    target_zone = zonesPerPart / 2;   /* a zone that is not the first when there are several */
    fprintf(stderr, "clomp-faults: %s armed in %s at subcycle %ld, part %ld\n", fault_names[armed], schedule,
            target_subcycle, target_part);
}

int fault_construct_outside(const char *key)
{
    const char *name = getenv("CLOMP_FAULT"), *only = getenv("CLOMP_FAULT_CONSTRUCT");
    return name != NULL && strcmp(name, "construct-outside") == 0 && (only == NULL || strcmp(only, key) == 0);
}

int fault_construct_wrong(const char *key)
{
    const char *name = getenv("CLOMP_FAULT"), *only = getenv("CLOMP_FAULT_CONSTRUCT");
    return name != NULL && strcmp(name, "construct-wrong") == 0 && (only == NULL || strcmp(only, key) == 0);
}

int fault_construct_stall(const char *key)
{
    const char *name = getenv("CLOMP_FAULT"), *only = getenv("CLOMP_FAULT_CONSTRUCT");
    return name != NULL && strcmp(name, "construct-stall") == 0 && (only == NULL || strcmp(only, key) == 0);
}

int fault_limits_skip_round(const char *key)
{
    const char *name = getenv("CLOMP_FAULT"), *only = getenv("CLOMP_FAULT_LIMITS");
    return name != NULL && strcmp(name, "limits-skip-round") == 0 && (only == NULL || strcmp(only, key) == 0);
}

void fault_arrive_late(const RefFault *fault, int thread)
{
    if (fault->delayed != thread)
        return;
    struct timespec late = {0, FAULT_LATE_MS * 1000L * 1000L};
    nanosleep(&late, NULL);
}

void fault_stall_spin(double *seconds, double start)
{
    while (*seconds > 0.0 && now_seconds() - start < *seconds)
        ;
    *seconds = 0.0;
}

void fault_disarm(void)
{
    if (armed == FAULT_REGION_DELAY && spins > 0)
        fprintf(stderr, "clomp-faults: region-delay in %s: %llu delays, %.4f us each on average (asked %g)\n",
                delay_schedule, spins, (double)spun_ticks / (double)spins / ticks_per_us, delay_us);
    armed = FAULT_NONE;
}

double fault_calc_deposit(Problem *pb, long subcycle)
{
    if (armed == FAULT_REGION_DELAY)
        region_delay();
    previous_deposit = current_deposit;
    current_deposit = calc_deposit(pb);
    if (armed == FAULT_EXTRA_CALC_DEPOSIT && subcycle == target_subcycle)
        current_deposit = calc_deposit(pb);
    return current_deposit;
}

/* update_part with one zone's deposit dropped (skip >= 0) or two adjacent
 * zones' steps taken in swapped order (swap >= 0). */
static void update_part_altered(Part *part, double incoming, long flopScale, long skip, long swap)
{
    Zone *zones[2];
    double ratio = part->deposit_ratio, remaining = incoming;
    long z = 0;
    part->update_count++;
    for (Zone *zone = part->firstZone; zone != NULL; zone = zone->nextZone, z++) {
        Zone *target = zone;
        if (z == swap && zone->nextZone != NULL) {
            zones[0] = zone->nextZone;
            zones[1] = zone;
            for (int k = 0; k < 2; k++)
                for (long step = 0; step < flopScale; step++) {
                    double d = remaining * ratio;
                    zones[k]->value += d;
                    remaining -= d;
                }
            zone = zone->nextZone;
            z++;
            continue;
        }
        for (long step = 0; step < flopScale; step++) {
            double d = remaining * ratio;
            if (z != skip)
                target->value += d;
            remaining -= d;
        }
    }
    part->residue = remaining;
}

void fault_update_part(Part *part, double deposit, long flopScale, long subcycle)
{
    if (armed == FAULT_NONE || subcycle != target_subcycle || part->partId != target_part) {
        update_part(part, deposit, flopScale);
        return;
    }
    switch (armed) {
    case FAULT_LOST_UPDATE:
        update_part_altered(part, deposit, flopScale, target_zone, -1);
        break;
    case FAULT_SKIPPED_PART:
        break;
    case FAULT_DOUBLE_UPDATE:
        update_part(part, deposit, flopScale);
        update_part(part, deposit, flopScale);
        break;
    case FAULT_STALE_DEPOSIT:
        if (previous_deposit == deposit)
            fprintf(stderr, "clomp-faults: stale-deposit had no effect (deposits were equal)\n");
        update_part(part, previous_deposit, flopScale);
        break;
    case FAULT_REORDERED_ZONES:
        update_part_altered(part, deposit, flopScale, -1, target_zone > 0 ? target_zone - 1 : 0);
        break;
    default:
        update_part(part, deposit, flopScale);
        break;
    }
}

long fault_device_part(long subcycle, long *zone)
{
    if (armed != FAULT_DEVICE_ZONE || subcycle != target_subcycle)
        return -1;
    *zone = target_zone;
    return target_part;
}

int fault_skip_barrier(long subcycle)
{
    return armed == FAULT_MISSING_BARRIER && subcycle == target_subcycle;
}

/* Makes the missing barrier's race manifest every time: part 0's thread is
 * still updating when another thread, no longer held back, runs the single
 * and reads part 0 for the next deposit. */
void fault_delay_thread(long subcycle)
{
    if (armed == FAULT_MISSING_BARRIER && subcycle == target_subcycle - 1 && omp_get_thread_num() == 0) {
        struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

#else

/* ISO C forbids an empty translation unit. */
typedef int clomp_fault_build_only;

#endif
