/* The core clock range the LLNL verdicts count core cycles over
 * (timing/cycles.c): the team's clock measured before the timed runs,
 * widened by the one measured after them, so that a clock that moved during
 * the runs (turbo ending, a governor stepping down) never narrows what the
 * verdicts allow. Plain values, worked by hand. */
#include <string.h>

#include "tap.h"
#include "timing/cycles.h"

static CycleRate tsc_rate(void)
{
    CycleRate r;
    memset(&r, 0, sizeof r);
    r.source = CYCLES_TSC;
    r.ghz = 2.3;
    return r;
}

static CoreClockSample sample(double min, double max)
{
    CoreClockSample s;
    memset(&s, 0, sizeof s);
    s.measured = 1;
    s.threads = 2;
    s.min_ghz = min;
    s.max_ghz = max;
    return s;
}

int main(void)
{
    CycleRate r = tsc_rate();
    r.clock_before = sample(2.9, 3.0);
    use_measured_core_clock(&r, 2.9, 3.0);
    r.clock_after = sample(2.1, 2.95);
    widen_core_clock_range(&r);
    ok(r.core_min_ghz == 2.1 && r.core_max_ghz == 3.0 && r.core_range_known == CORE_RANGE_MEASURED,
       "a clock that fell during the runs (2.9-3.0 GHz before, 2.1-2.95 after) widens the range to 2.1-3.0");

    r = tsc_rate();
    r.clock_before = sample(2.9, 3.0);
    use_measured_core_clock(&r, 2.9, 3.0);
    r.clock_after = sample(2.95, 3.4);
    widen_core_clock_range(&r);
    ok(r.core_min_ghz == 2.9 && r.core_max_ghz == 3.4, "one that rose widens it upwards: 2.9-3.4");

    r = tsc_rate();
    r.core_range_known = CORE_RANGE_CPUFREQ;
    r.core_min_ghz = 0.8;
    r.core_max_ghz = 3.5;
    r.clock_after = sample(2.6, 2.7);
    widen_core_clock_range(&r);
    ok(r.core_min_ghz == 2.6 && r.core_max_ghz == 2.7 && r.core_range_known == CORE_RANGE_MEASURED,
       "with no sample before the runs, the one after replaces cpufreq's limits");

    r = tsc_rate();
    r.clock_before = sample(2.9, 3.0);
    use_measured_core_clock(&r, 2.9, 3.0);
    widen_core_clock_range(&r);
    ok(r.core_min_ghz == 2.9 && r.core_max_ghz == 3.0, "no sample after the runs leaves the range as it was");

    r = tsc_rate();
    r.source = CYCLES_GIVEN;
    r.clock_after = sample(2.0, 2.2);
    widen_core_clock_range(&r);
    ok(r.core_range_known == CORE_RANGE_UNKNOWN && r.core_min_ghz == 0.0, "--ghz states the clock: nothing is widened");
    return done_testing();
}
