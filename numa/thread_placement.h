/* Observing where the threads of a team really run (sched_getcpu() inside a
 * region, topology from sysfs); the observation is numa/team_placement.h. */
#ifndef CLOMP_THREAD_PLACEMENT_H
#define CLOMP_THREAD_PLACEMENT_H

#include "team_placement.h"

/* Topology of one CPU from sysfs (/sys/devices/system/cpu/cpuN/...): its
 * core, socket and node; -1 where sysfs does not say. Read from `root`
 * (normally "/sys/devices/system/cpu") so tests can give a made-up tree. */
void cpu_topology(const char *root, int cpu, int *core, int *socket, int *node);

/* Parses a sysfs CPU list ("0-3,8,10-11") into marks[0..size-1]; returns
 * the number of CPUs marked, or -1 when the text is not a CPU list. */
int parse_cpu_list(const char *text, unsigned char *marks, int size);

/* Runs one parallel region of numThreads threads (the timed schedules'
 * team: same size, same runtime settings, same thread pool), records in it
 * each thread's CPU, place and affinity mask, then adds the topology and the
 * counts the warnings need. 0, or -1 when out of memory. */
int observe_team_placement(int numThreads, TeamPlacement *tp);

/* For each part, the thread that computes it under schedule(static) with
 * numThreads threads, and that thread's CPU and node (sched_getcpu() inside
 * the region). */
void observe_static_owners(long numParts, int numThreads, int *thread, int *cpu, int *node);

#endif
