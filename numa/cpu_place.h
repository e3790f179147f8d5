/* A CPU's place in the topology as sysfs describes it (numa/cpu_classes.h:
 * what the place means for a pair), read from `root`: normally
 * /sys/devices/system/cpu; a stand-in tree of the same files in the tests
 * (and where CLOMP_TOPOLOGY_ROOT names one: docs/limits.md). */
#ifndef CLOMP_CPU_PLACE_H
#define CLOMP_CPU_PLACE_H

#include "cpu_classes.h"

#define SYSFS_CPU_ROOT "/sys/devices/system/cpu"

/* Fills `p` for `cpu` (< 0: nothing known); -1 in every field sysfs does not give. */
void read_cpu_place(const char *root, int cpu, CpuPlace *p);

#endif
