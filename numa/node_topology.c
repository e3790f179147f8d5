#include "node_topology.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_place.h"
#include "thread_placement.h"

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
    char text[4096], cpu_root[1024];
    memset(t, 0, sizeof *t);
    if (read_root_file(root, "/sys/devices/system/cpu/online", text, sizeof text) != 0 ||
        parse_cpu_list(text, online, TOPOLOGY_MAX_CPUS) <= 0 ||
        snprintf(cpu_root, sizeof cpu_root, "%s%s", root, SYSFS_CPU_ROOT) >= (int)sizeof cpu_root)
        return -1;
    for (int c = 0; c < TOPOLOGY_MAX_CPUS; c++) {
        TopologyCpu *p = &t->cpu[c];
        p->online = online[c];
        p->core = c;
        p->socket = p->node = p->l3 = -1;
        if (!p->online)
            continue;
        t->cpus = c + 1;
        CpuPlace place;
        read_cpu_place(cpu_root, c, &place);
        if (place.smt_group >= 0)
            p->core = place.smt_group;
        p->socket = place.socket;
        p->l3 = place.l3_group;
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
