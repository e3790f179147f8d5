/* A CPU's place from sysfs (cpu_place.h): the one reader of a CPU's
 * topology files, for --limits' pairs and the node's topology
 * (node_topology.c) alike. */
#include "cpu_place.h"

#include <stdio.h>
#include <string.h>

#include "root_file.h"

/* The CPU's L3: the cache index whose level is 3 and that holds data (index3 on x86, not everywhere). */
static int l3_group(const char *root, int cpu)
{
    char path[160], type[32];
    for (int index = 0; index < 16; index++) {
        int level;
        snprintf(path, sizeof path, "/cpu%d/cache/index%d/level", cpu, index);
        if (read_root_int(root, path, &level) != 0)
            continue;
        snprintf(path, sizeof path, "/cpu%d/cache/index%d/type", cpu, index);
        if (level != 3 || (read_root_file(root, path, type, sizeof type) == 0 && strncmp(type, "Instruction", 11) == 0))
            continue;
        snprintf(path, sizeof path, "/cpu%d/cache/index%d/shared_cpu_list", cpu, index);
        return read_root_first_cpu(root, path);
    }
    return -1;
}

/* The file /cpuN/topology/NAME under root as an integer, or -1. */
static int topology_int(const char *root, int cpu, const char *name)
{
    char path[160];
    int value;
    snprintf(path, sizeof path, "/cpu%d/topology/%s", cpu, name);
    return read_root_int(root, path, &value) == 0 ? value : -1;
}

void read_cpu_place(const char *root, int cpu, CpuPlace *p)
{
    p->cpu = cpu;
    p->smt_group = p->l3_group = p->core = p->socket = -1;
    if (cpu < 0)
        return;
    p->core = topology_int(root, cpu, "core_id");
    p->socket = topology_int(root, cpu, "physical_package_id");
    char path[160];
    /* thread_siblings_list, renamed core_cpus_list in Linux 5.3 (both are there since). */
    snprintf(path, sizeof path, "/cpu%d/topology/thread_siblings_list", cpu);
    p->smt_group = read_root_first_cpu(root, path);
    if (p->smt_group < 0) {
        snprintf(path, sizeof path, "/cpu%d/topology/core_cpus_list", cpu);
        p->smt_group = read_root_first_cpu(root, path);
    }
    p->l3_group = l3_group(root, cpu);
}
