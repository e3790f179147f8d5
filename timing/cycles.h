/* CPU cycles for LLNL's targets (barrier < 200 cycles, parallel for < 500
 * cycles): a rate calibrated against the monotonic clock, or given. */
#ifndef CLOMP_CYCLES_H
#define CLOMP_CYCLES_H

#include "cycle_rate.h"

/* given_ghz > 0 wins; otherwise calibrates the invariant TSC for ~20 ms. */
CycleRate calibrate_cycle_rate(double given_ghz, int threads);

#endif
