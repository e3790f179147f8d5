#include "node_topology.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "thread_placement.h"

int read_root_file(const char *root, const char *path, char *buf, size_t size)
{
    char full[1024];
    if (snprintf(full, sizeof full, "%s%s", root, path) >= (int)sizeof full)
        return -1;
    int fd = open(full, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t used = 0;
    ssize_t n;
    while (used + 1 < size && (n = read(fd, buf + used, size - 1 - used)) > 0)
        used += (size_t)n;
    close(fd);
    buf[used] = '\0';
    return used > 0 ? 0 : -1;
}

static int read_int(const char *root, const char *path, int *value)
{
    char text[32], *end;
    if (read_root_file(root, path, text, sizeof text) != 0)
        return -1;
    long v = strtol(text, &end, 10);
    if (end == text || v < -1 || v > 1L << 30)
        return -1;
    *value = (int)v;
    return 0;
}

/* The lowest CPU of a sysfs CPU list file, or -1. */
static int first_of_list(const char *root, const char *path)
{
    static unsigned char marks[TOPOLOGY_MAX_CPUS];
    char text[4096];
    if (read_root_file(root, path, text, sizeof text) != 0 || parse_cpu_list(text, marks, TOPOLOGY_MAX_CPUS) <= 0)
        return -1;
    for (int c = 0; c < TOPOLOGY_MAX_CPUS; c++)
        if (marks[c])
            return c;
    return -1;
}

/* The L3 (unified or data) cache's sharing, among the CPU's cache indexes. */
static int l3_of(const char *root, int cpu)
{
    char path[160], type[32];
    for (int i = 0; i < 16; i++) {
        int level;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, i);
        if (read_int(root, path, &level) != 0)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu, i);
        if (level != 3 || (read_root_file(root, path, type, sizeof type) == 0 && strncmp(type, "Instruction", 11) == 0))
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, i);
        return first_of_list(root, path);
    }
    return -1;
}

/* Each node's cpulist marks its CPUs' node. */
static void read_nodes(const char *root, NodeTopology *t)
{
    char dir_path[1024];
    snprintf(dir_path, sizeof dir_path, "%s/sys/devices/system/node", root);
    DIR *dir = opendir(dir_path);
    if (dir == NULL)
        return;
    static unsigned char marks[TOPOLOGY_MAX_CPUS];
    for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir)) {
        char *end, path[512], text[4096];
        if (strncmp(e->d_name, "node", 4) != 0 || e->d_name[4] < '0' || e->d_name[4] > '9')
            continue;
        long node = strtol(e->d_name + 4, &end, 10);
        if (*end != '\0' || node >= 1 << 20)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/node/%s/cpulist", e->d_name);
        if (read_root_file(root, path, text, sizeof text) != 0 || parse_cpu_list(text, marks, TOPOLOGY_MAX_CPUS) < 0)
            continue;
        for (int c = 0; c < t->cpus; c++)
            if (marks[c])
                t->cpu[c].node = (int)node;
    }
    closedir(dir);
}

int read_node_topology(const char *root, NodeTopology *t)
{
    static unsigned char online[TOPOLOGY_MAX_CPUS];
    char text[4096], path[160];
    memset(t, 0, sizeof *t);
    if (read_root_file(root, "/sys/devices/system/cpu/online", text, sizeof text) != 0 ||
        parse_cpu_list(text, online, TOPOLOGY_MAX_CPUS) <= 0)
        return -1;
    for (int c = 0; c < TOPOLOGY_MAX_CPUS; c++) {
        TopologyCpu *p = &t->cpu[c];
        p->online = online[c];
        p->core = c;
        p->socket = p->node = p->l3 = -1;
        if (!p->online)
            continue;
        t->cpus = c + 1;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", c);
        int first = first_of_list(root, path);
        if (first < 0) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/core_cpus_list", c);
            first = first_of_list(root, path);
        }
        if (first >= 0)
            p->core = first;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
        if (read_int(root, path, &p->socket) != 0)
            p->socket = -1;
        p->l3 = l3_of(root, c);
    }
    read_nodes(root, t);
    return 0;
}

/* Distinct non-negative values of field `offset` among the marked CPUs. */
static int distinct(const NodeTopology *t, const unsigned char *cpus, size_t offset)
{
    static unsigned char seen[TOPOLOGY_MAX_CPUS];
    int n = 0, other = 0;
    memset(seen, 0, sizeof seen);
    for (int c = 0; c < t->cpus; c++) {
        if (!t->cpu[c].online || (cpus != NULL && !cpus[c]))
            continue;
        int v = *(const int *)((const char *)&t->cpu[c] + offset);
        if (v < 0)
            continue;
        if (v >= TOPOLOGY_MAX_CPUS)
            other = 1;   /* a socket or node number beyond the table: counted once, a rough floor */
        else if (!seen[v]) {
            seen[v] = 1;
            n++;
        }
    }
    return n + other;
}

void count_domains(const NodeTopology *t, const unsigned char *cpus, DomainCounts *d)
{
    static int per_core[TOPOLOGY_MAX_CPUS];
    memset(d, 0, sizeof *d);
    memset(per_core, 0, sizeof per_core);
    for (int c = 0; c < t->cpus; c++) {
        if (!t->cpu[c].online || (cpus != NULL && !cpus[c]))
            continue;
        d->hw_threads++;
        int k = ++per_core[t->cpu[c].core];
        d->cores += k == 1;
        if (k > d->threads_per_core)
            d->threads_per_core = k;
    }
    d->sockets = distinct(t, cpus, offsetof(TopologyCpu, socket));
    d->numa_nodes = distinct(t, cpus, offsetof(TopologyCpu, node));
    d->l3_domains = distinct(t, cpus, offsetof(TopologyCpu, l3));
}
