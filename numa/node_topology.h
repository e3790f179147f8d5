/* The node's CPUs as sysfs describes them: for each online CPU its core,
 * socket, NUMA node and L3 domain, and the counts of those among any set of
 * CPUs (the job's, the node's). Read from a root directory: "" is the
 * running system; tests and emulated nodes give a stand-in tree holding
 * sys/devices/system/cpu and sys/devices/system/node as the kernel lays them
 * out. Each CPU's files are read as --limits reads them (cpu_place.h);
 * plain reads (root_file.h): it may run before the mesh is built. */
#ifndef CLOMP_NODE_TOPOLOGY_H
#define CLOMP_NODE_TOPOLOGY_H

#include <stddef.h>

#include "root_file.h"

/* CPUs it can describe: glibc's default cpu_set_t. */
#define TOPOLOGY_MAX_CPUS 1024

typedef struct TopologyCpu {
    int online;
    int core;     /* the lowest CPU of its core (thread siblings); the CPU itself when sysfs does not say */
    int socket;   /* physical_package_id; -1 unknown */
    int node;     /* NUMA node; -1 unknown */
    int l3;       /* the lowest CPU sharing its L3 cache; -1 unknown */
} TopologyCpu;

typedef struct NodeTopology {
    int cpus;                              /* entries of cpu[] in use: the highest online CPU + 1 */
    TopologyCpu cpu[TOPOLOGY_MAX_CPUS];
} NodeTopology;

/* What a set of CPUs holds. A count sysfs says nothing of is 0. */
typedef struct DomainCounts {
    int hw_threads;         /* CPUs */
    int cores;              /* distinct cores among them */
    int threads_per_core;   /* the most CPUs of one core among them: > 1 is SMT */
    int sockets, numa_nodes, l3_domains;
} DomainCounts;

/* Reads root's sys/devices/system/cpu (online list, each CPU's
 * topology/thread_siblings_list or core_cpus_list, physical_package_id,
 * the cache indexes) and sys/devices/system/node (each nodeN/cpulist). 0; -1 when
 * the online list cannot be read (then nothing is known). */
int read_node_topology(const char *root, NodeTopology *t);

/* The counts among the online CPUs marked in cpus[0..TOPOLOGY_MAX_CPUS-1]
 * (NULL: every online CPU). */
void count_domains(const NodeTopology *t, const unsigned char *cpus, DomainCounts *d);

#endif
