#ifndef CLOMP_SIMULATION_MEMO_H
#define CLOMP_SIMULATION_MEMO_H

#include <stdint.h>

/* A seeded simulation's result remembered by every input it depends on, so
 * that one process asked again (clomp-stats batch: a comparison's figures
 * share their looks, level and pairs, so their simulated levels and power
 * are the same) answers without simulating again: the same value, since
 * the simulation is deterministic. key_add appends a number, key_add_bits
 * a seed (by its bits); a key longer than SIMULATION_KEY_MAX is never
 * remembered. recall: 1 and *value when known. For one thread (clomp-stats). */
#define SIMULATION_KEY_MAX 28
typedef struct SimulationKey {
    int n;
    double v[SIMULATION_KEY_MAX];
} SimulationKey;
void key_add(SimulationKey *key, double v);
void key_add_bits(SimulationKey *key, uint64_t bits);
int recall(const SimulationKey *key, double *value);
void remember(const SimulationKey *key, double value);

/* The key of a plan's simulation: what it is (a tag), its looks, its level and sims or trials, its seed. */
SimulationKey plan_key(double what, const long *looks, int k, double level, long sims, uint64_t seed);

#endif
