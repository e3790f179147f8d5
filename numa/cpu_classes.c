/* Pairs of CPUs by what lies between them (cpu_classes.h). */
#include "cpu_classes.h"

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
