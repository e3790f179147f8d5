#define _GNU_SOURCE
#include "thread_placement.h"

#include <dirent.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_place.h"
#include "placement.h"

/* CPUs this report can describe: glibc's default cpu_set_t. */
#define MAX_CPUS CPU_SETSIZE

void cpu_topology(const char *root, int cpu, int *core, int *socket, int *node)
{
    char path[512];
    *core = *socket = *node = -1;
    if (cpu < 0)
        return;
    CpuPlace place;
    read_cpu_place(root, cpu, &place);
    *core = place.core;
    *socket = place.socket;
    /* The node is a "nodeN" link in the CPU's directory. */
    snprintf(path, sizeof path, "%s/cpu%d", root, cpu);
    DIR *dir = opendir(path);
    if (dir == NULL)
        return;
    for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir)) {
        char *end;
        if (strncmp(e->d_name, "node", 4) != 0 || e->d_name[4] < '0' || e->d_name[4] > '9')
            continue;
        long n = strtol(e->d_name + 4, &end, 10);
        if (*end == '\0' && n < 1 << 20) {
            *node = (int)n;
            break;
        }
    }
    closedir(dir);
}

int parse_cpu_list(const char *text, unsigned char *marks, int size)
{
    int count = 0;
    memset(marks, 0, (size_t)size);
    const char *at = text;
    while (*at != '\0' && *at != '\n') {
        char *end;
        long first = strtol(at, &end, 10), last;
        if (end == at || first < 0)
            return -1;
        last = first;
        at = end;
        if (*at == '-') {
            last = strtol(at + 1, &end, 10);
            if (end == at + 1 || last < first)
                return -1;
            at = end;
        }
        for (long c = first; c <= last && c < size; c++)
            if (!marks[c]) {
                marks[c] = 1;
                count++;
            }
        if (*at == ',')
            at++;
        else if (*at != '\0' && *at != '\n')
            return -1;
    }
    return count;
}

/* A core is its socket and its core_id (core ids repeat across sockets);
 * without sysfs every CPU counts as a core of its own. */
static long core_key(int cpu, int core, int socket)
{
    if (core < 0)
        return -1 - (long)cpu;
    return (long)(socket < 0 ? 0 : socket) * 1000000L + core;
}

static int count_distinct(const long *keys, int n)
{
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = keys[j] == keys[i];
        distinct += !seen;
    }
    return distinct;
}

/* Distinct cores among the CPUs of a mask. */
static int cores_in(const cpu_set_t *mask, const int *cpu_core, const int *cpu_socket)
{
    long keys[256];
    int n = 0, overflow = 0;
    for (int c = 0; c < MAX_CPUS; c++) {
        if (!CPU_ISSET(c, mask))
            continue;
        long key = core_key(c, cpu_core[c], cpu_socket[c]);
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
            seen = keys[j] == key;
        if (seen)
            continue;
        if (n < (int)(sizeof keys / sizeof keys[0]))
            keys[n++] = key;
        else
            overflow = 1;
    }
    return overflow ? n + 1 : n;
}

void summarize_team_placement(TeamPlacement *tp)
{
    tp->shared_core_threads = 0;
    tp->unbound_threads = 0;
    tp->first_shared[0] = tp->first_shared[1] = -1;
    for (int i = 0; i < tp->threads; i++) {
        const ThreadPlace *a = &tp->place[i];
        long key = core_key(a->cpu, a->core, a->socket);
        int shares = 0;
        for (int j = 0; j < tp->threads; j++) {
            const ThreadPlace *b = &tp->place[j];
            /* Unbound threads only meet on a core by chance: their own warning covers them. */
            if (j == i || a->cpu < 0 || b->cpu < 0 || a->allowed_cores > 1 || b->allowed_cores > 1 ||
                core_key(b->cpu, b->core, b->socket) != key)
                continue;
            shares = 1;
            if (tp->first_shared[0] < 0) {
                tp->first_shared[0] = i < j ? i : j;
                tp->first_shared[1] = i < j ? j : i;
            }
        }
        tp->shared_core_threads += shares;
        tp->unbound_threads += a->allowed_cores > 1;
    }
}

