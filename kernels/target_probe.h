/* What the target probes (target_constructs.c, target_more_constructs.c)
 * share: EPCC's delay compiled for the device, the reference every target
 * row is measured against, and the first instance's note that its regions
 * ran on the device. Offload builds only. */
#ifndef CLOMP_TARGET_PROBE_H
#define CLOMP_TARGET_PROBE_H

#include "construct.h"

#pragma omp declare target
/* EPCC's delay on the device: dependent float additions, stored. */
static inline void device_delay(int length)
{
    float a = 0.0f;
    for (int i = 0; i < length; i++)
        a += (float)i;
    volatile float sink = a;
    (void)sink;
}
#pragma omp end declare target

/* The reference of every target row: innerreps delays in one target region. */
void target_device_delays(const ConstructWork *w);

/* What the first instance of a test saw on the device, into the log: a
 * region that ran on the host (on_host) is never logged, so the row fails
 * as measured outside its construct. */
void target_note_device_region(const ConstructWork *w, int on_host, int threads);

#endif
