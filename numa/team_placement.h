/* Where the threads of the timed team ran, as observed (numa/thread_placement.h
 * observes it): thread -> CPU -> core -> NUMA node, and whether they are
 * bound, share cores or outnumber them. Data for the run record. */
#ifndef CLOMP_TEAM_PLACEMENT_H
#define CLOMP_TEAM_PLACEMENT_H

typedef struct ThreadPlace {
    int thread;
    int cpu;            /* sched_getcpu() inside the region; -1 unknown */
    int core;           /* core_id within its socket (sysfs); the CPU number when unknown */
    int socket;         /* physical_package_id (sysfs); -1 unknown */
    int node;           /* NUMA node of the CPU (sysfs); -1 unknown */
    int place;          /* omp_get_place_num(); -1: not bound to a place */
    int allowed_cpus;   /* CPUs in the thread's affinity mask */
    int allowed_cores;  /* distinct cores among them: > 1 means not bound to a core */
} ThreadPlace;

typedef struct TeamPlacement {
    int observed;           /* 0: not measured (out of memory) */
    int threads;            /* team size the runtime gave */
    ThreadPlace *place;     /* [threads], by thread number */
    int cores_online;       /* distinct (socket, core) pairs among the online CPUs */
    int cpus_online;
    int shared_core_threads;   /* threads whose core also runs another thread of the team */
    int unbound_threads;       /* threads allowed on more than one core */
    int first_shared[2];       /* an example pair of threads on one core, or -1 */
} TeamPlacement;

/* The counts over an already filled tp->place[] (split out to be testable). */
void summarize_team_placement(TeamPlacement *tp);

void free_team_placement(TeamPlacement *tp);

#endif