int observe_team_placement(int numThreads, TeamPlacement *tp)
{
    memset(tp, 0, sizeof *tp);
    tp->first_shared[0] = tp->first_shared[1] = -1;
    tp->place = calloc((size_t)numThreads, sizeof *tp->place);
    cpu_set_t *masks = calloc((size_t)numThreads, sizeof *masks);
    int *cpu_core = malloc(MAX_CPUS * sizeof *cpu_core), *cpu_socket = malloc(MAX_CPUS * sizeof *cpu_socket);
    unsigned char *online = malloc(MAX_CPUS);
    if (tp->place == NULL || masks == NULL || cpu_core == NULL || cpu_socket == NULL || online == NULL) {
        free(masks);
        free(cpu_core);
        free(cpu_socket);
        free(online);
        free_team_placement(tp);
        return -1;
    }
    int team = 0;
#pragma omp parallel num_threads(numThreads)
    {
        int t = omp_get_thread_num();
#pragma omp single
        team = omp_get_num_threads();
        tp->place[t].thread = t;
        tp->place[t].cpu = sched_getcpu();
        tp->place[t].place = omp_get_place_num();
        if (sched_getaffinity(0, sizeof masks[t], &masks[t]) != 0)
            CPU_ZERO(&masks[t]);
    }
    tp->threads = team;

    /* Topology after the region: plain file reads, no need to race them. */
    for (int c = 0; c < MAX_CPUS; c++)
        cpu_core[c] = cpu_socket[c] = -2;   /* not read yet */
    char list[4096] = "";
    FILE *f = fopen(SYSFS_CPU_ROOT "/online", "r");
    if (f == NULL || fgets(list, sizeof list, f) == NULL || parse_cpu_list(list, online, MAX_CPUS) <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        memset(online, 0, MAX_CPUS);
        for (long c = 0; c < n && c < MAX_CPUS; c++)
            online[c] = 1;
    }
    if (f != NULL)
        fclose(f);
    long *keys = malloc(MAX_CPUS * sizeof *keys);
    int node;
    for (int c = 0; c < MAX_CPUS; c++) {
        int wanted = online[c];
        for (int t = 0; t < team && !wanted; t++)
            wanted = CPU_ISSET(c, &masks[t]);
        if (wanted)
            cpu_topology(SYSFS_CPU_ROOT, c, &cpu_core[c], &cpu_socket[c], &node);
    }
    if (keys != NULL) {
        int n = 0;
        for (int c = 0; c < MAX_CPUS; c++)
            if (online[c])
                keys[n++] = core_key(c, cpu_core[c], cpu_socket[c]);
        tp->cpus_online = n;
        tp->cores_online = count_distinct(keys, n);
        free(keys);
    }
    for (int t = 0; t < team; t++) {
        ThreadPlace *p = &tp->place[t];
        cpu_topology(SYSFS_CPU_ROOT, p->cpu, &p->core, &p->socket, &p->node);
        p->allowed_cpus = CPU_COUNT(&masks[t]);
        p->allowed_cores = cores_in(&masks[t], cpu_core, cpu_socket);
    }
    summarize_team_placement(tp);
    tp->observed = 1;
    free(masks);
    free(cpu_core);
    free(cpu_socket);
    free(online);
    return 0;
}

void free_team_placement(TeamPlacement *tp)
{
    free(tp->place);
    tp->place = NULL;
    tp->threads = 0;
    tp->observed = 0;
}

void observe_static_owners(long numParts, int numThreads, int *thread, int *cpu, int *node)
{
#pragma omp parallel for schedule(static) num_threads(numThreads)
    for (long p = 0; p < numParts; p++) {
        thread[p] = omp_get_thread_num();
        cpu[p] = sched_getcpu();
    }
    /* After the region: libnuma's CPU-to-node tables are filled lazily and
     * not thread-safe (concurrent first calls leak a buffer). */
    for (long p = 0; p < numParts; p++)
        node[p] = node_of_cpu(cpu[p]);
}
