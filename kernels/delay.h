/* EPCC's delay: the work each thread does inside the Parallel For probe's
 * `parallel for` and inside every construct row's test, and serially as
 * their references. A chain of dependent
 * float additions whose result is always stored, so the compiler can fold
 * neither the loop nor the store, and whose length is calibrated at start
 * so that one call lasts a stated time, as EPCC's syncbench does. */
#ifndef CLOMP_DELAY_H
#define CLOMP_DELAY_H

/* The time one delay() is calibrated to: EPCC 3.1's default delay time for
 * syncbench (DEFAULT_DELAY_TIME, 0.10 us). Short beside a fork/join (about
 * 1 us), so the difference the probe measures is the construct's, and long
 * beside a clock read (20-50 ns over 1000 calls), so the calibration can
 * resolve it. */
#define CLOMP_DELAY_TARGET_US 0.10

#include "problem.h"

/* `length` dependent float additions (0 + 0 + 1 + ... + (length - 1),
 * chained to the previous call's result: delay.c); the sum is stored,
 * unconditionally, in a per-thread volatile (no cache line shared between
 * the threads of the probe's team) and returned. The Parallel For probe's. */
float clomp_delay(int length);

/* The same additions from 0 at every call, as EPCC's delay: consecutive
 * calls are independent chains, which an out-of-order core overlaps. The
 * construct table's (delay.c says why each). */
float epcc_delay(int length);

typedef float (*DelayFunction)(int length);

/* arraybench's delay: epcc_delay(length), then its result (times 0) added
 * into a[0]. Out of line, so that the caller must hand over a whole array
 * whose use it cannot see: a firstprivate or copied array's copy is made,
 * never dropped as dead (at -O3 an inlined store to a[0] alone let gcc
 * drop a 59049-double firstprivate copy). a[0] keeps its value. */
void clomp_array_delay(int length, double *a);

/* What the calling thread's last clomp_delay() or epcc_delay() stored. */
float clomp_delay_result(void);

/* The smallest length, grown as EPCC does (length x 1.1 + 1), at which
 * `delay` takes at least target_us per call, called back to back as the
 * references call it: each length timed over 1000 calls, best of 3
 * (an interruption lengthens a timing, so the best is the least disturbed
 * and the calibration does not stop early). A few milliseconds at 0.1 us. */
DelayCalibration calibrate_delay(DelayFunction delay, double target_us);

/* A length given rather than calibrated (EPCC's --delay-length), timed as
 * calibrate_delay times each length: so that two programs, or two runs,
 * can do the same additions per delay whatever each one's calibration
 * would have chosen (docs/constructs.md: a 10% step of the length is a
 * 10-25% step of the task rows' overheads). */
DelayCalibration time_given_delay(DelayFunction delay, int length);

#endif
