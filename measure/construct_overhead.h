/* EPCC's overhead arithmetic on recorded times (J. M. Bull, EWOMP 1999):
 * what one construct instance costs beyond the work inside it. Pure
 * arithmetic, tested against hand-computed cases (tests/unit). */
#ifndef CLOMP_CONSTRUCT_OVERHEAD_H
#define CLOMP_CONSTRUCT_OVERHEAD_H

/* Per repetition r: (test_seconds[r] - reference_seconds[r]) / innerreps,
 * in microseconds, into overhead_us[r]. The reference is the same
 * innerreps instances' delays run by one thread, timed beside the test. */
void construct_overheads(const double *test_seconds, const double *reference_seconds, long reps, long innerreps,
                         double *overhead_us);

/* Level 2 over level 1 (the same inner team size): NAN unless both are
 * finite and above 0 (a ratio of a figure lost in the noise says nothing). */
double construct_ratio(double level2_us, double level1_us);

/* EPCC's innerreps calibration step: the next count to try after a test
 * of `innerreps` instances took `seconds`, aiming at `target_us`; 0 once
 * it is reached. Doubles, as EPCC's getinnerreps does. */
long construct_next_innerreps(long innerreps, double seconds, double target_us);

/* Rounded up to a multiple of `threads`: CRITICAL, LOCK and ATOMIC run
 * innerreps / threads instances per thread (EPCC's), so that every thread
 * runs the same number and the instances total exactly innerreps. */
long construct_round_innerreps(long innerreps, int threads);

#endif
