/* What the whole process cost: CPU seconds (user and system, all threads,
 * from getrusage) beside its wall time, so that a runtime that buys speed
 * by spinning every core shows the price. Taking it is timing/clock.h
 * (process_cost_now). */
#ifndef CLOMP_PROCESS_COST_H
#define CLOMP_PROCESS_COST_H

typedef struct ProcessCost {
    int measured;             /* 0: getrusage failed or never asked */
    double user_seconds;      /* CPU time in user mode, every thread of the process */
    double system_seconds;    /* CPU time in the kernel, every thread */
    double wall_seconds;      /* since process_cost_start() */
} ProcessCost;

#endif
