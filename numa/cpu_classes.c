/* Pairs of CPUs by what lies between them (cpu_classes.h). */
#include "cpu_classes.h"

#include <stdio.h>

PairClass classify_cpu_pair(const CpuPlace *a, const CpuPlace *b)
{
    if (a->cpu >= 0 && a->cpu == b->cpu)
        return PAIR_SAME_CPU;
    /* thread_siblings_list names the core's threads; without it, a core is its socket and core_id. */
    if (a->smt_group >= 0 && b->smt_group >= 0) {
        if (a->smt_group == b->smt_group)
            return PAIR_SMT;
    } else if (a->core >= 0 && a->core == b->core && a->socket >= 0 && a->socket == b->socket) {
        return PAIR_SMT;
    }
    if (a->l3_group >= 0 && a->l3_group == b->l3_group)
        return PAIR_SAME_L3;
    if (a->socket >= 0 && b->socket >= 0)
        return a->socket == b->socket ? PAIR_SAME_SOCKET : PAIR_ACROSS_SOCKETS;
    return PAIR_UNKNOWN;
}

static const char *const keys[PAIR_CLASSES] = {"smt", "l3", "socket", "cross_socket", "unknown", "same_cpu"};
static const char *const names[PAIR_CLASSES] = {"SMT siblings", "same L3",  "same socket",
                                                "across sockets", "unknown", "same CPU"};

const char *pair_class_key(PairClass c)
{
    return c >= 0 && c < PAIR_CLASSES ? keys[c] : "unknown";
}

const char *pair_class_name(PairClass c)
{
    return c >= 0 && c < PAIR_CLASSES ? names[c] : "unknown";
}

int describe_team_cpus(const int *cpu, int n, char *buf, size_t size)
{
    size_t used = 0;
    int threads = 0, distinct = 0, low = -1, high = -1;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (cpu[i] < 0)
            continue;
        threads++;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = cpu[j] == cpu[i];
        distinct += !seen;
        low = low < 0 || cpu[i] < low ? cpu[i] : low;
        high = cpu[i] > high ? cpu[i] : high;
        if (n <= TEAM_CPUS_LISTED && used < size)
            used += (size_t)snprintf(buf + used, size - used, "%s%d", used > 0 ? "," : "", cpu[i]);
    }
    if (n > TEAM_CPUS_LISTED && distinct == 1)
        snprintf(buf, size, "%d threads on CPU %d", threads, low);
    else if (n > TEAM_CPUS_LISTED)
        snprintf(buf, size, "%d threads on %d distinct CPUs (%d..%d)", threads, distinct, low, high);
    return distinct == threads;
}
