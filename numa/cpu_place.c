/* A CPU's place from sysfs (cpu_place.h). */
#include "cpu_place.h"

#include <stdio.h>
#include <stdlib.h>

#include "thread_placement.h"

/* The lowest CPU of the CPU list in file `path`, or -1. */
static int first_of_list(const char *path)
{
    char text[4096];
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    int ok = fgets(text, sizeof text, f) != NULL;
    fclose(f);
    if (!ok)
        return -1;
    enum { MAX_LIST_CPUS = 8192 };
    unsigned char *marks = malloc(MAX_LIST_CPUS);
    int first = -1;
    if (marks != NULL && parse_cpu_list(text, marks, MAX_LIST_CPUS) > 0)
        for (int c = 0; c < MAX_LIST_CPUS && first < 0; c++)
            if (marks[c])
                first = c;
    free(marks);
    return first;
}

/* The CPU's L3: the cache index whose level is 3 (index3 on x86, not everywhere). */
static int l3_group(const char *root, int cpu)
{
    for (int index = 0; index < 16; index++) {
        char path[512];
        snprintf(path, sizeof path, "%s/cpu%d/cache/index%d/level", root, cpu, index);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            continue;
        char text[16], *end;
        int read = fgets(text, sizeof text, f) != NULL;
        fclose(f);
        if (!read || strtol(text, &end, 10) != 3 || end == text)
            continue;
        snprintf(path, sizeof path, "%s/cpu%d/cache/index%d/shared_cpu_list", root, cpu, index);
        return first_of_list(path);
    }
    return -1;
}

void read_cpu_place(const char *root, int cpu, CpuPlace *p)
{
    int node;
    p->cpu = cpu;
    p->smt_group = p->l3_group = -1;
    cpu_topology(root, cpu, &p->core, &p->socket, &node);
    if (cpu < 0)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/cpu%d/topology/thread_siblings_list", root, cpu);
    p->smt_group = first_of_list(path);
    p->l3_group = l3_group(root, cpu);
}
