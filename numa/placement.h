/* Where the mesh's memory lives: first touch, or an explicit libnuma policy. */
#ifndef CLOMP_PLACEMENT_H
#define CLOMP_PLACEMENT_H

#include <stddef.h>

typedef enum {
    PLACEMENT_FIRST_TOUCH,   /* pages land where the thread that first writes them runs */
    PLACEMENT_INTERLEAVE,    /* pages round-robin over all allowed nodes */
    PLACEMENT_NODE,          /* everything on one node */
    PLACEMENT_LOCAL          /* each part bound to its computing thread's node */
} PlacementKind;

typedef struct Placement {
    PlacementKind kind;
    int node;   /* PLACEMENT_NODE only */
} Placement;

/* "first-touch", "interleave", "local" or "node:N"; 0 on success. Nodes are
 * checked against the machine by numa_placement_check(). */
int parse_placement(const char *text, Placement *out);
const char *placement_text(const Placement *p, char *buf, size_t size);

/* 1 when this binary was built with libnuma. */
int numa_support_built(void);

/* 0 when the placement can be used here; otherwise a one-line reason in
 * `why` ("built without libnuma ...", "node 3 does not exist; nodes: 0-1"). */
int numa_placement_check(const Placement *p, char *why, size_t size);

/* Allocation under a placement; `local_node` is used by PLACEMENT_LOCAL. */
void *placement_alloc(const Placement *p, size_t bytes, int local_node);
void placement_free(const Placement *p, void *ptr, size_t bytes);

/* NUMA node of a CPU (0 without libnuma or when unknown). */
int node_of_cpu(int cpu);
/* Number of configured nodes (1 without libnuma). */
int numa_node_total(void);
/* Highest node number (0 without libnuma). */
int numa_node_max(void);

#endif
