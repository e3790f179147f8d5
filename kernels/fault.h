/* Fault injection for the test build only (make clomp-faults, -DCLOMP_FAULTS):
 * proves that verification catches the threading faults real runtimes and
 * compilers produce. In the normal build every hook below is the plain
 * operation, and no fault code is compiled at all. */
#ifndef CLOMP_FAULT_H
#define CLOMP_FAULT_H

#include "deposit.h"
#include "ref_barrier.h"
#include "update_part.h"

#ifdef CLOMP_FAULTS

/* Arms CLOMP_FAULT=<name> (if set) for the timed run of the schedule named
 * by CLOMP_FAULT_SCHEDULE (default: every checked schedule). */
void fault_arm(const char *schedule, long subcycles, long numParts, long zonesPerPart);
void fault_disarm(void);
/* Names of the faults, for usage messages; NULL-terminated. */
extern const char *const fault_names[];

double fault_calc_deposit(Problem *pb, long subcycle);
void fault_update_part(Part *part, double deposit, long flopScale, long subcycle);
int fault_skip_barrier(long subcycle);
/* CLOMP_FAULT=device-zone (Offload OMP): the part whose zone *zone the
 * device alters in `subcycle`, or -1 (offload builds, kernels/offload_omp.c). */
long fault_device_part(long subcycle, long *zone);
void fault_delay_thread(long subcycle);

#define CALC_DEPOSIT(pb, s) fault_calc_deposit((pb), (s))
#define UPDATE_PART(part, deposit, flopScale, s) fault_update_part((part), (deposit), (flopScale), (s))
#define SKIP_BARRIER(s) fault_skip_barrier(s)
#define DELAY_THREAD(s) fault_delay_thread(s)
#define FAULT_ARM(schedule, subcycles, numParts, zonesPerPart) fault_arm((schedule), (subcycles), (numParts), (zonesPerPart))
#define FAULT_DISARM() fault_disarm()
/* CLOMP_FAULT=census-delay (CLOMP_FAULT_DELAY_US): every read of the noise
 * census at a chunk boundary of every timed run (measure/noise_sampler.c)
 * spins that long, so that a chunk accounting that bills the reads to a
 * chunk shows it by far more than any noise (tests/chunk_accounting.t). */
void fault_census_delay(void);
#define CENSUS_DELAY() fault_census_delay()
/* CLOMP_FAULT=construct-outside (CLOMP_FAULT_CONSTRUCT=key: only that
 * construct): the construct's test runs its delays outside the construct
 * (its reference in its place), as a broken benchmark would time them. */
int fault_construct_outside(const char *key);
#define CONSTRUCT_OUTSIDE(key) fault_construct_outside(key)
/* CLOMP_FAULT=construct-wrong (CLOMP_FAULT_CONSTRUCT=key: only that one):
 * the construct's body without what its construct promises (a taskwait
 * that does not wait, an ordered that does not order, a copyprivate that
 * does not copy...), as a broken runtime or compiler would run it; the
 * row's check (construct.h) must catch it. */
int fault_construct_wrong(const char *key);
#define CONSTRUCT_WRONG_BODY(key) fault_construct_wrong(key)
/* CLOMP_FAULT=construct-stall (CLOMP_FAULT_CONSTRUCT=key: only that one):
 * the first timed test of each row's level-1 innerreps calibration is
 * stalled past the target time, as a preemption or a sleeping team woken
 * would; the calibration must not stop at that count
 * (measure/construct_level.c). */
int fault_construct_stall(const char *key);
#define CONSTRUCT_STALL_FIRST(key) fault_construct_stall(key)
/* Spins inside a timing until *seconds have passed since start, once (*seconds set to 0). */
void fault_stall_spin(double *seconds, double start);
#define CONSTRUCT_STALL_SPIN(seconds, start) fault_stall_spin((seconds), (start))
/* CLOMP_FAULT=limits-skip-round (CLOMP_FAULT_LIMITS=key: only that
 * reference): in the first checked episode after every timed repetition, a
 * reference barrier's thread skips one round's wait (RefBarrierKind's
 * broken_round) and the thread it would have heard from arrives
 * FAULT_LATE_MS late; the reference fork/join's master does not wait for
 * one join. The check (kernels/ref_check.c) must catch it. */
#define FAULT_LATE_MS 100
int fault_limits_skip_round(const char *key);
#define LIMITS_SKIP_ROUND(key) fault_limits_skip_round(key)
#define REF_SKIPS(fault, thread, k) ((fault)->victim == (thread) && (fault)->round == (k))
void fault_arrive_late(const RefFault *fault, int thread);
#define REF_ARRIVE_LATE(fault, thread) fault_arrive_late((fault), (thread))

#else

#define CALC_DEPOSIT(pb, s) calc_deposit(pb)
#define UPDATE_PART(part, deposit, flopScale, s) update_part((part), (deposit), (flopScale))
#define SKIP_BARRIER(s) 0
#define DELAY_THREAD(s) ((void)0)
#define FAULT_ARM(schedule, subcycles, numParts, zonesPerPart) ((void)0)
#define FAULT_DISARM() ((void)0)
#define CENSUS_DELAY() ((void)0)
#define CONSTRUCT_OUTSIDE(key) 0
#define CONSTRUCT_WRONG_BODY(key) 0
#define CONSTRUCT_STALL_FIRST(key) 0
#define CONSTRUCT_STALL_SPIN(seconds, start) ((void)0)   /* nothing inside the timed interval */
#define LIMITS_SKIP_ROUND(key) 0
#define REF_SKIPS(fault, thread, k) 0
#define REF_ARRIVE_LATE(fault, thread) ((void)0)

#endif

#endif
