#define _GNU_SOURCE
#include "placement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CLOMP_HAVE_LIBNUMA
#include <numa.h>
#endif


int parse_placement(const char *text, Placement *out)
{
    memset(out, 0, sizeof *out);
    if (strcmp(text, "first-touch") == 0) {
        out->kind = PLACEMENT_FIRST_TOUCH;
    } else if (strcmp(text, "interleave") == 0) {
        out->kind = PLACEMENT_INTERLEAVE;
    } else if (strcmp(text, "local") == 0) {
        out->kind = PLACEMENT_LOCAL;
    } else if (strncmp(text, "node:", 5) == 0) {
        const char *digits = text + 5;
        if (*digits == '\0' || strlen(digits) > 6 || (digits[0] == '0' && digits[1] != '\0'))
            return -1;
        for (const char *c = digits; *c != '\0'; c++)
            if (*c < '0' || *c > '9')
                return -1;
        out->kind = PLACEMENT_NODE;
        out->node = (int)strtol(digits, NULL, 10);   /* at most 6 digits, checked above */
    } else {
        return -1;
    }
    return 0;
}

const char *placement_text(const Placement *p, char *buf, size_t size)
{
    static const char *const names[] = {"first-touch", "interleave", "node", "local"};
    if (p->kind == PLACEMENT_NODE)
        snprintf(buf, size, "node:%d", p->node);
    else
        snprintf(buf, size, "%s", names[p->kind]);
    return buf;
}


#ifdef CLOMP_HAVE_LIBNUMA

int numa_support_built(void)
{
    return 1;
}

/* "0", "0-1", "0,2-3": the nodes this process may use. */
static void describe_nodes(char *buf, size_t size)
{
    size_t used = 0;
    int max = numa_max_node(), first = -1;
    buf[0] = '\0';
    for (int n = 0; n <= max + 1 && used + 16 < size; n++) {
        int present = n <= max && numa_bitmask_isbitset(numa_all_nodes_ptr, (unsigned)n);
        if (present && first < 0)
            first = n;
        if (!present && first >= 0) {
            used += (size_t)snprintf(buf + used, size - used, "%s%d", used ? "," : "", first);
            if (n - 1 > first)
                used += (size_t)snprintf(buf + used, size - used, "-%d", n - 1);
            first = -1;
        }
    }
}

int numa_placement_check(const Placement *p, char *why, size_t size)
{
    if (p->kind == PLACEMENT_FIRST_TOUCH)
        return 0;
    if (numa_available() < 0) {
        snprintf(why, size, "--numa: NUMA is not available on this system (numa_available() failed)");
        return -1;
    }
    if (p->kind == PLACEMENT_NODE &&
        (p->node > numa_max_node() || !numa_bitmask_isbitset(numa_all_nodes_ptr, (unsigned)p->node))) {
        char nodes[256];
        describe_nodes(nodes, sizeof nodes);
        snprintf(why, size, "--numa: node %d does not exist or is not allowed; nodes: %s", p->node, nodes);
        return -1;
    }
    return 0;
}

void *placement_alloc(const Placement *p, size_t bytes, int local_node)
{
    switch (p->kind) {
    case PLACEMENT_INTERLEAVE:
        return numa_alloc_interleaved(bytes);
    case PLACEMENT_NODE:
        return numa_alloc_onnode(bytes, p->node);
    case PLACEMENT_LOCAL:
        return numa_alloc_onnode(bytes, local_node);
    case PLACEMENT_FIRST_TOUCH:
    default:
        return malloc(bytes);
    }
}

void placement_free(const Placement *p, void *ptr, size_t bytes)
{
    if (ptr == NULL)
        return;
    if (p->kind == PLACEMENT_FIRST_TOUCH)
        free(ptr);
    else
        numa_free(ptr, bytes);
}

int node_of_cpu(int cpu)
{
    if (cpu < 0 || numa_available() < 0)
        return 0;
    int node = numa_node_of_cpu(cpu);
    return node < 0 ? 0 : node;
}

int numa_node_total(void)
{
    return numa_available() < 0 ? 1 : numa_num_configured_nodes();
}

int numa_node_max(void)
{
    return numa_available() < 0 ? 0 : numa_max_node();
}

#else /* built without libnuma */

int numa_support_built(void)
{
    return 0;
}

int numa_placement_check(const Placement *p, char *why, size_t size)
{
    if (p->kind == PLACEMENT_FIRST_TOUCH)
        return 0;
    snprintf(why, size, "--numa: this clomp was built without libnuma; install libnuma-dev and rebuild");
    return -1;
}

void *placement_alloc(const Placement *p, size_t bytes, int local_node)
{
    (void)p;
    (void)local_node;
    return malloc(bytes);
}

void placement_free(const Placement *p, void *ptr, size_t bytes)
{
    (void)p;
    (void)bytes;
    free(ptr);
}

int node_of_cpu(int cpu)
{
    (void)cpu;
    return 0;
}

int numa_node_total(void)
{
    return 1;
}

int numa_node_max(void)
{
    return 0;
}

#endif
