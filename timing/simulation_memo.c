/* The memo of seeded simulations (simulation_memo.h): a process that asks
 * the same deterministic simulation again gets the value it already made. */
#include "simulation_memo.h"

#include <string.h>

/* The last SIMULATIONS_REMEMBERED results, the oldest replaced first. */
#define SIMULATIONS_REMEMBERED 64
static struct {
    SimulationKey key;
    double value;
} remembered[SIMULATIONS_REMEMBERED];
static int remembered_count, remembered_next;

void key_add(SimulationKey *key, double v)
{
    if (key->n < SIMULATION_KEY_MAX)
        key->v[key->n] = v;
    key->n++;   /* past the room: too long to remember */
}

void key_add_bits(SimulationKey *key, uint64_t bits)
{
    double v;
    memcpy(&v, &bits, sizeof v);
    key_add(key, v);
}

static int same_key(const SimulationKey *a, const SimulationKey *b)
{
    return a->n == b->n && memcmp(a->v, b->v, (size_t)a->n * sizeof a->v[0]) == 0;
}

int recall(const SimulationKey *key, double *value)
{
    for (int i = 0; key->n <= SIMULATION_KEY_MAX && i < remembered_count; i++)
        if (same_key(&remembered[i].key, key)) {
            *value = remembered[i].value;
            return 1;
        }
    return 0;
}

void remember(const SimulationKey *key, double value)
{
    if (key->n > SIMULATION_KEY_MAX)
        return;
    remembered[remembered_next].key = *key;
    remembered[remembered_next].value = value;
    remembered_next = (remembered_next + 1) % SIMULATIONS_REMEMBERED;
    if (remembered_count < SIMULATIONS_REMEMBERED)
        remembered_count++;
}

SimulationKey plan_key(double what, const long *looks, int k, double level, long sims, uint64_t seed)
{
    SimulationKey key = {0, {0}};
    key_add(&key, what);
    key_add(&key, (double)k);
    for (int j = 0; j < k; j++)
        key_add(&key, (double)looks[j]);
    key_add(&key, level);
    key_add(&key, (double)sims);
    key_add_bits(&key, seed);
    return key;
}
