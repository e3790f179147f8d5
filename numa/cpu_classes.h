/* What lies between two CPUs, from the topology sysfs describes (clomp
 * --limits: its pairs' round trips by class, docs/limits.md): the same
 * core (SMT siblings), the same last-level cache (L3: a CCX or chiplet on
 * AMD, usually the whole socket on Intel), the same socket, or not; and a
 * team's CPUs in words (the construct table's level-2 teams). Data and
 * arithmetic only; cpu_place.h reads a CPU's place from sysfs. */
#ifndef CLOMP_CPU_CLASSES_H
#define CLOMP_CPU_CLASSES_H

#include <stddef.h>

/* Closest first; the report's classes are these, in this order. */
typedef enum {
    PAIR_SMT,             /* two hardware threads of one core */
    PAIR_SAME_L3,         /* different cores sharing an L3 */
    PAIR_SAME_SOCKET,     /* one socket, different L3s (or L3 not described) */
    PAIR_ACROSS_SOCKETS,  /* different sockets */
    PAIR_UNKNOWN,         /* sysfs does not say enough for either CPU */
    PAIR_SAME_CPU,        /* both threads on one CPU: nothing crosses between cores (not measured) */
    PAIR_CLASSES
} PairClass;

/* One CPU's place: each group named by the lowest CPU in it; -1 where sysfs does not say. */
typedef struct CpuPlace {
    int cpu;
    int smt_group;    /* topology/thread_siblings_list */
    int core, socket; /* topology/core_id, topology/physical_package_id */
    int l3_group;     /* cache/indexN/shared_cpu_list of the index whose level is 3 */
} CpuPlace;

PairClass classify_cpu_pair(const CpuPlace *a, const CpuPlace *b);

/* "smt", "l3", "socket", "cross_socket", "unknown", "same_cpu": JSON and CSV keys. */
const char *pair_class_key(PairClass c);
/* "SMT siblings", "same L3", "same socket", "across sockets", "unknown", "same CPU". */
const char *pair_class_name(PairClass c);

/* Up to this many threads a team's CPUs are listed one by one ("0,1,1");
 * beyond, counted, so that a line stays one terminal line at any team size. */
#define TEAM_CPUS_LISTED 16
/* Room for TEAM_CPUS_LISTED CPU numbers of up to 10 digits and their commas:
 * a listed team never cut (a cut list could end in a wrong number). */
#define TEAM_CPUS_TEXT 192

/* One team's CPUs into buf: its n CPU numbers ("0,1,1"), or beyond
 * TEAM_CPUS_LISTED threads "32 threads on 2 distinct CPUs (0..1)" ("32
 * threads on CPU 0"); a negative entry (a thread that did not exist) is
 * left out. 1 when no two of its threads were on one CPU. */
int describe_team_cpus(const int *cpu, int n, char *buf, size_t size);

#endif
