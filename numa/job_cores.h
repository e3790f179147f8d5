/* The cores this job may use, counted as the job sees them (docs/running.md,
 * "Cores"): the CPUs of the process's affinity mask and its cgroup's cpuset,
 * the physical cores among them (hardware threads of one core, SMT, count
 * once), capped by the cgroup's CPU quota (cpu.max) and by Slurm's
 * allocation on this node as Slurm counts it; or a --cores N override.
 * Also the domains among them (sockets, NUMA nodes, L3 domains) that Nested
 * OMP's default shape comes from, and the team sizes refused as absurd.
 * Read from the root CLOMP_TOPOLOGY_ROOT names (a stand-in tree for tests
 * and emulation: sys/..., proc/self/status and proc/self/cgroup), else the
 * running system. */
#ifndef CLOMP_JOB_CORES_H
#define CLOMP_JOB_CORES_H

#include <stddef.h>

#include "node_topology.h"

/* More threads than this per hardware thread is refused without --oversubscribe. */
#define ABSURD_THREADS_PER_HW_THREAD 64

typedef struct JobCores {
    int known;                 /* 0: no topology at all (no sysfs): counts from sysconf, domains 0 */
    char root[256];            /* the stand-in root read, "" for the running system */
    DomainCounts node;         /* every online CPU */
    DomainCounts job;          /* the CPUs of the affinity mask and the cgroup cpuset */
    double quota_cpus;         /* the cgroup's cpu.max (v1: cfs quota) in CPUs; 0: no quota */
    int slurm_cpus;            /* SLURM_CPUS_ON_NODE inside a Slurm job; 0: none */
    int slurm_cores;           /* those CPUs as cores (Slurm may count hardware threads or cores) */
    char slurm_unit[96];       /* how Slurm's CPUs were read: "hardware threads (...)" or "cores (...)" */
    int override;              /* --cores N; 0: none */
    int cores;                 /* the count: the job's cores, capped by the quota and Slurm, or the override */
    int hw_threads;            /* the hardware threads they run on (the job's, capped by the quota) */
    char counted_from[400];    /* one sentence: what decided the count */
    double load;               /* the 1-minute load average (proc/loadavg); -1 unknown */
    double busy_above;         /* the load above which the node is busy: 0.1 x cores + 0.5 */
} JobCores;

/* Counts the job's cores (override > 0: that count, the rest still read).
 * Never fails: what cannot be read is left out and said. */
void count_job_cores(int override, JobCores *jc);

/* 1 when the load average says the node is busy (load above busy_above:
 * the suite's preflight rule); the calibration of the suite's estimate is
 * not run then. */
int node_busy(const JobCores *jc);

/* Nested OMP's default shape for `threads` threads from the job's domains:
 * one outer thread per NUMA node, else per socket, else per L3 domain, the
 * first whose count divides the team into inner teams of at least 2; else
 * two halves. Sets outer, inner and a sentence saying which. The same in
 * every process on the node. */
void default_nested_shape(const JobCores *jc, long threads, int *outer, int *inner, char *why, size_t why_size);

/* A team against the job's cores: 0 when it fits them; 1 SMT (more
 * threads than cores, each on a hardware thread of its own); 2
 * oversubscribed (threads time-share hardware threads). buf: a sentence
 * saying which ("" for 0). */
int team_sharing(const JobCores *jc, long threads, char *buf, size_t size);

#endif
