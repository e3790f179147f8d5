/* How a timed run is split into chunks: whole iterations, as even as
 * possible, remainders to the first chunks, every iteration in exactly one
 * chunk; and how many chunks the default picks. Expected plans are worked
 * out by hand in the comments. */
#include <stdio.h>

#include "measure/chunk_plan.h"
#include "tap.h"

static int plan_is(long iterations, long trials, const long *want_iterations)
{
    long ends[64];
    plan_chunks(iterations, trials, 10, ends);
    for (long c = 0; c < trials; c++)
        if (ends[c] != want_iterations[c] * 10)
            return 0;
    return 1;
}

int main(void)
{
    /* 157 = 5 x 31 + 2: the first two chunks get 32, the rest 31. */
    static const long p157_5[] = {32, 64, 95, 126, 157};
    ok(plan_is(157, 5, p157_5), "157 iterations in 5 chunks end at iterations 32 64 95 126 157");
    /* 625 = 7 x 89 + 2 */
    static const long p625_7[] = {90, 180, 269, 358, 447, 536, 625};
    ok(plan_is(625, 7, p625_7), "625 iterations in 7 chunks: 90 90 89 89 89 89 89");
    static const long p20_20[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
    ok(plan_is(20, 20, p20_20), "as many chunks as iterations: one iteration each");
    static const long p1_1[] = {1};
    ok(plan_is(1, 1, p1_1), "one iteration, one chunk");
    /* 15625 = 20 x 781 + 5: five chunks of 782, then fifteen of 781 (3910 + 15 x 781 = 15625). */
    static const long p15625_20[] = {782, 1564, 2346, 3128, 3910, 4691, 5472, 6253, 7034, 7815, 8596, 9377, 10158,
                                     10939, 11720, 12501, 13282, 14063, 14844, 15625};
    ok(plan_is(15625, 20, p15625_20), "the target input's 15625 iterations in 20 chunks: 5 of 782, 15 of 781");

    long ends[64];
    plan_chunks(2000000000L, 20, 10, ends);
    ok(ends[19] == 20000000000L && ends[0] == 1000000000L, "2e9 iterations (the cap) split without overflow");

    /* default_trials: 20 unless chunks would be shorter than 200 us at numThreads. */
    ok(default_trials(15625, 10.76e-6 * 10, 2) == 20, "the target input at 2 threads gets the default 20 chunks");
    /* 157 iterations x 1e-4 s / 2 threads = 7.85 ms: 39 chunks of 200 us would fit, 20 are taken */
    ok(default_trials(157, 1e-4, 2) == 20, "7.85 ms of ideal parallel work still gets 20 chunks");
    /* 100 iterations x 2e-5 s / 4 threads = 0.5 ms: at most 2 chunks of 200 us (2.5 -> 2) */
    ok(default_trials(100, 2e-5, 4) == 2, "0.5 ms of ideal parallel work gets 2 chunks of at least 200 us");
    ok(default_trials(100, 1e-9, 4) == 1, "work too short for two chunks is timed whole (1 chunk)");
    ok(default_trials(7, 1.0, 1) == 7, "never more chunks than iterations (7)");
    ok(default_trials(1, 1.0, 64) == 1, "a single iteration is one chunk");
    return done_testing();
}
