/* EPCC's delay and its calibration (delay.h). */
#include "delay.h"

#include "../timing/clock.h"

/* Per thread: the probe's threads each store into their own (thread-local
 * storage is per thread, not on one shared line), so the store adds no
 * coherence traffic to the `parallel for` it is timed in. */
static _Thread_local volatile float delay_sink;

/* clomp_delay: each call starts from the previous call's result times zero
 * (a product the compiler must compute: the previous result could be a NaN
 * or an infinity as far as it knows), so back-to-back calls - the
 * calibration's, the serial reference's - form one dependent chain. Without
 * that an out-of-order core overlaps a call with the next one (on the
 * development VM 100 additions took 0.029 us per call back to back
 * unchained, 0.058 us chained: 0.57 ns per dependent addition, linear in the
 * length), while each thread's call inside the Parallel For probe's
 * parallel for runs alone: the calibration would state a shorter delay than
 * the probe runs, and the reference would subtract less than the parallel
 * for spends in it.
 *
 * epcc_delay: EPCC's own, unchained, for the construct table, whose rows
 * are EPCC's measurements and are read beside EPCC's figures. Where a row's
 * threads run delays back to back (the loops, the tasks, a thread holding a
 * lock or a critical section in turn) the calls overlap there as in the
 * calibration and the reference, in clomp as in EPCC; where one delay runs
 * alone between two synchronisations, both programs subtract the
 * overlapped time from the lone one's. With the chained delay a row whose
 * overhead is one thread's whole share of delays - clang's libomp runs
 * monotonic:static loops as if serialised - came out at the chained
 * delay's time per call against EPCC's overlapped one: clomp 1.03-1.12x
 * EPCC on all eleven STATIC_MONOTONIC rows in two runs, 0.98-1.04x after
 * (2026-11-26, docs/constructs.md "The delay"). */
/* Each delay starts a 64-byte line, so that its loop (about 20 bytes, 16
 * in) never straddles two: on the development VM's cores (Emerald Rapids) a
 * loop that did ran 10% slower per addition (0.115-0.119 us for 186
 * additions back to back against 0.102-0.109 at every other place,
 * 2026-11-26), and where the linker put it was chance. clang's construct
 * rows had it so (each delay 10% longer than EPCC's at the same length), as
 * had four of EPCC's seven gcc programs; bench/constructs.sh builds EPCC
 * aligned alike and prints where each delay loop lies (docs/constructs.md). */
#if defined(__GNUC__)
#define DELAY_PLACED __attribute__((aligned(64)))
#else
#define DELAY_PLACED
#endif

/* The loop is EPCC's delay as EPCC is built (-O1), whatever clomp's own
 * CFLAGS: one scalar int-to-float conversion and one dependent addition
 * per step, neither vectorised nor unrolled. At gcc -O3 it was vectorised
 * (four conversions in one cvtdq2ps, then four addss): the same latency
 * chain in far fewer instructions, which left the core room to run the
 * runtime's chunk hand-out in the chain's shadow. Schedbench's DYNAMIC n
 * then cost clomp about 2 us a loop at every chunk from 2 up, against
 * EPCC's 20 us at 2 halving with each doubling of the chunk (2026-11-26:
 * docs/constructs.md, "The delay"); clang -O3 unrolled it eight times.
 * tests/delay_code.t reads the built loop back. */
#if defined(__clang__)
#define DELAY_FUNCTION
#define DELAY_LOOP _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#elif defined(__GNUC__) && __GNUC__ >= 8 && !defined(__INTEL_COMPILER) && !defined(__NVCOMPILER)
/* gcc itself (icc and nvc also define __GNUC__; `GCC unroll` is gcc 8's) */
#define DELAY_FUNCTION __attribute__((optimize("no-tree-vectorize", "no-tree-slp-vectorize", "no-unroll-loops")))
#define DELAY_LOOP _Pragma("GCC unroll 1")
#else
#define DELAY_FUNCTION
#define DELAY_LOOP
#endif

DELAY_PLACED DELAY_FUNCTION float clomp_delay(int length)
{
    float a = delay_sink * 0.0f;
    DELAY_LOOP
    for (int i = 0; i < length; i++)
        a += (float)i;
    delay_sink = a;
    return a;
}

/* The same loop from 0 at every call, as EPCC's delay: back-to-back calls
 * overlap (delay.h). */
DELAY_PLACED DELAY_FUNCTION float epcc_delay(int length)
{
    float a = 0.0f;
    DELAY_LOOP
    for (int i = 0; i < length; i++)
        a += (float)i;
    delay_sink = a;
    return a;
}

void clomp_array_delay(int length, double *a)
{
    a[0] += 0.0 * (double)epcc_delay(length);
}

float clomp_delay_result(void)
{
    return delay_sink;
}

#define CALIBRATION_CALLS 1000
#define CALIBRATION_REPEATS 3
#define MAX_DELAY_LENGTH 100000000   /* a clock that does not advance must not loop forever */

/* Seconds per call of `delay(length)`, back to back: the best of the repeats. */
static double seconds_per_call(DelayFunction delay, int length)
{
    double per_call = -1.0;
    for (int r = 0; r < CALIBRATION_REPEATS; r++) {
        double start = now_seconds();
        for (int i = 0; i < CALIBRATION_CALLS; i++)
            delay(length);
        double t = (now_seconds() - start) / CALIBRATION_CALLS;
        if (per_call < 0.0 || t < per_call)
            per_call = t;
    }
    return per_call;
}

DelayCalibration calibrate_delay(DelayFunction delay, double target_us)
{
    DelayCalibration d = {target_us, 0, 0.0, 0};
    double per_call = 0.0;
    delay(0);
    while (per_call * 1e6 < target_us && d.length < MAX_DELAY_LENGTH) {
        d.length = (int)(d.length * 1.1) + 1;
        per_call = seconds_per_call(delay, d.length);
    }
    d.us = per_call * 1e6;
    return d;
}

DelayCalibration time_given_delay(DelayFunction delay, int length)
{
    DelayCalibration d = {0.0, length, 0.0, 1};
    delay(0);
    d.us = seconds_per_call(delay, length) * 1e6;
    return d;
}
