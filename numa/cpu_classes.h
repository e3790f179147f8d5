/* What lies between two CPUs, from the topology sysfs describes (clomp
 * --limits: its pairs' round trips by class, docs/limits.md): the same
 * core (SMT siblings), the same last-level cache (L3: a CCX or chiplet on
 * AMD, usually the whole socket on Intel), the same socket, or not. Data and
 * arithmetic only; cpu_place.h reads a CPU's place from sysfs. */
#ifndef CLOMP_CPU_CLASSES_H
#define CLOMP_CPU_CLASSES_H

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

#endif
